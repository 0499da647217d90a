//! `tablier.trictrac`: a partie of grand trictrac (`Partie`), the plays of a roll with their
//! jans (`Play`, `Jan`) and the engine (`Engine`).

use std::collections::HashSet;

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use tablier_core::{Actor, Game as _, ParseErrorKind, Player as _, Side};
use tablier_trictrac::board::to_rel;
use tablier_trictrac::game::RecordLine;
use tablier_trictrac::marker::Marker;
use tablier_trictrac::scoring::Event;
use tablier_trictrac::{Action, Board, Marking, Options, Phase, Play, Roll, Trictrac};
use tablier_trictrac_engine::player::LevelPlayer;
use tablier_trictrac_engine::{state_of, Search, Weights, MAX_LEVEL};

use crate::{budget, illegal, invalid, parse_side, py_str, side_name, Analysis, Outcome};

/// OpenSpiel ids: `kind * 676 + high_from * 26 + low_from` for the plays (four kinds), then
/// go and stay; for the écoles, `mark k`, `warn k` and `ecole k` (`k` < 256 points each), then
/// claim, decline, erase and oblige.
const GRID: i64 = 26 * 26;
const GO_ID: i64 = 4 * GRID;
const STAY_ID: i64 = GO_ID + 1;
/// How many point counts each of mark, warn and ecole has ids for.
const POINTS: i64 = 256;
const MARK_ID: i64 = STAY_ID + 1;
const WARN_ID: i64 = MARK_ID + POINTS;
const ECOLE_ID: i64 = WARN_ID + POINTS;
const CLAIM_ID: i64 = ECOLE_ID + POINTS;
const DECLINE_ID: i64 = CLAIM_ID + 1;
const ERASE_ID: i64 = DECLINE_ID + 1;
const OBLIGE_ID: i64 = ERASE_ID + 1;
const NUM_ACTIONS: i64 = OBLIGE_ID + 1;

/// The id of `k` points from `base` (none beyond [`POINTS`]).
fn points_id(base: i64, k: u32) -> Option<i64> {
    let k = i64::from(k);
    (k < POINTS).then_some(base + k)
}
const OBSERVATION_SIZE: usize = 50 + 6 + 4 + 2 + 5;

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Primaute => "primaute",
        Phase::Roll => "roll",
        Phase::ClaimWindow => "claim_window",
        Phase::MarkGains => "mark_gains",
        Phase::Decide => "decide",
        Phase::ContestGo => "contest_go",
        Phase::Play => "play",
        Phase::MarkGiven => "mark_given",
        Phase::AfterGiven => "after_given",
        Phase::Over => "over",
    }
}

/// The OpenSpiel id of a play by `side` with `roll` (see `tablier/openspiel.py`).
fn play_id(play: &Play, side: Side, roll: Roll) -> i64 {
    let rel = |abs: u8| i64::from(to_rel(side, abs));
    let (kind, hops): (i64, Vec<(i64, u8)>) = match play {
        Play::Pass => (0, Vec::new()),
        Play::Moves(steps) => {
            let chained = steps.len() == 2 && steps[1].from == steps[0].to;
            (
                if chained { 3 } else { 0 },
                steps.iter().map(|s| (rel(s.from), s.die)).collect(),
            )
        }
        Play::ToutDUne {
            from,
            rest,
            first,
            second,
            ..
        } => (1, vec![(rel(*from), *first), (rel(*rest), *second)]),
        Play::Puissance { from, .. } => (2, vec![(rel(from[0]), 0), (rel(from[1]), 0)]),
    };
    let (mut hi, mut lo) = (0i64, 0i64);
    if roll.is_doublet() || kind == 2 {
        let mut f: Vec<i64> = hops.iter().map(|h| h.0).collect();
        f.sort_unstable_by(|a, b| b.cmp(a));
        hi = f.first().copied().unwrap_or(0);
        lo = f.get(1).copied().unwrap_or(0);
    } else {
        for (from, die) in hops {
            if die == roll.high {
                hi = from;
            } else {
                lo = from;
            }
        }
    }
    kind * GRID + hi * 26 + lo
}

/// One scoring event of a roll: a jan, a hit, a fill, a conservation, ...
#[pyclass(name = "Jan", module = "tablier.trictrac", frozen)]
#[derive(Clone, Debug)]
pub struct PyJan {
    /// The event's name as the book writes it (`battre à vrai`, `remplir`, ...).
    #[pyo3(get)]
    kind: &'static str,
    /// Who marks the points: `"white"` or `"black"`.
    #[pyo3(get)]
    to: &'static str,
    /// The points it is worth.
    #[pyo3(get)]
    points: u32,
    /// Number of ways (hits, fills) or of unplayed numbers; 1 otherwise.
    #[pyo3(get)]
    ways: u8,
    /// The flèche concerned (absolute, 1..24 along White's path), if any.
    #[pyo3(get)]
    at: Option<u8>,
    /// The table concerned, if any.
    #[pyo3(get)]
    table: Option<&'static str>,
    /// The book's paragraph (`n°131`).
    #[pyo3(get)]
    paragraph: &'static str,
    /// The event in words.
    #[pyo3(get)]
    text: String,
}

impl PyJan {
    fn new(e: &Event) -> PyJan {
        PyJan {
            kind: e.kind.name(),
            to: side_name(e.to),
            points: e.points,
            ways: e.ways,
            at: e.at,
            table: e.table.map(|t| t.name()),
            paragraph: e.kind.paragraph(),
            text: e.to_string(),
        }
    }
}

#[pymethods]
impl PyJan {
    fn __repr__(&self) -> String {
        format!("Jan({})", py_str(&self.text))
    }
}

/// One legal play of the roll: its notation, the position it leads to, and the roll's jans
/// with the points they give each player.
#[pyclass(name = "Play", module = "tablier.trictrac", frozen)]
#[derive(Clone, Debug)]
pub struct PyPlay {
    /// The play (`1-7,1-6`, `8-12-16`, `7-12,8-12 puissance`, `20-off`, `pass`).
    #[pyo3(get)]
    notation: String,
    /// The position after the play.
    #[pyo3(get)]
    position: String,
    /// Points the roll gives `(white, black)`.
    #[pyo3(get)]
    points: (u32, u32),
    /// The roll's scoring events (the legal plays all score the same — the obligations make
    /// every legal play fill, or conserve, when one can — but for the sortie, which only a
    /// play that bears off the last dame marks, after it).
    #[pyo3(get)]
    jans: Vec<PyJan>,
}

#[pymethods]
impl PyPlay {
    fn __str__(&self) -> String {
        self.notation.clone()
    }
    fn __repr__(&self) -> String {
        format!("Play({}, points={:?})", py_str(&self.notation), self.points)
    }
}

/// A partie of grand trictrac.
///
/// `Partie(marking="automatic", marques=0, stakes=False, position=None, roller="white",
/// points=(0, 0), holes=(0, 0))`: `marking="ecoles"` lets the players mark their own points
/// (wrong marks are écoles the other may claim); `marques` an even number for a partie à
/// écrire, 0 for the partie in 12 holes; `position` (`1W15-24B15`) with the marker and the
/// `roller` to throw next sets up a position in the middle of a relevé.
#[pyclass(name = "Partie", module = "tablier.trictrac")]
#[derive(Clone)]
pub struct PyPartie {
    game: Trictrac,
    /// Where the partie started: `None` from the start, or the set-up position.
    origin: Option<(String, Marker, Side)>,
    /// Every action since, in notation.
    actions: Vec<String>,
}

impl PyPartie {
    fn apply(&mut self, a: &Action) -> PyResult<()> {
        let text = self.game.format_action(a);
        self.game
            .apply(a)
            .map_err(|e| illegal(format!("{text}: {}", e.reason)))?;
        self.actions.push(text);
        Ok(())
    }

    fn play_text(&mut self, text: &str) -> PyResult<()> {
        let a = self.game.parse_action(text).map_err(|e| match e.kind {
            ParseErrorKind::Syntax => invalid(format!("{text:?}: {}", e.reason)),
            _ => illegal(format!("{text}: {}", e.reason)),
        })?;
        self.apply(&a)
    }

    fn id_actions(&self) -> Vec<(i64, Action)> {
        let g = &self.game;
        match g.phase() {
            Phase::Primaute => g
                .legal_actions()
                .into_iter()
                .filter_map(|a| match a {
                    Action::Primaute { white, black } => {
                        Some((i64::from(white - 1) * 6 + i64::from(black - 1), a))
                    }
                    _ => None,
                })
                .collect(),
            Phase::Roll => Roll::all()
                .into_iter()
                .map(|r| {
                    (
                        i64::from(r.high - 1) * 6 + i64::from(r.low - 1),
                        Action::Roll(r),
                    )
                })
                .collect(),
            _ => {
                let roll = g.roll_score().map(|s| (s.roller, s.roll));
                g.legal_actions()
                    .into_iter()
                    .filter_map(|a| {
                        let id = match &a {
                            Action::Go => GO_ID,
                            Action::Stay => STAY_ID,
                            Action::Play(p) => {
                                let (side, r) = roll?;
                                play_id(p, side, r)
                            }
                            Action::Mark(k) => points_id(MARK_ID, *k)?,
                            Action::Warn(k) => points_id(WARN_ID, *k)?,
                            Action::Ecole(k) => points_id(ECOLE_ID, *k)?,
                            Action::Claim => CLAIM_ID,
                            Action::Decline => DECLINE_ID,
                            Action::Erase => ERASE_ID,
                            Action::Oblige => OBLIGE_ID,
                            _ => return None,
                        };
                        Some((id, a))
                    })
                    .collect()
            }
        }
    }
}

#[pymethods]
impl PyPartie {
    #[new]
    #[pyo3(signature = (marking = "automatic", marques = 0, stakes = false, position = None, roller = "white", points = (0, 0), holes = (0, 0)))]
    fn new(
        marking: &str,
        marques: u32,
        stakes: bool,
        position: Option<&str>,
        roller: &str,
        points: (u32, u32),
        holes: (u32, u32),
    ) -> PyResult<Self> {
        let marking = match marking {
            "automatic" => Marking::Automatic,
            "ecoles" | "écoles" => Marking::Ecoles,
            _ => {
                return Err(invalid(format!(
                    "marking {marking:?}: expected \"automatic\" or \"ecoles\""
                )))
            }
        };
        if marques % 2 == 1 || marques > 1000 {
            return Err(invalid(format!(
                "marques {marques}: an even number of marqués (0 for the partie in 12 holes)"
            )));
        }
        let options = Options {
            marking,
            partie: if marques == 0 {
                tablier_trictrac::Partie::Ordinaire
            } else {
                tablier_trictrac::Partie::AEcrire { marques }
            },
            stakes,
            ..Options::default()
        };
        let roller = parse_side(roller)?;
        if points.0 >= 12 || points.1 >= 12 {
            return Err(invalid(format!("points {points:?}: each below 12")));
        }
        let goal = if marques == 0 { 12 } else { 1000 };
        if holes.0 >= goal || holes.1 >= goal {
            return Err(invalid(format!(
                "holes {holes:?}: the partie would be over"
            )));
        }
        match position {
            None if points == (0, 0) && holes == (0, 0) && roller == Side::White => Ok(PyPartie {
                game: Trictrac::new(options),
                origin: None,
                actions: Vec::new(),
            }),
            _ => {
                let text = position.unwrap_or("1W15-24B15");
                let board =
                    Board::parse(text).map_err(|e| invalid(format!("position {text:?}: {e}")))?;
                let mut marker = Marker::new();
                marker.points = [points.0, points.1];
                marker.holes = [holes.0, holes.1];
                Ok(PyPartie {
                    game: Trictrac::from_position(options, board, marker, roller),
                    origin: Some((board.to_string(), marker, roller)),
                    actions: Vec::new(),
                })
            }
        }
    }

    /// Replays a game record (JSON lines, as `record()` writes it), checking the marker
    /// after every action.
    #[staticmethod]
    fn replay(record: &str) -> PyResult<Self> {
        let game = Trictrac::replay(record).map_err(|e| invalid(format!("record: {e}")))?;
        let mut p = PyPartie {
            game: Trictrac::new(game.options()),
            origin: None,
            actions: Vec::new(),
        };
        for line in record.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            // Trictrac::replay accepted every line.
            let rec: RecordLine = serde_json::from_str(line)
                .map_err(|e| invalid(format!("record line {line:?}: {e}")))?;
            p.play_text(&rec.action)?;
        }
        Ok(p)
    }

    /// The game record as JSON lines (from the start of the partie only).
    fn record(&self) -> PyResult<String> {
        if self.origin.is_some() {
            return Err(invalid(
                "a partie set up from a position has no record from the start",
            ));
        }
        Ok(self.game.record())
    }

    /// The position (`1W15-24B15`: flèche, colour, dames; absolute flèches along White's
    /// path).
    #[getter]
    fn position(&self) -> String {
        self.game.board().to_string()
    }
    /// The phase of the turn: `"primaute"`, `"roll"`, `"decide"`, `"play"`, `"over"`, or in
    /// the écoles mode `"claim_window"`, `"mark_gains"`, `"contest_go"`, `"mark_given"`,
    /// `"after_given"`.
    #[getter]
    fn phase(&self) -> &'static str {
        phase_name(self.game.phase())
    }
    /// The player whose roll it is (or was).
    #[getter]
    fn roller(&self) -> &'static str {
        side_name(self.game.roller())
    }
    /// Who acts now: `"white"`, `"black"`, `"chance"` (dice), or `None` (over).
    #[getter]
    fn actor(&self) -> Option<&'static str> {
        match self.game.actor() {
            Actor::Player(s) => Some(side_name(s)),
            Actor::Chance => Some("chance"),
            Actor::Nobody => None,
        }
    }
    /// The roll being played, larger number first (`None` between turns).
    #[getter]
    fn dice(&self) -> Option<(u8, u8)> {
        self.game.roll_score().map(|s| (s.roll.high, s.roll.low))
    }
    /// Points `(white, black)` on the marker (0 to 11).
    #[getter]
    fn points(&self) -> (u32, u32) {
        let m = self.game.marker();
        (m.points[0], m.points[1])
    }
    /// Holes `(white, black)`.
    #[getter]
    fn holes(&self) -> (u32, u32) {
        let m = self.game.marker();
        (m.holes[0], m.holes[1])
    }
    /// Whether each player's run of points is still uninterrupted `(white, black)`.
    #[getter]
    fn bredouille(&self) -> (bool, bool) {
        let m = self.game.marker();
        (m.bredouille[0], m.bredouille[1])
    }
    /// The marking mode: `"automatic"` or `"ecoles"`.
    #[getter]
    fn marking(&self) -> &'static str {
        match self.game.options().marking {
            Marking::Automatic => "automatic",
            Marking::Ecoles => "ecoles",
        }
    }
    /// The écoles that can be claimed: `(by, points, par_trop)`.
    #[getter]
    fn ecoles(&self) -> Vec<(&'static str, u32, bool)> {
        self.game
            .ecoles()
            .iter()
            .map(|e| (side_name(e.by), e.points, e.trop))
            .collect()
    }
    /// The actions taken so far, in notation.
    #[getter]
    fn actions(&self) -> Vec<String> {
        self.actions.clone()
    }
    /// How the partie ended (`None` while it goes on).
    #[getter]
    fn outcome(&self) -> Option<Outcome> {
        let o = self.game.outcome()?;
        let m = self.game.marker();
        Some(Outcome::new(
            o,
            format!("holes {}-{}", m.holes[0], m.holes[1]),
        ))
    }
    /// True once the partie is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.phase() == Phase::Over
    }
    /// The current roll's scoring events (jans, hits, fills, ...), the roller's first.
    fn jans(&self) -> Vec<PyJan> {
        self.game
            .roll_score()
            .map(|s| s.events.iter().map(PyJan::new).collect())
            .unwrap_or_default()
    }
    /// The legal plays of the roll being played, each with the position it leads to and the
    /// roll's jans and points.
    fn plays(&self) -> Vec<PyPlay> {
        let Some(s) = self.game.roll_score() else {
            return Vec::new();
        };
        s.plays
            .legal
            .iter()
            .map(|c| {
                let events = s.events_of_play(&c.end);
                PyPlay {
                    notation: c.play.notation(),
                    position: c.end.to_string(),
                    points: (
                        s.points_of_play(&c.end, Side::White),
                        s.points_of_play(&c.end, Side::Black),
                    ),
                    jans: events.iter().map(PyJan::new).collect(),
                }
            })
            .collect()
    }
    /// The legal actions of the actor, in notation (`1-7,1-6`, `go`, `stay`, `mark 4`, ...).
    fn legal_actions(&self) -> Vec<String> {
        self.game
            .legal_actions()
            .iter()
            .map(|a| self.game.format_action(a))
            .collect()
    }
    /// Throws the dice: at the start the primauté (White's die, Black's die, never equal),
    /// then the roller's two dice. Dice as `(6, 5)` or `"65"`.
    fn roll(&mut self, dice: &Bound<'_, PyAny>) -> PyResult<()> {
        let pair: (u8, u8) = if let Ok(t) = dice.extract::<String>() {
            let d: Vec<u8> = t
                .chars()
                .filter(|c| !matches!(c, '-' | ' ' | ','))
                .filter_map(|c| c.to_digit(10).map(|d| d as u8))
                .collect();
            match d[..] {
                [a, b] if t.chars().filter(|c| c.is_ascii_digit()).count() == 2 => (a, b),
                _ => return Err(invalid(format!("dice {t:?}: expected two numbers 1 to 6"))),
            }
        } else {
            dice.extract()
                .map_err(|_| invalid("dice: expected two numbers 1 to 6, like (6, 5)"))?
        };
        if !(1..=6).contains(&pair.0) || !(1..=6).contains(&pair.1) {
            return Err(invalid(format!("dice {pair:?}: each from 1 to 6")));
        }
        let a = match self.game.phase() {
            Phase::Primaute => Action::Primaute {
                white: pair.0,
                black: pair.1,
            },
            Phase::Roll => Action::Roll(Roll::new(pair.0, pair.1)),
            p => {
                return Err(illegal(format!(
                    "no dice are thrown now ({})",
                    phase_name(p)
                )))
            }
        };
        self.apply(&a)
    }
    /// Takes an action given as text: a play (`1-7,1-6`, `8-12-16`, `pass`), `go` (s'en
    /// aller), `stay`, and in the écoles mode `mark 4`, `claim`, `decline`, `ecole 4`,
    /// `erase`, `oblige`, `warn 4`. Raises `IllegalMove` with the reason when it is not legal
    /// now, `InvalidInput` when the text is not an action; the partie is unchanged.
    fn play(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let text: String = if let Ok(p) = action.cast::<PyPlay>() {
            p.get().notation.clone()
        } else {
            action
                .extract()
                .map_err(|_| invalid("play() takes an action's text or a Play"))?
        };
        self.play_text(&text)
    }
    /// An independent copy.
    fn copy(&self) -> PyPartie {
        self.clone()
    }
    fn __copy__(&self) -> PyPartie {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPartie {
        self.clone()
    }
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.borrow();
        let o = me.game.options();
        let marques = match o.partie {
            tablier_trictrac::Partie::Ordinaire => 0,
            tablier_trictrac::Partie::AEcrire { marques } => marques,
        };
        let marking = me.marking();
        let args = match &me.origin {
            None => (marking, marques, o.stakes, None, "white", (0, 0), (0, 0)),
            Some((pos, m, side)) => (
                marking,
                marques,
                o.stakes,
                Some(pos.clone()),
                side_name(*side),
                (m.points[0], m.points[1]),
                (m.holes[0], m.holes[1]),
            ),
        };
        (slf.get_type(), args, me.actions.clone()).into_pyobject(py)
    }
    fn __setstate__(&mut self, actions: Vec<String>) -> PyResult<()> {
        for a in actions {
            self.play_text(&a)?;
        }
        Ok(())
    }
    fn __repr__(&self) -> String {
        format!(
            "Partie(position={}, holes={:?}, points={:?}, phase={})",
            py_str(&self.position()),
            self.holes(),
            self.points(),
            py_str(self.phase())
        )
    }

    // OpenSpiel support (see tablier/openspiel.py for the encoding).

    /// Sorted OpenSpiel ids of the legal actions (player or chance).
    fn _os_legal(&self) -> PyResult<Vec<i64>> {
        let mut v: Vec<i64> = self.id_actions().into_iter().map(|(i, _)| i).collect();
        v.sort_unstable();
        let distinct: HashSet<i64> = v.iter().copied().collect();
        if distinct.len() != v.len() {
            return Err(invalid(format!(
                "two legal actions share an id in {}: {:?}",
                self.position(),
                self.legal_actions()
            )));
        }
        Ok(v)
    }
    /// Chance outcomes `(id, probability)`: the primauté (30 unequal pairs, 1/30 each) or
    /// the 21 rolls (1/36 or 2/36).
    fn _os_chance(&self) -> Vec<(i64, f64)> {
        match self.game.phase() {
            Phase::Primaute => self
                .id_actions()
                .into_iter()
                .map(|(i, _)| (i, 1.0 / 30.0))
                .collect(),
            Phase::Roll => Roll::all()
                .into_iter()
                .map(|r| {
                    (
                        i64::from(r.high - 1) * 6 + i64::from(r.low - 1),
                        f64::from(r.chances()) / 36.0,
                    )
                })
                .collect(),
            _ => Vec::new(),
        }
    }
    /// Applies an OpenSpiel id.
    fn _os_apply(&mut self, id: i64) -> PyResult<()> {
        let a = self
            .id_actions()
            .into_iter()
            .find(|(i, _)| *i == id)
            .map(|(_, a)| a)
            .ok_or_else(|| illegal(format!("action {id} is not legal here")))?;
        self.apply(&a)
    }
    /// The text of an OpenSpiel id in this state.
    fn _os_action_string(&self, id: i64) -> String {
        if let Some((_, a)) = self.id_actions().into_iter().find(|(i, _)| *i == id) {
            return self.game.format_action(&a);
        }
        match id {
            GO_ID => "go".into(),
            STAY_ID => "stay".into(),
            MARK_ID..WARN_ID => format!("mark {}", id - MARK_ID),
            WARN_ID..ECOLE_ID => format!("warn {}", id - WARN_ID),
            ECOLE_ID..CLAIM_ID => format!("ecole {}", id - ECOLE_ID),
            CLAIM_ID => "claim".into(),
            DECLINE_ID => "decline".into(),
            ERASE_ID => "erase".into(),
            OBLIGE_ID => "oblige".into(),
            _ => format!("action {id}"),
        }
    }
    /// The observation vector (layout in tablier/openspiel.py).
    fn _os_observation(&self) -> Vec<f32> {
        let b = self.game.board();
        let mut out = Vec::with_capacity(OBSERVATION_SIZE);
        for side in Side::ALL {
            for abs in 1..=24u8 {
                out.push(f32::from(b.count(side, abs)) / 15.0);
            }
            out.push(f32::from(b.off(side)) / 15.0);
        }
        let m = self.game.marker();
        for s in Side::ALL {
            out.push(m.points[s.index()] as f32 / 12.0);
        }
        for s in Side::ALL {
            out.push(m.holes[s.index()] as f32 / 12.0);
        }
        for s in Side::ALL {
            out.push(f32::from(u8::from(m.bredouille[s.index()])));
        }
        let actor = self.game.actor();
        for s in Side::ALL {
            out.push(f32::from(u8::from(actor == Actor::Player(s))));
        }
        for s in Side::ALL {
            out.push(f32::from(u8::from(self.game.roller() == s)));
        }
        let (h, l) = self
            .game
            .roll_score()
            .map_or((0, 0), |s| (s.roll.high, s.roll.low));
        out.push(f32::from(h) / 6.0);
        out.push(f32::from(l) / 6.0);
        let phase = self.game.phase();
        for p in [
            Phase::Primaute,
            Phase::Roll,
            Phase::Decide,
            Phase::Play,
            Phase::Over,
        ] {
            out.push(f32::from(u8::from(phase == p)));
        }
        debug_assert_eq!(out.len(), OBSERVATION_SIZE);
        out
    }
}

/// The trictrac engine at a level (0 to 3: 1-ply with noise up to 2-ply), its noise seeded:
/// `Engine(level=2, seed=0)`.
#[pyclass(name = "Engine", module = "tablier.trictrac", frozen)]
pub struct PyEngine {
    level: u8,
    player: std::sync::Mutex<LevelPlayer>,
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (level = 2, seed = 0))]
    fn new(level: u8, seed: u64) -> PyResult<Self> {
        if level > MAX_LEVEL {
            return Err(invalid(format!(
                "level {level}: the levels are 0 to {MAX_LEVEL}"
            )));
        }
        Ok(PyEngine {
            level,
            player: std::sync::Mutex::new(LevelPlayer::new(level, seed)),
        })
    }
    /// The level played.
    #[getter]
    fn level(&self) -> u8 {
        self.level
    }
    /// The action the engine takes now for the player who acts (a play, `go` or `stay`, and
    /// in the écoles mode its marks and claims), in notation; `None` when the dice are due or
    /// the partie is over. Every level answers within a second: `time` is accepted, not
    /// needed.
    #[pyo3(signature = (partie, time = None))]
    fn best_move(
        &self,
        py: Python<'_>,
        partie: &PyPartie,
        time: Option<f64>,
    ) -> PyResult<Option<String>> {
        let b = budget(time)?;
        let game = partie.game.clone();
        let a = py.detach(|| {
            let mut p = self.player.lock().unwrap_or_else(|e| e.into_inner());
            p.choose(&game, b)
        });
        Ok(a.map(|a| game.format_action(&a)))
    }
    /// The values of every play of the roll, or of going and staying after a hole: in a
    /// partie in 12 holes the actor's chance of winning it (unit `partie`, 0 to 1), what the
    /// levels decide by; in a partie à écrire the hole margin he can expect (unit `holes`),
    /// or in jetons the marqué's value when going would end the marqué; `None` elsewhere.
    #[pyo3(signature = (partie, time = None))]
    fn analyse(
        &self,
        py: Python<'_>,
        partie: &PyPartie,
        time: Option<f64>,
    ) -> PyResult<Option<Analysis>> {
        let b = budget(time)?;
        let game = partie.game.clone();
        let e = py.detach(|| {
            let mut p = self.player.lock().unwrap_or_else(|e| e.into_inner());
            p.explain(&game, b)
        });
        Ok(e.map(Analysis::from))
    }
    /// The trained evaluation of the partie for the roller, in holes (his expected margin at
    /// the end), as it stands between two throws.
    fn evaluate(&self, partie: &PyPartie) -> f64 {
        let s = state_of(&partie.game);
        Search::new(Weights::shipped(), 1).throw_value(&s, 0)
    }
    fn __repr__(&self) -> String {
        format!("Engine(level={})", self.level)
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPartie>()?;
    m.add_class::<PyPlay>()?;
    m.add_class::<PyJan>()?;
    m.add_class::<PyEngine>()?;
    m.add("MAX_LEVEL", MAX_LEVEL)?;
    m.add("_OS_NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("_OS_OBSERVATION_SIZE", OBSERVATION_SIZE)?;
    Ok(())
}
