//! Zobrist hashing and the transposition table.

use tablier_core::Side;
use tablier_draughts::{Bits, Geometry, Move, Position};

const fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Bits of the widest board's bitboard (12x12 uses bits below 80).
const BITS: usize = 128;

const fn make_keys() -> [[u64; BITS]; 4] {
    let mut k = [[0u64; BITS]; 4];
    let mut p = 0;
    while p < 4 {
        let mut i = 0;
        while i < BITS {
            k[p][i] = splitmix((p * BITS + i) as u64 * 7919 + 17);
            i += 1;
        }
        p += 1;
    }
    k
}

/// Keys: white man, white king, black man, black king, per bit.
static KEYS: [[u64; BITS]; 4] = make_keys();
const BLACK_TO_MOVE: u64 = splitmix(0xD1CE);

fn base(side: Side) -> usize {
    match side {
        Side::White => 0,
        Side::Black => 2,
    }
}

/// The Zobrist hash of a position (pieces and side to move).
#[must_use]
pub fn hash<G: Geometry>(pos: &Position<G>) -> u64 {
    let kings = pos.king_bits();
    let mut h = 0;
    for side in Side::ALL {
        let b = pos.side_bits(side);
        for i in (b & !kings).iter() {
            h ^= KEYS[base(side)][i as usize];
        }
        for i in (b & kings).iter() {
            h ^= KEYS[base(side) + 1][i as usize];
        }
    }
    if pos.side_to_move() == Side::Black {
        h ^= BLACK_TO_MOVE;
    }
    h
}

/// The hash of the position after `m`, from the hash `h` of `pos` (before the move).
#[must_use]
pub fn hash_after<G: Geometry>(pos: &Position<G>, h: u64, m: &Move<G>) -> u64 {
    let side = pos.side_to_move();
    let me = base(side);
    let them = base(side.opposite());
    let was_king = pos.moves_king(m);
    let is_king = was_king || pos.is_promotion(m);
    let from = G::bit_of(u32::from(m.from())) as usize;
    let to = G::bit_of(u32::from(m.to())) as usize;
    let mut h = h ^ BLACK_TO_MOVE;
    h ^= KEYS[me + usize::from(was_king)][from];
    h ^= KEYS[me + usize::from(is_king)][to];
    let kings = pos.king_bits();
    let captured = m.captured();
    for i in (captured & kings).iter() {
        h ^= KEYS[them + 1][i as usize];
    }
    for i in (captured & !kings).iter() {
        h ^= KEYS[them][i as usize];
    }
    h
}

/// What a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// At least this (a beta cut-off).
    Lower,
    /// At most this (no move raised alpha).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The full hash (0 = empty slot).
    pub key: u64,
    /// Score, with win scores made relative to this node.
    pub score: i16,
    /// Depth searched.
    pub depth: i8,
    /// What the score is.
    pub bound: Bound,
    /// Index of the best move in the generator's order (255 = none).
    pub mv: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
    mv: 255,
};

/// A fixed-size hash table of search results, replaced by depth with a preference for new
/// entries.
#[derive(Clone, Debug)]
pub struct Tt {
    entries: Vec<Entry>,
    mask: usize,
}

impl Tt {
    /// A table of about `mb` mebibytes (rounded down to a power of two of entries).
    #[must_use]
    pub fn new(mb: usize) -> Tt {
        let want = (mb.max(1) << 20) / std::mem::size_of::<Entry>();
        let n = 1usize << (usize::BITS - 1 - want.leading_zeros());
        Tt {
            entries: vec![EMPTY; n],
            mask: n - 1,
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
    }

    /// The entry stored for `key`, if any.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[(key as usize) & self.mask];
        (e.key == key).then_some(e)
    }

    /// Stores a result.
    pub fn store(&mut self, key: u64, depth: i32, bound: Bound, score: i32, mv: u8) {
        let slot = &mut self.entries[(key as usize) & self.mask];
        if slot.key == key && i32::from(slot.depth) > depth + 2 && bound != Bound::Exact {
            return;
        }
        let mv = if mv == 255 && slot.key == key {
            slot.mv
        } else {
            mv
        };
        *slot = Entry {
            key,
            score: score.clamp(-32000, 32000) as i16,
            depth: depth.clamp(-1, 120) as i8,
            bound,
            mv,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablier_draughts::{CANADIAN, G10, G12, INTERNATIONAL};

    fn walk<G: Geometry>(pos: Position<G>, depth: u32) {
        if depth == 0 {
            return;
        }
        let h = hash(&pos);
        for m in pos.legal_moves() {
            let mut q = pos;
            q.play_unchecked(&m);
            assert_eq!(hash_after(&pos, h, &m), hash(&q));
            walk(q, depth - 1);
        }
    }

    #[test]
    fn incremental_hash_matches_full_hash() {
        walk(Position::<G10>::start(&INTERNATIONAL).unwrap(), 4);
        walk(Position::<G12>::start(&CANADIAN).unwrap(), 3);
        // Captures by kings and promotions.
        let p = tablier_draughts::fen::parse::<G10>(&INTERNATIONAL, "W:W6,K47,33:BK19,K28,12,13")
            .unwrap();
        walk(p, 4);
    }

    #[test]
    fn store_and_probe() {
        let mut t = Tt::new(1);
        t.store(12345, 5, Bound::Exact, -77, 3);
        let e = t.probe(12345).unwrap();
        assert_eq!((e.score, e.depth, e.bound, e.mv), (-77, 5, Bound::Exact, 3));
        assert!(t.probe(999).is_none());
    }
}
