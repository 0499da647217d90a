//! Supervised training on searched targets: positions drawn from the engine's own games, each
//! labelled with the engine's n-ply probabilities (the "train the net to play like 2-ply" of
//! the strong backgammon programs), then fitted by gradient descent with a held-out loss.
//!
//! Drawing and labelling are separate from fitting so that labels, the expensive part, can be
//! made on many cores, kept in a file, and fitted again with other settings.

use rand::seq::SliceRandom;
use rand::Rng;
use tablier_backgammon::Position;

use crate::encode::{encode, INPUTS};
use crate::eval::{classify, equity, net_of, Class, Evaluator, Probs, Scratch, NETS};
use crate::net::{Activations, OUTPUTS};
use crate::search::{probs_nply, rank_0ply, MoveFilter};

/// The move filter of the labels' searches: at each roll the 4 best plays at 0-ply within 0.12
/// are searched a ply deeper (a little narrower than gnubg's default, 8 within 0.16; the best
/// play is almost always among them and a label costs half as much).
pub const LABEL_FILTER: MoveFilter = MoveFilter {
    keep: 4,
    margin: 0.12,
};

/// One training example: a position (the side on roll before rolling) and the probabilities
/// it should be given, for the side on roll.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The position.
    pub pos: Position,
    /// Target probabilities, in the nets' output order.
    pub target: Probs,
}

/// Plays one game at 0-ply against itself and returns the positions the nets evaluate (contact
/// and race; bear-offs are the database's), the side on roll before rolling. With probability
/// `explore` a move is one of the three best at 0-ply drawn at random, so that the positions
/// are not only those the current nets choose.
pub fn draw_positions(
    ev: &Evaluator,
    explore: f64,
    rng: &mut impl Rng,
    s: &mut Scratch,
) -> Vec<Position> {
    let mut out = Vec::with_capacity(64);
    let mut pos = Position::start();
    let mut plays = Vec::with_capacity(64);
    let mut first = true;
    loop {
        let roll = crate::train::throw(rng, first);
        if !first && matches!(classify(&pos), Class::Contact | Class::Race) {
            out.push(pos);
        }
        first = false;
        pos.legal_plays_into(roll, &mut plays);
        let chosen = if rng.gen_bool(explore) && plays.len() > 1 {
            let ranked = rank_0ply(ev, &plays, s);
            ranked[rng.gen_range(0..ranked.len().min(3))].0
        } else {
            ev.best_play_0ply(&plays, s).0
        };
        let result = plays[chosen].result;
        if result.mover_off() == 15 {
            return out;
        }
        pos = result.flip();
    }
}

/// The label of `pos`: its `plies`-ply probabilities with [`LABEL_FILTER`].
pub fn label(ev: &Evaluator, pos: &Position, plies: u32, s: &mut Scratch) -> Probs {
    probs_nply(ev, pos, plies, LABEL_FILTER, s)
}

/// Average losses of the nets on `samples`, each with its class's net.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Loss {
    /// Samples counted (those that a net values).
    pub samples: usize,
    /// Mean cross-entropy over the five outputs (minus the targets' own entropy, so 0 is a
    /// perfect fit).
    pub cross_entropy: f64,
    /// Mean absolute difference of cubeless equity between the net and the target.
    pub equity_error: f64,
}

/// The nets' losses on `samples`, all classes together.
#[must_use]
pub fn loss(ev: &Evaluator, samples: &[Sample]) -> Loss {
    let each = loss_by_net(ev, samples);
    let n: usize = each.iter().map(|l| l.samples).sum();
    if n == 0 {
        return Loss::default();
    }
    let mean =
        |f: fn(&Loss) -> f64| each.iter().map(|l| f(l) * l.samples as f64).sum::<f64>() / n as f64;
    Loss {
        samples: n,
        cross_entropy: mean(|l| l.cross_entropy),
        equity_error: mean(|l| l.equity_error),
    }
}

/// The losses of each net (in [`crate::eval::NET_CONTACT`], [`crate::eval::NET_RACE`],
/// [`crate::eval::NET_CRASHED`] order), each on its own positions of `samples`.
#[must_use]
pub fn loss_by_net(ev: &Evaluator, samples: &[Sample]) -> [Loss; NETS] {
    let mut x = vec![0.0f32; INPUTS];
    let mut act = Activations::default();
    let mut out = [Loss::default(); NETS];
    for smp in samples {
        let Some(which) = net_of(&smp.pos) else {
            continue;
        };
        let l = &mut out[which];
        encode(&smp.pos, &mut x);
        ev.nets[which].forward(&x, &mut act);
        for k in 0..OUTPUTS {
            let (t, y) = (
                f64::from(smp.target[k]),
                f64::from(act.out[k]).clamp(1e-7, 1.0 - 1e-7),
            );
            let tc = t.clamp(1e-7, 1.0 - 1e-7);
            l.cross_entropy += -(t * y.ln() + (1.0 - t) * (1.0 - y).ln())
                + (t * tc.ln() + (1.0 - t) * (1.0 - tc).ln());
        }
        let mut p = act.out;
        // Equity as the engine sees it (outputs made consistent).
        crate::eval::sanitize(&mut p, &smp.pos);
        l.equity_error += f64::from((equity(&p) - equity(&smp.target)).abs());
        l.samples += 1;
    }
    for l in &mut out {
        if l.samples > 0 {
            l.cross_entropy /= l.samples as f64;
            l.equity_error /= l.samples as f64;
        }
    }
    out
}

/// One pass of stochastic gradient descent over `samples` in a random order, learning rate
/// `alpha`; returns how many samples were trained on.
pub fn fit_epoch(ev: &mut Evaluator, samples: &[Sample], alpha: f32, rng: &mut impl Rng) -> usize {
    let mut order: Vec<usize> = (0..samples.len()).collect();
    order.shuffle(rng);
    let mut x = vec![0.0f32; INPUTS];
    let mut act = Activations::default();
    let mut n = 0;
    for i in order {
        let smp = &samples[i];
        let Some(which) = net_of(&smp.pos) else {
            continue;
        };
        encode(&smp.pos, &mut x);
        let net = &mut ev.nets[which];
        net.forward(&x, &mut act);
        net.train_step(&x, &act, &smp.target, alpha);
        n += 1;
    }
    n
}

/// A sample as one line of text: the Position ID (the side on roll) and the five
/// probabilities.
///
/// ```
/// use tablier_backgammon::Position;
/// use tablier_backgammon_engine::supervised::{Sample, parse_line, to_line};
/// let s = Sample { pos: Position::start(), target: [0.5, 0.15, 0.01, 0.14, 0.01] };
/// let line = to_line(&s);
/// assert_eq!(line, "4HPwATDgc/ABMA 0.500000 0.150000 0.010000 0.140000 0.010000");
/// assert_eq!(parse_line(&line), Ok(s));
/// assert!(parse_line("4HPwATDgc/ABMA 0.5 0.1").is_err());
/// ```
#[must_use]
pub fn to_line(s: &Sample) -> String {
    let t = s.target;
    format!(
        "{} {:.6} {:.6} {:.6} {:.6} {:.6}",
        s.pos.position_id(),
        t[0],
        t[1],
        t[2],
        t[3],
        t[4]
    )
}

/// Reads a line written by [`to_line`].
///
/// # Errors
/// A message naming what is wrong: the Position ID, a probability that is not a number in
/// [0, 1], or the wrong number of fields.
pub fn parse_line(line: &str) -> Result<Sample, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() != 1 + OUTPUTS {
        return Err(format!(
            "expected a Position ID and {OUTPUTS} probabilities, found {} fields",
            fields.len()
        ));
    }
    let pos = Position::from_position_id(fields[0]).map_err(|e| e.to_string())?;
    let mut target = [0.0f32; OUTPUTS];
    for (k, f) in fields[1..].iter().enumerate() {
        let v: f32 = f.parse().map_err(|_| format!("`{f}` is not a number"))?;
        if !(0.0..=1.0).contains(&v) {
            return Err(format!("probability {v} is not between 0 and 1"));
        }
        target[k] = v;
    }
    Ok(Sample { pos, target })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn drawn_positions_are_the_nets_and_labels_are_probabilities() {
        let ev = Evaluator::shipped();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut s = Scratch::default();
        let positions = draw_positions(ev, 0.1, &mut rng, &mut s);
        assert!(positions.len() > 10);
        assert!(positions.iter().all(|p| net_of(p).is_some()));
        let p = label(ev, &positions[3], 1, &mut s);
        assert!(p.iter().all(|v| (0.0..=1.0).contains(v)));
        assert!(p[1] <= p[0] && p[2] <= p[1] && p[4] <= p[3]);
    }

    #[test]
    fn fitting_moves_the_net_towards_its_targets() {
        let ev0 = Evaluator::shipped().clone();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut s = Scratch::default();
        // Targets far from the net's own values: the mirror image of what it says.
        let samples: Vec<Sample> = draw_positions(&ev0, 0.0, &mut rng, &mut s)
            .into_iter()
            .map(|pos| {
                let p = ev0.probs(&pos, &mut s);
                Sample {
                    pos,
                    target: crate::eval::invert(&p),
                }
            })
            .collect();
        let before = loss(&ev0, &samples);
        let mut ev = ev0.clone();
        for _ in 0..5 {
            fit_epoch(&mut ev, &samples, 0.05, &mut rng);
        }
        let after = loss(&ev, &samples);
        assert_eq!(before.samples, samples.len());
        assert!(
            after.cross_entropy < before.cross_entropy * 0.8,
            "{before:?} -> {after:?}"
        );
        assert!(
            after.equity_error < before.equity_error,
            "{before:?} -> {after:?}"
        );
    }
}
