//! A match (or a money game) as a state machine: the opening roll, turns, the doubling cube,
//! resignations, results, the match score and the Crawford rule.
//!
//! Rules (seed 004, "Game play", "End of the game", and its Portuguese/Spanish "Competição":
//! the doubling cube) and the usual tournament rules for what the seed leaves out (match play,
//! the Crawford rule, Jacoby, beavers), as GNU Backgammon applies them:
//!
//! * **Opening**: each side throws one die ([`Action::OpeningRoll`]); equal numbers are thrown
//!   again; the higher number moves first and plays the two numbers thrown.
//! * **A turn**: the player on turn may double (when allowed) or roll ([`Action::Roll`], then the
//!   dice as a chance action [`Action::Dice`]), then plays one of the legal plays of the roll
//!   ([`Action::Play`]; the empty play when no number can be played).
//! * **Cube**: a double is offered before rolling; the other side takes (and owns the cube at
//!   twice its value), drops (and loses the cube's value before the double) or, in money games
//!   with beavers, beavers (takes and at once redoubles, keeping the cube). Only the cube's
//!   owner may double, or either side while it is centred, so the doubler cannot redouble before
//!   the other side has. No doubling in the Crawford game, nor beyond the cube limit.
//! * **Results**: single game (the loser bore off a checker), gammon (none: 2×), backgammon
//!   (none, and a checker on the bar or in the winner's home board: 3×), times the cube. With
//!   the Jacoby rule (money), gammons and backgammons count single while the cube is centred
//!   at one. A resignation offers a single game, gammon or backgammon; accepted, it ends the
//!   game at that value.
//! * **Match**: to N points; a game's points count only as far as needed to finish the match;
//!   the game after a side first reaches N−1 is the Crawford game (no doubling), the games after
//!   it are post-Crawford.

use serde::{Deserialize, Serialize};
use tablier_core::{Actor, Dice, IllegalAction, Outcome, ParseActionError, Side};

use crate::movegen::{Play, Roll};
use crate::notation;
use crate::position::Position;

/// Options of a match or a money game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Points to win the match; 0 for a money game (one game).
    pub match_length: u32,
    /// Whether the doubling cube is used at all.
    pub cube: bool,
    /// Match play: the Crawford rule (no doubling in the game after a side first reaches N−1).
    pub crawford: bool,
    /// Money: gammons count only once the cube has been turned.
    pub jacoby: bool,
    /// Money: a side that is doubled may beaver (take and redouble at once, keeping the cube).
    pub beavers: bool,
    /// The highest value the cube may reach (0 for no limit other than 2^15).
    pub cube_limit: u32,
}

impl Options {
    /// A money game with the cube, Jacoby rule on, no beavers, no limit (gnubg's default).
    #[must_use]
    pub fn money() -> Options {
        Options {
            match_length: 0,
            cube: true,
            crawford: false,
            jacoby: true,
            beavers: false,
            cube_limit: 0,
        }
    }

    /// A match to `length` points with the Crawford rule.
    #[must_use]
    pub fn match_to(length: u32) -> Options {
        Options {
            match_length: length,
            cube: true,
            crawford: true,
            jacoby: false,
            beavers: false,
            cube_limit: 0,
        }
    }

    fn max_cube(&self) -> u32 {
        if self.cube_limit == 0 {
            1 << 15
        } else {
            self.cube_limit
        }
    }
}

/// How much a resignation offers, or how a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum WinKind {
    /// A single game: 1 × the cube.
    Single = 1,
    /// A gammon: 2 × the cube.
    Gammon = 2,
    /// A backgammon: 3 × the cube.
    Backgammon = 3,
}

impl WinKind {
    /// The word used in notation: `single`, `gammon`, `backgammon`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            WinKind::Single => "single",
            WinKind::Gammon => "gammon",
            WinKind::Backgammon => "backgammon",
        }
    }
}

/// One action of a backgammon match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Chance, at the start of each game: the die each side throws.
    OpeningRoll {
        /// White's die.
        white: u8,
        /// Black's die.
        black: u8,
    },
    /// The player on turn decides to roll (rather than double).
    Roll,
    /// Chance: the dice of the player on turn.
    Dice(Roll),
    /// The player on turn plays the roll (the empty play when no number can be played).
    /// Matched against the legal plays by its resulting position.
    Play(Play),
    /// The player on turn offers to double the stakes.
    Double,
    /// The doubled side takes: it owns the cube, at twice its value.
    Take,
    /// The doubled side drops: it loses the game at the cube's value before the double.
    Drop,
    /// The doubled side takes and at once redoubles, keeping the cube (money, with beavers).
    Beaver,
    /// The player on turn offers to lose this much.
    Resign(WinKind),
    /// The resignation is accepted: the game ends at its value.
    Accept,
    /// The resignation is refused: play goes on.
    Reject,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Chance: the opening throw of one die each.
    Opening,
    /// The player on turn may double or roll (or resign).
    BeforeRoll,
    /// Chance: the dice of the player on turn.
    Rolling,
    /// The player on turn must play this roll (or resign).
    Moving {
        /// The roll to play.
        roll: Roll,
    },
    /// The player on turn has doubled; the other side must answer.
    Doubled,
    /// The player on turn offers a resignation; the other side must answer.
    Resigning {
        /// What is offered.
        offer: WinKind,
        /// The roll to play if the offer is refused (none if it was made before rolling).
        roll: Option<Roll>,
    },
    /// The match (or the money game) is over.
    Over,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// Who won.
    pub winner: Side,
    /// Single, gammon or backgammon, as played out or resigned (before the Jacoby rule).
    pub kind: WinKind,
    /// True when the game ended by a dropped double.
    pub dropped: bool,
    /// True when the game ended by an accepted resignation.
    pub resigned: bool,
    /// The cube's value at the end.
    pub cube: u32,
    /// Points won: kind × cube, after the Jacoby rule.
    pub points: u32,
    /// Points that counted in the match score (no more than needed to finish it).
    pub credited: u32,
}

/// A backgammon match (or money game): every rule of play, cube and score.
///
/// ```
/// use tablier_backgammon::game::{Action, Match, Options, Phase};
/// use tablier_backgammon::Roll;
/// use tablier_core::{Game, Side};
///
/// let mut m = Match::new(Options::match_to(5));
/// m.apply(&Action::OpeningRoll { white: 3, black: 1 }).unwrap();
/// assert_eq!(m.turn(), Side::White);
/// assert_eq!(m.phase(), Phase::Moving { roll: Roll::new(3, 1).unwrap() });
/// let play = m.parse_action("8/5 6/5").unwrap();
/// m.apply(&play).unwrap();
/// assert_eq!(m.turn(), Side::Black);
/// // Black may double or roll; a take or a drop is not an answer to anything yet.
/// assert!(m.apply(&Action::Take).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Match {
    options: Options,
    score: [u32; 2],
    /// This game is the Crawford game.
    crawford_game: bool,
    /// A Crawford game has been played (or is being played): later games are post-Crawford.
    crawford_done: bool,
    results: Vec<GameResult>,
    /// The position from the side of `turn`.
    position: Position,
    turn: Side,
    cube: u32,
    cube_owner: Option<Side>,
    phase: Phase,
}

impl Match {
    /// A new match (or money game) before the opening roll.
    #[must_use]
    pub fn new(options: Options) -> Match {
        Match {
            options,
            score: [0, 0],
            crawford_game: false,
            crawford_done: false,
            results: Vec::new(),
            position: Position::start(),
            turn: Side::White,
            cube: 1,
            cube_owner: None,
            phase: Phase::Opening,
        }
    }

    /// A match resumed in the middle of a game: the position from `turn`'s side, the cube, the
    /// score and the phase. Used to read IDs and to set up positions.
    ///
    /// # Errors
    /// [`IllegalAction`] when the pieces do not fit together: a score at or past the match
    /// length, a cube that is not a power of two or is above the limit, an owned cube at 1, a
    /// Crawford game that the score does not allow, or a finished position in play.
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        options: Options,
        score: [u32; 2],
        crawford_game: bool,
        position: Position,
        turn: Side,
        cube: u32,
        cube_owner: Option<Side>,
        phase: Phase,
    ) -> Result<Match, IllegalAction> {
        let len = options.match_length;
        if len > 0 && score.iter().any(|&s| s >= len) {
            return Err(IllegalAction::new("a score reaches the match length"));
        }
        if !cube.is_power_of_two() || cube > options.max_cube() {
            return Err(IllegalAction::new(format!(
                "a cube of {cube} is not possible"
            )));
        }
        if cube == 1 && cube_owner.is_some() {
            return Err(IllegalAction::new(
                "an owned cube has been doubled at least once",
            ));
        }
        if crawford_game && !(len > 0 && score.contains(&(len - 1))) {
            return Err(IllegalAction::new(
                "the Crawford game is played when a side needs one point",
            ));
        }
        if position.is_over() && phase != Phase::Over {
            return Err(IllegalAction::new("a side has borne off all its checkers"));
        }
        let post_crawford = len > 0 && score.contains(&(len - 1)) && !crawford_game;
        Ok(Match {
            options,
            score,
            crawford_game,
            crawford_done: crawford_game || post_crawford,
            results: Vec::new(),
            position,
            turn,
            cube,
            cube_owner,
            phase,
        })
    }

    /// The rules this match is played under (length, cube, Crawford, Jacoby, beavers).
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Match points of white and black (indexed by [`Side::index`]).
    #[must_use]
    pub fn score(&self) -> [u32; 2] {
        self.score
    }

    /// The side on turn (whose checkers [`Match::position`] shows as the mover's).
    #[must_use]
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// The position from the side on turn.
    #[must_use]
    pub fn position(&self) -> Position {
        self.position
    }

    /// The cube's value and its owner (`None`: centred).
    #[must_use]
    pub fn cube(&self) -> (u32, Option<Side>) {
        (self.cube, self.cube_owner)
    }

    /// Where the game stands.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// True when this game is the Crawford game.
    #[must_use]
    pub fn is_crawford_game(&self) -> bool {
        self.crawford_game
    }

    /// The results of the games finished so far.
    #[must_use]
    pub fn results(&self) -> &[GameResult] {
        &self.results
    }

    /// Whether the side on turn may double now (before rolling).
    #[must_use]
    pub fn may_double(&self) -> bool {
        let o = &self.options;
        self.phase == Phase::BeforeRoll
            && o.cube
            && !self.crawford_game
            && self.cube_owner.is_none_or(|s| s == self.turn)
            && self.cube * 2 <= o.max_cube()
    }

    fn may_beaver(&self) -> bool {
        let o = &self.options;
        o.match_length == 0 && o.beavers && self.cube * 4 <= o.max_cube()
    }

    /// Draws the chance action the state waits for from `dice` (`None` when a player acts).
    pub fn roll_chance(&self, dice: &mut impl Dice) -> Option<Action> {
        match self.phase {
            Phase::Opening => Some(Action::OpeningRoll {
                white: dice.roll(),
                black: dice.roll(),
            }),
            Phase::Rolling => {
                let (a, b) = dice.roll_pair();
                Some(Action::Dice(Roll::new(a, b).expect("dice give 1 to 6")))
            }
            _ => None,
        }
    }

    /// Legal plays of the roll being played (empty outside [`Phase::Moving`]).
    #[must_use]
    pub fn legal_plays(&self) -> Vec<Play> {
        match self.phase {
            Phase::Moving { roll } => self.position.legal_plays(roll),
            _ => Vec::new(),
        }
    }

    fn resign_offers() -> impl Iterator<Item = Action> {
        [WinKind::Single, WinKind::Gammon, WinKind::Backgammon]
            .into_iter()
            .map(Action::Resign)
    }

    /// What the loser of the position as it stands would lose by playing on to the end: used to
    /// judge how a game was won.
    fn kind_of_loss(winner_view: &Position) -> WinKind {
        // `winner_view` is seen from the winner: the loser is the opponent.
        if winner_view.opponent_off() > 0 {
            return WinKind::Single;
        }
        // The loser's checkers on the bar, or in the winner's home board (the winner's points
        // 1 to 6 are the loser's 19 to 24).
        let in_home_or_bar = (19..=25).any(|q| winner_view.opponent_checkers(q) > 0);
        if in_home_or_bar {
            WinKind::Backgammon
        } else {
            WinKind::Gammon
        }
    }

    fn finish_game(&mut self, winner: Side, kind: WinKind, dropped: bool, resigned: bool) {
        let jacoby = self.options.match_length == 0 && self.options.jacoby && self.cube == 1;
        let points = if jacoby {
            self.cube
        } else {
            self.cube * kind as u32
        };
        let len = self.options.match_length;
        let credited = if len > 0 {
            points.min(len - self.score[winner.index()])
        } else {
            points
        };
        self.results.push(GameResult {
            winner,
            kind,
            dropped,
            resigned,
            cube: self.cube,
            points,
            credited,
        });
        self.score[winner.index()] += credited;
        if len == 0 || self.score[winner.index()] >= len {
            self.phase = Phase::Over;
            return;
        }
        // The next game.
        let was_crawford = self.crawford_game;
        self.crawford_game = self.options.crawford
            && !self.crawford_done
            && !was_crawford
            && self.score[winner.index()] == len - 1;
        if self.crawford_game {
            self.crawford_done = true;
        }
        self.position = Position::start();
        self.cube = 1;
        self.cube_owner = None;
        self.phase = Phase::Opening;
    }

    fn illegal(&self, action: &Action) -> IllegalAction {
        let why = match (self.phase, action) {
            (Phase::Over, _) => "the match is over".to_owned(),
            (Phase::Opening | Phase::Rolling, _) => "the dice are to be thrown".to_owned(),
            (_, Action::Double) if self.phase == Phase::BeforeRoll => {
                if !self.options.cube {
                    "this game is played without the cube".to_owned()
                } else if self.crawford_game {
                    "no doubling in the Crawford game".to_owned()
                } else if self.cube_owner.is_some_and(|s| s != self.turn) {
                    "only the owner of the cube may double".to_owned()
                } else {
                    "the cube cannot go higher".to_owned()
                }
            }
            (_, Action::Beaver) if self.phase == Phase::Doubled => {
                "beavers are not allowed here".to_owned()
            }
            (_, Action::Play(_)) if matches!(self.phase, Phase::Moving { .. }) => {
                let roll = match self.phase {
                    Phase::Moving { roll } => roll,
                    _ => unreachable!(),
                };
                format!("not a legal play of {roll}")
            }
            (Phase::BeforeRoll, _) => format!("{} must roll or double", self.turn),
            (Phase::Moving { .. }, _) => format!("{} must play the roll", self.turn),
            (Phase::Doubled, _) => format!("{} must take or drop", self.turn.opposite()),
            (Phase::Resigning { .. }, _) => {
                format!(
                    "{} must accept or reject the resignation",
                    self.turn.opposite()
                )
            }
        };
        IllegalAction::new(why)
    }
}

impl tablier_core::Game for Match {
    type Action = Action;
    type View = MatchView;

    fn actor(&self) -> Actor {
        match self.phase {
            Phase::Opening | Phase::Rolling => Actor::Chance,
            Phase::BeforeRoll | Phase::Moving { .. } => Actor::Player(self.turn),
            Phase::Doubled | Phase::Resigning { .. } => Actor::Player(self.turn.opposite()),
            Phase::Over => Actor::Nobody,
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::Opening => (1..=6)
                .flat_map(|w| (1..=6).map(move |b| Action::OpeningRoll { white: w, black: b }))
                .collect(),
            Phase::Rolling => (1..=6)
                .flat_map(|a| (1..=6).map(move |b| Action::Dice(Roll::new(a, b).unwrap())))
                .collect(),
            Phase::BeforeRoll => {
                let mut v = vec![Action::Roll];
                if self.may_double() {
                    v.push(Action::Double);
                }
                v.extend(Self::resign_offers());
                v
            }
            Phase::Moving { roll } => {
                let mut v: Vec<Action> = self
                    .position
                    .legal_plays(roll)
                    .into_iter()
                    .map(Action::Play)
                    .collect();
                v.extend(Self::resign_offers());
                v
            }
            Phase::Doubled => {
                let mut v = vec![Action::Take, Action::Drop];
                if self.may_beaver() {
                    v.push(Action::Beaver);
                }
                v
            }
            Phase::Resigning { .. } => vec![Action::Accept, Action::Reject],
            Phase::Over => Vec::new(),
        }
    }

    fn apply(&mut self, action: &Action) -> Result<(), IllegalAction> {
        match (self.phase, action) {
            (Phase::Opening, &Action::OpeningRoll { white, black }) => {
                if !(1..=6).contains(&white) || !(1..=6).contains(&black) {
                    return Err(IllegalAction::new("a die shows 1 to 6"));
                }
                // Equal numbers: both throw again.
                if white != black {
                    self.turn = if white > black {
                        Side::White
                    } else {
                        Side::Black
                    };
                    self.phase = Phase::Moving {
                        roll: Roll::new(white, black).expect("checked"),
                    };
                }
                Ok(())
            }
            (Phase::Rolling, &Action::Dice(roll)) => {
                self.phase = Phase::Moving { roll };
                Ok(())
            }
            (Phase::BeforeRoll, Action::Roll) => {
                self.phase = Phase::Rolling;
                Ok(())
            }
            (Phase::BeforeRoll, Action::Double) if self.may_double() => {
                self.phase = Phase::Doubled;
                Ok(())
            }
            (Phase::Moving { roll }, Action::Play(play)) => {
                let legal = self.position.legal_plays(roll);
                let Some(found) = legal.iter().find(|p| p.result == play.result) else {
                    return Err(self.illegal(action));
                };
                let after = found.result;
                if after.mover_off() == crate::CHECKERS {
                    let kind = Self::kind_of_loss(&after);
                    // The final position stays, from the winner's side, if the match is over.
                    self.position = after;
                    self.finish_game(self.turn, kind, false, false);
                    return Ok(());
                }
                self.position = after.flip();
                self.turn = self.turn.opposite();
                self.phase = Phase::BeforeRoll;
                Ok(())
            }
            (Phase::Doubled, Action::Take) => {
                self.cube *= 2;
                self.cube_owner = Some(self.turn.opposite());
                self.phase = Phase::Rolling;
                Ok(())
            }
            (Phase::Doubled, Action::Beaver) if self.may_beaver() => {
                self.cube *= 4;
                self.cube_owner = Some(self.turn.opposite());
                self.phase = Phase::Rolling;
                Ok(())
            }
            (Phase::Doubled, Action::Drop) => {
                self.finish_game(self.turn, WinKind::Single, true, false);
                Ok(())
            }
            (Phase::BeforeRoll, &Action::Resign(offer)) => {
                self.phase = Phase::Resigning { offer, roll: None };
                Ok(())
            }
            (Phase::Moving { roll }, &Action::Resign(offer)) => {
                self.phase = Phase::Resigning {
                    offer,
                    roll: Some(roll),
                };
                Ok(())
            }
            (Phase::Resigning { offer, .. }, Action::Accept) => {
                self.finish_game(self.turn.opposite(), offer, false, true);
                Ok(())
            }
            (Phase::Resigning { roll, .. }, Action::Reject) => {
                self.phase = match roll {
                    Some(roll) => Phase::Moving { roll },
                    None => Phase::BeforeRoll,
                };
                Ok(())
            }
            _ => Err(self.illegal(action)),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let last = self.results.last()?;
        Some(Outcome::Win {
            winner: last.winner,
            points: if self.options.match_length > 0 {
                self.score[last.winner.index()]
            } else {
                last.points
            },
        })
    }

    fn format_action(&self, action: &Action) -> String {
        match action {
            Action::OpeningRoll { white, black } => format!("opening {white}-{black}"),
            Action::Roll => "roll".to_owned(),
            Action::Dice(r) => r.to_string(),
            Action::Play(p) => {
                let text = notation::format_play(p);
                if text.is_empty() {
                    "-".to_owned()
                } else {
                    text
                }
            }
            Action::Double => "double".to_owned(),
            Action::Take => "take".to_owned(),
            Action::Drop => "drop".to_owned(),
            Action::Beaver => "beaver".to_owned(),
            Action::Resign(k) => format!("resign {}", k.word()),
            Action::Accept => "accept".to_owned(),
            Action::Reject => "reject".to_owned(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, ParseActionError> {
        let err = |reason: &str| ParseActionError::syntax(text, reason);
        let t = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = t.split_whitespace().collect();
        let dice = |s: &str| -> Option<(u8, u8)> {
            let d: Vec<u8> = s
                .chars()
                .filter(|c| *c != '-')
                .map(|c| c.to_digit(10).map(|d| d as u8))
                .collect::<Option<_>>()?;
            match d[..] {
                [a, b] if (1..=6).contains(&a) && (1..=6).contains(&b) => Some((a, b)),
                _ => None,
            }
        };
        let action = match words.as_slice() {
            ["roll"] => Action::Roll,
            ["double"] => Action::Double,
            ["take" | "takes"] => Action::Take,
            ["drop" | "pass" | "drops"] => Action::Drop,
            ["beaver" | "beavers"] => Action::Beaver,
            ["accept"] if self.phase == Phase::Doubled => Action::Take,
            ["accept"] => Action::Accept,
            ["reject"] => Action::Reject,
            ["resign"] => Action::Resign(WinKind::Single),
            ["resign", k] => Action::Resign(match *k {
                "single" | "s" | "n" | "normal" => WinKind::Single,
                "gammon" | "g" => WinKind::Gammon,
                "backgammon" | "b" => WinKind::Backgammon,
                _ => return Err(err("resign single, gammon or backgammon")),
            }),
            ["opening", d] => {
                let (white, black) = dice(d).ok_or_else(|| err("write the dice like 3-1"))?;
                Action::OpeningRoll { white, black }
            }
            [d] if matches!(self.phase, Phase::Rolling) && dice(d).is_some() => {
                let (a, b) = dice(d).unwrap();
                Action::Dice(Roll::new(a, b).unwrap())
            }
            _ => match self.phase {
                Phase::Moving { roll } => {
                    let text = if t == "-" { "" } else { text };
                    let play = notation::parse_play(&self.position, roll, text).map_err(|e| {
                        if e.malformed {
                            ParseActionError::syntax(text, e.reason)
                        } else {
                            ParseActionError::not_legal(text, e.reason)
                        }
                    })?;
                    Action::Play(play)
                }
                _ => {
                    return Err(ParseActionError::not_legal(
                        text,
                        "not an action of backgammon now",
                    ))
                }
            },
        };
        if self.legal_actions().contains(&action)
            || matches!(action, Action::Play(_))
            || matches!(
                (self.phase, action),
                (Phase::Opening, Action::OpeningRoll { .. }) | (Phase::Rolling, Action::Dice(_))
            )
        {
            Ok(action)
        } else {
            Err(err(&self.illegal(&action).reason))
        }
    }

    fn chance_action(&self, mut dice: &mut dyn Dice) -> Option<Action> {
        self.roll_chance(&mut dice)
    }

    fn view(&self) -> MatchView {
        let white_view = if self.turn == Side::White {
            self.position
        } else {
            self.position.flip()
        };
        let actions = tablier_core::Game::legal_actions(self);
        MatchView {
            options: self.options,
            score: self.score,
            crawford_game: self.crawford_game,
            turn: self.turn,
            phase: self.phase,
            cube: self.cube,
            cube_owner: self.cube_owner,
            board: white_view.points,
            pips: white_view.pip_count(),
            off: (white_view.mover_off(), white_view.opponent_off()),
            actions: actions
                .iter()
                .map(|a| ActionView {
                    text: tablier_core::Game::format_action(self, a),
                    hops: match a {
                        Action::Play(p) => p.hops().iter().map(|h| [h.from, h.to]).collect(),
                        _ => Vec::new(),
                    },
                })
                .collect(),
            results: self.results.clone(),
        }
    }
}

/// The serialisable picture of a match for clients that hold no rules.
#[derive(Clone, Debug, Serialize)]
pub struct MatchView {
    /// The rules the match is played under (length, cube, Crawford, Jacoby, beavers).
    pub options: Options,
    /// Match points of white and black.
    pub score: [u32; 2],
    /// Whether this is the Crawford game.
    pub crawford_game: bool,
    /// The side on turn.
    pub turn: Side,
    /// Where the game stands.
    pub phase: Phase,
    /// The cube's value.
    pub cube: u32,
    /// Its owner (`null`: centred).
    pub cube_owner: Option<Side>,
    /// The board from white's side: index 1..=24 white's points (white positive, black
    /// negative), 25 white's bar, 0 black's bar (negative).
    pub board: [i8; 26],
    /// Pip counts (white, black).
    pub pips: (u32, u32),
    /// Checkers borne off (white, black).
    pub off: (u8, u8),
    /// The legal actions of the actor, in notation; plays with their hops (the mover's
    /// numbering).
    pub actions: Vec<ActionView>,
    /// Finished games.
    pub results: Vec<GameResult>,
}

/// One legal action as a client sees it.
#[derive(Clone, Debug, Serialize)]
pub struct ActionView {
    /// The action in notation (send it back to act).
    pub text: String,
    /// `[from, to]` per die for a play, in the mover's numbering (25 bar, 0 off).
    pub hops: Vec<[u8; 2]>,
}
