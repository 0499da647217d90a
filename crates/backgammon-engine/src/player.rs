//! The engine as a player of a [`Match`]: the action it takes at a level, whatever the match
//! waits for (a double or a roll, an answer to a double, a play, an answer to a resignation).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablier_backgammon::game::{Action, Match, Phase};
use tablier_backgammon::notation;
use tablier_core::{Actor, Budget, Explanation, Game};

use crate::analysis::cube_info;
use crate::cube::CubeInfo;
use crate::eval::{equity, Evaluator, Scratch};
use crate::search::{self, Level};

/// How a player decides: its level of play and whether it offers doubles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    /// Look-ahead and noise of checker plays (doubles search as deep, from one ply to two,
    /// answers to a double one ply more; none at the noisy levels).
    pub level: Level,
    /// Offers doubles (takes, drops and beavers are always decided).
    pub doubles: bool,
    /// How its plays are valued (by default searched with the cube: the cube and the score
    /// count).
    pub play_value: search::PlayValue,
    /// gnubg's second move filter: with it, the candidates left by the 0-ply filter are valued
    /// one ply short of the level's depth first, and only those it keeps are searched to the
    /// full depth ([`search::best_of_valued_narrowed`]; at level 5 [`search::SECOND_FILTER`]).
    pub narrow: Option<search::MoveFilter>,
    /// The filter before the third ply, at the levels that search three
    /// ([`search::THIRD_FILTER`], gnubg's Grandmaster's: the two best plays at two plies
    /// within 0.04).
    pub third: Option<search::MoveFilter>,
    /// The first move filter: the plays the 0-ply ranking lets through to be valued more
    /// deeply (at level 5 [`search::FIRST_FILTER`], below it gnubg's 8 within 0.16).
    pub filter: search::MoveFilter,
}

impl Player {
    /// The player of level `n` (0 to [`crate::MAX_LEVEL`]), using the cube.
    #[must_use]
    pub fn at_level(n: u8) -> Player {
        let level = search::level(n);
        Player {
            level,
            doubles: true,
            play_value: search::PlayValue::default(),
            narrow: (level.plies >= 2 && level.noise == 0.0).then_some(search::SECOND_FILTER),
            third: (level.plies >= 3 && level.noise == 0.0).then_some(search::THIRD_FILTER),
            filter: if level.plies >= 2 && level.noise == 0.0 {
                search::FIRST_FILTER
            } else {
                search::MoveFilter::default()
            },
        }
    }

    /// Doubling decisions search as deep as the checker plays, with one ply at least (21 rolls
    /// at 0-ply: a millisecond) and two at most (about 15 ms; a double is weighed before every
    /// roll), except at the noisy beginner levels, which look at the position alone.
    #[must_use]
    pub fn cube_plies(&self) -> u32 {
        if self.level.noise > 0.0 {
            0
        } else {
            self.level.plies.clamp(1, 2)
        }
    }

    /// Answers to a double (and to a resignation) search one ply deeper than doubles: they
    /// come a few times a game, and a wrong take or pass costs most (at level 5, 3 plies, about
    /// 0.3 s).
    #[must_use]
    pub fn answer_plies(&self) -> u32 {
        if self.level.noise > 0.0 {
            0
        } else {
            self.cube_plies() + 1
        }
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
        self.answer_double_within(ev, pos, ci, None, s)
    }

    /// [`Player::answer_double`] before a deadline ([`Player::answer_decision`]).
    pub fn answer_double_within(
        &self,
        ev: &Evaluator,
        pos: &tablier_backgammon::Position,
        ci: &CubeInfo,
        deadline: Option<std::time::Instant>,
        s: &mut Scratch,
    ) -> Action {
        let (d, _) = self.answer_decision(ev, pos, ci, deadline, s);
        if d.beaver && ci.beavers && ci.match_length == 0 {
            Action::Beaver
        } else if d.take {
            Action::Take
        } else {
            Action::Drop
        }
    }

    /// The cube decision that answers a double or a resignation, at [`Player::answer_plies`],
    /// and the plies it was searched to. With a `deadline`, the search is first made one ply
    /// shallower, and deepened only when a search about 21 times as long (one ply more: 21
    /// rolls) still ends before it.
    pub fn answer_decision(
        &self,
        ev: &Evaluator,
        pos: &tablier_backgammon::Position,
        ci: &CubeInfo,
        deadline: Option<std::time::Instant>,
        s: &mut Scratch,
    ) -> (crate::cube::CubeDecision, u32) {
        let plies = self.answer_plies();
        let Some(deadline) = deadline.filter(|_| plies > 0) else {
            return (search::cube_decision(ev, pos, ci, plies, s), plies);
        };
        let started = std::time::Instant::now();
        let shallow = search::cube_decision(ev, pos, ci, plies - 1, s);
        if std::time::Instant::now() + started.elapsed() * 21 > deadline {
            return (shallow, plies - 1);
        }
        (search::cube_decision(ev, pos, ci, plies, s), plies)
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
        self.accepts_resignation_within(ev, pos, ci, points, None, s)
    }

    /// [`Player::accepts_resignation`] before a deadline ([`Player::answer_decision`]).
    pub fn accepts_resignation_within(
        &self,
        ev: &Evaluator,
        pos: &tablier_backgammon::Position,
        ci: &CubeInfo,
        points: u32,
        deadline: Option<std::time::Instant>,
        s: &mut Scratch,
    ) -> bool {
        let (d, _) = self.answer_decision(ev, pos, ci, deadline, s);
        // The resigner's cubeful equity, in points: we get its opposite by playing on.
        let resigner = if ci.may_double() {
            d.no_double.max(d.double_take.min(d.double_pass))
        } else {
            d.no_double
        };
        points as f32 >= -resigner * ci.value as f32
    }

    /// The play of `roll` in `pos` (side on roll) with the cube `ci`. The noisy levels and
    /// [`search::PlayValue::Cubeless`] choose by cubeless equity ([`search::choose`]); the
    /// others by the play's value with the cube ([`search::best_of_deepening`]).
    pub fn choose_play(
        &self,
        ev: &Evaluator,
        pos: &tablier_backgammon::Position,
        roll: tablier_backgammon::Roll,
        ci: &CubeInfo,
        rng: &mut impl Rng,
        s: &mut Scratch,
    ) -> tablier_backgammon::Play {
        self.choose_play_within(ev, pos, roll, ci, None, rng, s).0
    }

    /// [`Player::choose_play`] before a deadline: a search stage that would end after it is
    /// given up for the stage before ([`search::best_of_deepening`]). Returns the play and the
    /// depth at which it was chosen.
    #[allow(clippy::too_many_arguments)]
    pub fn choose_play_within(
        &self,
        ev: &Evaluator,
        pos: &tablier_backgammon::Position,
        roll: tablier_backgammon::Roll,
        ci: &CubeInfo,
        deadline: Option<std::time::Instant>,
        rng: &mut impl Rng,
        s: &mut Scratch,
    ) -> (tablier_backgammon::Play, u32) {
        let mut plays = Vec::with_capacity(32);
        let plies = self.level.plies;
        if self.level.noise > 0.0 || self.play_value == search::PlayValue::Cubeless {
            let i = search::choose(ev, pos, roll, self.level, rng, &mut plays, s).0;
            return (plays[i], plies);
        }
        pos.legal_plays_into(roll, &mut plays);
        let narrows: Vec<search::MoveFilter> = self.narrow.into_iter().chain(self.third).collect();
        let (filter, how) = (self.filter, self.play_value);
        let (i, _, depth) =
            search::best_of_deepening(ev, &plays, plies, filter, &narrows, ci, how, deadline, s);
        (plays[i], depth)
    }

    /// The action the engine takes in `m`, or `None` when the dice or nobody are to act.
    pub fn choose(
        &self,
        ev: &Evaluator,
        m: &Match,
        rng: &mut impl Rng,
        s: &mut Scratch,
    ) -> Option<Action> {
        self.choose_within(ev, m, None, rng, s)
    }

    /// [`Player::choose`] with a deadline for checker plays ([`Player::choose_play_within`])
    /// and for answers to a double or a resignation ([`Player::answer_decision`]); doubling
    /// decisions take milliseconds at the levels that search and do not read it.
    pub fn choose_within(
        &self,
        ev: &Evaluator,
        m: &Match,
        deadline: Option<std::time::Instant>,
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
            Phase::Doubled => self.answer_double_within(ev, &pos, &ci, deadline, s),
            Phase::Moving { roll } => Action::Play(
                self.choose_play_within(ev, &pos, roll, &ci, deadline, rng, s)
                    .0,
            ),
            Phase::Resigning { offer, .. } => {
                let points = offer as u32 * ci.value;
                if self.accepts_resignation_within(ev, &pos, &ci, points, deadline, s) {
                    Action::Accept
                } else {
                    Action::Reject
                }
            }
            Phase::Opening | Phase::Rolling | Phase::Over => return None,
        })
    }
}

/// A [`Player`] at a level with what it needs to act on its own: the shipped evaluation, a
/// seeded generator for the noise of the weaker levels, and its scratch space. This is the
/// engine as the server seats it ([`tablier_core::Player`]).
///
/// ```
/// use tablier_backgammon::game::{Match, Options};
/// use tablier_backgammon_engine::player::MatchPlayer;
/// use tablier_core::{Budget, Game, Player, SeededDice};
///
/// let mut m = Match::new(Options::money());
/// let mut dice = SeededDice::from_seed([3; 32]);
/// m.apply(&m.chance_action(&mut dice).unwrap()).unwrap(); // the opening roll
/// let mut engine = MatchPlayer::at_level(3, 1);
/// let play = engine.choose(&m, Budget::UNLIMITED).unwrap();
/// assert!(m.legal_actions().contains(&play));
/// let seen = engine.explain(&m, Budget::UNLIMITED).unwrap();
/// assert_eq!(seen.line[0], seen.candidates[0].0);
/// ```
#[derive(Clone, Debug)]
pub struct MatchPlayer {
    /// How it plays.
    pub player: Player,
    rng: ChaCha8Rng,
    scratch: Scratch,
}

impl MatchPlayer {
    /// The player of level `n` (0 to [`crate::MAX_LEVEL`]), its noise drawn from `seed`.
    #[must_use]
    pub fn at_level(n: u8, seed: u64) -> MatchPlayer {
        MatchPlayer {
            player: Player::at_level(n),
            rng: ChaCha8Rng::seed_from_u64(seed),
            scratch: Scratch::default(),
        }
    }
}

/// How many plays [`MatchPlayer::explain`] values at its level's depth (the others are cut
/// by the 0-ply ranking, as the search itself cuts them).
const EXPLAINED_PLAYS: usize = 5;

impl tablier_core::Player<Match> for MatchPlayer {
    /// Every decision of a match at this level: doubles, takes and drops, plays, answers to
    /// resignations. Plays and answers keep to the budget's time: level 6's three-ply plays
    /// fall back on two plies (or one) when the third would not end in time, and answers to
    /// a double or a resignation (three plies at levels 5 and 6) on one ply fewer. Doubles
    /// take milliseconds and do not read it.
    fn choose(&mut self, game: &Match, budget: Budget) -> Option<Action> {
        let deadline = budget.time.map(|t| std::time::Instant::now() + t);
        self.player.choose_within(
            Evaluator::shipped(),
            game,
            deadline,
            &mut self.rng,
            &mut self.scratch,
        )
    }

    /// The cubeless equity (points per game, gammons counted) of the side that acts, searched
    /// to this level's plies; when a roll is to be played, the best plays with their values as
    /// the player weighs them (with the cube and the score, in units of the cube, unless it
    /// plays cubeless), so that the first is the play it makes.
    fn explain(&mut self, game: &Match, _budget: Budget) -> Option<Explanation> {
        let Actor::Player(actor) = game.actor() else {
            return None;
        };
        let ev = Evaluator::shipped();
        let s = &mut self.scratch;
        let plies = self.player.level.plies;
        let pos = game.position();
        if let Phase::Moving { roll } = game.phase() {
            let ci = cube_info(game);
            let plays = pos.legal_plays(roll);
            let mut candidates: Vec<(String, f64)> = search::rank_0ply(ev, &plays, s)
                .into_iter()
                .take(EXPLAINED_PLAYS)
                .map(|(i, _)| {
                    let how = self.player.play_value;
                    let v = search::play_value(ev, &plays[i], plies, &ci, how, s);
                    (notation::format_play(&plays[i]), f64::from(v))
                })
                .collect();
            candidates.sort_by(|a, b| b.1.total_cmp(&a.1));
            let (best, value) = candidates.first().cloned()?;
            return Some(Explanation {
                value,
                unit: "equity",
                line: vec![best],
                candidates,
            });
        }
        let p = search::probs_nply(ev, &pos, plies, search::MoveFilter::default(), s);
        let for_roller = f64::from(equity(&p));
        Some(Explanation {
            value: if actor == game.turn() {
                for_roller
            } else {
                -for_roller
            },
            unit: "equity",
            line: Vec::new(),
            candidates: Vec::new(),
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

    /// An answer to a double with its deadline passed is the two-ply decision; without a
    /// deadline, or with time enough, the three-ply one.
    #[test]
    fn answers_keep_to_a_deadline() {
        use std::time::{Duration, Instant};
        let ev = Evaluator::shipped();
        let mut s = Scratch::default();
        let player = Player::at_level(6);
        assert_eq!(player.answer_plies(), 3);
        // The opening position: a take at any depth.
        let pos = tablier_backgammon::Position::from_position_id("4HPwATDgc/ABMA").unwrap();
        let ci = CubeInfo::money();
        let two = search::cube_decision(ev, &pos, &ci, 2, &mut s);
        let three = search::cube_decision(ev, &pos, &ci, 3, &mut s);
        let (d, plies) = player.answer_decision(ev, &pos, &ci, Some(Instant::now()), &mut s);
        assert_eq!((d, plies), (two, 2));
        let (d, plies) = player.answer_decision(ev, &pos, &ci, None, &mut s);
        assert_eq!((d, plies), (three, 3));
        let later = Instant::now() + Duration::from_secs(600);
        let (d, plies) = player.answer_decision(ev, &pos, &ci, Some(later), &mut s);
        assert_eq!((d, plies), (three, 3));
        assert_eq!(
            player.answer_double_within(ev, &pos, &ci, Some(Instant::now()), &mut s),
            Action::Take
        );
    }

    /// Level 6 on a clock: a budget already spent leaves the first stage's (one-ply) play,
    /// an unlimited one searches three plies (two where a single play is left after two);
    /// both are legal plays of the roll.
    #[test]
    fn level_6_keeps_to_the_clock_budget() {
        use std::time::Duration;
        use tablier_core::Player as _;
        let ev = Evaluator::shipped();
        let mut s = Scratch::default();
        let mut m = Match::new(Options::money());
        let mut dice = SeededDice::from_seed([6; 32]);
        let mut engine = MatchPlayer::at_level(6, 1);
        let player = Player::at_level(6);
        let (mut checked, mut three_ply) = (0, 0);
        while m.actor() != Actor::Nobody && (checked < 3 || three_ply < 1) {
            let a = match m.phase() {
                Phase::Moving { roll } if m.position().legal_plays(roll).len() >= 3 => {
                    let pos = m.position();
                    let ci = cube_info(&m);
                    let spent = engine.choose(&m, Budget::at_most(Duration::ZERO)).unwrap();
                    let plays = pos.legal_plays(roll);
                    let (one, _) = search::best_of_valued(
                        ev,
                        &plays,
                        1,
                        player.filter,
                        &ci,
                        player.play_value,
                        &mut s,
                    );
                    assert_eq!(spent, Action::Play(plays[one]));
                    let (deep, depth) = player.choose_play_within(
                        ev,
                        &pos,
                        roll,
                        &ci,
                        None,
                        &mut engine.rng,
                        &mut s,
                    );
                    // Three plies where the second stage kept two plays or more, else two.
                    assert!(depth == 2 || depth == 3, "{depth}");
                    three_ply += usize::from(depth == 3);
                    let unlimited = engine.choose(&m, Budget::UNLIMITED).unwrap();
                    assert_eq!(unlimited, Action::Play(deep));
                    checked += 1;
                    unlimited
                }
                _ => match engine.choose(&m, Budget::UNLIMITED) {
                    Some(a) => a,
                    None => m.chance_action(&mut dice).unwrap(),
                },
            };
            m.apply(&a).unwrap();
        }
        assert!(checked >= 3 && three_ply >= 1, "{checked} {three_ply}");
    }

    /// The seated player plays a whole money game with legal actions, and explains each of
    /// its decisions from the acting side's view.
    #[test]
    fn the_seated_player_acts_and_explains_through_a_game() {
        use tablier_core::Player as _;
        let mut m = Match::new(Options::money());
        let mut dice = SeededDice::from_seed([9; 32]);
        let mut engine = MatchPlayer::at_level(3, 2);
        let mut explained = 0;
        while m.actor() != Actor::Nobody {
            let a = match m.actor() {
                Actor::Player(_) => {
                    let e = engine.explain(&m, Budget::UNLIMITED).unwrap();
                    assert!(e.value.abs() <= 3.0, "{e:?}");
                    explained += 1;
                    let a = engine.choose(&m, Budget::UNLIMITED).unwrap();
                    assert!(m.legal_actions().contains(&a), "{a:?}");
                    a
                }
                _ => m.chance_action(&mut dice).unwrap(),
            };
            m.apply(&a).unwrap();
        }
        assert!(explained > 10);
        assert!(engine.explain(&m, Budget::UNLIMITED).is_none());
    }
}
