//! `tablier._tablier`: the PyO3 extension behind the `tablier` Python package.
//!
//! One submodule per game family (`draughts`, `backgammon`, `trictrac`), each wrapping the
//! rules crate and the engine crate of that family; nothing here re-implements a rule. The
//! thin Python layer (`python/tablier/*.py`) re-exports these classes and adds what is better
//! written in Python (OpenSpiel registration).
//!
//! Errors: text that cannot be read (a FEN, an ID, a record, an action) raises
//! [`InvalidInput`]; an action that is not legal now raises [`IllegalMove`] (both are
//! `ValueError`s), and the game is left unchanged. The rules crates return errors rather than
//! panic on bad input; PyO3 turns any panic that would still happen into a Python
//! `PanicException` instead of aborting the interpreter.
#![forbid(unsafe_code)]

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tablier_core::{Outcome as CoreOutcome, Side};

mod backgammon;
mod draughts;
mod trictrac;

create_exception!(
    tablier,
    TablierError,
    PyValueError,
    "Base class of tablier's errors (a ValueError)."
);
create_exception!(
    tablier,
    InvalidInput,
    TablierError,
    "Text that cannot be read: a FEN, an ID, a record, a move written wrongly."
);
create_exception!(
    tablier,
    IllegalMove,
    TablierError,
    "An action the rules do not allow now; the game is unchanged."
);

/// `"white"` or `"black"`.
pub(crate) fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// Reads `"white"`/`"black"` (or `"w"`/`"b"`, any case).
pub(crate) fn parse_side(text: &str) -> PyResult<Side> {
    match text.trim().to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Side::White),
        "black" | "b" => Ok(Side::Black),
        _ => Err(InvalidInput::new_err(format!(
            "side {text:?}: expected \"white\" or \"black\""
        ))),
    }
}

/// A string as Python's `repr` writes it (single quotes; the texts here hold no quotes).
pub(crate) fn py_str(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

pub(crate) fn invalid(msg: impl std::fmt::Display) -> PyErr {
    InvalidInput::new_err(msg.to_string())
}

pub(crate) fn illegal(msg: impl std::fmt::Display) -> PyErr {
    IllegalMove::new_err(msg.to_string())
}

/// How a game ended: the winner (`None` for a draw), what the win is worth and why it ended.
#[pyclass(module = "tablier", frozen, eq)]
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// `"white"`, `"black"`, or `None` for a draw.
    #[pyo3(get)]
    pub winner: Option<&'static str>,
    /// Points won: 1 in draughts; cube × single/gammon/backgammon in a money game, the
    /// winner's match score in a match; the stake in trictrac. 0 for a draw.
    #[pyo3(get)]
    pub points: u32,
    /// Why the game ended, in words.
    #[pyo3(get)]
    pub reason: String,
}

impl Outcome {
    pub(crate) fn new(o: CoreOutcome, reason: impl Into<String>) -> Outcome {
        match o {
            CoreOutcome::Win { winner, points } => Outcome {
                winner: Some(side_name(winner)),
                points,
                reason: reason.into(),
            },
            CoreOutcome::Draw => Outcome {
                winner: None,
                points: 0,
                reason: reason.into(),
            },
        }
    }
}

#[pymethods]
impl Outcome {
    /// The game's result from `side`'s point of view: +points, -points, or 0.
    fn value_for(&self, side: &str) -> PyResult<i64> {
        let side = side_name(parse_side(side)?);
        Ok(match self.winner {
            None => 0,
            Some(w) if w == side => i64::from(self.points),
            Some(_) => -i64::from(self.points),
        })
    }

    fn __repr__(&self) -> String {
        match self.winner {
            Some(w) => format!(
                "Outcome(winner='{w}', points={}, reason={})",
                self.points,
                py_str(&self.reason)
            ),
            None => format!(
                "Outcome(winner=None, points=0, reason={})",
                py_str(&self.reason)
            ),
        }
    }
}

/// An engine's view of a position: its value for the side to act, the line it expects and
/// the candidates it weighed.
#[pyclass(module = "tablier", frozen)]
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The value for the side to act, in `unit`.
    #[pyo3(get)]
    pub value: f64,
    /// `"men"` (draughts), `"equity"` (backgammon), `"holes"` (trictrac; `"jetons"` for
    /// going or staying when going would end a marqué of a partie à écrire).
    #[pyo3(get)]
    pub unit: &'static str,
    /// The action the engine would take, in notation (`None` where it has none).
    #[pyo3(get)]
    pub best: Option<String>,
    /// The expected continuation in notation, starting with `best`.
    #[pyo3(get)]
    pub line: Vec<String>,
    /// `(action, value)` pairs, best first.
    #[pyo3(get)]
    pub candidates: Vec<(String, f64)>,
    /// Search depth reached (draughts; 0 elsewhere).
    #[pyo3(get)]
    pub depth: u32,
}

#[pymethods]
impl Analysis {
    fn __repr__(&self) -> String {
        let best = self.best.as_deref().map_or("None".to_owned(), py_str);
        let line: Vec<String> = self.line.iter().map(|s| py_str(s)).collect();
        format!(
            "Analysis(value={:.3}, unit='{}', best={best}, line=[{}])",
            self.value,
            self.unit,
            line.join(", ")
        )
    }
}

impl From<tablier_core::Explanation> for Analysis {
    fn from(e: tablier_core::Explanation) -> Analysis {
        Analysis {
            value: e.value,
            unit: e.unit,
            best: e.line.first().cloned(),
            line: e.line,
            candidates: e.candidates,
            depth: 0,
        }
    }
}

/// A time budget in seconds, checked.
pub(crate) fn budget(seconds: Option<f64>) -> PyResult<tablier_core::Budget> {
    match seconds {
        None => Ok(tablier_core::Budget::UNLIMITED),
        Some(s) if s.is_finite() && s > 0.0 && s < 1e6 => Ok(tablier_core::Budget::at_most(
            std::time::Duration::from_secs_f64(s),
        )),
        Some(s) => Err(PyValueError::new_err(format!(
            "time {s}: expected a number of seconds above 0"
        ))),
    }
}

#[pymodule]
fn _tablier(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TablierError", py.get_type::<TablierError>())?;
    m.add("InvalidInput", py.get_type::<InvalidInput>())?;
    m.add("IllegalMove", py.get_type::<IllegalMove>())?;
    m.add_class::<Outcome>()?;
    m.add_class::<Analysis>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    for (name, init) in [
        (
            "draughts",
            draughts::register as fn(&Bound<'_, PyModule>) -> PyResult<()>,
        ),
        ("backgammon", backgammon::register),
        ("trictrac", trictrac::register),
    ] {
        let sub = PyModule::new(py, name)?;
        init(&sub)?;
        m.add_submodule(&sub)?;
    }
    Ok(())
}
