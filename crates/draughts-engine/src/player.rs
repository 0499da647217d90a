//! The engine as a [`Player`] of every draughts game: the levels of [`level_spec`] for the
//! games of the FMJD-style rules ([`Game`]) and for the old French rules ([`FrenchGame`],
//! where it also decides when to huff or force, see [`crate::french`]).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;
use tablier_core::{Actor, Budget, Explanation, Game as _, Player};
use tablier_draughts::french::FrenchGame;
use tablier_draughts::game::Game;
use tablier_draughts::{notation, Geometry, Move, Position};

use crate::{level_spec, Engine, Limits, MAX_LEVEL};

/// The engine at one of its levels (0 to [`MAX_LEVEL`]), its random choices seeded.
///
/// ```
/// use tablier_core::{Budget, Game as _, Player};
/// use tablier_draughts::{game::Game, G10, INTERNATIONAL};
/// use tablier_draughts_engine::player::LevelPlayer;
///
/// let game = Game::<G10>::start(&INTERNATIONAL).unwrap();
/// let mut engine = LevelPlayer::new(2, 7);
/// let m = engine.choose(&game, Budget::UNLIMITED).unwrap();
/// assert!(game.legal_actions().contains(&m));
/// let seen = engine.explain(&game, Budget::UNLIMITED).unwrap();
/// assert_eq!(seen.unit, "men");
/// assert!(seen.value.abs() < 1.0, "the start is level: {}", seen.value);
/// ```
#[derive(Clone, Debug)]
pub struct LevelPlayer {
    level: u8,
    rng: ChaCha8Rng,
    hash_mb: usize,
}

impl LevelPlayer {
    /// The player of `level` (clamped to [`MAX_LEVEL`]), its noise drawn from `seed`, with a
    /// hash table of 16 MiB per decision.
    #[must_use]
    pub fn new(level: u8, seed: u64) -> LevelPlayer {
        LevelPlayer {
            level: level.min(MAX_LEVEL),
            rng: ChaCha8Rng::seed_from_u64(seed),
            hash_mb: 16,
        }
    }

    /// The same player with a hash table of `mb` MiB per decision.
    #[must_use]
    pub fn with_hash_mb(mut self, mb: usize) -> LevelPlayer {
        self.hash_mb = mb.max(1);
        self
    }

    /// The level played.
    #[must_use]
    pub fn level(&self) -> u8 {
        self.level
    }

    /// What one search of this level may do: its depth, or its time capped by `budget`.
    fn limits(&self, budget: Budget) -> Limits {
        let spec = level_spec(self.level);
        if spec.move_time_ms > 0 {
            Limits::move_time(budget.cap(Duration::from_millis(spec.move_time_ms)))
        } else {
            Limits::depth(spec.depth.max(1))
        }
    }

    /// Searches `pos` (with the positions before it since the last irreversible move) and
    /// tells what it found, for the side to move.
    fn explain_position<G: Geometry>(
        &self,
        pos: &Position<G>,
        history: &[Position<G>],
        budget: Budget,
    ) -> Explanation {
        let mut engine = Engine::<G>::new(pos.variant(), self.hash_mb);
        let r = engine.search(pos, history, &self.limits(budget), &mut |_| {});
        let value = f64::from(r.score) / 100.0;
        Explanation {
            value,
            unit: "men",
            line: line(pos, &r.pv),
            candidates: r
                .best
                .map(|m| (notation::format(pos, &m), value))
                .into_iter()
                .collect(),
        }
    }
}

/// A principal variation in notation, each move written against the position it is played in.
fn line<G: Geometry>(pos: &Position<G>, pv: &[Move<G>]) -> Vec<String> {
    let mut p = *pos;
    pv.iter()
        .map(|m| {
            let text = notation::format(&p, m);
            p.play_unchecked(m);
            text
        })
        .collect()
}

/// The positions before the current one since the last irreversible move (oldest first):
/// what the search needs to see repetitions.
fn history<G: Geometry>(game: &Game<G>) -> &[Position<G>] {
    let h = game.positions_since_irreversible();
    &h[..h.len().saturating_sub(1)]
}

impl<G: Geometry> Player<Game<G>> for LevelPlayer {
    /// The levels that think for a set time think no longer than `budget`; the others search
    /// to their depth and add their noise.
    fn choose(&mut self, game: &Game<G>, budget: Budget) -> Option<Move<G>> {
        if !matches!(game.actor(), Actor::Player(_)) {
            return None;
        }
        let pos = game.position();
        let mut engine = Engine::<G>::new(pos.variant(), self.hash_mb);
        match budget.time {
            Some(_) if level_spec(self.level).move_time_ms > 0 => {
                engine
                    .search(pos, history(game), &self.limits(budget), &mut |_| {})
                    .best
            }
            _ => engine.play_level(pos, history(game), self.level, &mut self.rng),
        }
    }

    /// The search's score in men for the side to move, its principal variation and its move.
    fn explain(&mut self, game: &Game<G>, budget: Budget) -> Option<Explanation> {
        matches!(game.actor(), Actor::Player(_))
            .then(|| self.explain_position(game.position(), history(game), budget))
    }
}

impl<G: Geometry> Player<FrenchGame<G>> for LevelPlayer {
    /// Moves that cannot be huffed, and the best of letting stand, huffing and forcing when
    /// the opponent left a capture (each searched within this level's limits).
    fn choose(
        &mut self,
        game: &FrenchGame<G>,
        budget: Budget,
    ) -> Option<tablier_draughts::french::Action<G>> {
        if !matches!(game.actor(), Actor::Player(_)) {
            return None;
        }
        let mut engine = Engine::<G>::new(game.position().variant(), self.hash_mb);
        crate::french::choose(&mut engine, game, &self.limits(budget))
    }

    /// The search of the position on the board (a huff or force still pending is not weighed).
    fn explain(&mut self, game: &FrenchGame<G>, budget: Budget) -> Option<Explanation> {
        matches!(game.actor(), Actor::Player(_))
            .then(|| self.explain_position(game.position(), &[], budget))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablier_draughts::french::TableOptions;
    use tablier_draughts::{fen, ENGLISH, FRENCH_OLD, G10, G8, INTERNATIONAL};

    #[test]
    fn every_level_plays_a_legal_move_and_the_seed_repeats_the_noise() {
        let game = Game::<G8>::start(&ENGLISH).unwrap();
        for level in 0..=5 {
            let a = LevelPlayer::new(level, 3)
                .choose(&game, Budget::UNLIMITED)
                .unwrap();
            let b = LevelPlayer::new(level, 3)
                .choose(&game, Budget::UNLIMITED)
                .unwrap();
            assert!(game.legal_actions().contains(&a), "level {level}");
            assert_eq!(a, b, "level {level}: the same seed, the same move");
        }
    }

    #[test]
    fn a_timed_level_keeps_within_the_budget() {
        let game = Game::<G10>::start(&INTERNATIONAL).unwrap();
        let start = std::time::Instant::now();
        let m = LevelPlayer::new(MAX_LEVEL, 1)
            .choose(&game, Budget::at_most(Duration::from_millis(50)))
            .unwrap();
        assert!(game.legal_actions().contains(&m));
        assert!(
            start.elapsed() < Duration::from_millis(1500),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn the_explanation_sees_a_won_capture_and_its_line() {
        // White's 27 takes two men (27x8): White is a man and more up after it.
        let pos = fen::parse::<G10>(&INTERNATIONAL, "W:W27,40:B22,12,3").unwrap();
        let game = Game::from_position(pos);
        let e = LevelPlayer::new(4, 0)
            .explain(&game, Budget::UNLIMITED)
            .unwrap();
        assert!(e.value > 0.9, "{e:?}");
        assert_eq!(e.line.first(), Some(&e.candidates[0].0));
        assert!(e.line[0].contains('x'), "{e:?}");
    }

    #[test]
    fn the_french_player_acts_legally() {
        let pos = fen::parse::<G10>(&FRENCH_OLD, "W:W32,33,38,45:B27,3,4").unwrap();
        let game = FrenchGame::from_position(pos, TableOptions::default());
        let a = LevelPlayer::new(4, 0)
            .choose(&game, Budget::UNLIMITED)
            .unwrap();
        assert!(game.legal_actions().contains(&a));
        assert!(LevelPlayer::new(4, 0)
            .explain(&game, Budget::UNLIMITED)
            .is_some());
    }
}
