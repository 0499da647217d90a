//! Analysis of played games: each checker play and cube decision compared with the engine's
//! choice, the equity it lost, and an error rate per player in milli-points per decision (as
//! gnubg reports: equity normalised to a 1-point cube, "EMG"; in matches, the match-equity
//! scale of [`crate::cube`]).

use tablier_backgammon::game::{Action, Match, Options, Phase};
use tablier_backgammon::notation::format_play;
use tablier_backgammon::{Play, Position, Roll};
use tablier_core::{Game, Side};

use crate::cube::{self, CubeInfo, Owner};
use crate::eval::{Evaluator, Scratch};
use crate::search::{self, MoveFilter};

/// The cube around the side on turn in `m`.
#[must_use]
pub fn cube_info(m: &Match) -> CubeInfo {
    let o = m.options();
    let (value, owner) = m.cube();
    let turn = m.turn();
    let score = m.score();
    let me = score[turn.index()];
    let them = score[1 - turn.index()];
    let one_away = o.match_length > 0 && (me + 1 == o.match_length || them + 1 == o.match_length);
    CubeInfo {
        value,
        owner: match owner {
            None => Owner::Centre,
            Some(s) if s == turn => Owner::Me,
            Some(_) => Owner::Opponent,
        },
        match_length: o.match_length,
        score: [me, them],
        crawford: m.is_crawford_game(),
        post_crawford: o.crawford && one_away && !m.is_crawford_game(),
        jacoby: o.jacoby,
        beavers: o.beavers,
    }
}

/// What kind of decision.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A checker play: what was played and what the engine prefers.
    Play {
        /// The dice thrown, as `6-5`.
        roll: String,
        /// The play made.
        played: String,
        /// The engine's play.
        best: String,
    },
    /// Doubling or rolling, doubled by the player.
    Cube {
        /// What was done: `double` or `roll`.
        action: &'static str,
        /// What the engine would do.
        best: &'static str,
    },
    /// Answering a double.
    Response {
        /// `take`, `drop` or `beaver`.
        action: &'static str,
        /// The engine's answer.
        best: &'static str,
    },
}

/// One analysed decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// Game number (from 1).
    pub game: u32,
    /// Turn number in the game (from 1).
    pub turn: u32,
    /// Who decided.
    pub side: Side,
    /// What was decided: a checker play or a cube action.
    pub kind: Kind,
    /// Equity lost against the engine's choice (≥ 0), per unit of cube.
    pub loss: f32,
}

impl Decision {
    /// gnubg's marks: `?!` doubtful (≥ 0.04), `?` bad (≥ 0.08), `??` very bad (≥ 0.16).
    #[must_use]
    pub fn mark(&self) -> &'static str {
        match self.loss {
            l if l >= 0.16 => "??",
            l if l >= 0.08 => "?",
            l if l >= 0.04 => "?!",
            _ => "",
        }
    }
}

/// Totals per player.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayerStats {
    /// Checker plays with a choice.
    pub plays: u32,
    /// Equity lost in them.
    pub play_loss: f64,
    /// Cube decisions counted (doubles, takes, drops, and rolls that should have doubled).
    pub cube: u32,
    /// Equity lost in them.
    pub cube_loss: f64,
}

impl PlayerStats {
    /// Milli-points lost per decision.
    #[must_use]
    pub fn error_rate(&self) -> f64 {
        let n = self.plays + self.cube;
        if n == 0 {
            0.0
        } else {
            1000.0 * (self.play_loss + self.cube_loss) / f64::from(n)
        }
    }
}

/// An analysed record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Every decision analysed, in order.
    pub decisions: Vec<Decision>,
    /// Totals of white (the left column of a `.mat` file) and black.
    pub stats: [PlayerStats; 2],
}

impl Analysis {
    /// Adds a decision and counts it in its player's totals.
    pub fn record(&mut self, d: Decision) {
        let st = &mut self.stats[d.side.index()];
        if matches!(d.kind, Kind::Play { .. }) {
            st.plays += 1;
            st.play_loss += f64::from(d.loss);
        } else {
            st.cube += 1;
            st.cube_loss += f64::from(d.loss);
        }
        self.decisions.push(d);
    }
}

/// Why a record cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}: action {index} is refused by the rules: {reason}")]
pub struct AnalysisError {
    /// Game number.
    pub game: u32,
    /// 0-based action index in the game.
    pub index: usize,
    /// Why the entry could not be analysed, in words.
    pub reason: String,
}

/// A decision met in the replay of a record, before anyone judges it.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// Game number (from 1).
    pub game: u32,
    /// Turn number in the game (from 1).
    pub turn: u32,
    /// Who decides.
    pub side: Side,
    /// The position, seen from the player on roll (for an answer to a double: the doubler).
    pub position: Position,
    /// The cube, seen from the same player.
    pub cube: CubeInfo,
    /// The decision.
    pub kind: PointKind,
}

/// What is decided at a [`Point`].
#[derive(Clone, Debug, PartialEq)]
pub enum PointKind {
    /// A checker play with a choice: the roll, every legal play, the play made.
    Play {
        /// The dice.
        roll: Roll,
        /// The legal plays.
        plays: Vec<Play>,
        /// The play made.
        played: Play,
    },
    /// Before the roll with the cube available: doubled, or rolled.
    Cube {
        /// He doubled.
        doubled: bool,
    },
    /// The answer to a double.
    Response {
        /// Take, drop or beaver.
        action: Action,
    },
}

/// Replays games given as their actions (as [`tablier_backgammon::record::replay_mat`] gives
/// them; in a match the games follow each other, in money play each starts afresh) and lists
/// their decisions: checker plays with more than one legal play, cube actions where doubling
/// was allowed, answers to doubles.
///
/// # Errors
/// [`AnalysisError`] if an action is illegal.
pub fn points(options: Options, games: &[Vec<Action>]) -> Result<Vec<Point>, AnalysisError> {
    let mut out = Vec::new();
    let mut m = Match::new(options);
    for (g, actions) in games.iter().enumerate() {
        if options.match_length == 0 {
            m = Match::new(options);
        }
        let game = g as u32 + 1;
        let mut turn_no = 0u32;
        for (index, action) in actions.iter().enumerate() {
            let point = |turn, side, kind| Point {
                game,
                turn,
                side,
                position: m.position(),
                cube: cube_info(&m),
                kind,
            };
            match (m.phase(), action) {
                (Phase::Moving { roll }, Action::Play(play)) => {
                    turn_no += 1;
                    let plays = m.position().legal_plays(roll);
                    if plays.len() > 1 {
                        let kind = PointKind::Play {
                            roll,
                            plays,
                            played: *play,
                        };
                        out.push(point(turn_no, m.turn(), kind));
                    }
                }
                (Phase::BeforeRoll, Action::Double | Action::Roll) if m.may_double() => {
                    let doubled = matches!(action, Action::Double);
                    out.push(point(turn_no + 1, m.turn(), PointKind::Cube { doubled }));
                }
                (Phase::Doubled, Action::Take | Action::Drop | Action::Beaver) => {
                    let kind = PointKind::Response { action: *action };
                    out.push(point(turn_no + 1, m.turn().opposite(), kind));
                }
                _ => {}
            }
            m.apply(action).map_err(|e| AnalysisError {
                game,
                index,
                reason: e.to_string(),
            })?;
        }
    }
    Ok(out)
}

impl Analysis {
    /// Records the checker play of `point` (a [`PointKind::Play`]), which lost `loss` against
    /// the judge's best play, `best`.
    ///
    /// # Panics
    /// If `point` is not a checker play.
    pub fn add_play(&mut self, point: &Point, loss: f32, best: &Play) {
        let PointKind::Play { roll, played, .. } = &point.kind else {
            panic!("add_play takes a checker play");
        };
        self.record(Decision {
            game: point.game,
            turn: point.turn,
            side: point.side,
            kind: Kind::Play {
                roll: roll.to_string(),
                played: format_play(played),
                best: format_play(best),
            },
            loss: loss.max(0.0),
        });
    }

    /// Records the cube action or the answer of `point` judged by the cubeful equities, for the
    /// player on roll (the doubler), of no double, double/take and double/pass. A roll that
    /// loses nothing against doubling is not counted; every double and every answer is.
    pub fn add_cube(&mut self, point: &Point, no_double: f32, double_take: f32, double_pass: f32) {
        let d = cube::CubeDecision::from_equities(no_double, double_take, &point.cube);
        let d = cube::CubeDecision { double_pass, ..d };
        match &point.kind {
            PointKind::Cube { doubled } => {
                let double_value = d.double_take.min(d.double_pass);
                let best_value = d.no_double.max(double_value);
                let chosen = if *doubled { double_value } else { d.no_double };
                let loss = (best_value - chosen).max(0.0);
                if *doubled || loss > 0.0 {
                    self.record(Decision {
                        game: point.game,
                        turn: point.turn,
                        side: point.side,
                        kind: Kind::Cube {
                            action: if *doubled { "double" } else { "roll" },
                            best: if d.double { "double" } else { "no double" },
                        },
                        loss,
                    });
                }
            }
            PointKind::Response { action } => {
                // For the taker: taking is worth −D/T, dropping −D/P.
                let take = -d.double_take;
                let drop = -d.double_pass;
                let (chosen, name) = match action {
                    Action::Take => (take, "take"),
                    Action::Beaver => (2.0 * take, "beaver"),
                    _ => (drop, "drop"),
                };
                let beaver_ok = point.cube.beavers && point.cube.match_length == 0;
                let best_value = if beaver_ok && take > 0.0 {
                    2.0 * take
                } else {
                    take.max(drop)
                };
                let best = if beaver_ok && take > 0.0 {
                    "beaver"
                } else if take >= drop {
                    "take"
                } else {
                    "drop"
                };
                self.record(Decision {
                    game: point.game,
                    turn: point.turn,
                    side: point.side,
                    kind: Kind::Response { action: name, best },
                    loss: (best_value - chosen).max(0.0),
                });
            }
            PointKind::Play { .. } => panic!("add_cube takes a cube action or an answer"),
        }
    }
}

/// Analyses games given as their actions (see [`points`]) with our engine: checker plays
/// valued as the engine plays them ([`search::PlayValue::CubefulSearch`]: searched to `plies`
/// with the cube and the score), cube decisions searched with the cube to `plies.min(2)`. `progress`
/// is told the number of games done.
///
/// # Errors
/// [`AnalysisError`] if an action is illegal.
pub fn analyse(
    ev: &Evaluator,
    options: Options,
    games: &[Vec<Action>],
    plies: u32,
    mut progress: impl FnMut(usize),
) -> Result<Analysis, AnalysisError> {
    let mut out = Analysis::default();
    let mut s = Scratch::default();
    let filter = MoveFilter::default();
    for point in points(options, games)? {
        progress(point.game as usize - 1);
        let ci = &point.cube;
        match &point.kind {
            PointKind::Play { plays, played, .. } => {
                // Valued as the engine chooses its own plays: each candidate's position
                // searched with the cube and the score at every node.
                let how = search::PlayValue::CubefulSearch;
                let (best, best_v) =
                    search::best_of_valued(ev, plays, plies, filter, ci, how, &mut s);
                let played_v = match plays.iter().position(|p| p.result == played.result) {
                    Some(i) if i == best => best_v,
                    Some(i) => search::play_value(ev, &plays[i], plies, ci, how, &mut s),
                    None => best_v,
                };
                out.add_play(&point, (best_v - played_v).max(0.0), &plays[best]);
            }
            PointKind::Cube { .. } | PointKind::Response { .. } => {
                let d = search::cube_decision(ev, &point.position, ci, plies.min(2), &mut s);
                out.add_cube(&point, d.no_double, d.double_take, d.double_pass);
            }
        }
    }
    progress(games.len());
    Ok(out)
}
