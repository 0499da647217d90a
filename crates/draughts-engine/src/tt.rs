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
    /// The search that stored it ([`Tt::new_search`]), to let old entries go first.
    generation: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
    mv: 255,
    generation: 0,
};

/// Asks Linux to back the (still untouched) memory of `v` with huge pages where whole ones
/// fit: a probe lands on a random bucket of tens of megabytes, and with 4 KiB pages nearly every
/// probe also misses the processor's page-translation cache. Only a hint: where the system
/// does not follow it (or is not Linux), nothing changes but the speed.
#[allow(unsafe_code)]
fn advise_huge_pages<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_ptr() as usize;
        let end = start + v.capacity() * std::mem::size_of::<T>();
        let first = start.next_multiple_of(HUGE);
        let last = end - end % HUGE;
        if last > first {
            // SAFETY: the range lies inside `v`'s allocation, which stays allocated for the
            // call; MADV_HUGEPAGE changes how the kernel backs the pages, never their
            // contents, and a refusal is ignored.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// Entries of one bucket: a position's key chooses a bucket, and its entry may stand in any
/// slot of it.
const SLOTS: usize = 2;

/// A fixed-size hash table of search results, in buckets of two slots: the first keeps the
/// deepest result of the current search (a deep result costs many nodes to find again), the
/// second takes whatever the first does not, so that the flood of shallow results near the
/// leaves cannot push the deep ones out. A result stored by an older search counts as two
/// plies shallower for each search since, so that a game's table fills with the present
/// position's results rather than keeping those of positions left behind.
#[derive(Clone, Debug)]
pub struct Tt {
    buckets: Vec<[Entry; SLOTS]>,
    mask: usize,
    generation: u8,
}

impl Tt {
    /// A table of about `mb` mebibytes (rounded down to a power of two of buckets).
    #[must_use]
    pub fn new(mb: usize) -> Tt {
        let want = ((mb.max(1) << 20) / std::mem::size_of::<[Entry; SLOTS]>()).max(1);
        let n = 1usize << (usize::BITS - 1 - want.leading_zeros());
        let mut buckets = Vec::with_capacity(n);
        advise_huge_pages(&buckets);
        buckets.resize(n, [EMPTY; SLOTS]);
        Tt {
            buckets,
            mask: n - 1,
            generation: 0,
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.buckets.fill([EMPTY; SLOTS]);
        self.generation = 0;
    }

    /// Marks the start of a new search: what earlier searches stored ages from now on.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that a [`Tt::probe`] a
    /// little later finds it there: the search calls it for a child before the child
    /// generates its moves (the probe's wait for memory was a seventh of a search's time).
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        let bucket = self
            .buckets
            .as_ptr()
            .wrapping_add((key as usize) & self.mask);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint: it reads nothing the program sees, changes no
        // state the program can observe and never faults, whatever the address (here that of
        // a bucket of the table).
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(bucket.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// The entry stored for `key`, if any.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let bucket = &self.buckets[(key as usize) & self.mask];
        bucket.iter().find(|e| e.key == key && key != 0).copied()
    }

    /// How deep an entry counts when another result wants its slot: its depth, less two
    /// plies for each search since it was stored (the age counts up to 30 searches: at most
    /// 60 plies less).
    fn worth(&self, e: &Entry) -> i32 {
        let age = i32::from(self.generation.wrapping_sub(e.generation).min(30));
        i32::from(e.depth) - 2 * age
    }

    /// Stores a result.
    pub fn store(&mut self, key: u64, depth: i32, bound: Bound, score: i32, mv: u8) {
        let generation = self.generation;
        let index = (key as usize) & self.mask;
        let same = self.buckets[index].iter().position(|e| e.key == key);
        let slot = match same {
            Some(i) => i,
            None => {
                // The first slot keeps the deeper result; the second takes the rest.
                if depth >= self.worth(&self.buckets[index][0]) {
                    // The first slot's result is not lost: it moves to the second slot when it
                    // is worth more than what is there.
                    let first = self.buckets[index][0];
                    if first.key != 0 && self.worth(&first) >= self.worth(&self.buckets[index][1]) {
                        self.buckets[index][1] = first;
                    }
                    0
                } else {
                    1
                }
            }
        };
        let entry = &mut self.buckets[index][slot];
        if entry.key == key && i32::from(entry.depth) > depth + 2 && bound != Bound::Exact {
            entry.generation = generation;
            return;
        }
        let mv = if mv == 255 && entry.key == key {
            entry.mv
        } else {
            mv
        };
        *entry = Entry {
            key,
            score: score.clamp(-32000, 32000) as i16,
            depth: depth.clamp(-1, 120) as i8,
            bound,
            mv,
            generation,
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

    #[test]
    fn an_entry_is_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Entry>(), 16);
    }

    /// Keys that fall in bucket 0 of a one-MiB table.
    fn same_bucket(t: &Tt, n: u64) -> Vec<u64> {
        (1..)
            .map(|i: u64| i << 40)
            .filter(|k| (*k as usize) & t.mask == 0)
            .take(n as usize)
            .collect()
    }

    #[test]
    fn shallow_results_do_not_push_a_deep_one_out() {
        let mut t = Tt::new(1);
        let keys = same_bucket(&t, 40);
        t.store(keys[0], 12, Bound::Exact, 5, 1);
        // Many shallow results of the same bucket, one after another.
        for (i, &k) in keys[1..].iter().enumerate() {
            t.store(k, 1 + (i % 3) as i32, Bound::Lower, 0, 2);
        }
        assert_eq!(t.probe(keys[0]).map(|e| e.depth), Some(12));
        // The last shallow one is there too.
        assert!(t.probe(*keys.last().unwrap()).is_some());
    }

    #[test]
    fn old_deep_results_give_way_to_the_present_search() {
        let mut t = Tt::new(1);
        let keys = same_bucket(&t, 3);
        t.store(keys[0], 10, Bound::Exact, 5, 1);
        // Four searches later it counts as depth 2: a depth-3 result of the present search
        // takes the first slot and the old one moves to the second.
        for _ in 0..4 {
            t.new_search();
        }
        t.store(keys[1], 3, Bound::Exact, 0, 2);
        assert_eq!(t.probe(keys[1]).map(|e| e.depth), Some(3));
        assert_eq!(t.probe(keys[0]).map(|e| e.depth), Some(10));
        // The same search's next shallow result takes the second slot from the old one.
        t.store(keys[2], 1, Bound::Upper, 0, 3);
        assert!(t.probe(keys[0]).is_none());
        assert_eq!(t.probe(keys[1]).map(|e| e.depth), Some(3));
    }
}
