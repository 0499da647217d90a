//! The engine as a [`Player`] of the grand trictrac: [`LevelPlayer`] answers every phase in
//! which a player acts (plays, *s'en aller* or *rester*, and in the écoles mode marking and
//! claiming) at one of the engine's levels.

use tablier_core::{Actor, Budget, Explanation, Game as _, Player};
use tablier_trictrac::{Action, Phase, Trictrac};

use crate::{choose_action, player_for, state_of, Objective, MAX_LEVEL};

/// The trictrac engine at a level (0 to [`MAX_LEVEL`]), its noise seeded.
///
/// ```
/// use tablier_core::{Budget, Game, Player};
/// use tablier_trictrac::Trictrac;
/// use tablier_trictrac_engine::player::LevelPlayer;
///
/// let mut game = Trictrac::new(Default::default());
/// game.apply(&game.parse_action("W6 B5").unwrap()).unwrap();
/// let mut engine = LevelPlayer::new(2, 7);
/// let play = engine.choose(&game, Budget::UNLIMITED).unwrap();
/// assert!(game.legal_actions().contains(&play));
/// let seen = engine.explain(&game, Budget::UNLIMITED).unwrap();
/// assert_eq!(seen.unit, "partie");
/// assert!((0.0..=1.0).contains(&seen.value));
/// ```
#[derive(Clone, Debug)]
pub struct LevelPlayer {
    level: u8,
    seed: u64,
}

impl LevelPlayer {
    /// The player of `level` (clamped to [`MAX_LEVEL`]); each decision draws its noise from
    /// the next seed after `seed`.
    #[must_use]
    pub fn new(level: u8, seed: u64) -> LevelPlayer {
        LevelPlayer {
            level: level.min(MAX_LEVEL),
            seed,
        }
    }
}

impl Player<Trictrac> for LevelPlayer {
    /// See [`choose_action`]; every level decides well within a second, so the budget is not
    /// needed.
    fn choose(&mut self, game: &Trictrac, _budget: Budget) -> Option<Action> {
        let seed = self.seed;
        self.seed = self.seed.wrapping_add(1);
        choose_action(game, self.level, seed).ok()
    }

    /// For a throw to play, each play (best first); for the choice after a hole, going and
    /// staying. In a partie in 12 holes, the actor's chance of winning the partie (unit
    /// `partie`, from 0 to 1), what the levels decide by; in a partie à écrire, the hole
    /// margin he can expect (unit `holes`), or in jetons the marqué's value when going would
    /// end the marqué.
    fn explain(&mut self, game: &Trictrac, _budget: Budget) -> Option<Explanation> {
        let Actor::Player(me) = game.actor() else {
            return None;
        };
        let search = player_for(game, self.level, self.seed).ok()?.search;
        let score = game.roll_score()?;
        let state = state_of(game);
        let mut candidates: Vec<(String, f64)> = match game.phase() {
            Phase::Play if me == game.roller() => {
                let a = search.analyse(&state, score, 0);
                score
                    .plays
                    .legal
                    .iter()
                    .zip(a.plays)
                    .map(|(c, v)| (c.play.notation(), v))
                    .collect()
            }
            Phase::Decide if crate::ecrire_goes(game, score).is_some() => {
                // Going ends the marqué of the partie à écrire: its value against the
                // table's value of staying, in jetons (half the postillons at stake counted
                // to the marqué's winner, half against its loser).
                let t = crate::ecrire::MarqueContext::of(game)?.table();
                let (m, roller) = (game.marker(), game.roller());
                let go = t.go_value(m, roller)?;
                let stay = t.stay_value(m, roller, score.given());
                let mut v = vec![("stay".to_owned(), stay), ("go".to_owned(), go)];
                v.sort_by(|a, b| b.1.total_cmp(&a.1));
                let (best, value) = v[0].clone();
                return Some(Explanation {
                    value,
                    unit: "jetons",
                    line: vec![best],
                    candidates: v,
                });
            }
            Phase::Decide => {
                let a = if game.sortie_marked() {
                    search.analyse_sortie(&state, score)
                } else {
                    search.analyse(&state, score, 1)
                };
                let mut v = vec![("stay".to_owned(), a.stay())];
                v.extend(a.go.map(|g| ("go".to_owned(), g)));
                v
            }
            _ => return None,
        };
        let unit = if search.objective == Objective::Partie {
            for c in &mut candidates {
                c.1 = crate::search::chance(c.1);
            }
            "partie"
        } else {
            "holes"
        };
        candidates.sort_by(|a, b| b.1.total_cmp(&a.1));
        let (best, value) = candidates.first().cloned()?;
        Some(Explanation {
            value,
            unit,
            line: vec![best],
            candidates,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablier_core::{Game, SeededDice};

    /// A whole partie à écrire of two marqués between two engines: every decision legal,
    /// the marqués ended by going with 6 holes or more, and the settlement made (n°227–237).
    #[test]
    fn plays_a_partie_a_ecrire_to_its_settlement() {
        use tablier_trictrac::{Options, Partie};
        let options = Options {
            partie: Partie::AEcrire { marques: 2 },
            ..Options::default()
        };
        let mut g = Trictrac::new(options);
        let mut dice = SeededDice::from_seed([9; 32]);
        let mut engines = [LevelPlayer::new(2, 1), LevelPlayer::new(1, 2)];
        for _ in 0..20_000 {
            let a = match g.actor() {
                Actor::Player(side) => {
                    let a = engines[side.index()].choose(&g, Budget::UNLIMITED).unwrap();
                    assert!(g.legal_actions().contains(&a), "{a:?}");
                    a
                }
                Actor::Chance => g.chance_action(&mut dice).unwrap(),
                Actor::Nobody => break,
            };
            g.apply(&a).unwrap();
        }
        assert_eq!(g.phase(), Phase::Over);
        assert_eq!(g.marques().len(), 2);
        for m in g.marques() {
            assert!(m.holes[0].max(m.holes[1]) >= 6, "{m:?}");
            assert!(m.value > 0);
        }
        assert!(g.settlement(0, 0).is_some());
    }

    /// Through the start of a partie, every decision is legal, and every play or going
    /// decision is explained with the chosen action among the candidates.
    #[test]
    fn acts_legally_and_explains_its_plays() {
        let mut g = Trictrac::new(Default::default());
        let mut dice = SeededDice::from_seed([5; 32]);
        let mut engine = LevelPlayer::new(2, 1);
        let mut explained = 0;
        for _ in 0..200 {
            let a = match g.actor() {
                Actor::Player(_) => {
                    let a = engine.choose(&g, Budget::UNLIMITED).unwrap();
                    assert!(g.legal_actions().contains(&a), "{a:?}");
                    if let Some(e) = engine.explain(&g, Budget::UNLIMITED) {
                        let chosen = g.format_action(&a);
                        assert!(
                            e.candidates.iter().any(|(c, _)| *c == chosen),
                            "{chosen} not among {:?}",
                            e.candidates
                        );
                        explained += 1;
                    }
                    a
                }
                Actor::Chance => g.chance_action(&mut dice).unwrap(),
                Actor::Nobody => break,
            };
            g.apply(&a).unwrap();
        }
        assert!(explained > 20, "{explained}");
    }
}
