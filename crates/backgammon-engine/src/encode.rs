//! The net's inputs: what a position looks like to the evaluator.
//!
//! For each side, seen from its own home (the side on roll first): 25 slots (its points 1 to 24,
//! then its bar), four units each in the style of TD-Gammon and gnubg — one checker (a blot),
//! two, three or more, and half of the checkers beyond three — then checkers borne off / 15,
//! the pip count / 100, and three hand-made features: the checkers still in the opponent's home
//! board or on the bar / 15, a count of the opponent's checkers within direct (1–6 pips) or
//! indirect (7–12, half weight) range of each of our blots / 12 (blocking ignored), and the
//! number of our made points in the six points in front of the opponent's furthest-back
//! checker / 6 (a prime measure).

use tablier_backgammon::Position;

/// Units per side.
pub const PER_SIDE: usize = 25 * 4 + 5;

/// Total inputs.
pub const INPUTS: usize = 2 * PER_SIDE;

/// `side[i]`: checkers on the side's own point `i + 1` (index 24 = its bar); `other` likewise
/// for the opponent, from the opponent's own home.
fn encode_side(side: &[u8; 25], other: &[u8; 25], out: &mut [f32]) {
    let mut on = 0u32;
    let mut pips = 0u32;
    for (i, &n) in side.iter().enumerate() {
        let u = &mut out[i * 4..i * 4 + 4];
        u[0] = f32::from(u8::from(n == 1));
        u[1] = f32::from(u8::from(n == 2));
        u[2] = f32::from(u8::from(n >= 3));
        u[3] = if n > 3 { f32::from(n - 3) / 2.0 } else { 0.0 };
        on += u32::from(n);
        pips += u32::from(n) * (i as u32 + 1);
    }
    let base = 100;
    out[base] = (15 - on.min(15)) as f32 / 15.0;
    out[base + 1] = pips as f32 / 100.0;
    // Checkers back: in the opponent's home board (own points 19..24) or on the bar.
    let back: u32 = side[18..25].iter().map(|&n| u32::from(n)).sum();
    out[base + 2] = back as f32 / 15.0;
    // Direct shots at our blots: opponent checkers 1 to 6 pips (or 7 to 12, half weight)
    // in front of a blot. Opponent's own point q is our point 25 - q.
    let mut shots = 0.0f32;
    for (i, &n) in side[..24].iter().enumerate() {
        if n != 1 {
            continue;
        }
        let p = i + 1; // our point; the opponent hits it from his points below 25 - p
        let q_target = 25 - p; // the blot on the opponent's numbering
        for d in 1..=12usize {
            let from = q_target + d; // the opponent moves downward on his own numbering
            let count = if from == 25 {
                other[24]
            } else if from < 25 {
                other[from - 1]
            } else {
                0
            };
            if count > 0 {
                shots += if d <= 6 { 1.0 } else { 0.5 };
            }
        }
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
}

/// The inputs for `pos` (the side on roll first), written into `out` (length [`INPUTS`]).
pub fn encode(pos: &Position, out: &mut [f32]) {
    debug_assert_eq!(out.len(), INPUTS);
    let (me, them) = pos.to_sides();
    encode_side(&me, &them, &mut out[..PER_SIDE]);
    encode_side(&them, &me, &mut out[PER_SIDE..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_symmetric() {
        let mut x = vec![0.0; INPUTS];
        encode(&Position::start(), &mut x);
        assert_eq!(x[..PER_SIDE], x[PER_SIDE..]);
        // 5 on the six-point: three-or-more and one beyond three.
        assert_eq!(&x[5 * 4..5 * 4 + 4], &[0.0, 0.0, 1.0, 1.0]);
        assert!((x[101] - 1.67).abs() < 1e-6);
    }
}
