//! Static (0-ply) evaluation: the five outcome probabilities of a position for the side on roll,
//! from the bear-off database, the race net, the crashed net or the contact net.

use std::sync::OnceLock;

use tablier_backgammon::{Play, Position};

use crate::bearoff::{one_side, Bearoff, TwoSided, MAX_ROLLS};
use crate::encode::{encode, INPUTS};
use crate::net::{self, Activations, Net, WeightsError};

/// Outcome probabilities for the side on roll: win, win gammon (or backgammon), win
/// backgammon, lose gammon (or backgammon), lose backgammon — gnubg's order.
pub type Probs = [f32; 5];

/// The same probabilities seen from the other side.
#[must_use]
pub fn invert(p: &Probs) -> Probs {
    [1.0 - p[0], p[3], p[4], p[1], p[2]]
}

/// Cubeless money equity: points won per game on average (−3 to +3).
#[must_use]
pub fn equity(p: &Probs) -> f32 {
    2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]
}

/// Which evaluator a position goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// The game is over.
    Over,
    /// Both sides have every checker on their home board: exact from the bear-off database.
    Bearoff,
    /// No contact left (every checker has passed every opposing checker): the race net.
    Race,
    /// The contact net, or the crashed net where [`is_crashed`].
    Contact,
}

/// The class of `pos`.
#[must_use]
pub fn classify(pos: &Position) -> Class {
    if pos.is_over() {
        return Class::Over;
    }
    // The mover travels down his numbering, the opponent up it: contact while the mover's
    // furthest-back checker is above the opponent's furthest back.
    let mover_back = (1..=25).rev().find(|&p| pos.raw(p) > 0).unwrap_or(0);
    let opp_back = (0..=24).find(|&p| pos.raw(p) < 0).unwrap_or(25);
    if mover_back > opp_back {
        return Class::Contact;
    }
    if mover_back <= 6 && opp_back >= 19 {
        Class::Bearoff
    } else {
        Class::Race
    }
}

/// The fewest checkers that a side has still in play, of the two sides, where the checkers
/// piled on a side's ace and deuce points (its two lowest) count as one a point: a side with
/// few of them can no longer build or hold anything.
#[must_use]
pub fn live_checkers(pos: &Position) -> u8 {
    let (me, them) = pos.to_sides();
    let live = |side: &[u8; 25]| {
        let on: u8 = side.iter().sum();
        on - side[0].saturating_sub(1) - side[1].saturating_sub(1)
    };
    live(&me).min(live(&them))
}

/// The most [`live_checkers`] a crashed position has.
pub const CRASHED_LIVE: u8 = 6;

/// Whether a contact position is crashed: a side has [`CRASHED_LIVE`] live checkers or fewer
/// (most of its checkers borne off or buried on its lowest points), a kind of position whose
/// play is unlike the rest of contact and which has a net of its own.
#[must_use]
pub fn is_crashed(pos: &Position) -> bool {
    live_checkers(pos) <= CRASHED_LIVE
}

/// The probabilities of a finished game for the side that just bore off its last checker, seen
/// from that side (`pos` from the winner's view).
#[must_use]
pub fn terminal_for_winner(pos: &Position) -> Probs {
    let gammon = pos.opponent_off() == 0;
    // Backgammon: a losing checker still on the bar or in the winner's home board.
    let backgammon = gammon && (0..=6).any(|p| pos.raw(p) < 0);
    [
        1.0,
        f32::from(u8::from(gammon)),
        f32::from(u8::from(backgammon)),
        0.0,
        0.0,
    ]
}

/// The weights shipped with tablier (see `data/README.md` for how they were made).
static SHIPPED: &[u8] = include_bytes!("../data/weights.tbg");

/// The nets in file order.
pub const NET_CONTACT: usize = 0;
/// Index of the race net in a weights file.
pub const NET_RACE: usize = 1;
/// Index of the crashed net in a weights file (contact positions where [`is_crashed`]).
pub const NET_CRASHED: usize = 2;
/// How many nets an evaluator has.
pub const NETS: usize = 3;

/// The net that values `pos`, if a net does: the contact net, the crashed net or the race net.
#[must_use]
pub fn net_of(pos: &Position) -> Option<usize> {
    match classify(pos) {
        Class::Contact => Some(contact_net(pos)),
        Class::Race => Some(NET_RACE),
        _ => None,
    }
}

/// The net for a contact position: the crashed net where [`is_crashed`], else the contact net.
fn contact_net(pos: &Position) -> usize {
    if is_crashed(pos) {
        NET_CRASHED
    } else {
        NET_CONTACT
    }
}

/// The evaluator: a contact net, a race net, a crashed net and the bear-off database.
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// Contact, race and crashed nets, in that order ([`NET_CONTACT`], [`NET_RACE`],
    /// [`NET_CRASHED`]).
    pub nets: Vec<Net>,
    /// Self-play games the nets were trained on.
    pub games: u64,
}

/// Per-thread scratch memory for evaluations.
#[derive(Clone, Debug)]
pub struct Scratch {
    x: Vec<f32>,
    act: Activations,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            x: vec![0.0; INPUTS],
            act: Activations::default(),
        }
    }
}

impl Evaluator {
    /// The shipped evaluator (parsed once per process).
    pub fn shipped() -> &'static Evaluator {
        static EV: OnceLock<Evaluator> = OnceLock::new();
        EV.get_or_init(|| Evaluator::from_bytes(SHIPPED).expect("the shipped weights load"))
    }

    /// Reads an evaluator from a weights file's bytes. Files of two nets (before the crashed
    /// net) are read with a copy of their contact net as the crashed net, so they value every
    /// position as they did; files of the first input layout (210 inputs, before the hit and
    /// escape shares) are read with those inputs at zero weight.
    ///
    /// # Errors
    /// [`WeightsError`] when the bytes are not a weights file for these inputs.
    pub fn from_bytes(bytes: &[u8]) -> Result<Evaluator, WeightsError> {
        const V1: usize = 2 * crate::encode::PER_SIDE_V1;
        let err = match net::load(bytes, &[INPUTS; NETS]) {
            Ok((nets, games)) => return Ok(Evaluator { nets, games }),
            Err(e @ WeightsError::Shape { .. }) => e,
            Err(e) => return Err(e),
        };
        let (mut nets, games) = match net::load(bytes, &[INPUTS, INPUTS]) {
            Ok(loaded) => loaded,
            Err(WeightsError::Shape { .. }) => {
                // A file of the first input layout: its nets, the new inputs at zero weight.
                let (nets, games) = net::load(bytes, &[V1, V1]).map_err(|_| err)?;
                let map = crate::encode::v1_input_map();
                (
                    nets.iter().map(|n| n.remap_inputs(INPUTS, &map)).collect(),
                    games,
                )
            }
            Err(e) => return Err(e),
        };
        nets.push(nets[NET_CONTACT].clone());
        Ok(Evaluator { nets, games })
    }

    /// A new untrained evaluator with `hidden` units per net, its weights drawn from `seed`.
    #[must_use]
    pub fn random(hidden: usize, seed: u64) -> Evaluator {
        use rand::SeedableRng;
        let rng = &mut rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        Evaluator {
            nets: (0..NETS)
                .map(|_| Net::random(INPUTS, hidden, rng))
                .collect(),
            games: 0,
        }
    }

    /// The weights file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let refs: Vec<&Net> = self.nets.iter().collect();
        net::save(&refs, self.games)
    }

    /// The probabilities for the side on roll in `pos` (which must not be over: see
    /// [`terminal_for_winner`]).
    pub fn probs(&self, pos: &Position, s: &mut Scratch) -> Probs {
        match classify(pos) {
            Class::Over => {
                // The side that just moved won; the side "on roll" lost.
                invert(&terminal_for_winner(&pos.flip()))
            }
            Class::Bearoff => bearoff_probs(pos),
            Class::Race => {
                let mut p = self.net_probs(NET_RACE, pos, s);
                crate::escape::correct_race(pos, &mut p);
                p
            }
            Class::Contact => self.net_probs(contact_net(pos), pos, s),
        }
    }

    /// Runs one net on `pos`, with the outputs made consistent.
    pub fn net_probs(&self, which: usize, pos: &Position, s: &mut Scratch) -> Probs {
        encode(pos, &mut s.x);
        self.nets[which].forward(&s.x, &mut s.act);
        let mut p = s.act.out;
        sanitize(&mut p, pos);
        p
    }

    /// The probabilities, for the side that played, of the position after `play` (the opponent
    /// then on roll).
    pub fn after_play(&self, play: &Play, s: &mut Scratch) -> Probs {
        let r = play.result;
        if r.mover_off() == 15 {
            return terminal_for_winner(&r);
        }
        invert(&self.probs(&r.flip(), s))
    }

    /// The best play at 0-ply by cubeless money equity: its index in `plays` (which must not be
    /// empty) and its probabilities (for the side that plays).
    pub fn best_play_0ply(&self, plays: &[Play], s: &mut Scratch) -> (usize, Probs) {
        let mut best = 0;
        let mut best_p = [0.0; 5];
        let mut best_e = f32::NEG_INFINITY;
        for (i, play) in plays.iter().enumerate() {
            let p = self.after_play(play, s);
            let e = equity(&p);
            if e > best_e {
                best_e = e;
                best = i;
                best_p = p;
            }
        }
        (best, best_p)
    }
}

/// Probabilities when both sides bear off. Up to six checkers a side they are exact (the
/// [`TwoSided`] database: both sides play for the win). Beyond, from the one-sided database:
/// each side's distribution of the rolls it needs, taken as independent; a side that still has
/// all fifteen checkers is gammoned when the other finishes before it bears its first one off.
/// No backgammon is possible: every checker is on its own home board.
#[must_use]
pub fn bearoff_probs(pos: &Position) -> Probs {
    let me = one_side(pos);
    let them = one_side(&pos.flip());
    if let Some(e) = TwoSided::global().lookup(&me, &them) {
        // The table's sums can stray a few ulps outside [0, 1].
        return [e.win.clamp(0.0, 1.0), 0.0, 0.0, 0.0, 0.0];
    }
    let db = Bearoff::global();
    let w = db.win_probability(&me, &them);
    let gammon = db.gammon_probability(&me, &them).min(w);
    // The other side gammons us when he finishes at his roll k, after our k rolls.
    let gammoned = db
        .first_off_distribution(&me)
        .map_or(0.0, |z| {
            let y = db.distribution(&them);
            let mut tail = 1.0 - z[0]; // P(Z >= k + 1), Z never 0 with fifteen on the board
            let mut p = 0.0f32;
            for k in 0..MAX_ROLLS {
                p += y[k] * tail;
                if k + 1 < MAX_ROLLS {
                    tail -= z[k + 1];
                }
            }
            p.clamp(0.0, 1.0)
        })
        .min(1.0 - w);
    [w, gammon, 0.0, gammoned, 0.0]
}

/// Makes net outputs consistent: gammons no likelier than wins, backgammons no likelier than
/// gammons, and no gammon a side can no longer lose.
pub(crate) fn sanitize(p: &mut Probs, pos: &Position) {
    for v in p.iter_mut() {
        *v = v.clamp(0.0, 1.0);
    }
    if pos.opponent_off() > 0 {
        p[1] = 0.0;
        p[2] = 0.0;
    }
    if pos.mover_off() > 0 {
        p[3] = 0.0;
        p[4] = 0.0;
    }
    p[1] = p[1].min(p[0]);
    p[2] = p[2].min(p[1]);
    p[3] = p[3].min(1.0 - p[0]);
    p[4] = p[4].min(p[3]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert_eq!(classify(&Position::start()), Class::Contact);
        let mut me = [0u8; 25];
        let mut them = [0u8; 25];
        me[0] = 15;
        them[0] = 15;
        assert_eq!(
            classify(&Position::from_sides(&me, &them).unwrap()),
            Class::Bearoff
        );
        me[0] = 14;
        me[10] = 1;
        assert_eq!(
            classify(&Position::from_sides(&me, &them).unwrap()),
            Class::Race
        );
        them[0] = 14;
        them[20] = 1; // the opponent's 21-point is our 4-point: behind our checker on 11
        assert_eq!(
            classify(&Position::from_sides(&me, &them).unwrap()),
            Class::Contact
        );
    }

    #[test]
    fn crashed_positions_go_to_their_own_net() {
        assert_eq!(live_checkers(&Position::start()), 15);
        assert_eq!(net_of(&Position::start()), Some(NET_CONTACT));
        // The mover has borne off 13 and has one checker on the bar and one on his ace point;
        // the opponent's board holds him: crashed.
        let mut me = [0u8; 25];
        let mut them = [0u8; 25];
        me[24] = 1;
        me[0] = 1;
        them[0..4].copy_from_slice(&[2, 2, 2, 2]);
        them[12] = 7;
        let pos = Position::from_sides(&me, &them).unwrap();
        assert_eq!(classify(&pos), Class::Contact);
        assert_eq!(live_checkers(&pos), 2);
        assert_eq!(net_of(&pos), Some(NET_CRASHED));
        // Ten checkers piled on the ace and deuce points count as two: with five more in
        // play that is seven live checkers, not crashed; with four more, six, crashed.
        me = [0u8; 25];
        me[0] = 5;
        me[1] = 5;
        me[5] = 4;
        me[24] = 1;
        let pos = Position::from_sides(&me, &them).unwrap();
        assert_eq!(live_checkers(&pos), 7);
        assert_eq!(net_of(&pos), Some(NET_CONTACT));
        me[5] = 3;
        let pos = Position::from_sides(&me, &them).unwrap();
        assert_eq!((live_checkers(&pos), net_of(&pos)), (6, Some(NET_CRASHED)));
    }

    #[test]
    fn a_file_of_two_nets_reads_with_its_contact_net_as_the_crashed_net() {
        let ev = Evaluator::random(8, 4);
        let two = net::save(&[&ev.nets[NET_CONTACT], &ev.nets[NET_RACE]], 7);
        let read = Evaluator::from_bytes(&two).unwrap();
        assert_eq!(read.nets.len(), NETS);
        assert_eq!(read.nets[NET_CRASHED], ev.nets[NET_CONTACT]);
        assert_eq!(read.games, 7);
        let back = Evaluator::from_bytes(&ev.to_bytes()).unwrap();
        assert_eq!(back.nets, ev.nets);
        assert!(Evaluator::from_bytes(&two[..two.len() - 3]).is_err());
    }

    #[test]
    fn invert_twice_is_identity_and_equity_is_antisymmetric() {
        let p = [0.6, 0.2, 0.01, 0.1, 0.005];
        assert_eq!(invert(&invert(&p)), p);
        assert!((equity(&p) + equity(&invert(&p))).abs() < 1e-6);
    }
}
