//! Win/draw/loss tables for small material, computed by our own solver.
//!
//! A table covers every position with at most `max_pieces` pieces of one variant, both sides
//! to move. Positions are grouped by material signature (white men, white kings, black men,
//! black kings); inside a signature a position's index is the side to move and, for each of
//! the four groups, the colex rank of its set of squares. Signatures are solved in an order
//! where every capture and every promotion leads to a signature already solved (fewer pieces,
//! or as many pieces with fewer men), so a move either stays inside the signature or reads a
//! value already known.
//!
//! Solving one signature: each position's moves are generated once; a position with no move
//! is lost; one with a move to a lost position is won; one whose moves all lead to won
//! positions is lost; passes over the moves that stay inside the signature propagate these
//! until nothing changes, and what is left is drawn (neither side can force a result).
//!
//! The tables know the rules of movement only: the draw rules that count moves (the FMJD 16-
//! and 5-move rules, the Brazilian and English counts) are not in them, so a "win" here is a
//! win with unlimited moves. The search uses them as such, like other engines' bitbases.
//!
//! Cost, measured with `tablier bench egtb` (single thread): see the README.

use std::collections::HashMap;

use tablier_core::Side;
use tablier_draughts::{Bits, CaptureRule, Geometry, Piece, Position, Variant};

/// A game-theoretic value, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wdl {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;
const INVALID: u8 = 4;

/// Counts of (white men, white kings, black men, black kings).
type Signature = [u8; 4];

/// Binomial coefficients up to 80 choose 4.
fn binom(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    let mut r = 1u64;
    for i in 0..k {
        r = r * u64::from(n - i) / u64::from(i + 1);
    }
    r
}

/// Colex rank of a sorted set of squares (0-based).
fn rank(squares: &[u32]) -> u64 {
    squares
        .iter()
        .enumerate()
        .map(|(i, &s)| binom(s, i as u32 + 1))
        .sum()
}

/// The sorted set of `k` squares with colex rank `r`.
fn unrank(mut r: u64, k: u32, out: &mut Vec<u32>) {
    out.clear();
    for i in (1..=k).rev() {
        let mut s = i - 1;
        while binom(s + 1, i) <= r {
            s += 1;
        }
        r -= binom(s, i);
        out.push(s);
    }
    out.reverse();
}

/// The tables of one variant.
#[derive(Clone, Debug)]
pub struct Tables {
    variant: &'static Variant,
    squares: u32,
    max_pieces: u32,
    values: HashMap<Signature, Vec<u8>>,
}

fn sig_of<G: Geometry>(pos: &Position<G>) -> Signature {
    let (wm, wk) = pos.count(Side::White);
    let (bm, bk) = pos.count(Side::Black);
    [wm as u8, wk as u8, bm as u8, bk as u8]
}

fn size(sig: Signature, squares: u32) -> u64 {
    2 * sig
        .iter()
        .map(|&c| binom(squares, u32::from(c)))
        .product::<u64>()
}

impl Tables {
    /// The pieces counted by these tables.
    #[must_use]
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Number of positions stored (valid or not).
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.values().map(Vec::len).sum()
    }

    /// Whether no table is stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Counts of won, drawn and lost positions (side to move), over every valid position.
    #[must_use]
    pub fn counts(&self) -> (u64, u64, u64) {
        let mut c = (0, 0, 0);
        for v in self.values.values().flatten() {
            match *v {
                WIN => c.0 += 1,
                DRAW => c.1 += 1,
                LOSS => c.2 += 1,
                _ => {}
            }
        }
        c
    }

    fn index<G: Geometry>(&self, pos: &Position<G>, sig: Signature) -> u64 {
        let kings = pos.king_bits();
        let groups = [
            pos.side_bits(Side::White) & !kings,
            pos.side_bits(Side::White) & kings,
            pos.side_bits(Side::Black) & !kings,
            pos.side_bits(Side::Black) & kings,
        ];
        let mut idx = 0u64;
        let mut sq = Vec::with_capacity(4);
        for (g, &c) in groups.iter().zip(sig.iter()) {
            sq.clear();
            sq.extend(g.iter().map(|b| G::square_of(b) - 1));
            idx = idx * binom(self.squares, u32::from(c)) + rank(&sq);
        }
        idx * 2 + u64::from(pos.side_to_move() == Side::Black)
    }

    /// The value of `pos` for its side to move, if the tables cover it.
    #[must_use]
    pub fn probe<G: Geometry>(&self, pos: &Position<G>) -> Option<Wdl> {
        let n = (pos.side_bits(Side::White) | pos.side_bits(Side::Black)).count();
        if n > self.max_pieces || G::N != self.variant.board.side() {
            return None;
        }
        let sig = sig_of(pos);
        let v = self.values.get(&sig)?;
        match v[self.index(pos, sig) as usize] {
            WIN => Some(Wdl::Win),
            LOSS => Some(Wdl::Loss),
            DRAW => Some(Wdl::Draw),
            _ => None,
        }
    }

    /// Solves every position of `variant` with at most `max_pieces` pieces. `progress` is
    /// called with (signatures done, signatures in all).
    ///
    /// # Panics
    /// If `G` is not the variant's board.
    #[must_use]
    pub fn generate<G: Geometry>(
        variant: &'static Variant,
        max_pieces: u32,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Tables {
        assert_eq!(G::N, variant.board.side(), "board of {}", variant.name);
        let mut sigs = Vec::new();
        for total in 2..=max_pieces {
            for wm in 0..=total {
                for wk in 0..=total - wm {
                    for bm in 0..=total - wm - wk {
                        let bk = total - wm - wk - bm;
                        if wm + wk > 0 && bm + bk > 0 {
                            sigs.push([wm as u8, wk as u8, bm as u8, bk as u8]);
                        }
                    }
                }
            }
        }
        sigs.sort_by_key(|s| {
            let total: u8 = s.iter().sum();
            (total, s[0] + s[2])
        });
        let mut t = Tables {
            variant,
            squares: G::SQUARES,
            max_pieces,
            values: HashMap::new(),
        };
        for (i, &sig) in sigs.iter().enumerate() {
            let v = t.solve::<G>(sig);
            t.values.insert(sig, v);
            progress(i + 1, sigs.len());
        }
        t
    }

    fn position_at<G: Geometry>(
        &self,
        sig: Signature,
        mut idx: u64,
        buf: &mut Vec<u32>,
    ) -> Option<Position<G>> {
        let side = if idx % 2 == 1 {
            Side::Black
        } else {
            Side::White
        };
        idx /= 2;
        let mut ranks = [0u64; 4];
        for g in (0..4).rev() {
            let b = binom(self.squares, u32::from(sig[g]));
            ranks[g] = idx % b;
            idx /= b;
        }
        let mut pos = Position::<G>::empty(self.variant, side).ok()?;
        for g in 0..4 {
            unrank(ranks[g], u32::from(sig[g]), buf);
            let piece = Piece {
                side: if g < 2 { Side::White } else { Side::Black },
                king: g % 2 == 1,
            };
            for &s in buf.iter() {
                pos.put(s + 1, piece).ok()?;
            }
        }
        Some(pos)
    }

    fn solve<G: Geometry>(&self, sig: Signature) -> Vec<u8> {
        let n = size(sig, self.squares) as usize;
        let mut val = vec![UNKNOWN; n];
        // Whether a move out of the signature reaches a drawn position (then the position is
        // never lost).
        let mut can_draw = vec![false; n];
        // Moves that stay in the signature, as (start, len) into `edges`.
        let mut spans: Vec<(u32, u32)> = vec![(0, 0); n];
        let mut edges: Vec<u32> = Vec::new();
        let mut buf = Vec::new();
        let mut moves = Vec::new();
        let huffing = self.variant.capture == CaptureRule::Huffing;
        for i in 0..n {
            let v = &mut val[i];
            let Some(pos) = self.position_at::<G>(sig, i as u64, &mut buf) else {
                *v = INVALID;
                continue;
            };
            if huffing {
                moves = pos.proper_moves();
            } else {
                pos.generate(&mut moves);
            }
            if moves.is_empty() {
                *v = LOSS;
                continue;
            }
            let start = edges.len() as u32;
            let mut any_draw = false;
            let mut all_win = true;
            let mut won = false;
            for m in &moves {
                let mut child = pos;
                child.play_unchecked(m);
                let cs = sig_of(&child);
                if cs == sig {
                    edges.push(self.index(&child, sig) as u32);
                    all_win = false;
                    continue;
                }
                let cv = if cs[0] + cs[1] == 0 || cs[2] + cs[3] == 0 {
                    // The side to move in the child has no piece left.
                    LOSS
                } else {
                    self.values
                        .get(&cs)
                        .map_or(DRAW, |t| t[self.index(&child, cs) as usize])
                };
                match cv {
                    LOSS => won = true,
                    WIN => {}
                    _ => {
                        any_draw = true;
                        all_win = false;
                    }
                }
            }
            spans[i] = (start, edges.len() as u32 - start);
            can_draw[i] = any_draw;
            if won {
                *v = WIN;
            } else if all_win {
                *v = LOSS;
            } else if any_draw && edges.len() as u32 == start {
                *v = DRAW;
            }
        }
        loop {
            let mut changed = false;
            for i in 0..n {
                if val[i] != UNKNOWN {
                    continue;
                }
                let (s, l) = spans[i];
                let mut all_win = !can_draw[i];
                let mut won = false;
                for &c in &edges[s as usize..(s + l) as usize] {
                    match val[c as usize] {
                        LOSS => {
                            won = true;
                            break;
                        }
                        WIN => {}
                        _ => all_win = false,
                    }
                }
                if won {
                    val[i] = WIN;
                    changed = true;
                } else if all_win {
                    val[i] = LOSS;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for v in &mut val {
            if *v == UNKNOWN {
                *v = DRAW;
            }
        }
        val
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablier_draughts::{fen, ENGLISH, G10, G8, INTERNATIONAL};

    #[test]
    fn rank_unrank() {
        let mut buf = Vec::new();
        for k in 0..=3 {
            for r in 0..binom(12, k) {
                unrank(r, k, &mut buf);
                assert_eq!(rank(&buf), r);
                assert!(buf.windows(2).all(|w| w[0] < w[1]));
            }
        }
    }

    #[test]
    fn english_small_endings() {
        let t = Tables::generate::<G8>(&ENGLISH, 3, &mut |_, _| {});
        // Two kings against one king win in English checkers.
        let p = fen::parse::<G8>(&ENGLISH, "W:WK1,K2:BK32").unwrap();
        assert_eq!(t.probe(&p), Some(Wdl::Win));
        // One king against one king is drawn.
        let p = fen::parse::<G8>(&ENGLISH, "W:WK1:BK32").unwrap();
        assert_eq!(t.probe(&p), Some(Wdl::Draw));
        // A king that must take and is then taken.
        let p = fen::parse::<G8>(&ENGLISH, "B:WK10,K14:BK5").unwrap();
        assert!(t.probe(&p).is_some());
    }

    #[test]
    fn international_small_endings() {
        let t = Tables::generate::<G10>(&INTERNATIONAL, 3, &mut |_, _| {});
        let probe = |f: &str| t.probe(&fen::parse::<G10>(&INTERNATIONAL, f).unwrap());
        // With flying kings, two kings cannot catch a lone king, nor can one.
        assert_eq!(probe("W:WK46,K50:BK3"), Some(Wdl::Draw));
        assert_eq!(probe("B:WK46,K50:BK3"), Some(Wdl::Draw));
        assert_eq!(probe("W:WK46:BK3"), Some(Wdl::Draw));
        // Both kings at the ends of the long diagonal: the king in the corner must step
        // onto the diagonal and is taken.
        assert_eq!(probe("W:WK46:BK5"), Some(Wdl::Loss));
        // A king next to a man with the square behind it free takes it and wins.
        assert_eq!(probe("W:WK28:B23"), Some(Wdl::Win));
        assert!(t
            .probe(&fen::parse::<G10>(&INTERNATIONAL, "W:W31,32,33:B1,2").unwrap())
            .is_none());
    }
}
