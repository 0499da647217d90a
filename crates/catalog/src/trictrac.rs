//! Trictrac in the catalog: the grand trictrac, scored automatically or by the players with
//! *écoles*; the engine's levels, the JSON-lines record, and White's expected margin of holes
//! for the review.

use tablier_core::{Player, Side};
use tablier_trictrac::game::{Marking, Options, Trictrac};
use tablier_trictrac::Phase;
use tablier_trictrac_engine::player::LevelPlayer;
use tablier_trictrac_engine::{state_of, Search, Weights};

use crate::export::{Export, ExportInfo};
use crate::spec::{Family, GameSpec};
use crate::table::Listed;

/// The partie of a spec: automatic scoring, or the players marking with écoles.
pub(crate) fn new_partie(spec: &GameSpec) -> Trictrac {
    Trictrac::new(Options {
        marking: if spec.ecoles.unwrap_or(false) {
            Marking::Ecoles
        } else {
            Marking::Automatic
        },
        ..Options::default()
    })
}

impl Listed for Trictrac {
    const FAMILY: Family = Family::Trictrac;

    /// Catalog levels 1 to 4 are the trictrac engine's levels 0 to 3 (1 ply with much noise,
    /// 1 ply with a little, 1 ply, 2 plies).
    fn engine(level: u8, seed: u64) -> Box<dyn Player<Self> + Send> {
        Box::new(LevelPlayer::new(level.saturating_sub(1), seed))
    }

    /// Holes (twelve points each) and points of `side` less the opponent's.
    fn heuristic(&self, side: Side) -> f64 {
        let m = self.marker();
        let value = |s: Side| f64::from(m.holes(s)) * 12.0 + f64::from(m.points(s));
        value(side) - value(side.opposite())
    }

    /// White's expected margin of holes at the end of the partie by the trained evaluation,
    /// before each throw; the margin itself once the partie is over.
    fn review_value(&self) -> Option<f64> {
        match self.phase() {
            Phase::Roll => {
                // The trained evaluation itself (a throw ahead costs 21 times as much, and a
                // partie has hundreds of positions).
                let search = Search::new(Weights::shipped(), 1);
                let v = search.throw_value(&state_of(self), 0);
                Some(if self.roller() == Side::White { v } else { -v })
            }
            Phase::Over => {
                let m = self.marker();
                Some(f64::from(m.holes(Side::White)) - f64::from(m.holes(Side::Black)))
            }
            _ => None,
        }
    }

    /// The partie's record: a header line and one JSON line per action.
    fn export(&self, _history: &[Self::Action], _info: &ExportInfo) -> Export {
        Export {
            mime: "application/x-ndjson",
            extension: "jsonl",
            text: self.record(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::choose;
    use crate::table::boxed;
    use rand::SeedableRng;
    use tablier_core::{Actor, Budget, SeededDice};

    /// The trictrac seats answer every phase a player acts in with a legal action.
    #[test]
    fn the_trictrac_seats_act_legally_through_a_partie_start() {
        let mut t = boxed(Trictrac::new(Options::default()));
        let mut dice = SeededDice::from_seed([7; 32]);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..300 {
            match t.actor() {
                Actor::Player(side) => {
                    let level = 1 + (t.legal().len() % 4) as u8;
                    let text = choose(t.as_ref(), side, level, Budget::UNLIMITED, &mut rng)
                        .expect("the engine chooses");
                    assert!(t.legal().contains(&text), "{text}");
                    t.apply(&text).unwrap();
                }
                Actor::Chance => {
                    let roll = t.chance(&mut dice).unwrap();
                    t.apply(&roll).unwrap();
                }
                Actor::Nobody => break,
            }
        }
    }
}
