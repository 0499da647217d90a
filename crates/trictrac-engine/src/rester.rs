//! Staying after a hole, learnt from playing both choices out.
//!
//! After a hole won by his own throw a player goes (the dames are lifted, a new relevé, he
//! throws again) or stays (he keeps his board and plays the roll, his opponent throws next,
//! n°155–157). The search values both by the evaluation one throw ahead; what either is
//! worth beyond — a *tenue* that marks throw after throw until it breaks (n°385), the new
//! relevé's first throws — the linear evaluation estimates in one step, and there it errs:
//! played out, the engine's own decisions differ from its estimate by about 0.9 hole
//! (the spread of the part a model can predict; the play-outs' own noise is larger).
//!
//! So the decision can get a correction, in holes, added to the value of staying: a linear
//! function of the position's base features ([`crate::eval::features`]) and of the
//! search's own difference between staying and going ([`StayModel`]). It is fitted on the
//! engine's own decisions: positions where a hole was won by a throw in self-play, each
//! played out both ways ([`play_out`]) for a number of throws with the same dice, then
//! valued by the evaluation; the target is what the play-outs say less what the search
//! said. The search applies it when [`crate::Search::stay`] is set: in holes under the
//! margin objective; under the chance of the partie, its holes are added to what the board
//! promises after staying and the chance recomputed there.
//!
//! # How good it is
//! The shipped model (`tablier train trictrac-stay --parties 250 --pairs 4 --horizon 16
//! --seed 31 --ridge 0.0001`: 1,936 decisions; held out, the RMS error of the search's
//! stay − go against the play-outs falls from 2.23 to 2.06 holes) turns about one decision
//! in seven. Against the margin search without it (`tablier trictrac duel --a margin-stay
//! --b margin --parties 1000 --seed S --threads 2`, 1 ply, same dice both seatings, seeds
//! 2026, 2027, 2028) it won 508, 516 and 526 parties of 1,000: **1,550 of 3,000, 51.7% ±
//! 1.4%, +0.23 ± 0.18 holes per partie** (95%). The 1-ply levels use it under the chance of
//! the partie ([`crate::player()`]).
//! Its features are those of the whole board: at n°387's position (a grand jan held, 3
//! holes against 11) it goes more than the search already does, where play-outs of 16 and
//! 40 throws (200 pairs) kept the tenue better by 0.5 to 0.8 hole (to the end of the
//! partie, 1,000 pairs, going won more parties: 105 against 87).
//!
//! # Example
//! ```
//! use tablier_trictrac_engine::rester::StayModel;
//!
//! let zero = StayModel::zero();
//! let again = StayModel::parse(&zero.to_text("")).unwrap();
//! assert_eq!(again, zero);
//! ```

use std::sync::OnceLock;

use tablier_core::Dice;
use tablier_trictrac::{Roll, RollScore};

use crate::eval::{features, BASE_FEATURES, BASE_FEATURE_NAMES};
use crate::search::Search;
use crate::sim::{go_or_stay, turn, Policy, State, MAX_THROWS};
use crate::SearchPlayer;

/// Inputs of the correction: the base features, then the search's own stay − go.
pub const STAY_INPUTS: usize = BASE_FEATURES + 1;

/// First line of a stay model file.
pub const STAY_HEADER: &str = "tablier-trictrac-stay 1";

/// The name of the last input.
const SEARCH_INPUT: &str = "search_stay_minus_go";

/// The correction added to the value of staying (in holes).
#[derive(Clone, Debug, PartialEq)]
pub struct StayModel {
    /// One weight per input ([`STAY_INPUTS`]).
    pub weights: Vec<f64>,
}

/// A stay model file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("stay model, line {line}: {reason}")]
pub struct StayDataError {
    /// 1-based line (0: the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// The data shipped with tablier (made by `tablier train trictrac-stay`).
const SHIPPED: &str = include_str!("../weights/trictrac-stay.txt");

impl StayModel {
    /// No correction.
    #[must_use]
    pub fn zero() -> StayModel {
        StayModel {
            weights: vec![0.0; STAY_INPUTS],
        }
    }

    /// The model shipped with tablier.
    ///
    /// # Panics
    /// Never in a released build: a test reads the shipped file.
    #[must_use]
    pub fn shipped() -> &'static StayModel {
        static MODEL: OnceLock<StayModel> = OnceLock::new();
        MODEL.get_or_init(|| StayModel::parse(SHIPPED).expect("the shipped stay model parses"))
    }

    /// The inputs for the roller of `t` deciding (his gains marked), the search valuing
    /// staying `search` holes above going.
    #[must_use]
    pub fn inputs(t: &State, search: f64) -> Vec<f64> {
        let f = features(t);
        let mut x = f[..BASE_FEATURES].to_vec();
        x.push(search);
        x
    }

    /// The correction for these inputs, in holes added to staying.
    #[must_use]
    pub fn correction_of(&self, x: &[f64]) -> f64 {
        self.weights.iter().zip(x).map(|(w, v)| w * v).sum()
    }

    /// The correction for the roller of `t` (see [`StayModel::inputs`]).
    #[must_use]
    pub fn correction(&self, t: &State, search: f64) -> f64 {
        self.correction_of(&StayModel::inputs(t, search))
    }

    /// The file: header, then one `name weight` line per input.
    #[must_use]
    pub fn to_text(&self, comment: &str) -> String {
        let mut s = String::new();
        for l in comment.lines() {
            s.push_str(&format!("# {l}\n"));
        }
        s.push_str(&format!("{STAY_HEADER}\n"));
        for (i, w) in self.weights.iter().enumerate() {
            s.push_str(&format!("{} {w:.6}\n", input_name(i)));
        }
        s
    }

    /// Reads [`StayModel::to_text`].
    ///
    /// # Errors
    /// [`StayDataError`] for another header, an unknown or missing input, or a weight that
    /// is not a finite number.
    pub fn parse(text: &str) -> Result<StayModel, StayDataError> {
        let err = |line: usize, reason: String| StayDataError { line, reason };
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
        match lines.next() {
            Some((_, l)) if l.trim() == STAY_HEADER => {}
            Some((i, l)) => {
                return Err(err(i + 1, format!("expected {STAY_HEADER:?}, found {l:?}")));
            }
            None => return Err(err(0, "empty file".into())),
        }
        let mut weights = vec![None; STAY_INPUTS];
        for (i, l) in lines {
            let parts: Vec<&str> = l.split_whitespace().collect();
            let [name, w] = parts[..] else {
                return Err(err(i + 1, format!("expected `name weight`, found {l:?}")));
            };
            let k = (0..STAY_INPUTS)
                .find(|&k| input_name(k) == name)
                .ok_or_else(|| err(i + 1, format!("unknown input {name:?}")))?;
            let w = w
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| err(i + 1, format!("{w:?} is not a number")))?;
            weights[k] = Some(w);
        }
        let weights = weights
            .iter()
            .enumerate()
            .map(|(k, w)| w.ok_or_else(|| err(0, format!("no weight for {}", input_name(k)))))
            .collect::<Result<Vec<f64>, _>>()?;
        Ok(StayModel { weights })
    }
}

fn input_name(k: usize) -> &'static str {
    BASE_FEATURE_NAMES.get(k).copied().unwrap_or(SEARCH_INPUT)
}

/// A decision to go or stay: the state before the throw, and the roll whose gains won a
/// hole (the partie going on).
#[derive(Clone, Copy, Debug)]
pub struct GoDecision {
    /// The state before the throw.
    pub before: State,
    /// The roll.
    pub roll: Roll,
}

impl GoDecision {
    /// The state with the roll's gains marked, its score and the holes they made.
    #[must_use]
    pub fn begin(&self) -> (State, RollScore, u32) {
        let mut t = self.before;
        let (score, holes) = t.begin_roll(self.roll);
        (t, score, holes)
    }
}

/// The go decisions of one partie played by `white` and `black` (holes won by a throw whose
/// gains did not end the partie; sorties left out).
pub fn decisions_of_partie(
    white: &mut dyn Policy,
    black: &mut dyn Policy,
    dice: &mut impl Dice,
) -> Vec<GoDecision> {
    let (first, roll) = crate::sim::primaute(dice);
    let mut s = State::new(first);
    let mut pending = Some(roll);
    let mut out = Vec::new();
    let mut throws = 0;
    while !s.over && throws < MAX_THROWS {
        let roll = pending.take().unwrap_or_else(|| {
            let (a, b) = dice.roll_pair();
            Roll::new(a, b)
        });
        let mut t = s;
        let (_, holes) = t.begin_roll(roll);
        if holes > 0 && !t.over {
            out.push(GoDecision { before: s, roll });
        }
        throws += 1;
        pending = turn(&mut s, roll, white, black);
    }
    out
}

/// What playing a decision out showed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayedOut {
    /// The mean value of going for the decider, in holes (his hole margin after the
    /// play-out plus the evaluation's margin to come).
    pub go: f64,
    /// The same for staying.
    pub stay: f64,
    /// The search's own stay − go at the decision.
    pub search: f64,
}

/// Plays `d` out both ways `pairs` times with `search` deciding for both players (no
/// correction), each pair with the same dice (`dice(k)` for pair `k`), for `horizon` throws
/// or to the end of the partie, and values where it got by the evaluation.
pub fn play_out<D: Dice>(
    search: &Search,
    d: &GoDecision,
    pairs: u32,
    horizon: u32,
    mut dice: impl FnMut(u32) -> D,
) -> PlayedOut {
    let (t, score, holes) = d.begin();
    let me = t.roller;
    let a = search.analyse(&t, &score, holes);
    let searched = a.stay() - a.go.unwrap_or(f64::NEG_INFINITY);
    let value = |s: &State| {
        let to_come = search.weights.roller_value(s);
        s.hole_margin(me) + if s.roller == me { to_come } else { -to_come }
    };
    let (mut go, mut stay) = (0.0, 0.0);
    for k in 0..pairs {
        for going in [true, false] {
            let mut p = SearchPlayer::new(search.clone(), 0.0, 0);
            let (mut s, mut pending) = go_or_stay(&t, &score, going, &mut p);
            let mut dice = dice(k);
            let mut q = p.clone();
            for _ in 0..horizon {
                if s.over {
                    break;
                }
                let roll = pending.take().unwrap_or_else(|| {
                    let (x, y) = dice.roll_pair();
                    Roll::new(x, y)
                });
                pending = turn(&mut s, roll, &mut p, &mut q);
            }
            let v = value(&s);
            if going {
                go += v;
            } else {
                stay += v;
            }
        }
    }
    let n = f64::from(pairs.max(1));
    PlayedOut {
        go: go / n,
        stay: stay / n,
        search: searched,
    }
}

/// Fits the correction by ridge least squares on `(inputs, target)` samples, the target
/// being the played-out stay − go less the search's own; `ridge` is added to the diagonal
/// times the number of samples. `None` when the system cannot be solved.
#[must_use]
pub fn fit(samples: &[(Vec<f64>, f64)], ridge: f64) -> Option<StayModel> {
    let n = STAY_INPUTS;
    let mut a = vec![0.0; n * n];
    let mut b = vec![0.0; n];
    for (x, y) in samples {
        for i in 0..n {
            b[i] += x[i] * y;
            for j in 0..n {
                a[i * n + j] += x[i] * x[j];
            }
        }
    }
    let lambda = ridge * samples.len().max(1) as f64;
    for i in 0..n {
        a[i * n + i] += lambda;
    }
    crate::train::solve_spd(&a, &b).map(|weights| StayModel { weights })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::partie_dice;
    use crate::Weights;

    #[test]
    fn the_file_reads_back_and_bad_files_are_refused() {
        let mut m = StayModel::zero();
        m.weights[0] = 0.25;
        m.weights[STAY_INPUTS - 1] = -0.5;
        assert_eq!(StayModel::parse(&m.to_text("a\nb")).unwrap(), m);
        assert!(StayModel::parse("").is_err());
        assert!(StayModel::parse("tablier-trictrac-stay 0\n").is_err());
        let text = m.to_text("");
        assert!(StayModel::parse(&text.replace("bias 0.250000", "bias x")).is_err());
        assert!(StayModel::parse(&text.replace("bias 0.250000", "bais 0.25")).is_err());
        assert!(StayModel::parse(&text.replace("bias 0.250000\n", "")).is_err());
        assert!(StayModel::parse(&text.replace("bias 0.250000", "bias NaN")).is_err());
        assert_eq!(StayModel::shipped().weights.len(), STAY_INPUTS);
    }

    #[test]
    fn fit_recovers_a_known_correction() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut truth = vec![0.0; STAY_INPUTS];
        truth[0] = 0.3;
        truth[STAY_INPUTS - 1] = -0.2;
        let samples: Vec<(Vec<f64>, f64)> = (0..5_000)
            .map(|_| {
                let mut x: Vec<f64> = (0..STAY_INPUTS).map(|_| rng.gen_range(-1.0..1.0)).collect();
                x[0] = 1.0;
                let y = truth.iter().zip(&x).map(|(a, b)| a * b).sum::<f64>()
                    + rng.gen_range(-0.1..0.1);
                (x, y)
            })
            .collect();
        let m = fit(&samples, 1e-6).unwrap();
        for (w, t) in m.weights.iter().zip(&truth) {
            assert!((w - t).abs() < 0.02, "{:?}", m.weights);
        }
    }

    /// The go decisions of one self-play partie of `search` with the dice of `seed`.
    fn self_play_decisions(search: &Search, seed: u64) -> Vec<GoDecision> {
        let mut w = SearchPlayer::new(search.clone(), 0.0, 1);
        let mut b = SearchPlayer::new(search.clone(), 0.0, 2);
        decisions_of_partie(&mut w, &mut b, &mut partie_dice(seed, 0))
    }

    /// Under the partie objective the correction's holes become chance: going moves the same
    /// way as under the margin, never the other.
    #[test]
    fn the_partie_objective_turns_the_holes_into_chance() {
        let plain = Search::new(Weights::shipped(), 1);
        let ds = self_play_decisions(&plain, 4);
        let with = |s: &Search| Search {
            stay: Some(StayModel::shipped().clone()),
            ..s.clone()
        };
        let partie = Search::for_partie(Weights::shipped(), 1);
        let mut moved = 0;
        for d in &ds {
            let (t, score, holes) = d.begin();
            if score.plays.bears_off_last {
                continue;
            }
            let go = |s: &Search| s.analyse(&t, &score, holes).go.unwrap();
            let in_holes = go(&with(&plain)) - go(&plain);
            let in_chance = go(&with(&partie)) - go(&partie);
            assert!(in_chance.abs() <= 2.0, "{in_chance}");
            assert!(in_holes * in_chance >= 0.0, "{in_holes} {in_chance}");
            moved += usize::from(in_chance != 0.0);
        }
        assert!(moved > 0);
    }

    #[test]
    fn decisions_are_holes_won_and_play_outs_are_values() {
        let search = Search::new(Weights::shipped(), 1);
        let ds = self_play_decisions(&search, 3);
        assert!(!ds.is_empty());
        for d in &ds {
            let (t, _, holes) = d.begin();
            assert!(holes > 0 && !t.over);
        }
        let out = play_out(&search, &ds[0], 2, 4, |k| partie_dice(99, u64::from(k)));
        assert!(out.go.is_finite() && out.stay.is_finite() && out.search.is_finite());
        // No throw played out: both values are the search's own at 1 ply.
        for d in ds.iter().filter(|d| !d.begin().1.plays.bears_off_last) {
            let zero = play_out(&search, d, 1, 0, |k| partie_dice(99, u64::from(k)));
            assert!((zero.stay - zero.go - zero.search).abs() < 1e-9, "{zero:?}");
        }
    }
}
