//! The evaluation: hand-made features of a position between two throws, and two linear
//! heads that estimate the holes still to come for the player about to throw and for his
//! opponent. The value of a position for a player is his hole margin now plus the
//! difference of the two heads.

use crate::sim::{State, PARTIE_HOLES};
use tablier_core::Side;
use tablier_trictrac::{Board, JanContext, Marker};

/// Number of features.
pub const FEATURES: usize = 32;

/// Names of the features, in order (the weights file names them, so that a file made for
/// another feature set is refused).
pub const FEATURE_NAMES: [&str; FEATURES] = [
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

/// First line of the weights format (version 1).
pub const WEIGHTS_HEADER: &str = "tablier-trictrac-eval 1";

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
        for (i, name) in FEATURE_NAMES.iter().enumerate() {
            s.push_str(&format!(
                "{name} {:.6} {:.6}\n",
                self.roller[i], self.other[i]
            ));
        }
        s
    }

    /// Reads the text format of [`Weights::to_text`] (lines starting with `#` are comments:
    /// the shipped file says how it was trained).
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
        match lines.next() {
            Some((_, l)) if l.trim() == WEIGHTS_HEADER => {}
            Some((i, l)) => {
                return Err(err(
                    i + 1,
                    format!("expected {WEIGHTS_HEADER:?}, found {l:?}"),
                ))
            }
            None => return Err(err(1, "empty file".into())),
        }
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
            let k = FEATURE_NAMES
                .iter()
                .position(|n| *n == name)
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
        if let Some(k) = seen.iter().position(|s| !s) {
            return Err(err(0, format!("feature {:?} missing", FEATURE_NAMES[k])));
        }
        Ok(w)
    }
}
