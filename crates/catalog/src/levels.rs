//! The engine levels offered to people, the same for every game: 0 plays at random, 1 to
//! [`MAX_LEVEL`] are each game's engine from much noise to full strength (see each family's
//! `engine` in [`crate::table::Listed`]), and the time an engine allows itself on a clock.

use rand::Rng;
use tablier_core::{Actor, Budget, Side};

use crate::table::Table;

/// The highest level offered.
pub const MAX_LEVEL: u8 = 4;

/// The thinking time an engine allows itself on a clock with `left_ms` remaining and
/// `increment_ms` per move: a thirtieth of what is left plus most of the increment, so that
/// it never loses on time by thinking.
///
/// ```
/// use std::time::Duration;
/// assert_eq!(tablier_catalog::levels::budget(60_000, 2_000), Duration::from_millis(3_500));
/// ```
#[must_use]
pub fn budget(left_ms: i64, increment_ms: i64) -> std::time::Duration {
    let ms = (left_ms.max(0) / 30 + increment_ms * 3 / 4).max(20);
    std::time::Duration::from_millis(ms as u64)
}

/// The action a player of `level` chooses for `side`, or `None` if `side` is not to act;
/// `budget` caps its thinking time when a clock runs. Level 0, and any level when only one
/// action is legal, picks at random among the legal actions (never resigning unless nothing
/// else is legal); the others ask the game's engine.
pub fn choose(
    table: &dyn Table,
    side: Side,
    level: u8,
    budget: Budget,
    rng: &mut impl Rng,
) -> Option<String> {
    if table.actor() != Actor::Player(side) {
        return None;
    }
    let all = table.legal();
    let not_resigning: Vec<&String> = all.iter().filter(|t| !t.starts_with("resign")).collect();
    let legal: Vec<&String> = if not_resigning.is_empty() {
        all.iter().collect()
    } else {
        not_resigning
    };
    let random = |rng: &mut dyn rand::RngCore| {
        (!legal.is_empty()).then(|| legal[rng.gen_range(0..legal.len())].clone())
    };
    if level == 0 || legal.len() <= 1 {
        return random(rng);
    }
    table
        .engine_choice(level.min(MAX_LEVEL), rng.gen(), budget)
        .or_else(|| random(rng))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Family, GameSpec};
    use rand::SeedableRng;
    use tablier_core::SeededDice;

    fn spec(family: Family) -> GameSpec {
        GameSpec {
            family,
            variant: None,
            match_length: None,
            jacoby: None,
            beavers: None,
            cube: None,
            ecoles: None,
            edition: None,
            start: None,
        }
    }

    /// Every level of every family plays legal actions from the start of a game, and no
    /// level answers for the side that is not to act.
    #[test]
    fn every_level_of_every_family_acts_legally() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for family in [Family::Draughts, Family::Backgammon, Family::Trictrac] {
            let mut t = crate::new_table(&spec(family)).unwrap();
            let mut dice = SeededDice::from_seed([1; 32]);
            for ply in 0..12 {
                let side = match t.actor() {
                    Actor::Player(s) => s,
                    Actor::Chance => {
                        let roll = t.chance(&mut dice).unwrap();
                        t.apply(&roll).unwrap();
                        continue;
                    }
                    Actor::Nobody => break,
                };
                let level = ply % (MAX_LEVEL - 1) + 1;
                assert_eq!(
                    choose(
                        t.as_ref(),
                        side.opposite(),
                        level,
                        Budget::UNLIMITED,
                        &mut rng
                    ),
                    None
                );
                let text = choose(t.as_ref(), side, level, Budget::UNLIMITED, &mut rng)
                    .unwrap_or_else(|| panic!("{family:?} level {level}"));
                assert!(
                    t.legal().contains(&text),
                    "{family:?} level {level}: {text}"
                );
                t.apply(&text).unwrap();
            }
        }
    }
}
