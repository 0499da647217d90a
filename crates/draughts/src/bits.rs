//! Bitboards: one bit per playing square, with ghost bits between row pairs so that a diagonal
//! step is a shift by a constant (see [`crate::geometry`]).

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// The integer type that holds one board's bits: `u64` up to 10x10, `u128` for 12x12.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// No bit set.
    const ZERO: Self;
    /// Bit 0 set.
    const ONE: Self;
    /// Shift towards higher bit indices (down the board, towards the white side).
    fn shl(self, n: u32) -> Self;
    /// Shift towards lower bit indices (up the board, towards the black side).
    fn shr(self, n: u32) -> Self;
    /// Index of the lowest set bit (undefined result on zero).
    fn lowest(self) -> u32;
    /// Number of set bits.
    fn count(self) -> u32;
    /// Whether no bit is set.
    #[inline]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    /// The single bit at `index`.
    #[inline]
    fn bit(index: u32) -> Self {
        Self::ONE.shl(index)
    }
    /// Whether the bit at `index` is set.
    #[inline]
    fn has(self, index: u32) -> bool {
        !(self & Self::bit(index)).is_empty()
    }
    /// Iterates over the indices of the set bits, lowest first.
    #[inline]
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
    /// The bits as a `u128` (for storage in types that do not depend on the board size).
    fn to_u128(self) -> u128;
    /// Bits from a `u128`; higher bits are dropped for narrower boards.
    fn from_u128(v: u128) -> Self;
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline(always)]
            fn shl(self, n: u32) -> Self {
                self << n
            }
            #[inline(always)]
            fn shr(self, n: u32) -> Self {
                self >> n
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            #[allow(clippy::cast_possible_truncation)]
            fn from_u128(v: u128) -> Self {
                v as $t
            }
        }
    };
}
impl_bits!(u64);
impl_bits!(u128);

/// Iterator over set bit indices of a bitboard.
#[derive(Clone, Copy, Debug)]
pub struct BitIter<B>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_empty() {
            None
        } else {
            let i = self.0.lowest();
            self.0 &= !B::bit(i);
            Some(i)
        }
    }
}
