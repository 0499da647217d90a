//! `tablier.draughts`: a game of any variant (`Game`), its moves (`Move`) and the engine
//! (`Engine`).
//!
//! Every variant runs behind one object-safe [`Table`] so that the Python class is not
//! generic: the FMJD-style games ([`Game`]) and the old French rules ([`FrenchGame`], where a
//! turn may also be a huff or a force).

use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use tablier_core::{Actor, Budget, Explanation, Game as _, Player as _, Side};
use tablier_draughts::french::{self, FrenchGame, TableOptions};
use tablier_draughts::game::{DrawReason, Ending, Game};
use tablier_draughts::{fen, notation, pdn, replay, with_board, Geometry, Position, Variant};
use tablier_draughts_engine::player::LevelPlayer;
use tablier_draughts_engine::{Engine as Searcher, Limits, MAX_LEVEL};

use crate::{budget, illegal, invalid, py_str, side_name, Analysis, Outcome};

/// OpenSpiel: how many legal moves with the same start and end squares one action id can
/// tell apart (see `_os_legal`).
const SAME_ENDS: i64 = 16;

/// One legal move (or, under the old French rules, one action) as Python sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct MoveInfo {
    notation: String,
    /// The complete notation (every landing square of a capture), unambiguous.
    full: String,
    path: Vec<u8>,
    captured: Vec<u8>,
}

/// One draughts game of any variant, behind one interface.
trait Table: Send + Sync {
    fn clone_box(&self) -> Box<dyn Table>;
    fn variant(&self) -> &'static Variant;
    fn fen(&self) -> String;
    fn start_fen(&self) -> String;
    fn actor(&self) -> Actor;
    fn moves(&self) -> Vec<MoveInfo>;
    fn play_text(&mut self, text: &str) -> Result<(), String>;
    fn outcome(&self) -> Option<Outcome>;
    fn perft(&self, depth: u32) -> u64;
    fn pdn(&self, tags: &[(&str, &str)]) -> String;
    fn played(&self) -> Vec<String>;
    fn pieces(&self) -> Vec<(u32, Side, bool)>;
    fn best(&self, level: u8, seed: u64, budget: Budget) -> Option<String>;
    fn explain(&self, level: u8, seed: u64, budget: Budget) -> Option<Explanation>;
    fn search(&self, limits: &Limits) -> (Option<String>, i32, u32, Vec<String>);
    fn evaluate(&self) -> i32;
}

fn move_info<G: Geometry>(pos: &Position<G>, m: &tablier_draughts::Move<G>) -> MoveInfo {
    MoveInfo {
        notation: notation::format(pos, m),
        full: notation::format_full(pos, m),
        path: if m.is_capture() {
            notation::capture_path(pos, m)
        } else {
            vec![m.from(), m.to()]
        },
        captured: m.captured_squares(),
    }
}

fn line<G: Geometry>(pos: &Position<G>, pv: &[tablier_draughts::Move<G>]) -> Vec<String> {
    let mut p = *pos;
    pv.iter()
        .map(|m| {
            let t = notation::format(&p, m);
            p.play_unchecked(m);
            t
        })
        .collect()
}

fn search_position<G: Geometry>(
    pos: &Position<G>,
    history: &[Position<G>],
    limits: &Limits,
) -> (Option<String>, i32, u32, Vec<String>) {
    let mut engine = Searcher::<G>::new(pos.variant(), 16);
    let r = engine.search(pos, history, limits, &mut |_| {});
    (
        r.best.map(|m| notation::format(pos, &m)),
        r.score,
        r.depth,
        line(pos, &r.pv),
    )
}

fn ending_reason(e: Ending) -> String {
    match e {
        Ending::NoMove { winner } => {
            format!("{} has no legal move", side_name(winner.opposite()))
        }
        Ending::Draw(DrawReason::Repetition) => "draw by threefold repetition".into(),
        Ending::Draw(DrawReason::KingMoves) => "draw by the king-move count".into(),
        Ending::Draw(DrawReason::Endgame) => "draw by the endgame count".into(),
        Ending::Draw(DrawReason::OldFrenchRule) => "draw by the old French rule".into(),
    }
}

impl<G: Geometry> Table for Game<G> {
    fn clone_box(&self) -> Box<dyn Table> {
        Box::new(self.clone())
    }
    fn variant(&self) -> &'static Variant {
        self.position().variant()
    }
    fn fen(&self) -> String {
        fen::write(self.position())
    }
    fn start_fen(&self) -> String {
        fen::write(self.start_position())
    }
    fn actor(&self) -> Actor {
        tablier_core::Game::actor(self)
    }
    fn moves(&self) -> Vec<MoveInfo> {
        let pos = self.position();
        self.legal_moves()
            .iter()
            .map(|m| move_info(pos, m))
            .collect()
    }
    fn play_text(&mut self, text: &str) -> Result<(), String> {
        let m = self.parse_action(text).map_err(|e| e.reason)?;
        self.apply(&m).map_err(|e| e.reason)
    }
    fn outcome(&self) -> Option<Outcome> {
        let o = tablier_core::Game::outcome(self)?;
        Some(Outcome::new(
            o,
            self.ending().map(ending_reason).unwrap_or_default(),
        ))
    }
    fn perft(&self, depth: u32) -> u64 {
        self.position().perft(depth)
    }
    fn pdn(&self, tags: &[(&str, &str)]) -> String {
        pdn::write_pdn(&replay::to_pdn(self, tags))
    }
    fn played(&self) -> Vec<String> {
        let mut p = *self.start_position();
        self.moves()
            .iter()
            .map(|m| {
                let t = notation::format(&p, m);
                p.play_unchecked(m);
                t
            })
            .collect()
    }
    fn pieces(&self) -> Vec<(u32, Side, bool)> {
        self.position()
            .pieces()
            .into_iter()
            .map(|(s, p)| (s, p.side, p.king))
            .collect()
    }
    fn best(&self, level: u8, seed: u64, budget: Budget) -> Option<String> {
        let m = LevelPlayer::new(level, seed).choose(self, budget)?;
        Some(notation::format(self.position(), &m))
    }
    fn explain(&self, level: u8, seed: u64, budget: Budget) -> Option<Explanation> {
        LevelPlayer::new(level, seed).explain(self, budget)
    }
    fn search(&self, limits: &Limits) -> (Option<String>, i32, u32, Vec<String>) {
        let h = self.positions_since_irreversible();
        search_position(self.position(), &h[..h.len().saturating_sub(1)], limits)
    }
    fn evaluate(&self) -> i32 {
        Searcher::<G>::new(self.variant(), 1).evaluate(self.position())
    }
}

impl<G: Geometry> Table for FrenchGame<G> {
    fn clone_box(&self) -> Box<dyn Table> {
        Box::new(self.clone())
    }
    fn variant(&self) -> &'static Variant {
        self.position().variant()
    }
    fn fen(&self) -> String {
        fen::write(self.position())
    }
    fn start_fen(&self) -> String {
        fen::write(self.start_position())
    }
    fn actor(&self) -> Actor {
        tablier_core::Game::actor(self)
    }
    fn moves(&self) -> Vec<MoveInfo> {
        let pos = self.position();
        self.legal_actions()
            .iter()
            .map(|a| match a {
                french::Action::Move(m) => {
                    let mut info = move_info(pos, m);
                    info.notation = self.format_action_text(a);
                    info
                }
                _ => {
                    let text = self.format_action_text(a);
                    MoveInfo {
                        full: text.clone(),
                        notation: text,
                        path: Vec::new(),
                        captured: Vec::new(),
                    }
                }
            })
            .collect()
    }
    fn play_text(&mut self, text: &str) -> Result<(), String> {
        let a = self.parse_action_text(text).map_err(|e| e.reason)?;
        self.apply_action(&a).map_err(|e| e.reason)
    }
    fn outcome(&self) -> Option<Outcome> {
        let o = tablier_core::Game::outcome(self)?;
        Some(Outcome::new(
            o,
            self.ending().map(ending_reason).unwrap_or_default(),
        ))
    }
    fn perft(&self, depth: u32) -> u64 {
        french::perft(self.position(), depth)
    }
    fn pdn(&self, tags: &[(&str, &str)]) -> String {
        pdn::write_pdn(&french::to_pdn(self, tags))
    }
    fn played(&self) -> Vec<String> {
        self.record_text()
    }
    fn pieces(&self) -> Vec<(u32, Side, bool)> {
        self.position()
            .pieces()
            .into_iter()
            .map(|(s, p)| (s, p.side, p.king))
            .collect()
    }
    fn best(&self, level: u8, seed: u64, budget: Budget) -> Option<String> {
        let a = LevelPlayer::new(level, seed).choose(self, budget)?;
        Some(self.format_action_text(&a))
    }
    fn explain(&self, level: u8, seed: u64, budget: Budget) -> Option<Explanation> {
        LevelPlayer::new(level, seed).explain(self, budget)
    }
    fn search(&self, limits: &Limits) -> (Option<String>, i32, u32, Vec<String>) {
        search_position(self.position(), &[], limits)
    }
    fn evaluate(&self) -> i32 {
        Searcher::<G>::new(self.variant(), 1).evaluate(self.position())
    }
}

/// A new table for `variant`, from `fen_text` or the start.
fn new_table(variant: &'static Variant, fen_text: Option<&str>) -> Result<Box<dyn Table>, String> {
    let french = std::ptr::eq(variant, &tablier_draughts::FRENCH_OLD);
    with_board!(variant.board, G => {
        let pos: Position<G> = match fen_text {
            Some(t) => fen::parse::<G>(variant, t).map_err(|e| format!("FEN {t:?}: {e}"))?,
            None => Position::<G>::start(variant).map_err(|e| e.to_string())?,
        };
        let table: Box<dyn Table> = if french {
            Box::new(FrenchGame::from_position(pos, TableOptions::default()))
        } else {
            Box::new(Game::from_position(pos))
        };
        Ok(table)
    })
}

fn variant_by_name(name: &str) -> PyResult<&'static Variant> {
    Variant::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = tablier_draughts::VARIANTS.iter().map(|v| v.name).collect();
        invalid(format!(
            "unknown variant {name:?}: expected one of {}",
            names.join(", ")
        ))
    })
}

/// One legal move: its notation, the squares the piece visits and the squares it captures.
#[pyclass(name = "Move", module = "tablier.draughts", frozen, eq)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyMove {
    info: MoveInfo,
}

#[pymethods]
impl PyMove {
    /// The move as written in the game's notation (`32-28`, `28x19`; the full path only where
    /// another capture has the same ends).
    #[getter]
    fn notation(&self) -> &str {
        &self.info.notation
    }
    /// The squares the piece visits, start to end (empty for a huff or a force).
    #[getter]
    fn path(&self) -> Vec<u32> {
        self.info.path.iter().map(|&s| u32::from(s)).collect()
    }
    /// The squares of the pieces it captures.
    #[getter]
    fn captured(&self) -> Vec<u32> {
        self.info.captured.iter().map(|&s| u32::from(s)).collect()
    }
    /// The start square (`None` for a huff or a force).
    #[getter]
    fn start(&self) -> Option<u8> {
        self.info.path.first().copied()
    }
    /// The end square (`None` for a huff or a force).
    #[getter]
    fn end(&self) -> Option<u8> {
        self.info.path.last().copied()
    }
    /// True for a capture.
    #[getter]
    fn is_capture(&self) -> bool {
        !self.info.captured.is_empty()
    }
    fn __str__(&self) -> &str {
        &self.info.notation
    }
    fn __repr__(&self) -> String {
        format!("Move({})", py_str(&self.info.notation))
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.info.full.hash(&mut h);
        h.finish()
    }
}

/// A game of draughts.
///
/// `Game(variant="international", fen=None)`: variants `international`, `brazilian`,
/// `canadian`, `english` and `french-old` (captures enforced by huffing); `fen` sets up any
/// position (`W:W31-50:B1-20`, kings `K`, ranges).
#[pyclass(name = "Game", module = "tablier.draughts")]
pub struct PyGame {
    table: Box<dyn Table>,
}

impl PyGame {
    fn play_str(&mut self, text: &str) -> PyResult<()> {
        if self.table.actor() == Actor::Nobody {
            return Err(illegal(format!("{text}: the game is over")));
        }
        let legal = self.table.moves();
        // A complete path written by a program resolves at once.
        if let Some(m) = legal.iter().find(|m| m.full == text || m.notation == text) {
            let full = m.full.clone();
            return self
                .table
                .play_text(&full)
                .or_else(|_| self.table.play_text(text))
                .map_err(|e| illegal(format!("{text}: {e}")));
        }
        let mut next = self.table.clone_box();
        match next.play_text(text) {
            Ok(()) => {
                self.table = next;
                Ok(())
            }
            Err(e) => {
                let syntax = tablier_draughts::notation::MoveText::parse(text).is_err()
                    && !matches!(self.table.variant().name, "french-old");
                if syntax {
                    Err(invalid(format!("{text:?}: {e}")))
                } else {
                    Err(illegal(format!("{text}: {e}")))
                }
            }
        }
    }

    /// OpenSpiel action ids of the legal moves, with each move's index in `moves()`.
    fn action_ids(&self) -> PyResult<Vec<(i64, usize)>> {
        let n = i64::from(self.table.variant().board.squares());
        let moves = self.table.moves();
        let mut ids = Vec::with_capacity(moves.len());
        for (i, m) in moves.iter().enumerate() {
            if m.path.is_empty() {
                // Old French rules: huffing the piece on a square (`s21`) and obliging the
                // opponent to take with it (`f21`), after the moves' ids.
                let square = |prefix: char| {
                    m.notation
                        .strip_prefix(prefix)
                        .and_then(|t| t.parse::<i64>().ok())
                        .filter(|q| (1..=n).contains(q))
                };
                let id = match (square('s'), square('f')) {
                    (Some(q), _) => n * n * SAME_ENDS + q - 1,
                    (_, Some(q)) => n * n * SAME_ENDS + n + q - 1,
                    _ => {
                        return Err(invalid(format!(
                            "{:?}: no OpenSpiel action id for it",
                            m.notation
                        )))
                    }
                };
                ids.push((id, i));
                continue;
            }
            let (from, to) = (m.path[0], *m.path.last().unwrap_or(&m.path[0]));
            let rank = moves
                .iter()
                .filter(|o| {
                    !o.path.is_empty()
                        && o.path[0] == from
                        && o.path.last() == Some(&to)
                        && (o.captured < m.captured)
                })
                .count() as i64;
            if rank >= SAME_ENDS {
                return Err(invalid(format!(
                    "more than {SAME_ENDS} captures from {from} to {to}: no action id"
                )));
            }
            let id = ((i64::from(from) - 1) * n + i64::from(to) - 1) * SAME_ENDS + rank;
            ids.push((id, i));
        }
        Ok(ids)
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (variant = "international", fen = None))]
    fn new(variant: &str, fen: Option<&str>) -> PyResult<Self> {
        let v = variant_by_name(variant)?;
        Ok(PyGame {
            table: new_table(v, fen).map_err(invalid)?,
        })
    }

    /// Replays the main line of a PDN game (its `GameType` and `FEN` tags are read; `variant`
    /// is the default where the game names none).
    #[staticmethod]
    #[pyo3(signature = (text, variant = "international"))]
    fn from_pdn(text: &str, variant: &str) -> PyResult<Self> {
        let default = variant_by_name(variant)?;
        let g = pdn::parse_game(text).map_err(|e| invalid(format!("PDN: {e}")))?;
        let v = match g.tag("GameType") {
            Some(t) => Variant::by_pdn_game_type(t).ok_or_else(|| {
                invalid(format!(
                    "PDN: GameType {t:?} is not a variant tablier plays"
                ))
            })?,
            None => default,
        };
        let mut game = PyGame {
            table: new_table(v, g.tag("FEN")).map_err(|e| invalid(format!("PDN: {e}")))?,
        };
        for (i, m) in g.main_line().enumerate() {
            let text = m.to_string();
            game.play_str(&text)
                .map_err(|e| invalid(format!("PDN: ply {}: {}", i + 1, e)))?;
        }
        Ok(game)
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.table.variant().name
    }
    /// Number of playable squares (32, 50 or 72).
    #[getter]
    fn squares(&self) -> u32 {
        self.table.variant().board.squares()
    }
    /// The position as FEN (`W:W31-50:B1-20`).
    #[getter]
    fn fen(&self) -> String {
        self.table.fen()
    }
    /// The position the game started from, as FEN.
    #[getter]
    fn start_fen(&self) -> String {
        self.table.start_fen()
    }
    /// The side to move, `"white"` or `"black"`; `None` once the game is over.
    #[getter]
    fn turn(&self) -> Option<&'static str> {
        match self.table.actor() {
            Actor::Player(s) => Some(side_name(s)),
            _ => None,
        }
    }
    /// True once the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.table.actor() == Actor::Nobody
    }
    /// How the game ended (`None` while it goes on).
    #[getter]
    fn outcome(&self) -> Option<Outcome> {
        self.table.outcome()
    }
    /// The moves played so far, in notation.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.table.played()
    }
    /// The pieces: `(square, "white"|"black", is_king)`, by square.
    fn pieces(&self) -> Vec<(u32, &'static str, bool)> {
        self.table
            .pieces()
            .into_iter()
            .map(|(s, side, k)| (s, side_name(side), k))
            .collect()
    }
    /// The legal moves (none once the game is over).
    fn legal_moves(&self) -> Vec<PyMove> {
        self.table
            .moves()
            .into_iter()
            .map(|info| PyMove { info })
            .collect()
    }
    /// Plays a move given as text (`"32-28"`, `"28x19"`, `"28x17x8"`) or as a `Move` of
    /// `legal_moves()`. Raises `IllegalMove` (with the reason) when it is not legal here and
    /// `InvalidInput` when the text is not a move at all; the game is then unchanged.
    fn play(&mut self, m: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Ok(mv) = m.cast::<PyMove>() {
            let full = mv.get().info.full.clone();
            return self.play_str(&full);
        }
        let text: String = m
            .extract()
            .map_err(|_| invalid("play() takes a move's text or a Move"))?;
        self.play_str(&text)
    }
    /// The number of leaves of the legal-move tree `depth` plies deep (the GIL is released).
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth > 20 {
            return Err(invalid(format!(
                "perft depth {depth} is too deep (at most 20)"
            )));
        }
        let t = self.table.clone_box();
        Ok(py.detach(move || t.perft(depth)))
    }
    /// The game as PDN; keyword arguments become tags (`pdn(White="A", Black="B")`).
    #[pyo3(signature = (**tags))]
    fn pdn(&self, tags: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
        let mut owned: Vec<(String, String)> = Vec::new();
        if let Some(d) = tags {
            for (k, v) in d.iter() {
                owned.push((k.extract()?, v.str()?.extract()?));
            }
        }
        let refs: Vec<(&str, &str)> = owned
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        Ok(self.table.pdn(&refs))
    }
    /// An independent copy.
    fn copy(&self) -> PyGame {
        PyGame {
            table: self.table.clone_box(),
        }
    }
    fn __copy__(&self) -> PyGame {
        self.copy()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.copy()
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.borrow();
        let args = (me.table.variant().name, me.table.start_fen());
        (slf.get_type(), args, me.table.played()).into_pyobject(py)
    }
    fn __setstate__(&mut self, moves: Vec<String>) -> PyResult<()> {
        for m in moves {
            self.play_str(&m)?;
        }
        Ok(())
    }
    fn __repr__(&self) -> String {
        format!(
            "Game(variant={}, fen={})",
            py_str(self.table.variant().name),
            py_str(&self.table.fen())
        )
    }

    // OpenSpiel support (see tablier/openspiel.py for the encoding).

    /// Sorted OpenSpiel action ids of the legal moves.
    fn _os_legal(&self) -> PyResult<Vec<i64>> {
        let mut ids: Vec<i64> = self.action_ids()?.into_iter().map(|(id, _)| id).collect();
        ids.sort_unstable();
        Ok(ids)
    }
    /// Plays the move of an OpenSpiel action id.
    fn _os_apply(&mut self, id: i64) -> PyResult<()> {
        let ids = self.action_ids()?;
        let (_, i) = ids
            .into_iter()
            .find(|(a, _)| *a == id)
            .ok_or_else(|| illegal(format!("action {id} is not legal here")))?;
        let full = self.table.moves()[i].full.clone();
        self.table.play_text(&full).map_err(illegal)
    }
    /// The notation of an OpenSpiel action id in this position (or a description of the id).
    fn _os_action_string(&self, id: i64) -> PyResult<String> {
        if let Some((_, i)) = self.action_ids()?.into_iter().find(|(a, _)| *a == id) {
            return Ok(self.table.moves()[i].notation.clone());
        }
        let n = i64::from(self.table.variant().board.squares());
        let past = id - n * n * SAME_ENDS;
        if (0..n).contains(&past) {
            return Ok(format!("s{}", past + 1));
        }
        if (n..2 * n).contains(&past) {
            return Ok(format!("f{}", past - n + 1));
        }
        let (pair, rank) = (id / SAME_ENDS, id % SAME_ENDS);
        Ok(format!("{}-{}#{}", pair / n + 1, pair % n + 1, rank))
    }
    /// The observation planes (see tablier/openspiel.py): white men, white kings, black men,
    /// black kings, side to move; one value per square.
    fn _os_observation(&self) -> Vec<f32> {
        let n = self.table.variant().board.squares() as usize;
        let mut v = vec![0.0f32; 5 * n];
        for (s, side, king) in self.table.pieces() {
            let plane = side.index() * 2 + usize::from(king);
            v[plane * n + s as usize - 1] = 1.0;
        }
        if self.table.actor() == Actor::Player(Side::White) {
            v[4 * n..].fill(1.0);
        }
        v
    }
}

/// The draughts engine at a level (0 to 8; 6 to 8 think for a set time), its random choices
/// seeded: `Engine(level=4, seed=0)`.
#[pyclass(name = "Engine", module = "tablier.draughts", frozen)]
pub struct PyEngine {
    level: u8,
    seed: u64,
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (level = 4, seed = 0))]
    fn new(level: u8, seed: u64) -> PyResult<Self> {
        if level > MAX_LEVEL {
            return Err(invalid(format!(
                "level {level}: the levels are 0 to {MAX_LEVEL}"
            )));
        }
        Ok(PyEngine { level, seed })
    }
    /// The level played.
    #[getter]
    fn level(&self) -> u8 {
        self.level
    }
    /// The move the engine plays in `game` at its level, within `time` seconds if given
    /// (`None` once the game is over). The GIL is released while it thinks.
    #[pyo3(signature = (game, time = None))]
    fn best_move(
        &self,
        py: Python<'_>,
        game: &PyGame,
        time: Option<f64>,
    ) -> PyResult<Option<PyMove>> {
        let b = budget(time)?;
        let t = game.table.clone_box();
        let (level, seed) = (self.level, self.seed);
        let text = py.detach(move || t.best(level, seed, b));
        Ok(text.and_then(|text| {
            game.table
                .moves()
                .into_iter()
                .find(|m| m.notation == text)
                .map(|info| PyMove { info })
        }))
    }
    /// A search of `game`'s position: to `depth` plies, for `time` seconds, or at the engine's
    /// level when neither is given. The value is in men for the side to move.
    #[pyo3(signature = (game, depth = None, time = None))]
    fn analyse(
        &self,
        py: Python<'_>,
        game: &PyGame,
        depth: Option<u32>,
        time: Option<f64>,
    ) -> PyResult<Option<Analysis>> {
        if game.table.actor() == Actor::Nobody {
            return Ok(None);
        }
        let t = game.table.clone_box();
        if depth.is_none() && time.is_none() {
            let (level, seed) = (self.level, self.seed);
            let e = py.detach(move || t.explain(level, seed, Budget::UNLIMITED));
            return Ok(e.map(Analysis::from));
        }
        if depth.is_some_and(|d| d == 0 || d > 64) {
            return Err(invalid("depth: expected 1 to 64 plies"));
        }
        let limits = match (depth, time) {
            (Some(d), None) => Limits::depth(d),
            (d, Some(_)) => {
                let b = budget(time)?;
                let mut l = Limits::move_time(b.time.unwrap_or(Duration::from_secs(1)));
                l.depth = d;
                l.search_forced = true;
                l
            }
            (None, None) => unreachable!(),
        };
        let (best, score, depth, line) = py.detach(move || t.search(&limits));
        let value = f64::from(score) / 100.0;
        Ok(Some(Analysis {
            value,
            unit: "men",
            candidates: best.iter().map(|b| (b.clone(), value)).collect(),
            best,
            line,
            depth,
        }))
    }
    /// The static evaluation of `game`'s position in men, for the side to move.
    fn evaluate(&self, game: &PyGame) -> f64 {
        f64::from(game.table.evaluate()) / 100.0
    }
    fn __repr__(&self) -> String {
        format!("Engine(level={}, seed={})", self.level, self.seed)
    }
}

/// The names of the variants.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    tablier_draughts::VARIANTS.iter().map(|v| v.name).collect()
}

/// OpenSpiel: the number of distinct action ids of a variant.
#[pyfunction]
fn _os_num_actions(variant: &str) -> PyResult<i64> {
    let v = variant_by_name(variant)?;
    let n = i64::from(v.board.squares());
    // The old French rules add a huff (`sN`) and an obligation to take (`fN`) per square.
    let huffs = if std::ptr::eq(v, &tablier_draughts::FRENCH_OLD) {
        2 * n
    } else {
        0
    };
    Ok(n * n * SAME_ENDS + huffs)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyMove>()?;
    m.add_class::<PyEngine>()?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(_os_num_actions, m)?)?;
    m.add("MAX_LEVEL", MAX_LEVEL)?;
    Ok(())
}
