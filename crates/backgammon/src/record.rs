//! Match records against the rules: replaying a [`MatchFile`] move by move, writing a played
//! match as one, and the gnubg IDs of a match state.
//!
//! Sides: [`Side::White`] is the left column of a `.mat` file (gnubg's player 0), and
//! [`Side::Black`] the right one (gnubg's player 1). A `.mat` file does not say which rules
//! were in force (Crawford, Jacoby): the caller passes them in [`Options`].
//!
//! ```
//! use tablier_backgammon::game::{Action, Match, Options};
//! use tablier_backgammon::record;
//! use tablier_core::Game;
//!
//! let mut m = Match::new(Options::match_to(3));
//! let mut actions = vec![Action::OpeningRoll { white: 3, black: 1 }];
//! m.apply(&actions[0]).unwrap();
//! let play = m.parse_action("8/5 6/5").unwrap();
//! actions.push(play);
//! let file = record::to_mat(Options::match_to(3), ["alice", "bob"], &actions).unwrap();
//! assert!(file.to_string().contains("31: 8/5 6/5"));
//! let again = record::replay_mat(&file, Options::match_to(3)).unwrap();
//! assert_eq!(again.games[0].actions, actions);
//! ```

use tablier_core::{Actor, Game, IllegalAction, Side};

use crate::game::{Action, Match, Options, Phase, WinKind};
use crate::ids::{CubeOwner, GameState, MatchId, ResignationOffer};
use crate::mat::{MatAction, MatGame, MatHop, MatResult, MatTurn, MatchFile};
use crate::movegen::Roll;
use crate::notation;

fn side_of(player: usize) -> Side {
    if player == 0 {
        Side::White
    } else {
        Side::Black
    }
}

/// A game of a `.mat` file that does not replay under the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, entry {entry}: {reason}")]
pub struct ReplayError {
    /// The game's number in the file.
    pub game: u32,
    /// The 1-based entry of the game (0 for the game's header or result).
    pub entry: usize,
    /// What the rules refuse.
    pub reason: String,
}

/// One game replayed: the actions, from the opening roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayedGame {
    /// The game's number in the file.
    pub number: u32,
    /// Every action of the game in order (chance actions included).
    pub actions: Vec<Action>,
}

/// A whole file replayed.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The games of the match, in order, each with the actions that replay it.
    pub games: Vec<ReplayedGame>,
    /// The match (for a money session: the last game) as it stands at the end of the file.
    pub last: Match,
    /// Points each side won over the file (white = left, black = right), as counted by the
    /// rules (in a match, no more than needed to finish it).
    pub totals: [u32; 2],
}

/// Replays every game of a `.mat` file against the rules: each play must be legal for its
/// dice, each cube action allowed, each game's starting score and result as the file says.
/// A money session (`0 point match`) replays each game as a money game of its own.
///
/// # Errors
/// [`ReplayError`] at the first entry the rules refuse, with the game and entry number; or
/// (entry 0 of the first game) for a match longer than 32767 points, which no Match ID can
/// hold.
pub fn replay_mat(file: &MatchFile, options: Options) -> Result<Replayed, ReplayError> {
    if file.match_length > u32::from(MAX_ID_NUMBER) {
        return Err(ReplayError {
            game: file.games.first().map_or(0, |g| g.number),
            entry: 0,
            reason: format!(
                "a {}-point match is longer than gnubg's Match ID can hold ({MAX_ID_NUMBER} points)",
                file.match_length
            ),
        });
    }
    let options = Options {
        match_length: file.match_length,
        ..options
    };
    let mut m = Match::new(options);
    let mut games = Vec::new();
    let mut totals = [0u32; 2];
    for (i, game) in file.games.iter().enumerate() {
        let err = |entry: usize, reason: String| ReplayError {
            game: game.number,
            entry,
            reason,
        };
        if options.match_length == 0 {
            m = Match::new(options);
            if game.scores != totals {
                return Err(err(
                    0,
                    format!("the session score is {totals:?}, not {:?}", game.scores),
                ));
            }
        } else if game.scores != m.score() {
            return Err(err(
                0,
                format!("the score is {:?}, not {:?}", m.score(), game.scores),
            ));
        }
        if m.phase() != Phase::Opening {
            return Err(err(0, "the match is over".into()));
        }
        let finished_before = m.results().len();
        let mut actions = Vec::new();
        let mut act = |m: &mut Match, a: Action, entry: usize| -> Result<(), ReplayError> {
            m.apply(&a).map_err(|e| err(entry, e.reason))?;
            actions.push(a);
            Ok(())
        };
        for (k, turn) in game.turns.iter().enumerate() {
            let entry = k + 1;
            let side = side_of(turn.player);
            if m.results().len() > finished_before {
                return Err(err(entry, "the game is already over".into()));
            }
            match &turn.action {
                MatAction::Roll { dice, hops } => {
                    let roll = Roll::new(dice.0, dice.1)
                        .ok_or_else(|| err(entry, format!("{dice:?} are not dice")))?;
                    match m.phase() {
                        Phase::Opening => {
                            let (hi, lo) = roll.high_low();
                            if hi == lo {
                                return Err(err(
                                    entry,
                                    "an opening roll cannot be a double".into(),
                                ));
                            }
                            let (white, black) = if side == Side::White {
                                (hi, lo)
                            } else {
                                (lo, hi)
                            };
                            act(&mut m, Action::OpeningRoll { white, black }, entry)?;
                        }
                        Phase::BeforeRoll => {
                            check_turn(&m, side).map_err(|r| err(entry, r))?;
                            act(&mut m, Action::Roll, entry)?;
                            act(&mut m, Action::Dice(roll), entry)?;
                        }
                        Phase::Rolling => act(&mut m, Action::Dice(roll), entry)?,
                        _ => return Err(err(entry, "no roll is due here".into())),
                    }
                    check_turn(&m, side).map_err(|r| err(entry, r))?;
                    let pairs: Vec<(u8, u8)> = hops.iter().map(|h| (h.from, h.to)).collect();
                    let play = notation::play_from_hops(&m.position(), roll, &pairs)
                        .map_err(|e| err(entry, e.to_string()))?;
                    act(&mut m, Action::Play(play), entry)?;
                }
                MatAction::Double(n) => {
                    check_turn(&m, side).map_err(|r| err(entry, r))?;
                    if *n != m.cube().0 * 2 {
                        return Err(err(
                            entry,
                            format!(
                                "doubling a {} cube gives {}, not {n}",
                                m.cube().0,
                                m.cube().0 * 2
                            ),
                        ));
                    }
                    act(&mut m, Action::Double, entry)?;
                }
                MatAction::Take | MatAction::Drop | MatAction::Beaver(_) => {
                    if m.actor() != Actor::Player(side) {
                        return Err(err(entry, format!("{side} has no double to answer")));
                    }
                    let a = match turn.action {
                        MatAction::Take => Action::Take,
                        MatAction::Drop => Action::Drop,
                        _ => Action::Beaver,
                    };
                    act(&mut m, a, entry)?;
                }
            }
        }
        let is_last = i + 1 == file.games.len();
        match game.result {
            Some(MatResult { winner, points }) => {
                if m.results().len() == finished_before {
                    // Not played out: a resignation, by the side on turn, of what it lost.
                    let loser = side_of(winner).opposite();
                    let cube = m.cube().0;
                    let kind = match points.checked_div(cube) {
                        Some(1) => WinKind::Single,
                        Some(2) => WinKind::Gammon,
                        Some(3) => WinKind::Backgammon,
                        _ => {
                            return Err(err(
                                0,
                                format!(
                                    "{points} points is no resignation with the cube at {cube}"
                                ),
                            ))
                        }
                    };
                    if m.actor() != Actor::Player(loser)
                        || !matches!(m.phase(), Phase::BeforeRoll | Phase::Moving { .. })
                    {
                        return Err(err(0, format!("{loser} cannot resign at this point")));
                    }
                    act(&mut m, Action::Resign(kind), 0)?;
                    act(&mut m, Action::Accept, 0)?;
                }
                let r = *m.results().last().expect("a finished game");
                if r.winner != side_of(winner) || r.points != points {
                    return Err(err(
                        0,
                        format!(
                            "the rules give {} {} points, the file says {} wins {points}",
                            r.winner,
                            r.points,
                            side_of(winner)
                        ),
                    ));
                }
                totals[r.winner.index()] += r.credited;
            }
            None if is_last => {}
            None => return Err(err(0, "a game that is not the last has no result".into())),
        }
        games.push(ReplayedGame {
            number: game.number,
            actions,
        });
    }
    Ok(Replayed {
        games,
        last: m,
        totals,
    })
}

fn check_turn(m: &Match, side: Side) -> Result<(), String> {
    if m.turn() == side {
        Ok(())
    } else {
        Err(format!("it is {}'s turn, not {side}'s", m.turn()))
    }
}

/// Writes a match played from its start as a `.mat` file (gnubg's layout). `names` are
/// white's (left) and black's (right). Resignations leave no entry of their own: the game's
/// result line says what was won.
///
/// # Errors
/// [`IllegalAction`] if the actions do not replay from the start of a match with `options`.
pub fn to_mat(
    options: Options,
    names: [&str; 2],
    actions: &[Action],
) -> Result<MatchFile, IllegalAction> {
    let mut m = Match::new(options);
    let mut file = MatchFile {
        tags: Vec::new(),
        match_length: options.match_length,
        games: Vec::new(),
    };
    let new_game = |m: &Match, number: u32| MatGame {
        number,
        players: [names[0].to_owned(), names[1].to_owned()],
        scores: m.score(),
        turns: Vec::new(),
        result: None,
    };
    let mut game = new_game(&m, 1);
    let mut dice: Option<Roll> = None;
    for a in actions {
        let before = m.clone();
        let finished = m.results().len();
        m.apply(a)?;
        let player = |s: Side| s.index();
        match a {
            Action::OpeningRoll { .. } => {
                if let Phase::Moving { roll } = m.phase() {
                    dice = Some(roll);
                }
            }
            Action::Dice(r) => dice = Some(*r),
            Action::Play(p) => {
                let roll = dice.take().expect("a play follows its dice");
                let (hi, lo) = roll.high_low();
                game.turns.push(MatTurn {
                    player: player(before.turn()),
                    action: MatAction::Roll {
                        dice: (hi, lo),
                        hops: before
                            .legal_plays()
                            .into_iter()
                            .find(|q| q.result == p.result)
                            .expect("applied, so legal")
                            .hops()
                            .iter()
                            .map(|h| MatHop {
                                from: h.from,
                                to: h.to,
                                hit: h.hit,
                            })
                            .collect(),
                    },
                });
            }
            Action::Double => game.turns.push(MatTurn {
                player: player(before.turn()),
                action: MatAction::Double(before.cube().0 * 2),
            }),
            Action::Take | Action::Drop | Action::Beaver => game.turns.push(MatTurn {
                player: player(before.turn().opposite()),
                action: match a {
                    Action::Take => MatAction::Take,
                    Action::Drop => MatAction::Drop,
                    _ => MatAction::Beaver(before.cube().0 * 4),
                },
            }),
            Action::Roll | Action::Resign(_) | Action::Accept | Action::Reject => {}
        }
        if m.results().len() > finished {
            let r = *m.results().last().expect("just finished");
            game.result = Some(MatResult {
                winner: r.winner.index(),
                points: r.points,
            });
            let number = game.number + 1;
            file.games
                .push(std::mem::replace(&mut game, new_game(&m, number)));
        }
    }
    if !game.turns.is_empty() {
        file.games.push(game);
    }
    Ok(file)
}

/// gnubg's player number of a side: white is player 0, black player 1 (see the module docs).
fn gnubg_player(side: Side) -> u8 {
    side.index() as u8
}

/// The largest match length or score a Match ID holds (15 bits).
const MAX_ID_NUMBER: u16 = (1 << 15) - 1;

/// `n` as a Match ID number, at most `cap`.
fn id_number(n: u32, cap: u16) -> u16 {
    u16::try_from(n).map_or(cap, |n| n.min(cap))
}

/// The gnubg Match ID of a match state (with the position, that is the GNUbgID; the Position
/// ID is taken from the side on roll, or from the doubler while a double is pending, as gnubg
/// does).
///
/// The ID's numbers have 15 bits: a score above 32767 (a money game won with a huge cube:
/// a backgammon at 2^15 is worth 98304) is written as 32767, so that the ID can always be
/// written. (A match longer than 32767 points, which [`replay_mat`] refuses, is written as a
/// 32767-point match with the scores below it.)
#[must_use]
pub fn match_id(m: &Match) -> MatchId {
    let (cube, owner) = m.cube();
    let phase = m.phase();
    let last = m.results().last();
    let over = phase == Phase::Over;
    MatchId {
        cube,
        cube_owner: owner.map_or(CubeOwner::Centred, |s| CubeOwner::Player(gnubg_player(s))),
        on_roll: gnubg_player(id_view(m).1),
        crawford: m.is_crawford_game(),
        game_state: match (over, last) {
            (true, Some(r)) if r.dropped => GameState::Dropped,
            (true, Some(r)) if r.resigned => GameState::Resigned,
            (true, _) => GameState::Over,
            (false, _) if phase == Phase::Opening => GameState::NoGame,
            _ => GameState::Playing,
        },
        turn: gnubg_player(match phase {
            Phase::Doubled | Phase::Resigning { .. } => m.turn().opposite(),
            _ => id_view(m).1,
        }),
        double_offered: phase == Phase::Doubled,
        resignation: match (phase, last) {
            (Phase::Over, Some(r)) if r.resigned => match r.kind {
                WinKind::Single => ResignationOffer::Single,
                WinKind::Gammon => ResignationOffer::Gammon,
                WinKind::Backgammon => ResignationOffer::Backgammon,
            },
            (Phase::Resigning { offer, .. }, _) => match offer {
                WinKind::Single => ResignationOffer::Single,
                WinKind::Gammon => ResignationOffer::Gammon,
                WinKind::Backgammon => ResignationOffer::Backgammon,
            },
            _ => ResignationOffer::None,
        },
        dice: match phase {
            Phase::Moving { roll }
            | Phase::Resigning {
                roll: Some(roll), ..
            } => Some(roll.high_low()),
            _ => None,
        },
        match_length: id_number(m.options().match_length, MAX_ID_NUMBER),
        score: {
            // gnubg counts the last game's points in full once the match is over.
            let mut score = m.score();
            if let (true, Some(r)) = (over, last) {
                score[r.winner.index()] += r.points - r.credited;
            }
            let length = id_number(m.options().match_length, MAX_ID_NUMBER);
            let cap = if length > 0 && !over {
                length - 1
            } else {
                MAX_ID_NUMBER
            };
            score.map(|s| id_number(s, cap))
        },
        jacoby: m.options().match_length == 0 && m.options().jacoby,
    }
}

/// The position and side on roll as gnubg's IDs show them: once a game is borne off to the
/// end, gnubg passes the roll to the loser.
#[must_use]
pub fn id_view(m: &Match) -> (crate::Position, Side) {
    match (m.phase(), m.results().last()) {
        (Phase::Over, Some(r)) if !r.dropped && !r.resigned => {
            (m.position().flip(), m.turn().opposite())
        }
        _ => (m.position(), m.turn()),
    }
}

/// The GNUbgID (`PositionID:MatchID`) of a match state.
#[must_use]
pub fn gnubg_id(m: &Match) -> String {
    crate::ids::gnubg_id(&id_view(m).0, &match_id(m))
}

/// A match state from a GNUbgID's position and Match ID, with the other rules of `options`
/// (the Match ID carries the match length and, for money, the Jacoby rule). An ID without
/// dice reads as the moment before the player decides to roll or double.
///
/// # Errors
/// [`IllegalAction`] when the ID's state is not one the rules can reach.
pub fn from_match_id(
    position: crate::Position,
    id: &MatchId,
    options: Options,
) -> Result<Match, IllegalAction> {
    let options = Options {
        match_length: u32::from(id.match_length),
        jacoby: if id.match_length == 0 {
            id.jacoby
        } else {
            options.jacoby
        },
        ..options
    };
    let side = |p: u8| if p == 0 { Side::White } else { Side::Black };
    let on_roll = side(id.on_roll);
    let phase = match id.game_state {
        GameState::NoGame => Phase::Opening,
        GameState::Over | GameState::Resigned | GameState::Dropped => Phase::Over,
        GameState::Playing => match (id.double_offered, id.resignation, id.dice) {
            (true, _, _) => Phase::Doubled,
            (false, ResignationOffer::None, Some((a, b))) => Phase::Moving {
                roll: Roll::new(a, b).ok_or_else(|| IllegalAction::new("bad dice"))?,
            },
            (false, ResignationOffer::None, None) => Phase::BeforeRoll,
            (false, r, dice) => Phase::Resigning {
                offer: match r {
                    ResignationOffer::Single | ResignationOffer::None => WinKind::Single,
                    ResignationOffer::Gammon => WinKind::Gammon,
                    ResignationOffer::Backgammon => WinKind::Backgammon,
                },
                roll: dice.and_then(|(a, b)| Roll::new(a, b)),
            },
        },
    };
    let owner = match id.cube_owner {
        CubeOwner::Centred => None,
        CubeOwner::Player(p) => Some(side(p)),
    };
    Match::from_parts(
        options,
        [u32::from(id.score[0]), u32::from(id.score[1])],
        id.crawford,
        position,
        on_roll,
        id.cube,
        owner,
        phase,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_of_a_match_state_are_gnubgs_documented_examples() {
        // FORMATS.md §2: money, cube centred, player 1 (black here) has rolled 3-1.
        let mut m = Match::new(Options::money());
        m.apply(&Action::OpeningRoll { white: 1, black: 3 })
            .unwrap();
        assert_eq!(gnubg_id(&m), "4HPwATDgc/ABMA:cIkFAAAAAAAA");
        // The same position before the roll: `cAkAAAAAAAAA`.
        let before = Match::from_parts(
            Options::money(),
            [0, 0],
            false,
            m.position(),
            Side::Black,
            1,
            None,
            Phase::BeforeRoll,
        )
        .unwrap();
        assert_eq!(match_id(&before).encode(), "cAkAAAAAAAAA");
    }

    #[test]
    fn match_ids_read_back_to_the_same_state() {
        let mut m = Match::new(Options::match_to(7));
        let script = [
            Action::OpeningRoll { white: 6, black: 5 },
            Action::Play(m.position().legal_plays(Roll::new(6, 5).unwrap())[0]),
        ];
        for a in script {
            m.apply(&a).unwrap();
        }
        for a in [
            Action::Double,
            Action::Take,
            Action::Dice(Roll::new(2, 2).unwrap()),
        ] {
            let id = match_id(&m);
            let back = from_match_id(
                m.position(),
                &MatchId::decode(&id.encode()).unwrap(),
                Options::match_to(7),
            )
            .unwrap();
            // An ID has no dice both before the decision to roll and after it: both read back
            // as the moment before rolling.
            if m.phase() == Phase::Rolling {
                assert_eq!(back.phase(), Phase::BeforeRoll);
            } else {
                assert_eq!(back, m);
            }
            m.apply(&a).unwrap();
        }
    }
}
