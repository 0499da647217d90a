//! Board geometry: square numbers, bit indices and the four diagonal directions.
//!
//! Squares are numbered as the FMJD numbers the 10x10 board (Manoury): square 1 is the first
//! dark square of the top row (black's side) seen from white, numbering runs left to right and
//! row by row down to the last square at white's bottom right. The 8x8 (1–32) and 12x12 (1–72)
//! boards are numbered the same way. The bottom-left corner (`a1`) is a dark square.
//!
//! Square `s` (1-based) lives at bit `(s-1) + (s-1)/N` of an `N`x`N` board: every pair of rows
//! (N squares) is followed by one unused "ghost" bit. With `H = N/2` squares per row the four
//! diagonal neighbours of any square are then at `-(H+1)` (up-left), `-H` (up-right), `+H`
//! (down-left) and `+(H+1)` (down-right), and a step off the board's side lands on a ghost bit.

use crate::bits::Bits;

/// A diagonal direction, as seen from white (up = towards square 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Towards the top left.
    UpLeft = 0,
    /// Towards the top right.
    UpRight = 1,
    /// Towards the bottom left.
    DownLeft = 2,
    /// Towards the bottom right.
    DownRight = 3,
}

impl Dir {
    /// The four directions.
    pub const ALL: [Dir; 4] = [Dir::UpLeft, Dir::UpRight, Dir::DownLeft, Dir::DownRight];

    /// The direction pointing the other way.
    #[must_use]
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::UpLeft => Dir::DownRight,
            Dir::UpRight => Dir::DownLeft,
            Dir::DownLeft => Dir::UpRight,
            Dir::DownRight => Dir::UpLeft,
        }
    }
}

/// A board size: the constants and bit masks of an `N`x`N` board.
pub trait Geometry:
    Copy + Clone + std::fmt::Debug + Default + PartialEq + Eq + std::hash::Hash + Send + Sync + 'static
{
    /// The integer holding this board's bits.
    type B: Bits;
    /// Squares per side of the board.
    const N: u32;
    /// Playing squares per row.
    const H: u32 = Self::N / 2;
    /// Number of playing squares.
    const SQUARES: u32 = Self::N * Self::N / 2;

    /// Bit index of square `s` (1-based, not checked).
    #[inline]
    fn bit_of(s: u32) -> u32 {
        (s - 1) + (s - 1) / Self::N
    }

    /// Square number (1-based) of bit `i` (a playing square's bit).
    #[inline]
    fn square_of(i: u32) -> u32 {
        i - i / (Self::N + 1) + 1
    }

    /// Every playing square's bit.
    const VALID: Self::B;
    /// The top row (black's back row, white's promotion row).
    const TOP_ROW: Self::B;
    /// The bottom row (white's back row, black's promotion row).
    const BOTTOM_ROW: Self::B;

    /// Every playing square's bit.
    #[inline(always)]
    fn valid() -> Self::B {
        Self::VALID
    }

    /// Signed bit offset of one step in direction `d`.
    #[inline(always)]
    fn offset(d: Dir) -> i32 {
        match d {
            Dir::UpLeft => -(Self::H as i32 + 1),
            Dir::UpRight => -(Self::H as i32),
            Dir::DownLeft => Self::H as i32,
            Dir::DownRight => Self::H as i32 + 1,
        }
    }

    /// The bits of the top `rows` rows (black's side).
    fn top_rows(rows: u32) -> Self::B {
        let mut b = Self::B::ZERO;
        for s in 1..=rows * Self::H {
            b |= Self::B::bit(Self::bit_of(s));
        }
        b
    }

    /// The bits of the bottom `rows` rows (white's side).
    fn bottom_rows(rows: u32) -> Self::B {
        let mut b = Self::B::ZERO;
        for s in (Self::SQUARES - rows * Self::H + 1)..=Self::SQUARES {
            b |= Self::B::bit(Self::bit_of(s));
        }
        b
    }

    /// Shift every bit one step in direction `d` (bits may land on ghost or off-board bits:
    /// mask with a set of playing squares).
    #[inline(always)]
    fn step(b: Self::B, d: Dir) -> Self::B {
        match d {
            Dir::UpLeft => b.shr(Self::H + 1),
            Dir::UpRight => b.shr(Self::H),
            Dir::DownLeft => b.shl(Self::H),
            Dir::DownRight => b.shl(Self::H + 1),
        }
    }

    /// Row (0 = top) and column (0 = left) of square `s`.
    fn row_col(s: u32) -> (u32, u32) {
        let row = (s - 1) / Self::H;
        let k = (s - 1) % Self::H;
        let col = if row.is_multiple_of(2) {
            2 * k + 1
        } else {
            2 * k
        };
        (row, col)
    }

    /// Square at row (0 = top) and column (0 = left), if it is a playing square.
    fn square_at(row: u32, col: u32) -> Option<u32> {
        if row >= Self::N || col >= Self::N || (row + col).is_multiple_of(2) {
            return None;
        }
        Some(row * Self::H + col / 2 + 1)
    }
}

/// The 8x8 board (Brazilian draughts, English checkers): 32 squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct G8;
/// The 10x10 board (international draughts): 50 squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct G10;
/// The 12x12 board (Canadian draughts): 72 squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct G12;

/// Bits of squares `first..=last` of an `n`x`n` board, as a `u128`.
const fn squares_mask(n: u32, first: u32, last: u32) -> u128 {
    let mut b = 0u128;
    let mut s = first;
    while s <= last {
        b |= 1u128 << ((s - 1) + (s - 1) / n);
        s += 1;
    }
    b
}

macro_rules! geometry {
    ($g:ty, $b:ty, $n:expr) => {
        #[allow(clippy::cast_possible_truncation)]
        impl Geometry for $g {
            type B = $b;
            const N: u32 = $n;
            const VALID: $b = squares_mask($n, 1, $n * $n / 2) as $b;
            const TOP_ROW: $b = squares_mask($n, 1, $n / 2) as $b;
            const BOTTOM_ROW: $b = squares_mask($n, $n * $n / 2 - $n / 2 + 1, $n * $n / 2) as $b;
        }
    };
}
geometry!(G8, u64, 8);
geometry!(G10, u64, 10);
geometry!(G12, u128, 12);

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbour<G: Geometry>(s: u32, d: Dir) -> Option<u32> {
        let b = G::step(G::B::bit(G::bit_of(s)), d) & G::valid();
        if b.is_empty() {
            None
        } else {
            Some(G::square_of(b.lowest()))
        }
    }

    /// Neighbours computed by shifts agree with neighbours computed from rows and columns.
    fn check<G: Geometry>() {
        for s in 1..=G::SQUARES {
            assert_eq!(G::square_of(G::bit_of(s)), s);
            let (r, c) = G::row_col(s);
            assert_eq!(G::square_at(r, c), Some(s));
            for (d, dr, dc) in [
                (Dir::UpLeft, -1i32, -1i32),
                (Dir::UpRight, -1, 1),
                (Dir::DownLeft, 1, -1),
                (Dir::DownRight, 1, 1),
            ] {
                let (nr, nc) = (r as i32 + dr, c as i32 + dc);
                let want = if nr < 0 || nc < 0 {
                    None
                } else {
                    G::square_at(nr as u32, nc as u32)
                };
                assert_eq!(neighbour::<G>(s, d), want, "square {s} dir {d:?}");
            }
        }
    }

    #[test]
    fn shifts_are_diagonal_steps() {
        check::<G8>();
        check::<G10>();
        check::<G12>();
    }

    #[test]
    fn manoury_corners() {
        // Square 1 is b10, 46 is a1, 5 is j10, 50 is i1.
        assert_eq!(G10::row_col(1), (0, 1));
        assert_eq!(G10::row_col(46), (9, 0));
        assert_eq!(G10::row_col(5), (0, 9));
        assert_eq!(G10::row_col(50), (9, 8));
    }
}
