//! Dice behind a trait, with a seeded ChaCha20 implementation that makes every roll reproducible.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

/// A source of die throws for the dice games. Rules crates take one as a parameter and never
/// draw randomness of their own.
pub trait Dice {
    /// One die: a number from 1 to 6.
    fn roll(&mut self) -> u8;

    /// Two dice thrown together.
    fn roll_pair(&mut self) -> (u8, u8) {
        (self.roll(), self.roll())
    }
}

impl<D: Dice + ?Sized> Dice for &mut D {
    fn roll(&mut self) -> u8 {
        (**self).roll()
    }
}

/// Dice drawn from a ChaCha20 stream keyed by a 32-byte seed.
///
/// The seed's SHA-256 ([`SeededDice::commitment`]) can be published before a game and the seed
/// revealed after it: anyone can then recompute every roll.
#[derive(Clone, Debug)]
pub struct SeededDice {
    seed: [u8; 32],
    rng: ChaCha20Rng,
}

impl SeededDice {
    /// Dice keyed by `seed`.
    #[must_use]
    pub fn from_seed(seed: [u8; 32]) -> Self {
        SeededDice {
            seed,
            rng: ChaCha20Rng::from_seed(seed),
        }
    }

    /// The seed (to be revealed once the game is over).
    #[must_use]
    pub fn seed(&self) -> [u8; 32] {
        self.seed
    }

    /// The SHA-256 of the seed, as lowercase hex: the public commitment.
    #[must_use]
    pub fn commitment(&self) -> String {
        Sha256::digest(self.seed)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

impl Dice for SeededDice {
    fn roll(&mut self) -> u8 {
        // Rejection sampling keeps the six faces exactly equally likely: 252 = 6 × 42.
        loop {
            let byte = (self.rng.next_u32() & 0xff) as u8;
            if byte < 252 {
                return byte % 6 + 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_are_uniform_enough() {
        let mut d = SeededDice::from_seed([1; 32]);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[usize::from(d.roll() - 1)] += 1;
        }
        // Each face expects 10,000 with a standard deviation near 91; 5 sigma bounds.
        for c in counts {
            assert!((9_545..=10_455).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn commitment_is_sha256_of_the_seed() {
        // SHA-256 of 32 zero bytes, a published constant.
        let d = SeededDice::from_seed([0; 32]);
        assert_eq!(
            d.commitment(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }
}
