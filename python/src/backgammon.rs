//! `tablier.backgammon`: a match or money game (`Match`), the plays of a roll (`Play`) and
//! the engine (`Engine`, with rollouts).

use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use tablier_backgammon::game::{Action, Match, Options, Phase, WinKind};
use tablier_backgammon::ids::parse_gnubg_id;
use tablier_backgammon::mat::MatchFile;
use tablier_backgammon::xgid::Xgid;
use tablier_backgammon::{notation, record, Play, Position, Roll};
use tablier_backgammon_engine::eval::{equity, Evaluator, Scratch};
use tablier_backgammon_engine::player::MatchPlayer;
use tablier_backgammon_engine::rollout::{rollout, RolloutConfig};
use tablier_backgammon_engine::MAX_LEVEL;
use tablier_core::{Actor, Game as _, ParseErrorKind, Player as _, Side};

use crate::{budget, illegal, invalid, py_str, side_name, Analysis, Outcome};

/// OpenSpiel ids: plays of a roll of two different numbers, `high_from * 26 + low_from`.
const DOUBLES_BASE: i64 = 26 * 26;
/// Multisets of four start points (0..=25) for the plays of doubles: C(29, 4).
const DOUBLE_PLAYS: i64 = 23_751;
/// The cube actions and the decision to roll, after the plays.
const ROLL_ID: i64 = DOUBLES_BASE + DOUBLE_PLAYS;
const DOUBLE_ID: i64 = ROLL_ID + 1;
const TAKE_ID: i64 = ROLL_ID + 2;
const DROP_ID: i64 = ROLL_ID + 3;
const BEAVER_ID: i64 = ROLL_ID + 4;
const NUM_ACTIONS: i64 = ROLL_ID + 5;

fn binomial(n: i64, k: i64) -> i64 {
    if k < 0 || n < k {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The OpenSpiel id of a play: its start points per die (see `tablier/openspiel.py`).
fn play_id(play: &Play, roll: Roll) -> i64 {
    let (high, _) = roll.high_low();
    if roll.is_double() {
        let mut froms = [0i64; 4];
        for (f, h) in froms.iter_mut().zip(play.hops()) {
            *f = i64::from(h.from);
        }
        froms.sort_unstable_by(|a, b| b.cmp(a));
        let [a, b, c, d] = froms;
        DOUBLES_BASE + binomial(a + 3, 4) + binomial(b + 2, 3) + binomial(c + 1, 2) + d
    } else {
        let (mut hi, mut lo) = (0i64, 0i64);
        for h in play.hops() {
            if h.die == high {
                hi = i64::from(h.from);
            } else {
                lo = i64::from(h.from);
            }
        }
        hi * 26 + lo
    }
}

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Opening => "opening",
        Phase::BeforeRoll => "before_roll",
        Phase::Rolling => "rolling",
        Phase::Moving { .. } => "moving",
        Phase::Doubled => "doubled",
        Phase::Resigning { .. } => "resigning",
        Phase::Over => "over",
    }
}

fn read_roll(dice: &Bound<'_, PyAny>) -> PyResult<Roll> {
    let pair: Option<(u8, u8)> = if let Ok(t) = dice.extract::<String>() {
        let d: Vec<u8> = t
            .chars()
            .filter(|c| !matches!(c, '-' | ' ' | ','))
            .map(|c| c.to_digit(10).map(|d| d as u8))
            .collect::<Option<_>>()
            .unwrap_or_default();
        match d[..] {
            [a, b] => Some((a, b)),
            _ => None,
        }
    } else {
        dice.extract::<(u8, u8)>().ok()
    };
    pair.and_then(|(a, b)| Roll::new(a, b)).ok_or_else(|| {
        invalid(format!(
            "dice {dice}: expected two numbers 1 to 6, like (3, 1) or \"31\""
        ))
    })
}

/// Each side's checkers from its own side, as Python lists (not bytes).
fn counts(p: Position) -> (Vec<u32>, Vec<u32>) {
    let (m, o) = p.to_sides();
    let list = |s: [u8; 25]| s.iter().map(|&c| u32::from(c)).collect();
    (list(m), list(o))
}

/// One legal play of a roll: its notation, its hops and the position it leads to.
#[pyclass(name = "Play", module = "tablier.backgammon", frozen, eq)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyPlay {
    play: Play,
}

#[pymethods]
impl PyPlay {
    /// gnubg's notation (`8/5 6/5`, `bar/22*`, `13/7(2)`, `6/off`); `""` for no play.
    #[getter]
    fn notation(&self) -> String {
        notation::format_play(&self.play)
    }
    /// `(from, to, hit)` per die, in the mover's numbering (25 is the bar, 0 off).
    #[getter]
    fn hops(&self) -> Vec<(u8, u8, bool)> {
        self.play
            .hops()
            .iter()
            .map(|h| (h.from, h.to, h.hit))
            .collect()
    }
    /// gnubg's Position ID after the play, with the opponent on roll.
    #[getter]
    fn position_id(&self) -> String {
        self.play.result.flip().position_id()
    }
    /// The position after the play, still from the mover's side, as each side's checkers
    /// counted from its own side (gnubg's layout): `(mover, opponent)`, index `i` the side's
    /// own point `i + 1`, index 24 its bar.
    #[getter]
    fn sides(&self) -> (Vec<u32>, Vec<u32>) {
        counts(self.play.result)
    }
    fn __str__(&self) -> String {
        self.notation()
    }
    fn __repr__(&self) -> String {
        format!("Play({})", py_str(&self.notation()))
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.play.result.hash(&mut h);
        h.finish()
    }
}

/// A backgammon match to `length` points, or a money game (`length=0`).
///
/// `Match(length=0, cube=True, crawford=True, jacoby=True, beavers=False, cube_limit=0)`:
/// Crawford applies to matches, Jacoby and beavers to money games; `cube_limit` 0 means
/// none. The game waits first for the opening roll: `roll((3, 1))`.
#[pyclass(name = "Match", module = "tablier.backgammon")]
#[derive(Clone)]
pub struct PyMatch {
    game: Match,
    /// Every action since the start of the match, when it was started here (for `.mat`).
    actions: Option<Vec<Action>>,
}

impl PyMatch {
    fn apply(&mut self, a: Action) -> Result<(), tablier_core::IllegalAction> {
        self.game.apply(&a)?;
        if let Some(v) = &mut self.actions {
            v.push(a);
        }
        Ok(())
    }

    fn read_id(text: &str, options: Options) -> PyResult<PyMatch> {
        let t = text.trim();
        let (pos, mid) = if t.to_ascii_uppercase().starts_with("XGID=") {
            let x = Xgid::parse(t).map_err(|e| invalid(format!("XGID {t:?}: {e}")))?;
            x.to_gnubg()
                .map_err(|e| invalid(format!("XGID {t:?}: {e}")))?
        } else {
            parse_gnubg_id(t).map_err(|e| invalid(format!("GNUbgID {t:?}: {e}")))?
        };
        let game = record::from_match_id(pos, &mid, options)
            .map_err(|e| invalid(format!("ID {t:?}: {}", e.reason)))?;
        Ok(PyMatch {
            game,
            actions: None,
        })
    }

    fn roll_of_phase(&self) -> Option<Roll> {
        match self.game.phase() {
            Phase::Moving { roll }
            | Phase::Resigning {
                roll: Some(roll), ..
            } => Some(roll),
            _ => None,
        }
    }

    /// The legal OpenSpiel ids with their actions.
    fn id_actions(&self) -> Vec<(i64, Action)> {
        let g = &self.game;
        match g.phase() {
            Phase::Opening => (1..=6u8)
                .flat_map(|w| (1..=6u8).map(move |b| (w, b)))
                .filter(|(w, b)| w != b)
                .map(|(white, black)| {
                    (
                        i64::from(white - 1) * 6 + i64::from(black - 1),
                        Action::OpeningRoll { white, black },
                    )
                })
                .collect(),
            Phase::Rolling => Roll::all()
                .into_iter()
                .map(|(r, _)| {
                    let (h, l) = r.high_low();
                    (i64::from(h - 1) * 6 + i64::from(l - 1), Action::Dice(r))
                })
                .collect(),
            Phase::Moving { roll } => g
                .legal_plays()
                .into_iter()
                .map(|p| (play_id(&p, roll), Action::Play(p)))
                .collect(),
            _ => g
                .legal_actions()
                .into_iter()
                .filter_map(|a| {
                    let id = match a {
                        Action::Roll => ROLL_ID,
                        Action::Double => DOUBLE_ID,
                        Action::Take => TAKE_ID,
                        Action::Drop => DROP_ID,
                        Action::Beaver => BEAVER_ID,
                        _ => return None,
                    };
                    Some((id, a))
                })
                .collect(),
        }
    }

    /// OpenSpiel skips decisions with one choice that are not moves: rolling when doubling
    /// is not allowed, and any resignation phase (never entered through OpenSpiel).
    fn os_advance(&mut self) {
        while self.game.phase() == Phase::BeforeRoll && !self.game.may_double() {
            if self.apply(Action::Roll).is_err() {
                break;
            }
        }
    }
}

#[pymethods]
impl PyMatch {
    #[new]
    #[pyo3(signature = (length = 0, cube = true, crawford = true, jacoby = true, beavers = false, cube_limit = 0))]
    fn new(
        length: u32,
        cube: bool,
        crawford: bool,
        jacoby: bool,
        beavers: bool,
        cube_limit: u32,
    ) -> PyResult<Self> {
        if length > 32_767 {
            return Err(invalid(format!("match length {length}: at most 32767")));
        }
        if cube_limit != 0 && (!cube_limit.is_power_of_two() || cube_limit > 1 << 15) {
            return Err(invalid(format!(
                "cube_limit {cube_limit}: a power of two up to 32768, or 0 for none"
            )));
        }
        let options = Options {
            match_length: length,
            cube,
            crawford: length > 0 && crawford,
            jacoby: length == 0 && jacoby,
            beavers: length == 0 && beavers,
            cube_limit,
        };
        Ok(PyMatch {
            game: Match::new(options),
            actions: Some(Vec::new()),
        })
    }

    /// A match state from a GNUbgID (`PositionID:MatchID`) or an XGID (`XGID=...`). The ID
    /// carries the match length, the score, the cube and the dice; the other rules are given.
    #[staticmethod]
    #[pyo3(signature = (id, cube = true, crawford = true, jacoby = true, beavers = false, cube_limit = 0))]
    fn from_id(
        id: &str,
        cube: bool,
        crawford: bool,
        jacoby: bool,
        beavers: bool,
        cube_limit: u32,
    ) -> PyResult<Self> {
        if cube_limit != 0 && (!cube_limit.is_power_of_two() || cube_limit > 1 << 15) {
            return Err(invalid(format!(
                "cube_limit {cube_limit}: a power of two up to 32768, or 0 for none"
            )));
        }
        let options = Options {
            match_length: 0,
            cube,
            crawford,
            jacoby,
            beavers,
            cube_limit,
        };
        PyMatch::read_id(id, options)
    }

    /// Replays a `.mat` file (gnubg's layout) under the rules; the match as it stands at the
    /// end (for a money session, its last game). Every play is checked.
    #[staticmethod]
    #[pyo3(signature = (text, jacoby = false, beavers = false))]
    fn from_mat(text: &str, jacoby: bool, beavers: bool) -> PyResult<Self> {
        let file = MatchFile::parse(text).map_err(|e| invalid(format!(".mat: {e}")))?;
        let options = Options {
            match_length: file.match_length,
            cube: true,
            crawford: file.match_length > 0,
            jacoby: file.match_length == 0 && jacoby,
            beavers: file.match_length == 0 && beavers,
            cube_limit: 0,
        };
        let replayed =
            record::replay_mat(&file, options).map_err(|e| invalid(format!(".mat: {e}")))?;
        let options = *replayed.last.options();
        let mut m = PyMatch {
            game: Match::new(options),
            actions: Some(Vec::new()),
        };
        let games = if options.match_length == 0 {
            replayed.games.last().into_iter().collect::<Vec<_>>()
        } else {
            replayed.games.iter().collect()
        };
        for g in games {
            for a in &g.actions {
                m.apply(*a)
                    .map_err(|e| invalid(format!(".mat: {}", e.reason)))?;
            }
        }
        Ok(m)
    }

    /// The match as a `.mat` file (gnubg's layout), from its start.
    #[pyo3(signature = (white = "White", black = "Black"))]
    fn to_mat(&self, white: &str, black: &str) -> PyResult<String> {
        let actions = self
            .actions
            .as_ref()
            .ok_or_else(|| invalid("a match read from an ID has no history to write as .mat"))?;
        let file = record::to_mat(*self.game.options(), [white, black], actions)
            .map_err(|e| invalid(e.reason))?;
        Ok(file.to_string())
    }

    /// gnubg's `PositionID:MatchID`.
    #[getter]
    fn gnubg_id(&self) -> String {
        record::gnubg_id(&self.game)
    }
    /// gnubg's Position ID (side on roll first).
    #[getter]
    fn position_id(&self) -> String {
        record::id_view(&self.game).0.position_id()
    }
    /// gnubg's Match ID.
    #[getter]
    fn match_id(&self) -> String {
        record::match_id(&self.game).encode()
    }
    /// eXtreme Gammon's XGID.
    #[getter]
    fn xgid(&self) -> String {
        let (pos, _) = record::id_view(&self.game);
        Xgid::from_gnubg(&pos, &record::match_id(&self.game)).to_string()
    }
    /// Points to win the match (0: a money game).
    #[getter]
    fn length(&self) -> u32 {
        self.game.options().match_length
    }
    /// `"opening"`, `"before_roll"`, `"rolling"`, `"moving"`, `"doubled"`, `"resigning"` or
    /// `"over"`.
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.game.phase())
    }
    /// The side on turn.
    #[getter]
    fn turn(&self) -> &'static str {
        side_name(self.game.turn())
    }
    /// Who acts now: `"white"`, `"black"`, `"chance"` (dice to roll), or `None` (over).
    #[getter]
    fn actor(&self) -> Option<&'static str> {
        match self.game.actor() {
            Actor::Player(s) => Some(side_name(s)),
            Actor::Chance => Some("chance"),
            Actor::Nobody => None,
        }
    }
    /// The roll to play, higher die first (`None` before the dice are thrown).
    #[getter]
    fn dice(&self) -> Option<(u8, u8)> {
        self.roll_of_phase().map(Roll::high_low)
    }
    /// `(value, owner)`: owner `"white"`, `"black"` or `None` (centred).
    #[getter]
    fn cube(&self) -> (u32, Option<&'static str>) {
        let (v, o) = self.game.cube();
        (v, o.map(side_name))
    }
    /// Match score `(white, black)`.
    #[getter]
    fn score(&self) -> (u32, u32) {
        let s = self.game.score();
        (s[0], s[1])
    }
    /// True in the Crawford game.
    #[getter]
    fn crawford(&self) -> bool {
        self.game.is_crawford_game()
    }
    /// The board from White's side: index 1..24 White's points (White's checkers positive,
    /// Black's negative), 25 White's bar, 0 Black's bar (negative).
    #[getter]
    fn board(&self) -> Vec<i8> {
        self.game.view().board.to_vec()
    }
    /// The position as each side's checkers counted from its own side (gnubg's layout):
    /// `(side on turn, other side)`, index `i` the side's own point `i + 1`, index 24 its bar.
    #[getter]
    fn sides(&self) -> (Vec<u32>, Vec<u32>) {
        counts(self.game.position())
    }
    /// Pip counts `(white, black)`.
    #[getter]
    fn pips(&self) -> (u32, u32) {
        self.game.view().pips
    }
    /// Checkers borne off `(white, black)`.
    #[getter]
    fn off(&self) -> (u8, u8) {
        self.game.view().off
    }
    /// The finished games: `(winner, "single"|"gammon"|"backgammon", points, cube)`.
    #[getter]
    fn results(&self) -> Vec<(&'static str, &'static str, u32, u32)> {
        self.game
            .results()
            .iter()
            .map(|r| (side_name(r.winner), r.kind.word(), r.points, r.cube))
            .collect()
    }
    /// How the match (or money game) ended (`None` while it goes on).
    #[getter]
    fn outcome(&self) -> Option<Outcome> {
        let o = self.game.outcome()?;
        let r = self.game.results().last()?;
        let how = if r.dropped {
            "double dropped".to_owned()
        } else if r.resigned {
            format!("resigned ({})", r.kind.word())
        } else {
            r.kind.word().to_owned()
        };
        Some(Outcome::new(o, how))
    }
    /// True once the match is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.phase() == Phase::Over
    }
    /// The legal actions of the actor, in notation (`roll`, `double`, `take`, `8/5 6/5`, ...).
    fn legal_actions(&self) -> Vec<String> {
        self.game
            .legal_actions()
            .iter()
            .map(|a| self.game.format_action(a))
            .collect()
    }
    /// The legal plays of `dice` for the side on turn in the current position (by default
    /// the roll being played), one per resulting position.
    #[pyo3(signature = (dice = None))]
    fn plays(&self, dice: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<PyPlay>> {
        let roll = match dice {
            Some(d) => read_roll(d)?,
            None => self
                .roll_of_phase()
                .ok_or_else(|| invalid("no roll is being played: give the dice"))?,
        };
        Ok(self
            .game
            .position()
            .legal_plays(roll)
            .into_iter()
            .map(|play| PyPlay { play })
            .collect())
    }
    /// Throws the dice: the opening roll (White's die, Black's die) or the roll of the side
    /// on turn (which first decides to roll if it may still double). Dice as `(3, 1)` or
    /// `"31"`.
    fn roll(&mut self, dice: &Bound<'_, PyAny>) -> PyResult<()> {
        let r = read_roll(dice)?;
        let pair: (u8, u8) = if dice.extract::<String>().is_ok() {
            r.high_low()
        } else {
            dice.extract()?
        };
        let before = self.clone();
        if self.game.phase() == Phase::BeforeRoll {
            self.apply(Action::Roll).map_err(|e| illegal(e.reason))?;
        }
        let a = match self.game.phase() {
            Phase::Opening => Action::OpeningRoll {
                white: pair.0,
                black: pair.1,
            },
            Phase::Rolling => Action::Dice(r),
            p => {
                *self = before;
                return Err(illegal(format!(
                    "no dice are thrown now ({})",
                    phase_name(p)
                )));
            }
        };
        self.apply(a).map_err(|e| {
            let reason = e.reason.clone();
            *self = before.clone();
            illegal(reason)
        })
    }
    /// Takes an action given as text (`"8/5 6/5"`, `"double"`, `"take"`, `"drop"`, `"roll"`,
    /// `"resign gammon"`, ...) or a `Play`. Raises `IllegalMove` with the reason when it is
    /// not legal now, `InvalidInput` when the text is not an action; the match is unchanged.
    fn play(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Ok(p) = action.cast::<PyPlay>() {
            return self
                .apply(Action::Play(p.get().play))
                .map_err(|e| illegal(e.reason));
        }
        let text: String = action
            .extract()
            .map_err(|_| invalid("play() takes an action's text or a Play"))?;
        let a = self.game.parse_action(&text).map_err(|e| {
            // The rules crate reads a cube or resignation word that is not legal now as a
            // syntax error; for Python it is an action refused by the rules.
            let word = text
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            let known = matches!(
                word.as_str(),
                "roll"
                    | "double"
                    | "take"
                    | "takes"
                    | "drop"
                    | "drops"
                    | "pass"
                    | "beaver"
                    | "beavers"
                    | "accept"
                    | "reject"
                    | "resign"
                    | "opening"
            );
            match e.kind {
                ParseErrorKind::Syntax if !known => invalid(format!("{text:?}: {}", e.reason)),
                _ => illegal(format!("{text}: {}", e.reason)),
            }
        })?;
        self.apply(a)
            .map_err(|e| illegal(format!("{text}: {}", e.reason)))
    }
    /// An independent copy.
    fn copy(&self) -> PyMatch {
        self.clone()
    }
    fn __copy__(&self) -> PyMatch {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyMatch {
        self.clone()
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.borrow();
        let o = me.game.options();
        let args = (
            o.match_length,
            o.cube,
            o.crawford,
            o.jacoby,
            o.beavers,
            o.cube_limit,
        );
        let state: (Option<Vec<String>>, String) = (
            me.actions.as_ref().map(|v| {
                // Actions written so that `__setstate__` reads them back exactly.
                v.iter().map(encode_action).collect()
            }),
            me.gnubg_id(),
        );
        (slf.get_type(), args, state).into_pyobject(py)
    }
    fn __setstate__(&mut self, state: (Option<Vec<String>>, String)) -> PyResult<()> {
        match state.0 {
            Some(actions) => {
                for a in actions {
                    let a = decode_action(&self.game, &a)?;
                    self.apply(a).map_err(|e| invalid(e.reason))?;
                }
                Ok(())
            }
            None => {
                *self = PyMatch::read_id(&state.1, *self.game.options())?;
                Ok(())
            }
        }
    }
    fn __repr__(&self) -> String {
        format!(
            "Match(length={}, id={})",
            self.length(),
            py_str(&self.gnubg_id())
        )
    }

    // OpenSpiel support (see tablier/openspiel.py for the encoding).

    /// Sorted OpenSpiel ids of the legal actions (player or chance).
    fn _os_legal(&self) -> Vec<i64> {
        let mut v: Vec<i64> = self.id_actions().into_iter().map(|(i, _)| i).collect();
        v.sort_unstable();
        v
    }
    /// Chance outcomes `(id, probability)`: the opening throw (30 unequal pairs, 1/30 each;
    /// equal dice are thrown again) or the 21 rolls (1/36 or 2/36).
    fn _os_chance(&self) -> Vec<(i64, f64)> {
        match self.game.phase() {
            Phase::Opening => self
                .id_actions()
                .into_iter()
                .map(|(i, _)| (i, 1.0 / 30.0))
                .collect(),
            Phase::Rolling => Roll::all()
                .into_iter()
                .map(|(r, w)| {
                    let (h, l) = r.high_low();
                    (i64::from(h - 1) * 6 + i64::from(l - 1), f64::from(w) / 36.0)
                })
                .collect(),
            _ => Vec::new(),
        }
    }
    /// Applies an OpenSpiel id, then skips the decisions OpenSpiel does not see (rolling
    /// when doubling is not allowed).
    fn _os_apply(&mut self, id: i64) -> PyResult<()> {
        let a = self
            .id_actions()
            .into_iter()
            .find(|(i, _)| *i == id)
            .map(|(_, a)| a)
            .ok_or_else(|| illegal(format!("action {id} is not legal here")))?;
        self.apply(a).map_err(|e| illegal(e.reason))?;
        self.os_advance();
        Ok(())
    }
    /// Skips the decisions OpenSpiel does not see (called on a new state).
    fn _os_advance(&mut self) {
        self.os_advance();
    }
    /// The text of an OpenSpiel id in this state.
    fn _os_action_string(&self, id: i64) -> String {
        if let Some((_, a)) = self.id_actions().into_iter().find(|(i, _)| *i == id) {
            return self.game.format_action(&a);
        }
        match id {
            ROLL_ID => "roll".into(),
            DOUBLE_ID => "double".into(),
            TAKE_ID => "take".into(),
            DROP_ID => "drop".into(),
            BEAVER_ID => "beaver".into(),
            _ => format!("action {id}"),
        }
    }
    /// The observation vector (layout in tablier/openspiel.py).
    fn _os_observation(&self) -> Vec<f32> {
        let v = self.game.view();
        let mut out = Vec::with_capacity(OBSERVATION_SIZE);
        // White's checkers on White's points 1..24, bar, off; then Black's on the same points
        // (White's numbering), bar, off.
        for side in [1i8, -1] {
            for p in 1..=24 {
                let n = v.board[p] * side;
                out.push(f32::from(n.max(0)) / 15.0);
            }
            let bar = if side == 1 { v.board[25] } else { -v.board[0] };
            out.push(f32::from(bar.max(0)) / 15.0);
            out.push(f32::from(if side == 1 { v.off.0 } else { v.off.1 }) / 15.0);
        }
        let actor = self.game.actor();
        out.push(f32::from(u8::from(actor == Actor::Player(Side::White))));
        out.push(f32::from(u8::from(actor == Actor::Player(Side::Black))));
        let (d1, d2) = self.roll_of_phase().map_or((0, 0), Roll::high_low);
        out.push(f32::from(d1) / 6.0);
        out.push(f32::from(d2) / 6.0);
        let (cube, owner) = self.game.cube();
        out.push(cube.trailing_zeros() as f32 / 15.0);
        out.push(f32::from(u8::from(owner.is_none())));
        out.push(f32::from(u8::from(owner == Some(Side::White))));
        out.push(f32::from(u8::from(owner == Some(Side::Black))));
        let len = self.game.options().match_length;
        let s = self.game.score();
        for x in s {
            out.push(if len == 0 { 0.0 } else { x as f32 / len as f32 });
        }
        out.push(f32::from(u8::from(self.game.is_crawford_game())));
        let phase = self.game.phase();
        for p in [
            "opening",
            "before_roll",
            "rolling",
            "moving",
            "doubled",
            "resigning",
            "over",
        ] {
            out.push(f32::from(u8::from(phase_name(phase) == p)));
        }
        debug_assert_eq!(out.len(), OBSERVATION_SIZE);
        out
    }
}

/// Length of `_os_observation`.
const OBSERVATION_SIZE: usize = 52 + 2 + 2 + 4 + 2 + 1 + 7;

/// An action written so that [`decode_action`] reads it back exactly (plays by their
/// resulting Position ID, which the notation alone cannot always pin down for a reader
/// without the position).
fn encode_action(a: &Action) -> String {
    match a {
        Action::OpeningRoll { white, black } => format!("opening {white}{black}"),
        Action::Roll => "roll".into(),
        Action::Dice(r) => format!("dice {}{}", r.high_low().0, r.high_low().1),
        Action::Play(p) => format!("play {}", p.result.position_id()),
        Action::Double => "double".into(),
        Action::Take => "take".into(),
        Action::Drop => "drop".into(),
        Action::Beaver => "beaver".into(),
        Action::Resign(k) => format!("resign {}", k.word()),
        Action::Accept => "accept".into(),
        Action::Reject => "reject".into(),
    }
}

fn decode_action(m: &Match, text: &str) -> PyResult<Action> {
    let bad = || invalid(format!("state entry {text:?}"));
    let digits = |s: &str| -> Option<(u8, u8)> {
        let b = s.as_bytes();
        (b.len() == 2 && b.iter().all(u8::is_ascii_digit)).then(|| (b[0] - b'0', b[1] - b'0'))
    };
    Ok(match text.split_once(' ') {
        Some(("opening", d)) => {
            let (white, black) = digits(d).ok_or_else(bad)?;
            Action::OpeningRoll { white, black }
        }
        Some(("dice", d)) => {
            let (a, b) = digits(d).ok_or_else(bad)?;
            Action::Dice(Roll::new(a, b).ok_or_else(bad)?)
        }
        Some(("play", id)) => {
            let want = Position::from_position_id(id).map_err(|_| bad())?;
            let p = m
                .legal_plays()
                .into_iter()
                .find(|p| p.result == want)
                .ok_or_else(bad)?;
            Action::Play(p)
        }
        Some(("resign", k)) => Action::Resign(match k {
            "single" => WinKind::Single,
            "gammon" => WinKind::Gammon,
            "backgammon" => WinKind::Backgammon,
            _ => return Err(bad()),
        }),
        _ => match text {
            "roll" => Action::Roll,
            "double" => Action::Double,
            "take" => Action::Take,
            "drop" => Action::Drop,
            "beaver" => Action::Beaver,
            "accept" => Action::Accept,
            "reject" => Action::Reject,
            _ => return Err(bad()),
        },
    })
}

/// The backgammon engine at a level (0 to 6: 0-ply with noise up to 3-ply), its noise seeded:
/// `Engine(level=3, seed=0)`.
#[pyclass(name = "Engine", module = "tablier.backgammon", frozen)]
pub struct PyEngine {
    level: u8,
    player: Mutex<MatchPlayer>,
}

fn probs_dict<'py>(py: Python<'py>, p: &[f32; 5]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in [
        "win",
        "win_gammon",
        "win_backgammon",
        "lose_gammon",
        "lose_backgammon",
    ]
    .into_iter()
    .zip(p)
    {
        d.set_item(k, f64::from(*v))?;
    }
    d.set_item("equity", f64::from(equity(p)))?;
    Ok(d)
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (level = 3, seed = 0))]
    fn new(level: u8, seed: u64) -> PyResult<Self> {
        if level > MAX_LEVEL {
            return Err(invalid(format!(
                "level {level}: the levels are 0 to {MAX_LEVEL}"
            )));
        }
        Ok(PyEngine {
            level,
            player: Mutex::new(MatchPlayer::at_level(level, seed)),
        })
    }
    /// The level played.
    #[getter]
    fn level(&self) -> u8 {
        self.level
    }
    /// The action the engine takes now in `m` (a play, `double`/`roll`, `take`/`drop`/
    /// `beaver`, `accept`/`reject`), in notation; `None` when the dice are due or the match
    /// is over. Every level answers within a second, so `time` is accepted and not needed.
    #[pyo3(signature = (m, time = None))]
    fn best_move(
        &self,
        py: Python<'_>,
        m: &PyMatch,
        time: Option<f64>,
    ) -> PyResult<Option<String>> {
        let b = budget(time)?;
        let game = m.game.clone();
        let a = py.detach(|| {
            let mut p = self.player.lock().unwrap_or_else(|e| e.into_inner());
            p.choose(&game, b)
        });
        Ok(a.map(|a| game.format_action(&a)))
    }
    /// The engine's view of the actor's position: the best plays with their cubeless
    /// equities when a roll is to be played, else the equity.
    #[pyo3(signature = (m, time = None))]
    fn analyse(
        &self,
        py: Python<'_>,
        m: &PyMatch,
        time: Option<f64>,
    ) -> PyResult<Option<Analysis>> {
        let b = budget(time)?;
        let game = m.game.clone();
        let e = py.detach(|| {
            let mut p = self.player.lock().unwrap_or_else(|e| e.into_inner());
            p.explain(&game, b)
        });
        Ok(e.map(Analysis::from))
    }
    /// The 0-ply outcome probabilities of the position for the side on turn (`win`,
    /// `win_gammon`, `win_backgammon`, `lose_gammon`, `lose_backgammon`) and its cubeless
    /// `equity`.
    fn evaluate<'py>(&self, py: Python<'py>, m: &PyMatch) -> PyResult<Bound<'py, PyDict>> {
        let pos = m.game.position();
        let p = Evaluator::shipped().probs(&pos, &mut Scratch::default());
        probs_dict(py, &p)
    }
    /// A cubeless rollout of the position for the side on turn, before it rolls: `trials`
    /// games played out at 0-ply (stratified dice, luck-adjusted), truncated after
    /// `truncate` plies if above 0. The GIL is released. Returns the probabilities, the
    /// `equity` and its standard error `stderr`, and `trials`.
    #[pyo3(signature = (m, trials = 1296, truncate = 0, seed = 1))]
    fn rollout<'py>(
        &self,
        py: Python<'py>,
        m: &PyMatch,
        trials: u32,
        truncate: u32,
        seed: u64,
    ) -> PyResult<Bound<'py, PyDict>> {
        if trials == 0 || trials > 10_000_000 {
            return Err(invalid(format!(
                "trials {trials}: expected 1 to 10,000,000"
            )));
        }
        let pos = m.game.position();
        if pos.is_over() {
            return Err(invalid("the game is over: nothing to roll out"));
        }
        let cfg = RolloutConfig {
            trials,
            truncate,
            variance_reduction: true,
            seed,
            plies: 0,
        };
        let stats = py.detach(move || rollout(Evaluator::shipped(), &pos, &cfg, |_| true));
        let d = probs_dict(py, &stats.probs())?;
        let (eq, se) = stats.equity();
        d.set_item("equity", eq)?;
        d.set_item("stderr", se)?;
        d.set_item("trials", stats.trials)?;
        Ok(d)
    }
    fn __repr__(&self) -> String {
        format!("Engine(level={})", self.level)
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyMatch>()?;
    m.add_class::<PyPlay>()?;
    m.add_class::<PyEngine>()?;
    m.add("MAX_LEVEL", MAX_LEVEL)?;
    m.add("_OS_NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("_OS_OBSERVATION_SIZE", OBSERVATION_SIZE)?;
    m.add("_OS_ROLL", ROLL_ID)?;
    Ok(())
}
