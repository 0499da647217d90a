//! The evaluation: hand-made features of a position between two throws, and two linear
//! heads that estimate the holes still to come for the player about to throw and for his
//! opponent. The value of a position for a player is his hole margin now plus the
//! difference of the two heads.
//!
//! The features are the [`BASE_FEATURES`] of the first evaluation (score, the exact outlook
//! of each player's next throw, counts of cases, coins, talons) and, since version 2 of the
//! weights file, the shape of each player's side of the board point by point: for each of
//! his points 2 to 24, whether it holds one dame, whether it is a case (two or more), and
//! the dames beyond two. A version 1 file reads as the same evaluation with the shape's
//! weights at 0.

use crate::sim::{State, PARTIE_HOLES};
use tablier_core::Side;
use tablier_trictrac::{Board, JanContext, Marker};

/// Number of features of the first evaluation (weights file version 1).
pub const BASE_FEATURES: usize = 32;

/// Features of one player's shape: three for each of his points 2 to 24.
const SHAPE: usize = 3 * 23;

/// Number of features: the base ones, then the roller's shape, then his opponent's.
pub const FEATURES: usize = BASE_FEATURES + 2 * SHAPE;

/// Names of the base features, in order (the weights file names every feature, so that a
/// file made for another feature set is refused).
pub const BASE_FEATURE_NAMES: [&str; BASE_FEATURES] = [
    "bias",
    "points_r",
    "points_o",
    "bredouille_points_r",
    "bredouille_points_o",
    "next_gains_r",
    "next_given_r",
    "next_holes_r",
    "asif_gains_o",
    "asif_given_o",
    "asif_holes_o",
    "left_r",
    "left_o",
    "left_min",
    "left_product",
    "left_r_bred_r",
    "plein_r",
    "petit_made_r",
    "grand_made_r",
    "half_cases_r",
    "coin_r",
    "talon_r",
    "crossed_r",
    "off_r",
    "plein_o",
    "petit_made_o",
    "grand_made_o",
    "half_cases_o",
    "coin_o",
    "talon_o",
    "crossed_o",
    "off_o",
];

/// The name of feature `k` (below [`FEATURES`]): a base name, or `single_r_P`, `case_r_P`,
/// `extra_r_P` (`_o` for the opponent) for point `P` of that player's own numbering.
#[must_use]
pub fn feature_name(k: usize) -> String {
    if k < BASE_FEATURES {
        return BASE_FEATURE_NAMES[k].to_string();
    }
    let j = k - BASE_FEATURES;
    let who = if j < SHAPE { "r" } else { "o" };
    let j = j % SHAPE;
    let kind = ["single", "case", "extra"][j % 3];
    format!("{kind}_{who}_{}", j / 3 + 2)
}

/// The names of all features, in order.
#[must_use]
pub fn feature_names() -> Vec<String> {
    (0..FEATURES).map(feature_name).collect()
}

/// Feature vector.
pub type Features = [f64; FEATURES];

/// What a player's next throw promises on a board, averaged over the 36 throws: his gains
/// and the points he gives (in holes, /12) and the holes his gains make on `marker`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outlook {
    /// Expected gains / 12.
    pub gains: f64,
    /// Expected points given to the opponent / 12.
    pub given: f64,
    /// Expected holes made by the gains (bredouille counted).
    pub holes: f64,
}

/// The outlook of `side` throwing on `board` with `marker` and jan context `ctx`: exact,
/// from the 21 rolls and their chances (1 or 2 of 36).
#[must_use]
pub fn outlook(board: &Board, side: Side, ctx: JanContext, marker: &Marker) -> Outlook {
    let mut o = Outlook::default();
    for r in crate::chances::roll_outcomes(board, side, ctx) {
        let p = f64::from(r.chances) / 36.0;
        o.gains += p * f64::from(r.gains) / 12.0;
        o.given += p * f64::from(r.given) / 12.0;
        let mut m = *marker;
        o.holes += p * f64::from(m.mark(side, r.gains));
    }
    o
}

fn board_features(board: &Board, side: Side, out: &mut [f64]) {
    let (m, _) = board.relative(side);
    let made =
        |range: std::ops::RangeInclusive<usize>| range.filter(|&i| m[i] >= 2).count() as f64 / 6.0;
    out[0] = f64::from(u8::from(board.plein(side).is_some()));
    out[1] = made(1..=6);
    out[2] = made(7..=12);
    out[3] = (2..=12).filter(|&i| m[i] == 1).count() as f64 / 6.0;
    out[4] = f64::from(u8::from(m[12] >= 2));
    out[5] = f64::from(m[1]) / 15.0;
    out[6] = m[13..=24].iter().map(|&c| f64::from(c)).sum::<f64>() / 15.0;
    out[7] = f64::from(board.off(side)) / 15.0;
}

/// The shape of `side`'s dames, point by point from his point 2 to 24 (his talon is a base
/// feature): one dame, a case, the dames beyond two (quarters).
fn shape_features(board: &Board, side: Side, out: &mut [f64]) {
    let (m, _) = board.relative(side);
    for (k, &c) in m[2..=24].iter().enumerate() {
        out[3 * k] = f64::from(u8::from(c == 1));
        out[3 * k + 1] = f64::from(u8::from(c >= 2));
        out[3 * k + 2] = f64::from(c.saturating_sub(2)) / 4.0;
    }
}

/// The features of `state` from the point of view of its roller (who throws next).
#[must_use]
pub fn features(state: &State) -> Features {
    features_with(state, true)
}

/// The features, the two outlooks (the costly part: 42 rolls scored) left at 0 unless
/// `outlooks`: a quick estimate to order plays before valuing them properly.
#[must_use]
pub fn features_with(state: &State, outlooks: bool) -> Features {
    let r = state.roller;
    let o = r.opposite();
    let m = &state.marker;
    let mut f = [0.0; FEATURES];
    let pts = |s: Side| f64::from(m.points(s)) / 12.0;
    let bred = |s: Side| f64::from(u8::from(m.bredouille[s.index()]));
    f[0] = 1.0;
    f[1] = pts(r);
    f[2] = pts(o);
    f[3] = bred(r) * pts(r);
    f[4] = bred(o) * pts(o);
    if outlooks {
        let or = outlook(&state.board, r, state.releve.context(r), m);
        let oo = outlook(&state.board, o, state.releve.context(o), m);
        f[5] = or.gains;
        f[6] = or.given;
        f[7] = or.holes;
        f[8] = oo.gains;
        f[9] = oo.given;
        f[10] = oo.holes;
    }
    let left = |s: Side| f64::from(PARTIE_HOLES.saturating_sub(m.holes(s))) / 12.0;
    f[11] = left(r);
    f[12] = left(o);
    f[13] = left(r).min(left(o));
    f[14] = left(r) * left(o);
    f[15] = left(r) * bred(r);
    board_features(&state.board, r, &mut f[16..24]);
    board_features(&state.board, o, &mut f[24..32]);
    shape_features(
        &state.board,
        r,
        &mut f[BASE_FEATURES..BASE_FEATURES + SHAPE],
    );
    shape_features(&state.board, o, &mut f[BASE_FEATURES + SHAPE..]);
    f
}

/// The weights of the two heads.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Holes to come for the player about to throw.
    pub roller: Features,
    /// Holes to come for his opponent.
    pub other: Features,
}

/// A weights file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("weights file, line {line}: {reason}")]
pub struct WeightsError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// First line of the weights format (version 2: every feature of [`feature_names`]).
pub const WEIGHTS_HEADER: &str = "tablier-trictrac-eval 2";

/// First line of version 1 of the format (the [`BASE_FEATURES`] only), still read.
pub const WEIGHTS_HEADER_V1: &str = "tablier-trictrac-eval 1";

/// The weights shipped with tablier (trained by `tablier train trictrac`).
const SHIPPED: &str = include_str!("../weights/trictrac-eval.txt");

impl Weights {
    /// The untrained evaluation: the points each player can expect from his next throw on
    /// this board and the points he holds, counted as fractions of a hole.
    #[must_use]
    pub fn untrained() -> Weights {
        let mut roller = [0.0; FEATURES];
        let mut other = [0.0; FEATURES];
        roller[1] = 1.0; // points_r
        roller[5] = 1.0; // next_gains_r
        roller[9] = 1.0; // asif_given_o
        other[2] = 1.0; // points_o
        other[8] = 1.0; // asif_gains_o
        other[6] = 1.0; // next_given_r
        Weights { roller, other }
    }

    /// The shipped, trained weights.
    ///
    /// # Panics
    /// Never in a released build: a test reads the shipped file.
    #[must_use]
    pub fn shipped() -> Weights {
        Weights::parse(SHIPPED).expect("the shipped weights parse (tested)")
    }

    /// `(holes to come for the roller, for his opponent)`.
    #[must_use]
    pub fn heads(&self, f: &Features) -> (f64, f64) {
        let dot = |w: &Features| w.iter().zip(f).map(|(a, b)| a * b).sum::<f64>();
        (dot(&self.roller), dot(&self.other))
    }

    /// The value of `state` for its roller: holes to come for him minus for his opponent.
    #[must_use]
    pub fn roller_value(&self, state: &State) -> f64 {
        if state.over {
            return 0.0;
        }
        let (a, b) = self.heads(&features(state));
        a - b
    }

    /// A quick estimate of [`Weights::roller_value`] without the outlooks, to order plays.
    #[must_use]
    pub fn quick_value(&self, state: &State) -> f64 {
        if state.over {
            return 0.0;
        }
        let (a, b) = self.heads(&features_with(state, false));
        a - b
    }

    /// The weights in the versioned text format: the header, then one line per feature:
    /// `name roller_weight other_weight`.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut s = format!("{WEIGHTS_HEADER}\n");
        for (i, name) in feature_names().iter().enumerate() {
            s.push_str(&format!(
                "{name} {:.6} {:.6}\n",
                self.roller[i], self.other[i]
            ));
        }
        s
    }

    /// Reads the text format of [`Weights::to_text`] (lines starting with `#` are comments:
    /// the shipped file says how it was trained). A version 1 file names the base features
    /// only; the shape's weights are then 0.
    ///
    /// # Errors
    /// [`WeightsError`] for another header (version), a missing or unknown feature, or a
    /// number that does not parse.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let err = |line: usize, reason: String| WeightsError { line, reason };
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
        let needed = match lines.next() {
            Some((_, l)) if l.trim() == WEIGHTS_HEADER => FEATURES,
            Some((_, l)) if l.trim() == WEIGHTS_HEADER_V1 => BASE_FEATURES,
            Some((i, l)) => {
                return Err(err(
                    i + 1,
                    format!("expected {WEIGHTS_HEADER:?}, found {l:?}"),
                ))
            }
            None => return Err(err(1, "empty file".into())),
        };
        let names = feature_names();
        let mut w = Weights {
            roller: [0.0; FEATURES],
            other: [0.0; FEATURES],
        };
        let mut seen = [false; FEATURES];
        for (i, l) in lines {
            let parts: Vec<&str> = l.split_whitespace().collect();
            let [name, a, b] = parts[..] else {
                return Err(err(
                    i + 1,
                    format!("expected `name weight weight`, found {l:?}"),
                ));
            };
            let k = names[..needed]
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| err(i + 1, format!("unknown feature {name:?}")))?;
            let num = |t: &str| {
                t.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| err(i + 1, format!("{t:?} is not a number")))
            };
            w.roller[k] = num(a)?;
            w.other[k] = num(b)?;
            seen[k] = true;
        }
        if let Some(k) = seen[..needed].iter().position(|s| !s) {
            return Err(err(0, format!("feature {:?} missing", names[k])));
        }
        Ok(w)
    }
}
