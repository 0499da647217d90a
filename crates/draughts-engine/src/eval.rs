//! The static evaluation: a weighted sum of features counted for each side.
//!
//! Every feature is counted for white and for black (from each side's own point of view: rows
//! are counted from its own back row) and the evaluation is the weighted difference, in
//! centi-men (a man is worth 100), from the side to move's point of view. The weights are
//! data ([`Weights`]): hand-set defaults per variant, replaced by `tablier train draughts`,
//! which fits them to the results of self-play games (Texel's method: logistic regression of
//! the game result on the evaluation).
//!
//! The features, for one side:
//!
//! | feature | counts |
//! |---|---|
//! | `men`, `kings` | material (the man's weight is fixed at 100) |
//! | `advance` | sum over men of the rows they have advanced (tempo) |
//! | `advance_end` | the same, scaled by how far the game is into the endgame |
//! | `centre` | men on the board's central block |
//! | `back` | men still on their own back row (guards against breakthroughs) |
//! | `edge` | men on the side files |
//! | `free` | men with no opposing piece in the cone in front of them (breakthroughs) |
//! | `free_advance` | rows advanced by those free men |
//! | `mobile` | men that have an empty square to step to |
//! | `supported` | men with a friendly man diagonally behind them on both sides |
//! | `balance` | minus the difference between the men on the left and right halves |
//! | `king_diagonal` | kings on the long diagonal |
//! | `lone_king_defence` | a lone king facing kings, which is usually a draw in flying-king variants |
//!
//! Where the weights carry pattern tables ([`crate::patterns`]: shipped for every variant, the
//! old French rules sharing international draughts' tables), the value of every 4x4 block of
//! men is added to the weighted sum.

use std::sync::Arc;

use tablier_core::Side;
use tablier_draughts::{Bits, Geometry, Position, Variant};

use crate::patterns::{PatternWeights, QuantizedPatterns, Windows};

/// Number of features.
pub const NUM_FEATURES: usize = 14;

/// The features' names, in weight order.
pub const FEATURE_NAMES: [&str; NUM_FEATURES] = [
    "men",
    "kings",
    "advance",
    "advance_end",
    "centre",
    "back",
    "edge",
    "free",
    "free_advance",
    "mobile",
    "supported",
    "balance",
    "king_diagonal",
    "lone_king_defence",
];

/// The weight of a man: the unit of every score.
pub const MAN: i32 = 100;

/// Feature weights in centi-men per unit of feature (the first, `men`, is fixed at [`MAN`]),
/// and the pattern tables added to them where there are some ([`crate::patterns`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// One weight per feature, in [`FEATURE_NAMES`] order.
    pub w: [f32; NUM_FEATURES],
    /// Pattern tables (for the board these weights are used on), or none.
    pub patterns: Option<Arc<PatternWeights>>,
}

impl Weights {
    /// The weights shipped for `variant` (tuned ones where a file exists, else defaults), with
    /// the shipped pattern tables (the old French rules use international draughts' tables:
    /// they share its board).
    #[must_use]
    pub fn for_variant(variant: &Variant) -> Weights {
        let text = match variant.name {
            "international" | "french-old" => Some(include_str!("../weights/international.txt")),
            "brazilian" => Some(include_str!("../weights/brazilian.txt")),
            "english" => Some(include_str!("../weights/english.txt")),
            "canadian" => Some(include_str!("../weights/canadian.txt")),
            _ => None,
        };
        let mut w = text
            .and_then(|t| Weights::parse(t).ok())
            .unwrap_or_else(|| Weights::defaults(variant));
        w.patterns = Self::shipped_patterns(variant);
        w
    }

    /// The pattern tables shipped for `variant`, if any.
    #[must_use]
    pub fn shipped_patterns(variant: &Variant) -> Option<Arc<PatternWeights>> {
        let bytes: &[u8] = match variant.name {
            "international" | "french-old" => {
                include_bytes!("../weights/international-patterns.bin")
            }
            "brazilian" => include_bytes!("../weights/brazilian-patterns.bin"),
            "english" => include_bytes!("../weights/english-patterns.bin"),
            "canadian" => include_bytes!("../weights/canadian-patterns.bin"),
            _ => return None,
        };
        PatternWeights::from_bytes(bytes).ok().map(Arc::new)
    }

    /// Hand-set starting weights: what tuning starts from.
    #[must_use]
    pub fn defaults(variant: &Variant) -> Weights {
        let king = if variant.flying_kings { 320.0 } else { 150.0 };
        Weights {
            w: [
                MAN as f32, king, 2.0, 4.0, 6.0, 6.0, -4.0, 10.0, 4.0, 2.0, 3.0, -2.0, 10.0, 60.0,
            ],
            patterns: None,
        }
    }

    /// Reads weights written by [`Weights::to_text`]: one `name value` per line, `#` comments
    /// (no pattern tables: those are a file of their own).
    ///
    /// # Errors
    /// A message naming the first unknown or missing feature or unreadable number.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let mut w = [f32::NAN; NUM_FEATURES];
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut it = line.split_whitespace();
            let (Some(name), Some(value), None) = (it.next(), it.next(), it.next()) else {
                return Err(format!("expected `name value`, found `{line}`"));
            };
            let i = FEATURE_NAMES
                .iter()
                .position(|n| *n == name)
                .ok_or_else(|| format!("unknown feature `{name}`"))?;
            w[i] = value
                .parse()
                .map_err(|_| format!("`{value}` is not a number (feature {name})"))?;
        }
        if let Some(i) = w.iter().position(|x| x.is_nan()) {
            return Err(format!("feature `{}` has no weight", FEATURE_NAMES[i]));
        }
        Ok(Weights { w, patterns: None })
    }

    /// The weights as text, one `name value` per line.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (n, v) in FEATURE_NAMES.iter().zip(self.w) {
            s.push_str(&format!("{n} {v:.3}\n"));
        }
        s
    }
}

/// Masks the features are counted with, for one board size.
#[derive(Clone, Debug)]
pub struct Masks<G: Geometry> {
    /// Row `r` (0 = top, black's back row).
    rows: Vec<G::B>,
    centre: G::B,
    edge: G::B,
    left: G::B,
    right: G::B,
    diagonal: G::B,
    /// `advance_bits[side][k]`: the squares whose rows advanced from `side`'s back row
    /// (white 0, black 1) have bit `k` set, so that a sum of rows advanced is four counts.
    advance_bits: [[G::B; 4]; 2],
    /// Men of the starting position, both sides together (for the endgame scale).
    start_men: i32,
    lone_king_defence: bool,
}

impl<G: Geometry> Masks<G> {
    /// The masks of `variant`'s board.
    #[must_use]
    pub fn new(variant: &Variant) -> Self {
        let n = G::N;
        let bit = |r: u32, c: u32| G::square_at(r, c).map(|s| G::B::bit(G::bit_of(s)));
        let mut rows = vec![G::B::ZERO; n as usize];
        let mut centre = G::B::ZERO;
        let mut edge = G::B::ZERO;
        let mut left = G::B::ZERO;
        let mut right = G::B::ZERO;
        let mut diagonal = G::B::ZERO;
        for r in 0..n {
            for c in 0..n {
                let Some(b) = bit(r, c) else { continue };
                rows[r as usize] |= b;
                let mid = n / 2;
                if (mid - 2..mid + 2).contains(&r) && (mid - 2..mid + 2).contains(&c) {
                    centre |= b;
                }
                if c == 0 || c == n - 1 {
                    edge |= b;
                }
                if c < mid {
                    left |= b;
                } else {
                    right |= b;
                }
                // The long diagonal from the bottom-left corner to the top-right corner.
                if r + c == n - 1 {
                    diagonal |= b;
                }
            }
        }
        let mut advance_bits = [[G::B::ZERO; 4]; 2];
        for (r, &row) in rows.iter().enumerate() {
            let (white, black) = (n as usize - 1 - r, r);
            for (side, rows_advanced) in [white, black].into_iter().enumerate() {
                for (k, plane) in advance_bits[side].iter_mut().enumerate() {
                    if rows_advanced >> k & 1 == 1 {
                        *plane |= row;
                    }
                }
            }
        }
        Masks {
            advance_bits,
            rows,
            centre,
            edge,
            left,
            right,
            diagonal,
            start_men: (2 * variant.rows_of_men * G::H) as i32,
            lone_king_defence: variant.flying_kings,
        }
    }

    /// The feature counts of `side` in `pos` (see the module docs).
    #[must_use]
    pub fn features(&self, pos: &Position<G>, side: Side) -> [i32; NUM_FEATURES] {
        let mine = pos.side_bits(side);
        let theirs = pos.side_bits(side.opposite());
        let kings = pos.king_bits();
        let men = mine & !kings;
        let my_kings = mine & kings;
        let empty = G::VALID & !(mine | theirs);
        let n = G::N as usize;
        let mut f = [0i32; NUM_FEATURES];
        f[0] = men.count() as i32;
        f[1] = my_kings.count() as i32;
        let adv = &self.advance_bits[match side {
            Side::White => 0,
            Side::Black => 1,
        }];
        let advanced =
            |b: G::B| -> i32 { (0..4).map(|k| ((b & adv[k]).count() as i32) << k).sum() };
        let advance = advanced(men);
        f[2] = advance;
        let all_men = ((pos.side_bits(Side::White) | pos.side_bits(Side::Black)) & !kings).count();
        let gone = (self.start_men - all_men as i32).max(0);
        f[3] = advance * gone / self.start_men.max(1);
        f[4] = (men & self.centre).count() as i32;
        let back_row = match side {
            Side::White => self.rows[n - 1],
            Side::Black => self.rows[0],
        };
        f[5] = (men & back_row).count() as i32;
        f[6] = (men & self.edge).count() as i32;
        // The squares with an opposing piece in the cone in front of them: those with one
        // on a square diagonally in front, or in front of such a square (the cone of a square
        // is its two forward neighbours' cones and the neighbours themselves), filled in one
        // row at a time.
        let (ahead_a, ahead_b) = match side {
            Side::White => (
                tablier_draughts::Dir::DownLeft,
                tablier_draughts::Dir::DownRight,
            ),
            Side::Black => (
                tablier_draughts::Dir::UpLeft,
                tablier_draughts::Dir::UpRight,
            ),
        };
        let mut blocked = G::B::ZERO;
        for _ in 1..n {
            let seen = theirs | blocked;
            blocked = (G::step(seen, ahead_a) | G::step(seen, ahead_b)) & G::VALID;
        }
        let free_men = men & !blocked;
        f[7] = free_men.count() as i32;
        f[8] = advanced(free_men);
        let (fwd, back) = match side {
            Side::White => (
                [
                    tablier_draughts::Dir::UpLeft,
                    tablier_draughts::Dir::UpRight,
                ],
                [
                    tablier_draughts::Dir::DownRight,
                    tablier_draughts::Dir::DownLeft,
                ],
            ),
            Side::Black => (
                [
                    tablier_draughts::Dir::DownLeft,
                    tablier_draughts::Dir::DownRight,
                ],
                [
                    tablier_draughts::Dir::UpRight,
                    tablier_draughts::Dir::UpLeft,
                ],
            ),
        };
        let movable = G::step(empty, back[0]) | G::step(empty, back[1]);
        f[9] = (men & movable).count() as i32;
        // A man is supported when both squares diagonally behind it hold friendly men or lie
        // off the board.
        let behind_a = G::step(men, fwd[0]) | !G::step(G::VALID, fwd[0]);
        let behind_b = G::step(men, fwd[1]) | !G::step(G::VALID, fwd[1]);
        f[10] = (men & behind_a & behind_b).count() as i32;
        f[11] = -((men & self.left).count() as i32 - (men & self.right).count() as i32).abs();
        f[12] = (my_kings & self.diagonal).count() as i32;
        let their_kings = theirs & kings;
        f[13] = i32::from(
            self.lone_king_defence
                && mine.count() == 1
                && f[1] == 1
                && !their_kings.is_empty()
                && theirs.count() <= 3,
        );
        f
    }
}

/// Evaluates positions of one board size with one set of weights.
#[derive(Clone, Debug)]
pub struct Evaluator<G: Geometry> {
    masks: Masks<G>,
    weights: Weights,
    /// The pattern windows and tables, when the weights have tables for this board.
    patterns: Option<(Windows<G>, Arc<QuantizedPatterns>)>,
}

impl<G: Geometry> Evaluator<G> {
    /// The evaluator of `variant` with `weights` (pattern tables made for another board size
    /// are left out).
    #[must_use]
    pub fn new(variant: &Variant, weights: Weights) -> Self {
        let patterns = weights.patterns.clone().and_then(|t| {
            let windows = Windows::<G>::new();
            (windows.len() == t.windows()).then(|| (windows, Arc::new(QuantizedPatterns::new(&t))))
        });
        Evaluator {
            masks: Masks::new(variant),
            weights,
            patterns,
        }
    }

    /// The linear part of the evaluation (the weighted features, no patterns) in centi-men
    /// from white's side.
    #[must_use]
    pub fn linear_white(&self, pos: &Position<G>) -> f32 {
        let d = self.feature_diff(pos);
        d.iter()
            .zip(self.weights.w)
            .map(|(x, w)| *x as f32 * w)
            .sum()
    }

    /// The weights in use.
    #[must_use]
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The masks the features are counted with.
    #[must_use]
    pub fn masks(&self) -> &Masks<G> {
        &self.masks
    }

    /// The feature differences (white minus black) of `pos`.
    #[must_use]
    pub fn feature_diff(&self, pos: &Position<G>) -> [i32; NUM_FEATURES] {
        let w = self.masks.features(pos, Side::White);
        let b = self.masks.features(pos, Side::Black);
        std::array::from_fn(|i| w[i] - b[i])
    }

    /// The evaluation in centi-men from the side to move's point of view.
    #[must_use]
    pub fn evaluate(&self, pos: &Position<G>) -> i32 {
        let mut s = self.linear_white(pos);
        if let Some((windows, table)) = &self.patterns {
            s += windows.score_quantized(table, pos);
        }
        let s = s.round() as i32;
        match pos.side_to_move() {
            Side::White => s,
            Side::Black => -s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablier_draughts::{fen, G10, G8, INTERNATIONAL};

    #[test]
    fn start_is_balanced() {
        let e = Evaluator::<G10>::new(&INTERNATIONAL, Weights::defaults(&INTERNATIONAL));
        let p = Position::<G10>::start(&INTERNATIONAL).unwrap();
        assert_eq!(e.feature_diff(&p), [0; NUM_FEATURES]);
        assert_eq!(e.evaluate(&p), 0);
    }

    #[test]
    fn extra_man_is_good_for_its_side_either_to_move() {
        let e = Evaluator::<G10>::new(&INTERNATIONAL, Weights::defaults(&INTERNATIONAL));
        let w = fen::parse::<G10>(&INTERNATIONAL, "W:W31,32,33:B18,19").unwrap();
        let b = fen::parse::<G10>(&INTERNATIONAL, "B:W31,32,33:B18,19").unwrap();
        assert!(e.evaluate(&w) > 50);
        assert!(e.evaluate(&b) < -50);
    }

    #[test]
    fn free_men_and_rows() {
        let m = Masks::<G8>::new(&tablier_draughts::ENGLISH);
        // A white man on square 5 (second row from the top) with nothing in front of it.
        let p = fen::parse::<G8>(&tablier_draughts::ENGLISH, "W:W5:B25").unwrap();
        let f = m.features(&p, Side::White);
        assert_eq!(f[0], 1);
        assert_eq!(f[2], 6, "row 1 from the top is 6 rows advanced");
        assert_eq!(f[7], 1);
        assert_eq!(f[8], 6);
    }

    /// The counts read with whole-board masks (rows advanced by bit planes, the cones in
    /// front of the men filled in row by row) agree with the same counts taken man by man
    /// from rows and columns, along random games of every board size.
    /// Calls `visit` on every position of `games` random games of at most `plies` plies from
    /// `variant`'s start, the moves drawn with `seed`.
    fn along_random_games<G: Geometry>(
        variant: &'static Variant,
        seed: u64,
        games: usize,
        plies: usize,
        mut visit: impl FnMut(&Position<G>),
    ) {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..games {
            let mut game = tablier_draughts::game::Game::<G>::start(variant).unwrap();
            for _ in 0..plies {
                visit(game.position());
                let moves = game.legal_moves();
                let Some(m) = moves.choose(&mut rng).copied() else {
                    break;
                };
                game.play(&m).unwrap();
            }
        }
    }

    #[test]
    fn free_men_and_advance_agree_with_a_count_man_by_man() {
        fn check<G: Geometry>(variant: &'static Variant, seed: u64) {
            let masks = Masks::<G>::new(variant);
            let n = G::N;
            let mut free_seen = 0;
            along_random_games::<G>(variant, seed, 20, 200, |pos| {
                let pieces = pos.pieces();
                for side in [Side::White, Side::Black] {
                    let (mut advance, mut free, mut free_advance) = (0, 0, 0);
                    for (sq, p) in &pieces {
                        if p.side != side || p.king {
                            continue;
                        }
                        let (r, c) = G::row_col(*sq);
                        let adv = match side {
                            Side::White => (n - 1 - r) as i32,
                            Side::Black => r as i32,
                        };
                        advance += adv;
                        let blocked = pieces.iter().any(|(sq2, p2)| {
                            let (r2, c2) = G::row_col(*sq2);
                            let ahead = match side {
                                Side::White => r2 < r && c.abs_diff(c2) <= r - r2,
                                Side::Black => r2 > r && c.abs_diff(c2) <= r2 - r,
                            };
                            p2.side != side && ahead
                        });
                        if !blocked {
                            free += 1;
                            free_advance += adv;
                        }
                    }
                    let f = masks.features(pos, side);
                    let at = fen::write(pos);
                    assert_eq!(f[2], advance, "{}: {at}", variant.name);
                    assert_eq!(f[7], free, "{}: {at}", variant.name);
                    assert_eq!(f[8], free_advance, "{}: {at}", variant.name);
                    free_seen += free;
                }
            });
            assert!(free_seen > 100, "{}: {free_seen}", variant.name);
        }
        check::<G10>(&INTERNATIONAL, 11);
        check::<G8>(&tablier_draughts::ENGLISH, 12);
        check::<tablier_draughts::G12>(&tablier_draughts::CANADIAN, 13);
    }

    fn turned<G: Geometry>(variant: &'static Variant, pos: &Position<G>) -> Position<G> {
        let list = |side: Side| {
            pos.pieces()
                .into_iter()
                .filter(|(_, p)| p.side == side.opposite())
                .map(|(sq, p)| format!("{}{}", if p.king { "K" } else { "" }, G::SQUARES + 1 - sq))
                .collect::<Vec<_>>()
                .join(",")
        };
        let to_move = match pos.side_to_move() {
            Side::White => "B",
            Side::Black => "W",
        };
        let text = format!("{to_move}:W{}:B{}", list(Side::White), list(Side::Black));
        fen::parse::<G>(variant, &text).unwrap()
    }

    /// The shipped evaluation (features and pattern tables) gives a position and the same
    /// position turned with the colours swapped the same value for the side to move, in every
    /// variant, along random games.
    #[test]
    fn the_evaluation_is_the_same_for_either_colour() {
        fn check<G: Geometry>(variant: &'static Variant, seed: u64) {
            let e = Evaluator::<G>::new(variant, Weights::for_variant(variant));
            let mut checked = 0;
            along_random_games::<G>(variant, seed, 20, 150, |pos| {
                let other = turned(variant, pos);
                assert_eq!(
                    e.evaluate(pos),
                    e.evaluate(&other),
                    "{}: {} against {}",
                    variant.name,
                    fen::write(pos),
                    fen::write(&other)
                );
                checked += 1;
            });
            assert!(checked > 500, "{checked}");
        }
        check::<G10>(&INTERNATIONAL, 1);
        check::<G8>(&tablier_draughts::BRAZILIAN, 2);
        check::<G8>(&tablier_draughts::ENGLISH, 3);
        check::<tablier_draughts::G12>(&tablier_draughts::CANADIAN, 4);
    }
}
