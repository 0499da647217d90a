//! The engine as a player of a [`Match`]: the action it takes at a level, whatever the match
//! waits for (a double or a roll, an answer to a double, a play, an answer to a resignation).

use rand::Rng;
use tablier_backgammon::game::{Action, Match, Phase};
use tablier_core::{Actor, Game};

use crate::analysis::cube_info;
use crate::cube::CubeInfo;
use crate::eval::{Evaluator, Scratch};
use crate::search::{self, Level};

/// How a player decides: its level of play and whether it offers doubles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    /// Look-ahead and noise of checker plays (cube decisions look one ply ahead, or none at
    /// the noisy levels).
    pub level: Level,
    /// Offers doubles (takes, drops and beavers are always decided).
    pub doubles: bool,
}

impl Player {
    /// The player of level `n` (0 to [`crate::MAX_LEVEL`]), using the cube.
    #[must_use]
    pub fn at_level(n: u8) -> Player {
        Player {
            level: search::level(n),
            doubles: true,
        }
    }

    /// Cube decisions look one ply ahead (21 rolls at 0-ply: a few milliseconds), except at
    /// the noisy beginner levels.
    fn cube_plies(&self) -> u32 {
        u32::from(self.level.noise == 0.0)
    }

    /// Whether to double now, before rolling, in `pos` (side on roll) with the cube `ci`.
    pub fn wants_to_double(
        &self,
        ev: &Evaluator,
        pos: &tablier_backgammon::Position,
        ci: &CubeInfo,
        s: &mut Scratch,
    ) -> bool {
        self.doubles
            && ci.may_double()
            && search::cube_decision(ev, pos, ci, self.cube_plies(), s).double
    }

    /// The answer to a double: `pos` and `ci` from the doubler's side, before the double.
    pub fn answer_double(
        &self,
        ev: &Evaluator,
        pos: &tablier_backgammon::Position,
        ci: &CubeInfo,
        s: &mut Scratch,
    ) -> Action {
        let d = search::cube_decision(ev, pos, ci, self.cube_plies(), s);
        if d.beaver && ci.beavers && ci.match_length == 0 {
            Action::Beaver
        } else if d.take {
            Action::Take
        } else {
            Action::Drop
        }
    }

    /// Whether to accept a resignation worth `points` (already times the cube) from the side
    /// on roll in `pos`, with the cube `ci` seen from that side: yes when the points are at
    /// least what playing on is worth to us.
    pub fn accepts_resignation(
        &self,
        ev: &Evaluator,
        pos: &tablier_backgammon::Position,
        ci: &CubeInfo,
        points: u32,
        s: &mut Scratch,
    ) -> bool {
        let d = search::cube_decision(ev, pos, ci, self.cube_plies(), s);
        // The resigner's cubeful equity, in points: we get its opposite by playing on.
        let resigner = if ci.may_double() {
            d.no_double.max(d.double_take.min(d.double_pass))
        } else {
            d.no_double
        };
        points as f32 >= -resigner * ci.value as f32
    }

    /// The action the engine takes in `m`, or `None` when the dice or nobody are to act.
    pub fn choose(
        &self,
        ev: &Evaluator,
        m: &Match,
        rng: &mut impl Rng,
        s: &mut Scratch,
    ) -> Option<Action> {
        if !matches!(m.actor(), Actor::Player(_)) {
            return None;
        }
        let pos = m.position();
        let ci = cube_info(m);
        Some(match m.phase() {
            Phase::BeforeRoll => {
                if m.may_double() && self.wants_to_double(ev, &pos, &ci, s) {
                    Action::Double
                } else {
                    Action::Roll
                }
            }
            Phase::Doubled => self.answer_double(ev, &pos, &ci, s),
            Phase::Moving { roll } => {
                let mut plays = Vec::new();
                let (i, _) = search::choose(ev, &pos, roll, self.level, rng, &mut plays, s);
                Action::Play(plays[i])
            }
            Phase::Resigning { offer, .. } => {
                let points = offer as u32 * ci.value;
                if self.accepts_resignation(ev, &pos, &ci, points, s) {
                    Action::Accept
                } else {
                    Action::Reject
                }
            }
            Phase::Opening | Phase::Rolling | Phase::Over => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use tablier_backgammon::game::Options;
    use tablier_core::SeededDice;

    #[test]
    fn plays_whole_matches_with_legal_actions_at_every_level() {
        let ev = Evaluator::shipped();
        let mut s = Scratch::default();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        for level in [0, 2, 4] {
            let mut m = Match::new(Options::match_to(3));
            let mut dice = SeededDice::from_seed([level; 32]);
            let player = Player::at_level(level);
            let mut n = 0;
            while m.actor() != Actor::Nobody {
                let a = match player.choose(ev, &m, &mut rng, &mut s) {
                    Some(a) => a,
                    None => m.roll_chance(&mut dice).expect("chance acts"),
                };
                assert!(m.legal_actions().contains(&a) || matches!(a, Action::Play(_)));
                m.apply(&a).unwrap();
                n += 1;
                assert!(n < 5000);
            }
            let score = m.score();
            assert!(score[0].max(score[1]) >= 3);
        }
    }
}
