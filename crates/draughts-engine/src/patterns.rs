//! Pattern tables: the evaluation learns what each small block of the board is worth.
//!
//! The board is covered by overlapping windows of four rows by four columns; each holds eight
//! playable squares, and each square is empty, a white man or a black man (kings count as
//! empty here: the linear features of [`crate::eval`] value them). A window's contents are
//! one of 3⁸ = 6,561 configurations, and each window has a table giving every configuration
//! a value in centi-men. There are `(n − 3) × (n / 2 − 1)` windows on an `n × n` board (28 on
//! the 10x10 board).
//!
//! The tables are written from white's side. Black's side is the same board turned half a
//! turn with the colours swapped, so one set of tables serves both: the pattern score of a
//! position is the sum of white's entries minus the sum of black's. The score is added to the
//! weighted features of [`crate::eval::Evaluator`].
//!
//! The values are learnt from self-play results ([`fit`]): logistic regression of the result
//! on the evaluation, as for the feature weights, by stochastic gradient descent with an L2
//! pull toward zero (a configuration the games never show stays at 0). What is regressed can
//! also be a blend of the result and the score the self-play search gave the position
//! ([`PatternSamples::blend_scores`]): a game's result says little about any one of its
//! positions, the deeper search's score says something about each.
//!
//! Tables can come in two phases, one for the opening and one for the endgame: a position's
//! score is then the blend `t · opening + (1 − t) · endgame`, where `t` is the share of the
//! starting pieces still on the board ([`Windows::phase`]). The same block of men is worth one
//! thing with the board full and another once the exchanges have thinned it out.
//!
//! # Example
//! ```
//! use tablier_draughts::{Position, G10, INTERNATIONAL};
//! use tablier_draughts_engine::patterns::{PatternWeights, Windows};
//!
//! let windows = Windows::<G10>::new();
//! assert_eq!(windows.len(), 28);
//! let table = PatternWeights::zeros(windows.len());
//! let start = Position::<G10>::start(&INTERNATIONAL).unwrap();
//! // The start is symmetric: whatever the tables hold, it scores 0.
//! assert_eq!(windows.score(&table, &start), 0.0);
//! let bytes = table.to_bytes();
//! assert_eq!(PatternWeights::from_bytes(&bytes).unwrap(), table);
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use rand::seq::SliceRandom;
use rand::Rng;
use tablier_core::Side;
use tablier_draughts::{Bits, Geometry, Position};

/// Squares in a window.
pub const WINDOW_SQUARES: usize = 8;
/// Configurations of a window (3⁸).
pub const CONFIGS: usize = 6561;
/// The most windows of a board (the 12x12 board's 45).
const MAX_WINDOWS: usize = 64;

/// The learnt values: one table of [`CONFIGS`] entries (centi-men, white's side) per window,
/// and per phase when there are two (the opening's tables first, then the endgame's).
#[derive(Clone, Debug, PartialEq)]
pub struct PatternWeights {
    windows: usize,
    phases: usize,
    values: Vec<f32>,
}

/// The file layout's first bytes: one phase.
const MAGIC: &[u8; 5] = b"TPAT1";
/// The file layout's first bytes: two phases (opening, endgame).
const MAGIC2: &[u8; 5] = b"TPAT2";
/// Stored values are in tenths of a centi-man.
const SCALE: f32 = 10.0;

impl PatternWeights {
    /// Tables of `windows` windows holding zeros, one phase.
    #[must_use]
    pub fn zeros(windows: usize) -> Self {
        Self::zeros_phased(windows, 1)
    }

    /// Tables of `windows` windows holding zeros, in `phases` phases (1, or 2: opening and
    /// endgame).
    ///
    /// # Panics
    /// When `phases` is neither 1 nor 2.
    #[must_use]
    pub fn zeros_phased(windows: usize, phases: usize) -> Self {
        assert!(phases == 1 || phases == 2, "1 or 2 phases");
        PatternWeights {
            windows,
            phases,
            values: vec![0.0; phases * windows * CONFIGS],
        }
    }

    /// Number of windows.
    #[must_use]
    pub fn windows(&self) -> usize {
        self.windows
    }

    /// Number of phases (1, or 2: opening and endgame).
    #[must_use]
    pub fn phases(&self) -> usize {
        self.phases
    }

    /// The value of configuration `config` in window `w` (the opening's, with two phases).
    #[must_use]
    pub fn value(&self, w: usize, config: usize) -> f32 {
        self.values[w * CONFIGS + config]
    }

    /// The value of configuration `config` in window `w` at phase `t` (the share of the
    /// starting pieces on the board, 0 to 1).
    #[must_use]
    pub fn value_at(&self, w: usize, config: usize, t: f32) -> f32 {
        let open = self.values[w * CONFIGS + config];
        if self.phases == 1 {
            return open;
        }
        let end = self.values[(self.windows + w) * CONFIGS + config];
        t * open + (1.0 - t) * end
    }

    /// Entries that are not zero once stored (to a tenth of a centi-man).
    #[must_use]
    pub fn non_zero(&self) -> usize {
        self.values
            .iter()
            .filter(|v| (**v * SCALE).round() != 0.0)
            .count()
    }

    /// The entry-by-entry average of `tables` (all of the same size).
    ///
    /// # Errors
    /// A message when there is no table or their sizes differ.
    pub fn average(tables: &[PatternWeights]) -> Result<PatternWeights, String> {
        let first = tables.first().ok_or("no table to average")?;
        if tables
            .iter()
            .any(|t| t.windows != first.windows || t.phases != first.phases)
        {
            return Err("tables of different sizes".into());
        }
        let n = tables.len() as f32;
        let values = (0..first.values.len())
            .map(|i| tables.iter().map(|t| t.values[i]).sum::<f32>() / n)
            .collect();
        Ok(PatternWeights {
            windows: first.windows,
            phases: first.phases,
            values,
        })
    }

    /// The tables as bytes: `TPAT1` (one phase) or `TPAT2` (two), the window count (u32,
    /// little-endian), then the runs of the values in tenths of a centi-man: for each run, the
    /// zeros before it (u16), its length (u16) and its values (i16 each), until every entry is
    /// accounted for.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let q: Vec<i16> = self
            .values
            .iter()
            .map(|v| (v * SCALE).round().clamp(-32767.0, 32767.0) as i16)
            .collect();
        let mut out = if self.phases == 2 { MAGIC2 } else { MAGIC }.to_vec();
        out.extend_from_slice(&(self.windows as u32).to_le_bytes());
        let mut i = 0;
        while i < q.len() {
            let mut zeros = 0usize;
            while i < q.len() && q[i] == 0 && zeros < u16::MAX as usize {
                zeros += 1;
                i += 1;
            }
            let start = i;
            while i < q.len() && q[i] != 0 && i - start < u16::MAX as usize {
                i += 1;
            }
            out.extend_from_slice(&(zeros as u16).to_le_bytes());
            out.extend_from_slice(&((i - start) as u16).to_le_bytes());
            for v in &q[start..i] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out
    }

    /// Reads what [`PatternWeights::to_bytes`] wrote.
    ///
    /// # Errors
    /// A message when the bytes are not such tables (wrong header, truncated, too long).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        let (phases, rest) = if let Some(rest) = bytes.strip_prefix(MAGIC.as_slice()) {
            (1, rest)
        } else if let Some(rest) = bytes.strip_prefix(MAGIC2.as_slice()) {
            (2, rest)
        } else {
            return Err("not pattern tables (no TPAT1 or TPAT2 header)".into());
        };
        let (count, mut rest) = rest.split_at_checked(4).ok_or("truncated header")?;
        let windows = u32::from_le_bytes(count.try_into().expect("4 bytes")) as usize;
        if windows == 0 || windows > 1000 {
            return Err(format!("{windows} windows"));
        }
        let total = phases * windows * CONFIGS;
        let mut values = Vec::with_capacity(total);
        let u16_at = |r: &mut &[u8]| -> Result<u16, String> {
            let (b, tail) = r.split_at_checked(2).ok_or("truncated tables")?;
            *r = tail;
            Ok(u16::from_le_bytes([b[0], b[1]]))
        };
        while values.len() < total {
            let zeros = usize::from(u16_at(&mut rest)?);
            let run = usize::from(u16_at(&mut rest)?);
            if values.len() + zeros + run > total {
                return Err("more values than the windows hold".into());
            }
            values.resize(values.len() + zeros, 0.0);
            for _ in 0..run {
                values.push(f32::from(u16_at(&mut rest)? as i16) / SCALE);
            }
        }
        if !rest.is_empty() {
            return Err("bytes after the tables".into());
        }
        Ok(PatternWeights {
            windows,
            phases,
            values,
        })
    }
}

/// The windows of one board size: which squares (as bit indices) each one reads, seen from
/// white's side and from black's.
///
/// A window's eight squares are two in each of its four rows, and its configuration is
/// `Σᵢ 9ⁱ (s(leftᵢ) + 3 s(rightᵢ))` over its rows from the top (`s` = 0 empty, 1 own man,
/// 2 the opponent's man). [`Windows::score`] uses that: it codes each row's pairs of
/// neighbouring squares once, then adds four codes per window; [`Windows::configs`] reads
/// the squares one by one and is the reference the tests compare it with.
#[derive(Clone, Debug)]
pub struct Windows<G: Geometry> {
    white: Vec<[u8; WINDOW_SQUARES]>,
    black: Vec<[u8; WINDOW_SQUARES]>,
    /// Lowest bit of each row: a row's squares are consecutive bits, left to right.
    row_shift: Vec<u8>,
    /// The pair codes of one row ([`Windows::score`]), for every (white men, black men) of
    /// the row as `white | black << H` (two men on one square never occur): the first eight
    /// in white's view, the next eight in black's.
    row_codes: Vec<[u8; 16]>,
    /// Pieces of the starting position (both sides): the phase's full board.
    full: f32,
    _board: std::marker::PhantomData<G>,
}

impl<G: Geometry> Default for Windows<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Geometry> Windows<G> {
    /// The windows of `G`'s board.
    #[must_use]
    pub fn new() -> Self {
        let n = G::N;
        let bit = |r: u32, c: u32| {
            let s = G::square_at(r, c).expect("a playable square");
            G::bit_of(s) as u8
        };
        let (mut white, mut black) = (Vec::new(), Vec::new());
        for r0 in 0..=n - 4 {
            for c0 in (0..=n - 4).step_by(2) {
                let mut w = [0u8; WINDOW_SQUARES];
                let mut b = [0u8; WINDOW_SQUARES];
                let mut k = 0;
                for r in r0..r0 + 4 {
                    for c in c0..c0 + 4 {
                        if G::square_at(r, c).is_some() {
                            w[k] = bit(r, c);
                            // Black's view: the board turned half a turn.
                            b[k] = bit(n - 1 - r, n - 1 - c);
                            k += 1;
                        }
                    }
                }
                debug_assert_eq!(k, WINDOW_SQUARES);
                white.push(w);
                black.push(b);
            }
        }
        let rows = (0..n)
            .map(|r| {
                (0..n)
                    .filter(|&c| G::square_at(r, c).is_some())
                    .map(|c| bit(r, c))
                    .collect()
            })
            .collect::<Vec<Vec<u8>>>();
        let h = G::H as usize;
        let row_shift = rows.iter().map(|row| row[0]).collect();
        for row in &rows {
            debug_assert!(row.windows(2).all(|p| p[1] == p[0] + 1), "consecutive bits");
        }
        let row_codes = (0..1usize << (2 * h))
            .map(|i| {
                let (w, k) = (i & ((1 << h) - 1), i >> h);
                let sw = |c: usize| ((w >> c) & 1) as u8 | ((((k >> c) & 1) as u8) << 1);
                let sb = |c: usize| ((k >> c) & 1) as u8 | ((((w >> c) & 1) as u8) << 1);
                let mut codes = [0u8; 16];
                for j in 0..h - 1 {
                    codes[j] = sw(j) + 3 * sw(j + 1);
                    codes[8 + j] = sb(j + 1) + 3 * sb(j);
                }
                codes
            })
            .collect();
        Windows {
            white,
            black,
            row_shift,
            row_codes,
            full: (2 * (n / 2 - 1) * G::H) as f32,
            _board: std::marker::PhantomData,
        }
    }

    /// Number of windows.
    #[must_use]
    pub fn len(&self) -> usize {
        self.white.len()
    }

    /// Whether there is no window (never, on a real board).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.white.is_empty()
    }

    /// The phase of `pos`: the share of the starting position's pieces (men and kings of both
    /// sides) still on the board, from 1 (full board) down to 0.
    #[must_use]
    pub fn phase(&self, pos: &Position<G>) -> f32 {
        let pieces = (pos.side_bits(Side::White) | pos.side_bits(Side::Black)).count() as f32;
        (pieces / self.full).min(1.0)
    }

    /// The configuration of every window for white (first half) and for black (second half):
    /// `2 × len()` indices written into `out`.
    pub fn configs(&self, pos: &Position<G>, out: &mut Vec<u16>) {
        let kings = pos.king_bits();
        let wm = (pos.side_bits(Side::White) & !kings).to_u128();
        let bm = (pos.side_bits(Side::Black) & !kings).to_u128();
        out.clear();
        for (squares, own, other) in [(&self.white, wm, bm), (&self.black, bm, wm)] {
            for win in squares {
                let mut idx = 0u32;
                for &b in win.iter().rev() {
                    let state = ((own >> b) & 1) as u32 | ((((other >> b) & 1) as u32) << 1);
                    idx = idx * 3 + state;
                }
                out.push(idx as u16);
            }
        }
    }

    /// The configuration of every window of `pos` for white and for black, written into
    /// `out` in window order (as [`Windows::configs`] gives them, faster): each row's pairs
    /// of neighbouring squares are coded once, from one table lookup (white's view: left + 3
    /// right, own man = 1; black's: the row turned, right + 3 left, black's men = 1), then
    /// each window adds the codes of its four rows.
    fn window_configs(&self, pos: &Position<G>, out: &mut [(u16, u16); MAX_WINDOWS]) {
        let kings = pos.king_bits();
        let wm = (pos.side_bits(Side::White) & !kings).to_u128();
        let bm = (pos.side_bits(Side::Black) & !kings).to_u128();
        let n = self.row_shift.len();
        let pairs = n / 2 - 1;
        let mask = (1u128 << G::H) - 1;
        let mut rc = [[0u8; 16]; 16];
        for (r, &shift) in self.row_shift.iter().enumerate() {
            let i = ((wm >> shift) & mask) | (((bm >> shift) & mask) << G::H);
            rc[r] = self.row_codes[i as usize];
        }
        let mut w = 0;
        for r0 in 0..=n - 4 {
            // Every lane of the four rows at once (lanes 0.. white's view, 8.. black's; the
            // unused ones are zero): white's windows of this row of windows read rows r0 to
            // r0+3, black's the rows n-1-r0 down to n-4-r0, turned.
            let rb = n - 1 - r0;
            let (a, b, c, d) = (&rc[r0], &rc[r0 + 1], &rc[r0 + 2], &rc[r0 + 3]);
            let (ba, bb, bc, bd) = (&rc[rb], &rc[rb - 1], &rc[rb - 2], &rc[rb - 3]);
            let mut wv = [0u16; 16];
            let mut bv = [0u16; 16];
            for k in 0..16 {
                wv[k] = u16::from(a[k])
                    + 9 * u16::from(b[k])
                    + 81 * u16::from(c[k])
                    + 729 * u16::from(d[k]);
                bv[k] = u16::from(ba[k])
                    + 9 * u16::from(bb[k])
                    + 81 * u16::from(bc[k])
                    + 729 * u16::from(bd[k]);
            }
            for j in 0..pairs {
                out[w] = (wv[j], bv[8 + pairs - 1 - j]);
                w += 1;
            }
        }
    }

    /// The pattern score of `pos` in centi-men from white's side.
    #[must_use]
    pub fn score(&self, table: &PatternWeights, pos: &Position<G>) -> f32 {
        debug_assert_eq!(table.windows, self.len());
        let mut cfg = [(0u16, 0u16); MAX_WINDOWS];
        self.window_configs(pos, &mut cfg);
        let end = table.windows * CONFIGS;
        let (mut s, mut e) = (0.0f32, 0.0f32);
        for (w, &(iw, ib)) in cfg[..table.windows].iter().enumerate() {
            let at = w * CONFIGS;
            let (iw, ib) = (usize::from(iw), usize::from(ib));
            s += table.values[at + iw] - table.values[at + ib];
            if table.phases == 2 {
                e += table.values[end + at + iw] - table.values[end + at + ib];
            }
        }
        if table.phases == 2 {
            let t = self.phase(pos);
            t * s + (1.0 - t) * e
        } else {
            s
        }
    }

    /// The pattern score of `pos` in centi-men from white's side with the evaluator's tables
    /// ([`QuantizedPatterns`]): the sum of [`Windows::score`], each value rounded as the
    /// tables' file rounds it.
    #[must_use]
    pub fn score_quantized(&self, table: &QuantizedPatterns, pos: &Position<G>) -> f32 {
        debug_assert_eq!(table.windows, self.len());
        let mut cfg = [(0u16, 0u16); MAX_WINDOWS];
        self.window_configs(pos, &mut cfg);
        let values = &table.values[..];
        let end = table.windows * CONFIGS;
        let (mut s, mut e) = (0i32, 0i32);
        for (w, &(iw, ib)) in cfg[..table.windows].iter().enumerate() {
            let at = w * CONFIGS;
            let (iw, ib) = (usize::from(iw), usize::from(ib));
            s += i32::from(values[at + iw]) - i32::from(values[at + ib]);
            if table.phases == 2 {
                e += i32::from(values[end + at + iw]) - i32::from(values[end + at + ib]);
            }
        }
        if table.phases == 2 {
            let t = self.phase(pos);
            (t * s as f32 + (1.0 - t) * e as f32) / SCALE
        } else {
            s as f32 / SCALE
        }
    }
}

/// Pattern tables in the evaluator's form: every value rounded to a tenth of a centi-man (the
/// file's own precision, [`PatternWeights::to_bytes`]) and held as `i16`, half the memory of
/// the `f32` tables the fit works on, so that more of them stay in the cache during a search.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantizedPatterns {
    windows: usize,
    phases: usize,
    values: Vec<i16>,
}

impl QuantizedPatterns {
    /// The tables of `weights`, rounded to tenths of a centi-man (saturating at ±3,276.7).
    #[must_use]
    pub fn new(weights: &PatternWeights) -> Self {
        QuantizedPatterns {
            windows: weights.windows,
            phases: weights.phases,
            values: weights
                .values
                .iter()
                .map(|v| (v * SCALE).round().clamp(-32767.0, 32767.0) as i16)
                .collect(),
        }
    }

    /// Number of windows.
    #[must_use]
    pub fn windows(&self) -> usize {
        self.windows
    }
}

/// Training positions for [`fit`]: per position the linear evaluation (centi-men, white's
/// side), the game's result for white, the search's score where there is one, its phase
/// ([`Windows::phase`]) and the window configurations ([`Windows::configs`]). What the fit
/// aims at is the result, or a blend of the result and the score ([`Self::blend_scores`]).
#[derive(Clone, Debug, Default)]
pub struct PatternSamples {
    windows: usize,
    base: Vec<f32>,
    result: Vec<f32>,
    /// The search's score in white's favour (centi-men), NaN where there is none.
    score: Vec<f32>,
    /// What the fit aims at: the result unless blended.
    target: Vec<f32>,
    phase: Vec<f32>,
    configs: Vec<u16>,
}

impl PatternSamples {
    /// An empty set for boards of `windows` windows.
    #[must_use]
    pub fn new(windows: usize) -> Self {
        PatternSamples {
            windows,
            ..Self::default()
        }
    }

    /// Adds a position: its linear evaluation `base` (white's side), its result for white, its
    /// phase (0 to 1) and its configurations (`2 × windows` of them).
    pub fn push(&mut self, base: f32, result: f32, phase: f32, configs: &[u16]) {
        self.push_scored(base, result, None, phase, configs);
    }

    /// [`Self::push`] with the score in white's favour (centi-men) of a search of the
    /// position, where there is one.
    pub fn push_scored(
        &mut self,
        base: f32,
        result: f32,
        score: Option<i32>,
        phase: f32,
        configs: &[u16],
    ) {
        assert_eq!(configs.len(), 2 * self.windows);
        self.base.push(base);
        self.result.push(result);
        self.score.push(score.map_or(f32::NAN, |s| s as f32));
        self.target.push(result);
        self.phase.push(phase);
        self.configs.extend_from_slice(configs);
    }

    /// Aims the fit at `(1 − weight) · result + weight · σ(k · score)` for each position
    /// with a score (at the result alone for the others); `weight` 0 aims at the results.
    /// Returns how many positions have a score.
    pub fn blend_scores(&mut self, weight: f32, k: f32) -> usize {
        let weight = weight.clamp(0.0, 1.0);
        let mut scored = 0;
        for ((t, &r), &s) in self.target.iter_mut().zip(&self.result).zip(&self.score) {
            *t = if s.is_nan() {
                r
            } else {
                scored += 1;
                let p = 1.0 / (1.0 + (-k * s).exp());
                (1.0 - weight) * r + weight * p
            };
        }
        scored
    }

    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.base.len()
    }

    /// Whether there is none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.base.is_empty()
    }

    fn z(&self, i: usize, table: &PatternWeights, k: f32) -> f32 {
        let c = &self.configs[i * 2 * self.windows..(i + 1) * 2 * self.windows];
        let (w, b) = c.split_at(self.windows);
        let t = self.phase[i];
        let mut s = self.base[i];
        for (win, (&cw, &cb)) in w.iter().zip(b).enumerate() {
            s += table.value_at(win, cw as usize, t) - table.value_at(win, cb as usize, t);
        }
        k * s
    }

    /// Mean logistic loss of `σ(k · (base + patterns))` against what the fit aims at (the
    /// results unless [`Self::blend_scores`] blended them).
    #[must_use]
    pub fn loss(&self, table: &PatternWeights, k: f32) -> f64 {
        self.loss_against(&self.target, table, k)
    }

    /// Mean logistic loss of `σ(k · (base + patterns))` against the games' results alone.
    #[must_use]
    pub fn result_loss(&self, table: &PatternWeights, k: f32) -> f64 {
        self.loss_against(&self.result, table, k)
    }

    fn loss_against(&self, targets: &[f32], table: &PatternWeights, k: f32) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let sp = |x: f64| {
            if x > 0.0 {
                x + (-x).exp().ln_1p()
            } else {
                x.exp().ln_1p()
            }
        };
        let total: f64 = (0..self.len())
            .map(|i| {
                let z = f64::from(self.z(i, table, k));
                let r = f64::from(targets[i]);
                r * sp(-z) + (1.0 - r) * sp(z)
            })
            .sum();
        total / self.len() as f64
    }
}

/// How [`fit`] learns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitConfig {
    /// Scale of the logistic: the probability of a white win is `σ(k · eval)`.
    pub k: f32,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Step size of the first pass (centi-men per unit of gradient); it halves every
    /// `epochs / 3` passes.
    pub rate: f32,
    /// L2 pull of each entry toward zero, per update.
    pub l2: f32,
    /// Phases of the tables learnt: 1, or 2 (opening and endgame, blended by
    /// [`Windows::phase`]).
    pub phases: usize,
}

/// What one pass of [`fit`] reached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    /// Pass number (1-based).
    pub epoch: usize,
    /// Loss on the training positions.
    pub train: f64,
    /// Loss on the held-out positions.
    pub held_out: f64,
}

/// Learns pattern tables of `config.phases` phases from `train` by stochastic gradient
/// descent, starting from zeros; returns the tables of the pass with the lowest held-out loss,
/// and every pass's losses (`on_epoch` hears each). Stops early (keeping the best so far) when
/// `stop` is set.
pub fn fit(
    train: &PatternSamples,
    held_out: &PatternSamples,
    config: &FitConfig,
    rng: &mut impl Rng,
    stop: &AtomicBool,
    on_epoch: &mut dyn FnMut(&Epoch),
) -> (PatternWeights, Vec<Epoch>) {
    let windows = train.windows;
    let mut table = PatternWeights::zeros_phased(windows, config.phases);
    let end = windows * CONFIGS;
    let mut best = (held_out.loss(&table, config.k), table.clone());
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut log = Vec::new();
    let step = (config.epochs / 3).max(1);
    for epoch in 1..=config.epochs {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let rate = config.rate * 0.5f32.powi(((epoch - 1) / step) as i32);
        order.shuffle(rng);
        for &i in &order {
            let z = train.z(i, &table, config.k);
            let p = 1.0 / (1.0 + (-z).exp());
            let g = (p - train.target[i]) * config.k;
            let t = train.phase[i];
            let c = &train.configs[i * 2 * windows..(i + 1) * 2 * windows];
            for (n, &cfg) in c.iter().enumerate() {
                let (win, sign) = if n < windows {
                    (n, 1.0)
                } else {
                    (n - windows, -1.0)
                };
                let at = win * CONFIGS + cfg as usize;
                if config.phases == 2 {
                    // Each phase's entry takes its share of the gradient.
                    let v = &mut table.values[at];
                    *v -= rate * (sign * g * t + config.l2 * *v);
                    let v = &mut table.values[end + at];
                    *v -= rate * (sign * g * (1.0 - t) + config.l2 * *v);
                } else {
                    let v = &mut table.values[at];
                    *v -= rate * (sign * g + config.l2 * *v);
                }
            }
        }
        let e = Epoch {
            epoch,
            train: train.loss(&table, config.k),
            held_out: held_out.loss(&table, config.k),
        };
        on_epoch(&e);
        log.push(e);
        if e.held_out < best.0 {
            best = (e.held_out, table.clone());
        }
    }
    (best.1, log)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use tablier_draughts::{fen, G10, G8, INTERNATIONAL};

    #[test]
    fn blended_targets_mix_the_score_and_the_result() {
        let w = Windows::<G10>::new();
        let pos = fen::parse::<G10>(&INTERNATIONAL, "W:W31,32,38,44:B3,12,17").unwrap();
        let mut cfg = Vec::new();
        w.configs(&pos, &mut cfg);
        let mut set = PatternSamples::new(w.len());
        set.push_scored(0.0, 1.0, Some(0), 0.5, &cfg);
        set.push_scored(0.0, 0.0, None, 0.5, &cfg);
        let zero = PatternWeights::zeros(w.len());
        // Against the results, an evaluation of 0 (a chance of one half) loses ln 2 a position.
        let ln2 = std::f64::consts::LN_2;
        assert!((set.loss(&zero, 0.01) - ln2).abs() < 1e-9);
        assert_eq!(set.blend_scores(0.5, 0.01), 1);
        // The first now aims at 0.75 (half its win, half the score's even chance); the second,
        // without a score, still at its result.
        assert_eq!(set.target, vec![0.75, 0.0]);
        assert!((set.result_loss(&zero, 0.01) - ln2).abs() < 1e-9);
        // With the score alone, an even score is exactly what the zero table predicts.
        set.blend_scores(1.0, 0.01);
        assert_eq!(set.target, vec![0.5, 0.0]);
        assert!((set.loss(&zero, 0.01) - ln2).abs() < 1e-9);
        set.blend_scores(0.0, 0.01);
        assert_eq!(set.target, set.result);
    }

    #[test]
    fn window_counts_and_symmetry() {
        assert_eq!(Windows::<G10>::new().len(), 28);
        assert_eq!(Windows::<G8>::new().len(), 15);
        // A position and its mirror image with the colours swapped score opposite values.
        let w = Windows::<G10>::new();
        let mut table = PatternWeights::zeros(w.len());
        for (i, v) in table.values.iter_mut().enumerate() {
            *v = ((i * 7919) % 201) as f32 - 100.0;
        }
        let a = fen::parse::<G10>(&INTERNATIONAL, "W:W31,32,38,44:B3,12,17").unwrap();
        let b = fen::parse::<G10>(&INTERNATIONAL, "B:W34,39,48:B7,13,19,20").unwrap();
        let (sa, sb) = (w.score(&table, &a), w.score(&table, &b));
        assert!(sa != 0.0);
        assert!((sa + sb).abs() < 1e-3, "{sa} {sb}");
    }

    #[test]
    fn fast_score_equals_the_square_by_square_configurations() {
        fn check<G: Geometry>(variant: &'static tablier_draughts::Variant, seed: u64) {
            let w = Windows::<G>::new();
            let mut table = PatternWeights::zeros(w.len());
            for (i, v) in table.values.iter_mut().enumerate() {
                *v = ((i * 7919) % 2001) as f32 / 10.0 - 100.0;
            }
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut game = tablier_draughts::game::Game::<G>::start(variant).unwrap();
            let mut cfg = Vec::new();
            for _ in 0..120 {
                let pos = *game.position();
                w.configs(&pos, &mut cfg);
                let (a, b) = cfg.split_at(w.len());
                let slow: f32 = (0..w.len())
                    .map(|i| table.value(i, a[i] as usize) - table.value(i, b[i] as usize))
                    .sum();
                let fast = w.score(&table, &pos);
                assert!((slow - fast).abs() < 1e-2, "{slow} {fast}");
                // The evaluator's i16 tables: the same sum (the values are in tenths already).
                let quantized = w.score_quantized(&QuantizedPatterns::new(&table), &pos);
                assert!((slow - quantized).abs() < 1e-2, "{slow} {quantized}");
                let moves = game.legal_moves();
                let Some(m) = moves.choose(&mut rng).copied() else {
                    break;
                };
                game.play(&m).unwrap();
            }
        }
        check::<G10>(&INTERNATIONAL, 1);
        check::<G8>(&tablier_draughts::ENGLISH, 2);
        check::<tablier_draughts::G12>(&tablier_draughts::CANADIAN, 3);
    }

    #[test]
    fn bytes_round_trip_and_errors() {
        let mut t = PatternWeights::zeros(3);
        t.values[5] = 12.3;
        t.values[6] = -4.0;
        t.values[CONFIGS * 2 + 100] = 0.5;
        let b = t.to_bytes();
        assert_eq!(PatternWeights::from_bytes(&b).unwrap(), t);
        assert!(PatternWeights::from_bytes(b"nope").is_err());
        assert!(PatternWeights::from_bytes(&b[..b.len() - 1]).is_err());
        let mut long = b.clone();
        long.push(0);
        assert!(PatternWeights::from_bytes(&long).is_err());
    }

    #[test]
    fn two_phases_blend_by_the_pieces_on_the_board_and_round_trip() {
        let w = Windows::<G10>::new();
        let mut table = PatternWeights::zeros_phased(w.len(), 2);
        for (i, v) in table.values.iter_mut().enumerate() {
            *v = ((i * 7919) % 2001) as f32 / 10.0 - 100.0;
        }
        let start = Position::<G10>::start(&INTERNATIONAL).unwrap();
        assert_eq!(w.phase(&start), 1.0);
        // 7 pieces of 40.
        let p = fen::parse::<G10>(&INTERNATIONAL, "W:W31,32,38,K44:B3,12,17").unwrap();
        let t = w.phase(&p);
        assert!((t - 7.0 / 40.0).abs() < 1e-6);
        let mut cfg = Vec::new();
        w.configs(&p, &mut cfg);
        let (a, b) = cfg.split_at(w.len());
        let slow: f32 = (0..w.len())
            .map(|i| table.value_at(i, a[i] as usize, t) - table.value_at(i, b[i] as usize, t))
            .sum();
        let open: f32 = (0..w.len())
            .map(|i| table.value(i, a[i] as usize) - table.value(i, b[i] as usize))
            .sum();
        let fast = w.score(&table, &p);
        assert!((slow - fast).abs() < 1e-2, "{slow} {fast}");
        assert!((open - fast).abs() > 1.0, "the endgame's tables weigh in");
        let quantized = w.score_quantized(&QuantizedPatterns::new(&table), &p);
        assert!((slow - quantized).abs() < 1e-2, "{slow} {quantized}");
        let bytes = table.to_bytes();
        assert!(bytes.starts_with(b"TPAT2"));
        let back = PatternWeights::from_bytes(&bytes).unwrap();
        assert_eq!(back.phases(), 2);
        assert!((w.score(&back, &p) - fast).abs() < 0.5);
        assert!(PatternWeights::average(&[back, PatternWeights::zeros(w.len())]).is_err());
    }

    #[test]
    fn two_phases_learn_what_one_cannot() {
        // A man on square 28 wins with a full board and loses in the endgame: one table can
        // only average the two, the opening's and the endgame's tables each learn their half.
        let w = Windows::<G10>::new();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
        let (mut train, mut held) = (PatternSamples::new(w.len()), PatternSamples::new(w.len()));
        let mut cfg = Vec::new();
        let full_white = "31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49";
        let full_black = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19";
        for i in 0..4000 {
            let full = i % 4 < 2;
            let has = i % 2 == 0;
            let extra = if has { "28," } else { "" };
            let f = if full {
                format!("W:W{extra}{full_white}:B{full_black}")
            } else {
                format!("W:W{extra}{}:B{}", 36 + i % 10, 1 + i % 15)
            };
            let p = fen::parse::<G10>(&INTERNATIONAL, &f).unwrap();
            w.configs(&p, &mut cfg);
            let won = if full { has } else { !has };
            let set = if i % 10 == 0 { &mut held } else { &mut train };
            set.push(0.0, if won { 1.0 } else { 0.0 }, w.phase(&p), &cfg);
        }
        let fit_with = |phases: usize, rng: &mut rand_chacha::ChaCha8Rng| {
            let config = FitConfig {
                k: 0.01,
                epochs: 6,
                rate: 2000.0,
                l2: 1e-4,
                phases,
            };
            let (t, _) = fit(
                &train,
                &held,
                &config,
                rng,
                &AtomicBool::new(false),
                &mut |_| {},
            );
            held.loss(&t, 0.01)
        };
        let one = fit_with(1, &mut rng);
        let two = fit_with(2, &mut rng);
        assert!(two < one * 0.7, "one phase {one}, two {two}");
    }

    #[test]
    fn fit_learns_a_pattern_that_wins() {
        // White wins exactly when he has a man on square 28; the tables must learn it.
        let w = Windows::<G10>::new();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let (mut train, mut held) = (PatternSamples::new(w.len()), PatternSamples::new(w.len()));
        let mut cfg = Vec::new();
        for i in 0..4000 {
            let extra = if i % 2 == 0 { "28," } else { "" };
            let f = format!("W:W{extra}{}:B{}", 36 + i % 10, 1 + i % 15);
            let p = fen::parse::<G10>(&INTERNATIONAL, &f).unwrap();
            w.configs(&p, &mut cfg);
            let set = if i % 10 == 0 { &mut held } else { &mut train };
            set.push(0.0, if i % 2 == 0 { 1.0 } else { 0.0 }, w.phase(&p), &cfg);
        }
        let config = FitConfig {
            k: 0.01,
            epochs: 6,
            rate: 2000.0,
            l2: 1e-4,
            phases: 1,
        };
        let before = held.loss(&PatternWeights::zeros(w.len()), 0.01);
        let (t, log) = fit(
            &train,
            &held,
            &config,
            &mut rng,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert_eq!(log.len(), 6);
        let after = held.loss(&t, 0.01);
        assert!(after < before * 0.5, "{before} -> {after}");
    }
}
