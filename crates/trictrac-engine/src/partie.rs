//! The chance of winning the partie in 12 holes: a table over the score (holes, points and
//! bredouille of both players, who throws), built by dynamic programming from the law of a
//! throw measured in the engine's own parties, and a small model that adds what the board
//! promises (the evaluation's expected hole margin to come) to the table's chance.
//!
//! A partie in 12 holes is won or lost (n°140, n°162): at 2 holes against 11, losing by 1 or by
//! 10 holes is the same loss, and a player far behind must seek the throws that can still turn
//! the partie (n°387). The search values every choice by this chance when its objective is
//! [`crate::search::Objective::Partie`], the levels' objective.
//!
//! # The table
//! A score is seen from the player about to throw (the *roller*). One throw gives him `g`
//! points and gives his opponent `q` points (false hits, contre-jans, numbers he cannot
//! play); the pair `(g, q)` is drawn from the law measured in self-play ([`ThrowLaw`]). His
//! `g` points are marked first (with the marker's rules: bredouille, double holes, points de
//! reste, n°143–148); when they make a hole he goes (points erased, he throws again,
//! n°155–157) as often as the engine went in its parties; otherwise, or when he stays, the
//! opponent marks `q` and throws next. The chance `W(score)` of the roller is the fixed point
//! of these equations, solved block by block from the highest hole counts down (holes never
//! decrease), by Gauss–Seidel iteration inside a block.
//!
//! The board is not in the table: every throw of the law is the average throw of the
//! engine's parties, at every stage of a relevé. The board's part comes from the model.
//!
//! # The model
//! `P(win) = σ(a·logit W + (M − E)·(b + c·k) + d)`, where `W` is the table's chance of the
//! score, `M` the evaluation's hole margin to come for the roller
//! ([`crate::Weights::roller_value`]), `E` the margin the table itself expects from the score
//! with the law's average throws ([`PartieTable::margin`]), and `k` what one hole is worth
//! in logit at this score ([`PartieModel::hole_worth`]: half the chance between one more
//! hole for the roller and one more for his opponent, over the chance's slope `W(1 − W)`).
//! `M − E` is what the board promises beyond an average board at this score: the table
//! already counts the roller's next throw as an average throw, so the board must only add
//! what it promises beyond that (a first model added the whole `M` and counted the next
//! throw twice, so that it went too often after a hole). The shipped coefficients are
//! `[a, 0, a, 0]`, the scale `a` fitted by logistic regression on the outcomes of
//! self-play parties ([`model_of`]): `a` calibrates the chance shown (the table, built from
//! an average throw, is too sure of the score) and leaves the choices at 1 ply as they
//! are.
//!
//! # How good it is
//! Between plays of one throw the score is the same, and the chance ranks them as the hole
//! margin does; going or staying compares a score where the roller throws again with one
//! where his opponent does, and there a hole of margin weighs what it is worth at each
//! score (more where the partie is close to its end, n°387). Measured at 1 ply over 1,000
//! parties with the same dice both seatings (`tablier trictrac duel --a partie-stay --b
//! margin-stay --parties 1000 --seed 2026 --threads 2`), with the levels' correction of
//! staying ([`crate::rester`]) on both sides: 502 parties against 498 for the margin
//! objective (50.2% ± 0.5%, −0.001 ± 0.028 holes per partie) — the same strength, now
//! deciding by the chance of the partie. Without the correction, 498 against 502 (49.8% ±
//! 0.6%); the first model (the whole `M` added) won 479 (47.9% ± 1.7%). The levels play for
//! this chance ([`crate::MAX_LEVEL`]): against the margin without the correction, 1,550
//! parties of 3,000 (51.7% ± 1.4%; 1,560 with the tenue played out near the end). The model sees the holes a board promises on average,
//! not their spread; near the end, where the spread decides (n°387), the levels play the
//! tenue out ([`crate::tenue`]).
//!
//! # Example
//! ```
//! use tablier_trictrac_engine::partie::{PartieModel, Score};
//!
//! let model = PartieModel::shipped();
//! // Level at 5 holes each, no points: the roller's chance is near one half.
//! let even = model.table.chance(&Score::at_holes(5, 5));
//! assert!((0.4..0.6).contains(&even));
//! // At 11 holes against 2 he is nearly sure to win.
//! assert!(model.table.chance(&Score::at_holes(11, 2)) > 0.9);
//! ```

use std::sync::OnceLock;

use tablier_core::{Dice, Side};
use tablier_trictrac::{Marker, Roll};

use crate::eval::Weights;
use crate::sim::{primaute, AfterPlay, Policy, State, MAX_THROWS, PARTIE_HOLES};

const H: usize = PARTIE_HOLES as usize;
/// States of the table: holes and points of both players (0..12 each) and two bredouilles.
const STATES: usize = H * H * H * H * 4;

/// A score between two throws from the point of view of the player about to throw:
/// index 0 is his, index 1 his opponent's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Holes (0 to 11 each while the partie goes on).
    pub holes: [u32; 2],
    /// Points (0 to 11).
    pub points: [u32; 2],
    /// Whether each run of points is uninterrupted.
    pub bredouille: [bool; 2],
}

impl Score {
    /// The score of `marker` seen by `roller`.
    #[must_use]
    pub fn of(marker: &Marker, roller: Side) -> Score {
        let (r, o) = (roller.index(), roller.opposite().index());
        Score {
            holes: [marker.holes[r], marker.holes[o]],
            points: [marker.points[r], marker.points[o]],
            bredouille: [marker.bredouille[r], marker.bredouille[o]],
        }
    }

    /// A score with holes only (no points on the marker).
    #[must_use]
    pub fn at_holes(roller: u32, other: u32) -> Score {
        Score {
            holes: [roller, other],
            ..Score::default()
        }
    }

    /// The marker with the roller as White.
    fn marker(&self) -> Marker {
        Marker {
            points: self.points,
            holes: self.holes,
            bredouille: self.bredouille,
            ..Marker::default()
        }
    }

    /// The score of a marker whose White is the roller, seen by `roller`.
    fn from_marker(m: &Marker, roller: usize) -> Score {
        let o = 1 - roller;
        Score {
            holes: [m.holes[roller], m.holes[o]],
            points: [m.points[roller], m.points[o]],
            bredouille: [m.bredouille[roller], m.bredouille[o]],
        }
    }

    /// Whether some player has 12 holes.
    #[must_use]
    pub fn over(&self) -> bool {
        self.holes.iter().any(|&h| h >= PARTIE_HOLES)
    }

    /// Index in the table (the score must not be over, points below 12).
    fn index(&self) -> usize {
        let b = usize::from(self.bredouille[0]) * 2 + usize::from(self.bredouille[1]);
        let [hr, ho] = self.holes.map(|h| h as usize);
        let [pr, po] = self.points.map(|p| (p as usize).min(H - 1));
        (((hr * H + ho) * H + pr) * H + po) * 4 + b
    }
}

/// The law of one throw, measured in the engine's own parties.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ThrowLaw {
    /// `(gains, given, count)`: how often a throw gave its roller `gains` points and his
    /// opponent `given` points.
    pub throws: Vec<(u32, u32, u64)>,
    /// Throws whose gains made a hole (with the partie going on).
    pub holes_made: u64,
    /// Of those, how often the roller went.
    pub went: u64,
}

impl ThrowLaw {
    /// Counts one throw.
    pub fn add(&mut self, gains: u32, given: u32) {
        match self
            .throws
            .iter_mut()
            .find(|t| t.0 == gains && t.1 == given)
        {
            Some(t) => t.2 += 1,
            None => self.throws.push((gains, given, 1)),
        }
    }

    /// Adds another law's counts.
    pub fn merge(&mut self, other: &ThrowLaw) {
        for &(g, q, n) in &other.throws {
            match self.throws.iter_mut().find(|t| t.0 == g && t.1 == q) {
                Some(t) => t.2 += n,
                None => self.throws.push((g, q, n)),
            }
        }
        self.holes_made += other.holes_made;
        self.went += other.went;
    }

    /// The throws with their probabilities.
    #[must_use]
    pub fn probabilities(&self) -> Vec<(u32, u32, f64)> {
        let total: u64 = self.throws.iter().map(|t| t.2).sum();
        self.throws
            .iter()
            .map(|&(g, q, n)| (g, q, n as f64 / total.max(1) as f64))
            .collect()
    }

    /// How often a hole made by a throw led its roller to go.
    #[must_use]
    pub fn go_chance(&self) -> f64 {
        if self.holes_made == 0 {
            0.0
        } else {
            self.went as f64 / self.holes_made as f64
        }
    }
}

/// The chance of winning the partie from every score (see the module's documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct PartieTable {
    /// The law it was built from.
    pub law: ThrowLaw,
    win: Vec<f64>,
    /// The roller's expected margin of holes from the score to the end of the partie (his
    /// holes to come less his opponent's), under the same law.
    margin: Vec<f64>,
}

/// Where a transition leads.
#[derive(Clone, Copy)]
enum To {
    Win,
    Loss,
    /// The roller throws again from this state (he went).
    Same(usize),
    /// The opponent throws from this state.
    Other(usize),
}

impl PartieTable {
    /// Solves the table for `law` (a fraction of a second in an optimised build).
    #[must_use]
    pub fn build(law: &ThrowLaw) -> PartieTable {
        let throws = law.probabilities();
        let go = law.go_chance();
        let mut win = vec![0.5; STATES];
        let mut margin = vec![0.0; STATES];
        // Blocks of hole pairs {(a, b), (b, a)}, from the most holes down.
        let mut pairs: Vec<(usize, usize)> =
            (0..H).flat_map(|a| (a..H).map(move |b| (a, b))).collect();
        pairs.sort_by_key(|&(a, b)| std::cmp::Reverse(a + b));
        for (a, b) in pairs {
            let mut states = Vec::new();
            for (hr, ho) in [(a, b), (b, a)] {
                for pr in 0..H {
                    for po in 0..H {
                        for br in [false, true] {
                            for bo in [false, true] {
                                states.push(Score {
                                    holes: [hr as u32, ho as u32],
                                    points: [pr as u32, po as u32],
                                    bredouille: [br, bo],
                                });
                            }
                        }
                    }
                }
                if a == b {
                    break;
                }
            }
            // The transitions of the block: for each state and throw, (probability, to).
            let moves: Vec<Vec<Step>> =
                states.iter().map(|s| transitions(s, &throws, go)).collect();
            let idx: Vec<usize> = states.iter().map(Score::index).collect();
            for _ in 0..10_000 {
                let mut change: f64 = 0.0;
                for (k, m) in moves.iter().enumerate() {
                    let (mut v, mut e) = (0.0, 0.0);
                    for &(p, to, holes) in m {
                        let (w, rest) = match to {
                            To::Win => (1.0, 0.0),
                            To::Loss => (0.0, 0.0),
                            To::Same(i) => (win[i], margin[i]),
                            To::Other(i) => (1.0 - win[i], -margin[i]),
                        };
                        v += p * w;
                        e += p * (holes + rest);
                    }
                    let i = idx[k];
                    change = change.max((v - win[i]).abs()).max((e - margin[i]).abs());
                    win[i] = v;
                    margin[i] = e;
                }
                if change < 1e-10 {
                    break;
                }
            }
        }
        PartieTable {
            law: law.clone(),
            win,
            margin,
        }
    }

    /// The roller's expected margin of holes from `score` to the end of the partie (his
    /// holes to come less his opponent's) when every throw is the law's average throw; 0
    /// when the partie is over. What the evaluation's margin to come
    /// ([`Weights::roller_value`]) says beyond this is what the board adds to the score.
    #[must_use]
    pub fn margin(&self, score: &Score) -> f64 {
        if score.over() {
            0.0
        } else {
            self.margin[score.index()]
        }
    }

    /// The roller's chance of winning the partie from `score` (1 or 0 when it is over).
    #[must_use]
    pub fn chance(&self, score: &Score) -> f64 {
        if score.holes[0] >= PARTIE_HOLES {
            1.0
        } else if score.holes[1] >= PARTIE_HOLES {
            0.0
        } else {
            self.win[score.index()]
        }
    }
}

/// One transition: its probability, where it leads, and the holes it gives the roller less
/// those it gives his opponent.
type Step = (f64, To, f64);

/// The transitions of one state under the law.
fn transitions(s: &Score, throws: &[(u32, u32, f64)], go: f64) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    let mut push = |p: f64, to: To, holes: u32, given: u32| {
        if p > 0.0 {
            out.push((p, to, f64::from(holes) - f64::from(given)));
        }
    };
    for &(g, q, p) in throws {
        let mut m = s.marker();
        let holes = m.mark(Side::White, g);
        if m.holes[0] >= PARTIE_HOLES {
            push(p, To::Win, holes, 0);
            continue;
        }
        let mut stay = m;
        let given = stay.mark(Side::Black, q);
        let stay_to = if stay.holes[1] >= PARTIE_HOLES {
            To::Loss
        } else {
            To::Other(Score::from_marker(&stay, 1).index())
        };
        if holes > 0 && go > 0.0 {
            let mut gone = m;
            gone.erase_points();
            push(
                p * go,
                To::Same(Score::from_marker(&gone, 0).index()),
                holes,
                0,
            );
            push(p * (1.0 - go), stay_to, holes, given);
        } else {
            push(p, stay_to, holes, given);
        }
    }
    out
}

/// The logistic function.
#[must_use]
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The logit of a chance, kept finite.
#[must_use]
pub fn logit(p: f64) -> f64 {
    let p = p.clamp(1e-5, 1.0 - 1e-5);
    (p / (1.0 - p)).ln()
}

/// The inputs of the model for one position: `[logit W, M, M·k, 1]`.
pub type Inputs = [f64; 4];

/// The table and the model that adds the board's promise to it.
#[derive(Clone, Debug, PartialEq)]
pub struct PartieModel {
    /// The chance of each score.
    pub table: PartieTable,
    /// `a, b, c, d` of `σ(a·logit W + b·(M − E) + c·(M − E)·k + d)` (see the module).
    pub coefficients: [f64; 4],
}

/// First line of the data file (version 2: the board's margin is counted beyond the
/// table's expected margin of the score).
pub const PARTIE_HEADER: &str = "tablier-trictrac-partie 2";

/// The data shipped with tablier (made by `tablier train trictrac-partie`).
const SHIPPED: &str = include_str!("../weights/trictrac-partie.txt");

/// A data file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("partie data, line {line}: {reason}")]
pub struct PartieDataError {
    /// 1-based line (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl PartieModel {
    /// The model shipped with tablier (its table solved once, on first use).
    ///
    /// # Panics
    /// Never in a released build: a test reads the shipped file.
    #[must_use]
    pub fn shipped() -> &'static PartieModel {
        static MODEL: OnceLock<PartieModel> = OnceLock::new();
        MODEL.get_or_init(|| PartieModel::parse(SHIPPED).expect("the shipped partie data parse"))
    }

    /// The inputs of the model for a score and the evaluation's margin to come `margin`:
    /// the table's chance in logit, and the board's promise beyond the table's own
    /// expectation of the score (`margin − E`, [`PartieTable::margin`]), alone and weighted
    /// by what one more hole is worth at this score.
    #[must_use]
    pub fn inputs(&self, score: &Score, margin: f64) -> Inputs {
        let board = margin - self.table.margin(score);
        [
            logit(self.table.chance(score)),
            board,
            board * self.hole_worth(score),
            1.0,
        ]
    }

    /// What one hole is worth at `score` in logit of the roller's chance: half the chance
    /// between one more hole for him and one more for his opponent, over the chance's slope
    /// `W(1 − W)` (a difference of chances, so that it stays finite where a hole ends the
    /// partie).
    #[must_use]
    pub fn hole_worth(&self, score: &Score) -> f64 {
        let w = self.table.chance(score).clamp(1e-5, 1.0 - 1e-5);
        let (mut mine, mut his) = (*score, *score);
        mine.holes[0] += 1;
        his.holes[1] += 1;
        let d = (self.table.chance(&mine) - self.table.chance(&his)) / 2.0;
        d / (w * (1.0 - w))
    }

    /// How far the model's logit moves at `score` for one hole more of board margin for the
    /// roller: `b + c·k`.
    #[must_use]
    pub fn board_slope(&self, score: &Score) -> f64 {
        self.coefficients[1] + self.coefficients[2] * self.hole_worth(score)
    }

    /// The roller's chance of winning the partie for these inputs.
    #[must_use]
    pub fn chance_of(&self, x: &Inputs) -> f64 {
        let z: f64 = self.coefficients.iter().zip(x).map(|(c, v)| c * v).sum();
        sigmoid(z)
    }

    /// The roller's chance of winning from `score` when the board promises him `margin`
    /// holes more than his opponent from now to the end.
    #[must_use]
    pub fn chance(&self, score: &Score, margin: f64) -> f64 {
        if score.over() {
            return self.table.chance(score);
        }
        self.chance_of(&self.inputs(score, margin))
    }

    /// The data file: header, the coefficients, the law's go chance and throws, then (for the
    /// reader; not read back) the table at zero points, the roller's holes by rows.
    #[must_use]
    pub fn to_text(&self, comment: &str) -> String {
        let mut s = String::new();
        for l in comment.lines() {
            s.push_str(&format!("# {l}\n"));
        }
        s.push_str(&format!("{PARTIE_HEADER}\n"));
        let [a, b, c, d] = self.coefficients;
        s.push_str(&format!("model {a:.6} {b:.6} {c:.6} {d:.6}\n"));
        let law = &self.table.law;
        s.push_str(&format!("go {} {}\n", law.holes_made, law.went));
        let mut throws = law.throws.clone();
        throws.sort_unstable();
        for (g, q, n) in throws {
            s.push_str(&format!("throw {g} {q} {n}\n"));
        }
        s.push_str(
            "# The roller's chance at zero points (rows: his holes 0-11; columns: the opponent's):\n",
        );
        for hr in 0..PARTIE_HOLES {
            let row: Vec<String> = (0..PARTIE_HOLES)
                .map(|ho| format!("{:.4}", self.table.chance(&Score::at_holes(hr, ho))))
                .collect();
            s.push_str(&format!("# {}\n", row.join(" ")));
        }
        s
    }

    /// Reads [`PartieModel::to_text`] and solves the table.
    ///
    /// # Errors
    /// [`PartieDataError`] for another header, a line that does not parse, or no throws.
    pub fn parse(text: &str) -> Result<PartieModel, PartieDataError> {
        let err = |line: usize, reason: String| PartieDataError { line, reason };
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
        match lines.next() {
            Some((_, l)) if l.trim() == PARTIE_HEADER => {}
            Some((i, l)) => {
                return Err(err(
                    i + 1,
                    format!("expected {PARTIE_HEADER:?}, found {l:?}"),
                ))
            }
            None => return Err(err(0, "empty file".into())),
        }
        let mut law = ThrowLaw::default();
        let mut coefficients = None;
        for (i, l) in lines {
            let parts: Vec<&str> = l.split_whitespace().collect();
            let float = |t: &str| {
                t.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| err(i + 1, format!("{t:?} is not a number")))
            };
            let int = |t: &str| {
                t.parse::<u64>()
                    .map_err(|_| err(i + 1, format!("{t:?} is not a count")))
            };
            match parts[..] {
                ["model", a, b, c, d] => {
                    coefficients = Some([float(a)?, float(b)?, float(c)?, float(d)?]);
                }
                ["go", made, went] => {
                    law.holes_made = int(made)?;
                    law.went = int(went)?;
                    if law.went > law.holes_made {
                        return Err(err(i + 1, "more goes than holes".into()));
                    }
                }
                ["throw", g, q, n] => {
                    let (g, q) = (int(g)?, int(q)?);
                    if g > 200 || q > 200 {
                        return Err(err(i + 1, "a throw of more than 200 points".into()));
                    }
                    law.throws.push((g as u32, q as u32, int(n)?));
                }
                _ => return Err(err(i + 1, format!("unknown line {l:?}"))),
            }
        }
        let coefficients = coefficients.ok_or_else(|| err(0, "no `model` line".into()))?;
        if law.throws.iter().map(|t| t.2).sum::<u64>() == 0 {
            return Err(err(0, "no throws".into()));
        }
        Ok(PartieModel {
            table: PartieTable::build(&law),
            coefficients,
        })
    }
}

/// What one partie shows: the law of its throws and every position before a throw, with
/// whether its roller went on to win the partie.
#[derive(Clone, Debug, Default)]
pub struct Observed {
    /// The throws.
    pub law: ThrowLaw,
    /// The positions and their outcomes.
    pub positions: Vec<(State, bool)>,
}

/// Plays a partie from the start as [`crate::sim::play_partie`] does, and observes it. A
/// partie stopped after [`MAX_THROWS`] without a winner gives no positions.
pub fn observe(white: &mut dyn Policy, black: &mut dyn Policy, dice: &mut impl Dice) -> Observed {
    let (first, roll) = primaute(dice);
    let mut s = State::new(first);
    let mut pending = Some(roll);
    let mut law = ThrowLaw::default();
    let mut seen = Vec::new();
    let mut throws = 0;
    while !s.over && throws < MAX_THROWS {
        let roll = match pending.take() {
            Some(r) => r,
            None => {
                seen.push(s);
                let (a, b) = dice.roll_pair();
                Roll::new(a, b)
            }
        };
        throws += 1;
        let (score, holes) = s.begin_roll(roll);
        if s.over {
            law.add(score.gains(), score.given());
            break;
        }
        let p: &mut dyn Policy = match s.roller {
            Side::White => white,
            Side::Black => black,
        };
        if holes > 0 {
            law.holes_made += 1;
            if p.go(&s, &score) {
                law.add(score.gains(), score.given());
                law.went += 1;
                s.go();
                continue;
            }
        }
        let i = p.choose_play(&s, &score).min(score.plays.legal.len() - 1);
        let end = score.plays.legal[i].end;
        // The sortie's points are the roller's too (marked after the play).
        law.add(score.gains() + score.sortie_points(&end), score.given());
        pending = match s.play(&score, &end) {
            AfterPlay::Next => None,
            AfterPlay::Sortie { .. } if s.over => None,
            AfterPlay::Sortie { holes } => {
                if holes > 0 {
                    law.holes_made += 1;
                    if p.go_after_sortie(&s, &score) {
                        law.went += 1;
                        s.go();
                        continue;
                    }
                }
                Some(s.stay_after_sortie(&score))
            }
        };
    }
    let positions = if s.over {
        seen.into_iter()
            .map(|p| (p, s.marker.holes(p.roller) >= PARTIE_HOLES))
            .collect()
    } else {
        Vec::new()
    };
    Observed { law, positions }
}

/// The model of the observed parties: the table of their law, and one coefficient fitted
/// on their positions with the evaluation `weights` giving the margin to come: the scale
/// `a` of `P(win) = σ(a · (logit W + (M − E) · k))` (the coefficients `[a, 0, a, 0]`). The
/// scale calibrates the chance shown (the table alone, built from an average throw, is too
/// sure of the score); it leaves the choices as they are (going is worth more than staying
/// for every `a` alike, at 1 ply).
#[must_use]
pub fn model_of(observed: &Observed, weights: &Weights) -> PartieModel {
    let mut model = PartieModel {
        table: PartieTable::build(&observed.law),
        coefficients: [1.0, 0.0, 1.0, 0.0],
    };
    let samples: Vec<(Inputs, bool)> = observed
        .positions
        .iter()
        .map(|(s, won)| {
            let score = Score::of(&s.marker, s.roller);
            let [w, _, board, _] = model.inputs(&score, weights.roller_value(s));
            ([w + board, 0.0, 0.0, 0.0], *won)
        })
        .collect();
    let a = fit(&samples)[0];
    model.coefficients = [a, 0.0, a, 0.0];
    model
}

/// The log-loss (mean negative log-likelihood) of the model on observed positions, and of
/// the table alone: how much the board adds to the score.
#[must_use]
pub fn log_loss(model: &PartieModel, observed: &Observed, weights: &Weights) -> (f64, f64) {
    let n = observed.positions.len().max(1) as f64;
    let (mut with, mut table) = (0.0, 0.0);
    for (s, won) in &observed.positions {
        let score = Score::of(&s.marker, s.roller);
        let p = model
            .chance(&score, weights.roller_value(s))
            .clamp(1e-9, 1.0 - 1e-9);
        let t = model.table.chance(&score).clamp(1e-9, 1.0 - 1e-9);
        let y = |p: f64| if *won { -p.ln() } else { -(1.0 - p).ln() };
        with += y(p);
        table += y(t);
    }
    (with / n, table / n)
}

/// Fits `a, b, c, d` by logistic regression (Newton's method with a small ridge) on
/// `(inputs, won)` samples.
#[must_use]
pub fn fit(samples: &[(Inputs, bool)]) -> [f64; 4] {
    let mut w = [1.0, 0.0, 0.0, 0.0];
    for _ in 0..50 {
        let mut grad = [0.0; 4];
        let mut hess = [[0.0; 4]; 4];
        for (x, y) in samples {
            let z: f64 = w.iter().zip(x).map(|(a, b)| a * b).sum();
            let p = sigmoid(z);
            let r = p - f64::from(u8::from(*y));
            let s = p * (1.0 - p);
            for i in 0..4 {
                grad[i] += r * x[i];
                for j in 0..4 {
                    hess[i][j] += s * x[i] * x[j];
                }
            }
        }
        for (i, row) in hess.iter_mut().enumerate() {
            row[i] += 1e-6 * samples.len() as f64;
            grad[i] += 1e-6 * samples.len() as f64 * (w[i] - [1.0, 0.0, 0.0, 0.0][i]);
        }
        let Some(step) = solve4(hess, grad) else {
            break;
        };
        let mut size: f64 = 0.0;
        for i in 0..4 {
            w[i] -= step[i];
            size = size.max(step[i].abs());
        }
        if size < 1e-9 {
            break;
        }
    }
    w
}

/// Solves a 4×4 system by Gaussian elimination with pivoting.
fn solve4(mut a: [[f64; 4]; 4], mut b: [f64; 4]) -> Option<[f64; 4]> {
    for c in 0..4 {
        let p = (c..4).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))?;
        if a[p][c].abs() < 1e-300 {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..4 {
            let f = a[r][c] / a[c][c];
            let pivot = a[c];
            for (x, y) in a[r].iter_mut().zip(pivot).skip(c) {
                *x -= f * y;
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = [0.0; 4];
    for c in (0..4).rev() {
        let s: f64 = (c + 1..4).map(|k| a[c][k] * x[k]).sum();
        x[c] = (b[c] - s) / a[c][c];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coin_law() -> ThrowLaw {
        // Each throw: 4 points to the roller or 2 to his opponent, alike.
        ThrowLaw {
            throws: vec![(4, 0, 1), (0, 2, 1), (0, 0, 2)],
            holes_made: 10,
            went: 0,
        }
    }

    #[test]
    fn the_table_is_a_chance_and_rises_with_ones_holes() {
        let t = PartieTable::build(&coin_law());
        for hr in 0..12 {
            for ho in 0..12 {
                let w = t.chance(&Score::at_holes(hr, ho));
                assert!((0.0..=1.0).contains(&w));
                if hr > 0 {
                    assert!(w > t.chance(&Score::at_holes(hr - 1, ho)), "{hr} {ho}");
                }
                if ho > 0 {
                    assert!(w < t.chance(&Score::at_holes(hr, ho - 1)), "{hr} {ho}");
                }
            }
        }
    }

    #[test]
    fn the_table_solves_its_equations() {
        // W(s) = Σ p · (value after the throw), and the expected margin E(s) = Σ p · (holes
        // of the throw + E after it), checked on every state of a few blocks.
        let law = coin_law();
        let t = PartieTable::build(&law);
        let throws = law.probabilities();
        for (hr, ho) in [(0, 0), (5, 7), (11, 11), (11, 0)] {
            for pr in 0..12 {
                for po in 0..12 {
                    let s = Score {
                        holes: [hr, ho],
                        points: [pr, po],
                        bredouille: [pr > 0 && po == 0, po > 0 && pr == 0],
                    };
                    let (mut v, mut e) = (0.0, 0.0);
                    for &(p, to, holes) in &transitions(&s, &throws, law.go_chance()) {
                        let (w, rest) = match to {
                            To::Win => (1.0, 0.0),
                            To::Loss => (0.0, 0.0),
                            To::Same(i) => (t.win[i], t.margin[i]),
                            To::Other(i) => (1.0 - t.win[i], -t.margin[i]),
                        };
                        v += p * w;
                        e += p * (holes + rest);
                    }
                    assert!((v - t.chance(&s)).abs() < 1e-8, "{s:?}");
                    assert!((e - t.margin(&s)).abs() < 1e-7, "{s:?}");
                }
            }
        }
    }

    #[test]
    fn throwing_first_is_an_advantage() {
        // The same law for both players: at equal holes and no points, the player about to
        // throw is ahead.
        let t = PartieTable::build(&coin_law());
        for h in 0..12 {
            let first = t.chance(&Score::at_holes(h, h));
            assert!(first > 0.5, "{h}: {first}");
        }
    }

    #[test]
    fn fit_recovers_known_coefficients() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let truth = [0.9, 0.3, 0.1, -0.2];
        let samples: Vec<(Inputs, bool)> = (0..20_000)
            .map(|_| {
                let x = [
                    rng.gen_range(-3.0..3.0),
                    rng.gen_range(-2.0..2.0),
                    rng.gen_range(-2.0..2.0),
                    1.0,
                ];
                let z: f64 = truth.iter().zip(&x).map(|(a, b)| a * b).sum();
                (x, rng.gen::<f64>() < sigmoid(z))
            })
            .collect();
        let w = fit(&samples);
        for i in 0..4 {
            assert!((w[i] - truth[i]).abs() < 0.08, "{w:?}");
        }
    }

    #[test]
    fn bad_data_is_refused() {
        assert!(PartieModel::parse("").is_err());
        assert!(PartieModel::parse("tablier-trictrac-partie 1\n").is_err());
        let ok = format!("{PARTIE_HEADER}\nmodel 1 0 0 0\ngo 1 0\nthrow 4 0 3\n");
        assert!(PartieModel::parse(&ok).is_ok());
        assert!(PartieModel::parse(&format!("{PARTIE_HEADER}\nmodel 1 0 0 0\n")).is_err());
        assert!(PartieModel::parse(&ok.replace("throw 4 0 3", "throw x 0 3")).is_err());
        assert!(PartieModel::parse(&ok.replace("go 1 0", "go 1 2")).is_err());
        assert!(PartieModel::parse(&ok.replace("model 1 0 0 0", "model 1 0 0 NaN")).is_err());
    }

    /// Points marked for a player almost never lower his chance of winning at any score of
    /// the shipped table. They can where he has 11 points: 2 more make his hole now, while
    /// his own next throw would make it anyway, with the right to go and throw again
    /// (n°155) that a hole marked by an école does not give (at 9 holes against 11, 3.5
    /// points of chance). So the engine claims an école when the table says so (lib.rs,
    /// `choose_action`), which is nearly always.
    #[test]
    fn points_for_a_player_almost_never_lower_his_chance() {
        let t = &PartieModel::shipped().table;
        let (mut checked, mut lower, mut worst) = (0u32, 0u32, 0.0f64);
        for hr in 0..12 {
            for ho in 0..12 {
                for pr in 0..12 {
                    for po in 0..12 {
                        for (br, bo) in [(false, false), (true, false), (false, true)] {
                            let s = Score {
                                holes: [hr, ho],
                                points: [pr, po],
                                bredouille: [br && pr > 0, bo && po > 0],
                            };
                            let w = t.chance(&s);
                            for k in [2, 4, 6] {
                                for who in [Side::White, Side::Black] {
                                    let mut m = s.marker();
                                    m.mark(who, k);
                                    let after = t.chance(&Score::from_marker(&m, 0));
                                    // The change for the player who marked.
                                    let d = if who == Side::White {
                                        after - w
                                    } else {
                                        w - after
                                    };
                                    if d < 0.0 {
                                        lower += 1;
                                        worst = worst.max(-d);
                                    }
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        eprintln!("{lower} of {checked} markings lower the marker's chance, by {worst:.5} at most");
        assert!(
            lower > 0 && f64::from(lower) < 0.01 * f64::from(checked),
            "{lower} of {checked}"
        );
        assert!(worst < 0.05, "{worst}");
    }

    #[test]
    fn the_shipped_model_reads_back_to_the_same_text() {
        let m = PartieModel::shipped();
        let again = PartieModel::parse(&m.to_text("")).unwrap();
        assert_eq!(&again, m);
    }
}
