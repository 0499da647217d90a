//! The net's inputs: what a position looks like to the evaluator.
//!
//! For each side, seen from its own home (the side on roll first): 25 slots (its points 1 to 24,
//! then its bar), four units each in the style of TD-Gammon and gnubg — one checker (a blot),
//! two, three or more, and half of the checkers beyond three — then checkers borne off / 15,
//! the pip count / 100, and three hand-made features: the checkers still in the opponent's home
//! board or on the bar / 15, a count of the opponent's checkers within direct (1–6 pips) or
//! indirect (7–12, half weight) range of each of our blots / 12 (blocking ignored), and the
//! number of our made points in the six points in front of the opponent's furthest-back
//! checker / 6 (a prime measure); then two counted over the 36 rolls of the opponent or of the
//! side itself: the share of the opponent's rolls that hit one of our blots (his landing points
//! blocked by our made points, a checker on his bar entering first), and the share of our rolls
//! that carry our furthest-back checker past every point the opponent holds in the twelve in
//! front of it; then the pips the opponent's roll is expected to cost us by hitting (the
//! worst hit of each roll) / 24, and, with a checker on our bar, the chance of entering none
//! ((closed points of his home board / 6)²).

use tablier_backgammon::Position;

/// Units per side.
pub const PER_SIDE: usize = 25 * 4 + 9;

/// Units per side of the first input layout (without the last four features): weights files
/// made for it are read with those inputs at zero weight.
pub const PER_SIDE_V1: usize = 25 * 4 + 5;

/// Total inputs.
pub const INPUTS: usize = 2 * PER_SIDE;

/// The 21 rolls as (first die, second die, how many of the 36 give it).
const ROLLS: [(usize, usize, u32); 21] = {
    let mut out = [(0, 0, 0); 21];
    let mut k = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = a;
        while b <= 6 {
            out[k] = (a, b, if a == b { 1 } else { 2 });
            k += 1;
            b += 1;
        }
        a += 1;
    }
    out
};

/// One way for a roll to cover a distance: the roll (index into [`ROLLS`]) and the points the
/// checker stops on first, as pips from where it starts (0: unused).
#[derive(Clone, Copy)]
struct Way {
    roll: u8,
    stops: [u8; 3],
}

/// For each distance 1..=24, the ways the 21 rolls cover it.
fn ways() -> &'static [Vec<Way>; 25] {
    static WAYS: std::sync::OnceLock<[Vec<Way>; 25]> = std::sync::OnceLock::new();
    WAYS.get_or_init(|| {
        let mut out: [Vec<Way>; 25] = std::array::from_fn(|_| Vec::new());
        for (r, &(a, b, _)) in ROLLS.iter().enumerate() {
            let roll = r as u8;
            if a == b {
                for m in 1..=4usize {
                    let mut stops = [0u8; 3];
                    for (k, s) in stops.iter_mut().enumerate().take(m - 1) {
                        *s = ((k + 1) * a) as u8;
                    }
                    out[m * a].push(Way { roll, stops });
                }
            } else {
                out[a].push(Way {
                    roll,
                    stops: [0; 3],
                });
                out[b].push(Way {
                    roll,
                    stops: [0; 3],
                });
                out[a + b].push(Way {
                    roll,
                    stops: [a as u8, 0, 0],
                });
                out[a + b].push(Way {
                    roll,
                    stops: [b as u8, 0, 0],
                });
            }
        }
        out
    })
}

/// The points of a side as bit masks, on the other side's numbering (his point t is our
/// point 25 − t): bit t of `blots` / `made` when we have one / two or more checkers there.
#[derive(Clone, Copy)]
struct Masks {
    blots: u32,
    made: u32,
}

#[cfg(test)]
impl Masks {
    fn of(side: &[u8; 25]) -> Masks {
        let (mut blots, mut made) = (0u32, 0u32);
        for (i, &n) in side[..24].iter().enumerate() {
            // Our point i + 1 is his 24 - i.
            let t = 24 - i;
            if n == 1 {
                blots |= 1 << t;
            } else if n >= 2 {
                made |= 1 << t;
            }
        }
        Masks { blots, made }
    }
}

/// Bit q (1..=25, 25 his bar) when the side has a checker on its point q.
#[cfg(test)]
fn occupied(side: &[u8; 25]) -> u32 {
    let mut m = 0u32;
    for (i, &n) in side.iter().enumerate() {
        if n > 0 {
            m |= 1 << (i + 1);
        }
    }
    m
}

/// The share of 36 in a mask of rolls (one bit per roll of [`ROLLS`]).
fn share(rolls: u32) -> f32 {
    weight(rolls) as f32 / 36.0
}

/// The longest distance whose rolls [`Reach`] tabulates for every pattern of blocked points on
/// the way: longer ones are covered by doubles only, a way or two each, and walked.
const TABULATED: usize = 12;

/// The rolls that cover each distance, for every pattern of blocked points between the start
/// and the landing point: `rolls[offset(d) + k]` has bit r for each roll of [`ROLLS`] that
/// covers `d` pips without stopping on a blocked point, when bit j of `k` says whether the point
/// j + 1 pips past the landing point (back towards the start) is blocked. The landing point
/// itself is not looked at. Built once, from [`ways`].
struct Reach {
    rolls: Vec<u32>,
}

impl Reach {
    fn global() -> &'static Reach {
        static REACH: std::sync::OnceLock<Reach> = std::sync::OnceLock::new();
        REACH.get_or_init(|| {
            let ways = ways();
            let mut rolls = vec![0u32; Reach::offset(TABULATED + 1)];
            for (d, ways_d) in ways.iter().enumerate().take(TABULATED + 1).skip(1) {
                for k in 0..1usize << (d - 1) {
                    let mut m = 0u32;
                    for w in ways_d {
                        // A stop s pips from the start is d - s past the landing point: bit
                        // d - s - 1 of the pattern.
                        if w.stops
                            .iter()
                            .all(|&s| s == 0 || k >> (d - usize::from(s) - 1) & 1 == 0)
                        {
                            m |= 1 << w.roll;
                        }
                    }
                    rolls[Reach::offset(d) + k] = m;
                }
            }
            Reach { rolls }
        })
    }

    /// Where the patterns of distance `d` start: distance e has 2^(e - 1) of them.
    const fn offset(d: usize) -> usize {
        (1 << (d - 1)) - 1
    }

    /// The rolls that cover `d` pips (1..=24) when `blocked` has bit j set for each blocked
    /// point j + 1 pips past the landing point (bits d - 1 and up are ignored).
    #[inline]
    fn rolls(&self, d: usize, blocked: u32) -> u32 {
        if d <= TABULATED {
            return self.rolls[Reach::offset(d) + (blocked & ((1 << (d - 1)) - 1)) as usize];
        }
        let mut m = 0u32;
        for w in &ways()[d] {
            if w.stops
                .iter()
                .all(|&s| s == 0 || blocked >> (d - usize::from(s) - 1) & 1 == 0)
            {
                m |= 1 << w.roll;
            }
        }
        m
    }
}

/// How many of the 36 rolls a mask of [`ROLLS`] stands for: doubles one each, the others two.
fn weight(rolls: u32) -> u32 {
    const DOUBLES: u32 = doubles();
    2 * (rolls & !DOUBLES).count_ones() + (rolls & DOUBLES).count_ones()
}

/// The rolls of [`ROLLS`] that are doubles, as a mask.
const fn doubles() -> u32 {
    let mut m = 0u32;
    let mut r = 0;
    while r < 21 {
        if ROLLS[r].0 == ROLLS[r].1 {
            m |= 1 << r;
        }
        r += 1;
    }
    m
}

/// What the other side's next roll threatens (`his`: bit q when he has a checker on his point
/// q, 25 his bar): the share of his 36 rolls that hit one of our blots, and the pips we expect
/// to lose by it (with each roll, the farthest-advanced blot he can hit: a blot on his point
/// t loses us t pips).
fn hits(us: Masks, his: u32) -> (f32, f32) {
    if us.blots == 0 {
        return (0.0, 0.0);
    }
    let reach = Reach::global();
    // A checker on his bar enters first.
    let sources = if his >> 25 & 1 == 1 { 1 << 25 } else { his };
    let mut hit = 0u32;
    let mut lost = 0u32;
    let mut blots = us.blots;
    // The blots that cost most first, so that a roll counts the worst hit it has.
    while blots != 0 {
        let t = 31 - blots.leading_zeros() as usize;
        blots &= !(1 << t);
        let mut from = sources & !((2u32 << t) - 1) & ((1u32 << (t + 25).min(31)) - 1);
        // Our made points past the blot, seen from it: bit j is his point t + 1 + j.
        let blocked = us.made >> (t + 1);
        let mut here = 0u32;
        while from != 0 {
            let q = from.trailing_zeros() as usize;
            from &= from - 1;
            here |= reach.rolls(q - t, blocked);
        }
        let new = here & !hit;
        hit |= new;
        lost += weight(new) * t as u32;
    }
    (share(hit), lost as f32 / 36.0)
}

/// The share of `side`'s 36 rolls that carry its furthest-back checker below every point the
/// other side holds among the twelve in front of it (1 when it holds none there). `held` has
/// bit p for each of our points p the other side holds.
fn escape_share(side: &[u8; 25], held: u32) -> f32 {
    let Some(back) = (1..=25).rev().find(|&p| side[p - 1] > 0) else {
        return 1.0;
    };
    let window = held & ((1u32 << back) - 1) & !((1u32 << back.saturating_sub(12)) - 1);
    if window == 0 {
        return 1.0;
    }
    let lowest = window.trailing_zeros() as usize;
    let reach = Reach::global();
    // Bit 32 + p: our point p held; points 0 and below (borne off) are open.
    let wide = u64::from(held) << 32;
    let mut esc = 0u32;
    for d in back - lowest + 1..=24 {
        // Landing on 0 or below: borne off, gone past everything.
        let land = back as i64 - d as i64;
        if land >= 1 && held >> land & 1 == 1 {
            continue;
        }
        let blocked = (wide >> (32 + land + 1)) as u32;
        esc |= reach.rolls(d, blocked);
    }
    share(esc)
}

/// What [`encode_side`] needs of a side besides its checkers: its masks and occupied points.
#[derive(Clone, Copy)]
struct Shape {
    masks: Masks,
    occupied: u32,
}

impl Shape {
    fn of(side: &[u8; 25]) -> Shape {
        // One branch-free pass: the masks of Masks::of and the bits of occupied().
        let (mut blots, mut made, mut occupied) = (0u32, 0u32, 0u32);
        for (i, &n) in side.iter().enumerate() {
            occupied |= u32::from(n > 0) << (i + 1);
            if i < 24 {
                blots |= u32::from(n == 1) << (24 - i);
                made |= u32::from(n >= 2) << (24 - i);
            }
        }
        Shape {
            masks: Masks { blots, made },
            occupied,
        }
    }
}

/// The four units of a point with n checkers (0 to 15): one, two, three or more, and half of
/// those beyond three.
const UNITS: [[f32; 4]; 16] = {
    let mut out = [[0.0f32; 4]; 16];
    let mut n = 1;
    while n < 16 {
        out[n] = [
            if n == 1 { 1.0 } else { 0.0 },
            if n == 2 { 1.0 } else { 0.0 },
            if n >= 3 { 1.0 } else { 0.0 },
            if n > 3 { (n - 3) as f32 / 2.0 } else { 0.0 },
        ];
        n += 1;
    }
    out
};

/// `side[i]`: checkers on the side's own point `i + 1` (index 24 = its bar); `other` likewise
/// for the opponent, from the opponent's own home; `mine` and `his` their [`Shape`]s.
fn encode_side(side: &[u8; 25], other: &[u8; 25], mine: Shape, his: Shape, out: &mut [f32]) {
    let mut on = 0u32;
    let mut pips = 0u32;
    for (i, &n) in side.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&UNITS[usize::from(n.min(15))]);
        on += u32::from(n);
        pips += u32::from(n) * (i as u32 + 1);
    }
    let base = 100;
    out[base] = (15 - on.min(15)) as f32 / 15.0;
    out[base + 1] = pips as f32 / 100.0;
    // Checkers back: in the opponent's home board (own points 19..24) or on the bar.
    let back: u32 = side[18..25].iter().map(|&n| u32::from(n)).sum();
    out[base + 2] = back as f32 / 15.0;
    // Direct shots at our blots: the opponent's points (bar included) 1 to 6 pips in front of
    // a blot count 1, 7 to 12 pips a half. On his numbering our blot is on t and he comes
    // down from t + d.
    let mut shots = 0.0f32;
    let mut blots = mine.masks.blots;
    while blots != 0 {
        let t = blots.trailing_zeros();
        blots &= blots - 1;
        let near = his.occupied >> (t + 1) & 0x3f;
        let far = his.occupied >> (t + 7) & 0x3f;
        shots += near.count_ones() as f32 + 0.5 * far.count_ones() as f32;
    }
    out[base + 3] = (shots / 12.0).min(1.0);
    // Made points (two or more) in the 6 points in front of the opponent's furthest-back checker.
    let opp_back = (1..=25).rev().find(|&q| other[q - 1] > 0);
    let mut block = 0u32;
    if let Some(q) = opp_back {
        // His point q is our point 25 - q (his bar, q = 25, is our 0); he travels up our
        // numbering from there.
        let start = 25 - q;
        for p in (start + 1)..=(start + 6).min(24) {
            if side[p - 1] >= 2 {
                block += 1;
            }
        }
    }
    out[base + 4] = block as f32 / 6.0;
    let (hit, lost) = hits(mine.masks, his.occupied);
    out[base + 5] = hit;
    // The points he holds, on our numbering: his made points seen from his side's masks.
    out[base + 6] = escape_share(side, his.masks.made);
    out[base + 7] = lost / 24.0;
    // On the bar: the chance that a roll enters no checker, (closed points / 6)², his home
    // board being our points 19 to 24.
    out[base + 8] = if side[24] > 0 {
        let closed = (his.masks.made >> 19 & 0x3f).count_ones() as f32 / 6.0;
        closed * closed
    } else {
        0.0
    };
}

/// Where input `i` of the first layout ([`PER_SIDE_V1`] per side) is in today's.
#[must_use]
pub fn v1_input_map() -> Vec<usize> {
    (0..2 * PER_SIDE_V1)
        .map(|i| (i / PER_SIDE_V1) * PER_SIDE + i % PER_SIDE_V1)
        .collect()
}

/// The inputs for `pos` (the side on roll first), written into `out` (length [`INPUTS`]).
pub fn encode(pos: &Position, out: &mut [f32]) {
    debug_assert_eq!(out.len(), INPUTS);
    let (me, them) = pos.to_sides();
    let (a, b) = (Shape::of(&me), Shape::of(&them));
    encode_side(&me, &them, a, b, &mut out[..PER_SIDE]);
    encode_side(&them, &me, b, a, &mut out[PER_SIDE..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`hits`] way by way, as first written: the reference the tables are checked against.
    ///
    /// What the other side's next roll threatens (`his`: bit q when he has a checker on his point
    /// q, 25 his bar): the share of his 36 rolls that hit one of our blots, and the pips we expect
    /// to lose by it (with each roll, the farthest-advanced blot he can hit: a blot on his point
    /// t loses us t pips).
    fn hits_by_ways(us: Masks, his: u32) -> (f32, f32) {
        if us.blots == 0 {
            return (0.0, 0.0);
        }
        let ways = ways();
        // A checker on his bar enters first.
        let sources = if his >> 25 & 1 == 1 { 1 << 25 } else { his };
        let mut hit = 0u32;
        let mut lost = 0u32;
        let mut blots = us.blots;
        // The blots that cost most first, so that a roll counts the worst hit it has.
        while blots != 0 {
            let t = 31 - blots.leading_zeros() as usize;
            blots &= !(1 << t);
            let mut from = sources & !((2u32 << t) - 1) & ((1u32 << (t + 25).min(31)) - 1);
            while from != 0 {
                let q = from.trailing_zeros() as usize;
                from &= from - 1;
                for w in &ways[q - t] {
                    if hit >> w.roll & 1 == 0
                        && w.stops
                            .iter()
                            .all(|&s| s == 0 || us.made >> (q - usize::from(s)) & 1 == 0)
                    {
                        hit |= 1 << w.roll;
                        lost += ROLLS[usize::from(w.roll)].2 * t as u32;
                    }
                }
            }
        }
        (share(hit), lost as f32 / 36.0)
    }

    /// [`escape_share`] way by way, as first written: the reference the tables are checked
    /// against.
    ///
    /// The share of `side`'s 36 rolls that carry its furthest-back checker below every point the
    /// other side holds among the twelve in front of it (1 when it holds none there). `held` has
    /// bit p for each of our points p the other side holds.
    fn escape_share_by_ways(side: &[u8; 25], held: u32) -> f32 {
        let Some(back) = (1..=25).rev().find(|&p| side[p - 1] > 0) else {
            return 1.0;
        };
        let window = held & ((1u32 << back) - 1) & !((1u32 << back.saturating_sub(12)) - 1);
        if window == 0 {
            return 1.0;
        }
        let lowest = window.trailing_zeros() as usize;
        let open = |p: usize| held >> p & 1 == 0;
        let mut esc = 0u32;
        let ways = ways();
        for (d, ways_d) in ways.iter().enumerate().skip(back - lowest + 1) {
            for w in ways_d {
                if esc >> w.roll & 1 == 1 {
                    continue;
                }
                // Landing on 0 or below: borne off, gone past everything.
                let lands = back <= d || open(back - d);
                if lands
                    && w.stops
                        .iter()
                        .all(|&s| s == 0 || back <= usize::from(s) || open(back - usize::from(s)))
                {
                    esc |= 1 << w.roll;
                }
            }
        }
        share(esc)
    }

    #[test]
    fn start_is_symmetric() {
        let mut x = vec![0.0; INPUTS];
        encode(&Position::start(), &mut x);
        assert_eq!(x[..PER_SIDE], x[PER_SIDE..]);
        // 5 on the six-point: three-or-more and one beyond three.
        assert_eq!(&x[5 * 4..5 * 4 + 4], &[0.0, 0.0, 1.0, 1.0]);
        assert!((x[101] - 1.67).abs() < 1e-6);
        // No blots at the start. The back checkers on 24 face the opponent's 6, 8 and 13
        // points (our 19, 17 and 12): passing 12 takes 13 pips or more, a double; 4-4 stops on
        // 12, 5-5 on 19, 6-6 on 12, 3-3 reaches 12 at most. No roll escapes.
        assert_eq!(x[105], 0.0);
        assert_eq!(x[106], 0.0);
    }

    fn sides(me: &[(usize, u8)], them: &[(usize, u8)]) -> ([u8; 25], [u8; 25]) {
        let (mut a, mut b) = ([0u8; 25], [0u8; 25]);
        for &(p, n) in me {
            a[p - 1] = n;
        }
        for &(p, n) in them {
            b[p - 1] = n;
        }
        (a, b)
    }

    #[test]
    fn hit_shares_are_the_textbook_counts() {
        // Our point p is his 25 - p; our spare checkers wait on our 1 (his 24), behind him.
        // A blot 6 pips in front of a lone opponent checker: 17 of 36 rolls hit (11 with a
        // six, then 5-1, 4-2, 3-3 and 2-2: 11 + 2 + 2 + 1 + 1). Blot on our 10 (his 15), his
        // checker on his 21.
        let (me, them) = sides(&[(10, 1), (1, 14)], &[(21, 1), (1, 14)]);
        assert!((hits(Masks::of(&me), occupied(&them)).0 - 17.0 / 36.0).abs() < 1e-6);
        // Our 6 point made (his 19): 2-2 must land there first and no longer hits; 4-2 still
        // does with the four first.
        let (me, them) = sides(&[(10, 1), (6, 2), (1, 12)], &[(21, 1), (1, 14)]);
        assert!((hits(Masks::of(&me), occupied(&them)).0 - 16.0 / 36.0).abs() < 1e-6);
        // One pip away: the 11 rolls with a one.
        let (me, them) = sides(&[(10, 1), (1, 14)], &[(16, 1), (1, 14)]);
        assert!((hits(Masks::of(&me), occupied(&them)).0 - 11.0 / 36.0).abs() < 1e-6);
        // Eleven away (blot on our 14, his 11; his checker on his 22): 6-5 only.
        let (me, them) = sides(&[(14, 1), (1, 14)], &[(22, 1), (1, 14)]);
        assert!((hits(Masks::of(&me), occupied(&them)).0 - 2.0 / 36.0).abs() < 1e-6);
        // With our 8 and 9 points made (his 17 and 16) 6-5 has nowhere to stop.
        let (me, them) = sides(&[(14, 1), (8, 2), (9, 2), (1, 10)], &[(22, 1), (1, 14)]);
        assert_eq!(hits(Masks::of(&me), occupied(&them)).0, 0.0);
        // A checker on his bar must enter: from 25 our blot on our 10 (his 15) is 10 away,
        // 6-4, 5-5 (25-20-15) and 4-6: 3 rolls, though his checker on his 21 is 6 away.
        let (me, them) = sides(&[(10, 1), (1, 14)], &[(21, 1), (25, 1), (1, 13)]);
        assert!((hits(Masks::of(&me), occupied(&them)).0 - 3.0 / 36.0).abs() < 1e-6);
        // Two blots: our 10 (his 15: hit, it goes back 15 pips) and our 20 (his 5: 5 pips);
        // his checker on his 21. The 17 rolls above hit the first; of the others only 4-4
        // (21, 17, 13, 9, 5: over 15, through our open 8, 12 and 16) hits the second. 18 rolls
        // hit, losing (17 × 15 + 1 × 5) / 36 pips.
        let (me, them) = sides(&[(10, 1), (20, 1), (1, 13)], &[(21, 1), (1, 14)]);
        let (share, lost) = hits(Masks::of(&me), occupied(&them));
        assert!((share - 18.0 / 36.0).abs() < 1e-6, "{share}");
        assert!((lost - 260.0 / 36.0).abs() < 1e-5, "{lost}");
        // Nobody to hit.
        let (me, them) = sides(&[(6, 15)], &[(21, 1), (1, 14)]);
        assert_eq!(hits(Masks::of(&me), occupied(&them)).0, 0.0);
    }

    #[test]
    fn shapes_agree_with_their_parts() {
        let mut rng = 1u64;
        for _ in 0..200 {
            let mut side = [0u8; 25];
            for n in side.iter_mut() {
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                *n = (rng >> 60) as u8 % 4;
            }
            let s = Shape::of(&side);
            let m = Masks::of(&side);
            assert_eq!((s.masks.blots, s.masks.made), (m.blots, m.made));
            assert_eq!(s.occupied, occupied(&side));
        }
    }

    #[test]
    fn escape_shares_count_the_rolls_past_the_blockade() {
        // Our checker on 24 behind one held point, our 18 (his 7); his other checkers on his
        // 20 (our 5), beyond the twelve points in front. A roll escapes when it lands below 18
        // without stopping on it: any non-double of 7 pips or more (the non-six first), and
        // 4-4 and 5-5; 2-2, 3-3 and 6-6 stop on 18, 1-1 stays short.
        let (me, them) = sides(&[(24, 1), (6, 14)], &[(7, 2), (20, 13)]);
        let mut count = 0;
        for a in 1..=6 {
            for b in 1..=6 {
                let ok = if a == b { a == 4 || a == 5 } else { a + b >= 7 };
                count += u32::from(ok);
            }
        }
        assert_eq!(count, 20);
        assert!((escape_share(&me, Masks::of(&them).made) - count as f32 / 36.0).abs() < 1e-6);
        // No held point in front: free.
        let (me, them) = sides(&[(24, 1), (6, 14)], &[(20, 15)]);
        assert_eq!(escape_share(&me, Masks::of(&them).made), 1.0);
        // A full six-prime from 18 to 13 (his 7 to 12) in front of 24: no roll passes it.
        let (me, them) = sides(
            &[(24, 1), (6, 14)],
            &[(7, 2), (8, 2), (9, 2), (10, 2), (11, 2), (12, 2), (20, 3)],
        );
        assert_eq!(escape_share(&me, Masks::of(&them).made), 0.0);
    }

    #[test]
    fn the_tables_agree_with_the_ways_on_random_boards() {
        let mut rng = 7u64;
        let mut next = || {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (rng >> 33) as u32
        };
        for _ in 0..20_000 {
            let (mut me, mut them) = ([0u8; 25], [0u8; 25]);
            // Sparse boards with blots, points and now and then a checker on the bar.
            for side in [&mut me, &mut them] {
                for n in side.iter_mut() {
                    *n = match next() % 8 {
                        0 | 1 => 1,
                        2 => 2,
                        3 => 3,
                        _ => 0,
                    };
                }
                if next() % 4 != 0 {
                    side[24] = 0;
                }
            }
            let (a, b) = (Shape::of(&me), Shape::of(&them));
            assert_eq!(hits(a.masks, b.occupied), hits_by_ways(a.masks, b.occupied));
            let (x, y) = (
                escape_share(&me, b.masks.made),
                escape_share_by_ways(&me, b.masks.made),
            );
            assert_eq!(x.to_bits(), y.to_bits(), "{me:?} {them:?}");
        }
    }

    #[test]
    fn the_units_table_is_the_formula() {
        for n in 0u8..16 {
            let formula = [
                f32::from(u8::from(n == 1)),
                f32::from(u8::from(n == 2)),
                f32::from(u8::from(n >= 3)),
                if n > 3 { f32::from(n - 3) / 2.0 } else { 0.0 },
            ];
            assert_eq!(
                UNITS[usize::from(n)].map(f32::to_bits),
                formula.map(f32::to_bits)
            );
        }
    }

    #[test]
    fn the_first_layout_maps_into_this_one() {
        let map = v1_input_map();
        assert_eq!(map.len(), 2 * PER_SIDE_V1);
        assert_eq!(map[PER_SIDE_V1 - 1], PER_SIDE_V1 - 1);
        assert_eq!(map[PER_SIDE_V1], PER_SIDE);
        assert_eq!(*map.last().unwrap(), PER_SIDE + PER_SIDE_V1 - 1);
    }
}
