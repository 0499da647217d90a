//! Engine against engine: balloted openings ([`ballot`]), each played twice with the colours
//! swapped ([`play_match`]), and the score with its Elo difference and 95% margin
//! ([`Tally`]). A side is a [`Contestant`]: our engine ([`EngineContestant`]) or another
//! program's over the Hub protocol ([`crate::hub::client::Client`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};
use rand::{Rng, SeedableRng};
use tablier_core::Side;
use tablier_draughts::game::{Ending, Game};
use tablier_draughts::{Geometry, Move, Position, Variant};
use tablier_draughts_engine::{Engine, Limits, Tables, TimeControl, Wdl};

use crate::hub::client::Client;
use crate::results::{GameRecord, Outcome};
pub use crate::score::{elo_summary, Tally};
use crate::Budget;

/// One side of a match: something that chooses moves in draughts games.
pub trait Contestant<G: Geometry> {
    /// The name the match's report and PDN give it.
    fn name(&self) -> String;

    /// A new game starts (an engine forgets the last one's hash table and history).
    ///
    /// # Errors
    /// The contestant cannot be reached.
    fn new_game(&mut self) -> Result<()>;

    /// The move to play in the current position of `game`, within `budget`.
    ///
    /// # Errors
    /// No move in time, or the contestant cannot be reached: the game is lost by forfeit.
    fn choose(&mut self, game: &Game<G>, budget: Budget) -> Result<Move<G>>;
}

/// Our engine as a contestant, under a name of its own.
pub struct EngineContestant<G: Geometry> {
    /// The engine (its weights and endgame tables as set up by the caller).
    pub engine: Engine<G>,
    /// Its name in the report.
    pub label: String,
}

impl<G: Geometry> Contestant<G> for EngineContestant<G> {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn new_game(&mut self) -> Result<()> {
        self.engine.new_game();
        Ok(())
    }

    fn choose(&mut self, game: &Game<G>, budget: Budget) -> Result<Move<G>> {
        let hist = game.positions_since_irreversible();
        let hist = &hist[..hist.len().saturating_sub(1)];
        let limits = match budget {
            Budget::Time(t) => Limits::move_time(t),
            Budget::Depth(d) => Limits {
                search_forced: false,
                ..Limits::depth(d)
            },
            Budget::Clock(remaining) => Limits {
                depth: None,
                nodes: None,
                time: TimeControl::Clock {
                    remaining,
                    increment: Duration::ZERO,
                    moves_to_go: None,
                },
                search_forced: false,
            },
        };
        let r = self
            .engine
            .search(game.position(), hist, &limits, &mut |_| {});
        r.best.ok_or_else(|| anyhow!("no move"))
    }
}

impl<G: Geometry> Contestant<G> for Client {
    fn name(&self) -> String {
        Client::name(self).to_string()
    }

    fn new_game(&mut self) -> Result<()> {
        Client::new_game(self)
    }

    fn choose(&mut self, game: &Game<G>, budget: Budget) -> Result<Move<G>> {
        Client::choose(self, game, budget)
    }
}

/// Balloted openings: `n` different lines of `plies` random legal moves each (drawn from a
/// stream seeded by `seed`), kept when a 6-ply search of ours calls the position level
/// (within a third of a man).
///
/// # Errors
/// `n` such openings are not found in `200 n` draws.
pub fn ballot<G: Geometry>(
    variant: &'static Variant,
    n: usize,
    plies: u32,
    seed: u64,
) -> Result<Vec<Vec<Move<G>>>> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut judge = Engine::<G>::new(variant, 8);
    let mut out: Vec<Vec<Move<G>>> = Vec::new();
    let mut tries = 0;
    while out.len() < n {
        tries += 1;
        if tries > n * 200 {
            bail!("could not find {n} different level openings of {plies} plies");
        }
        let mut pos = Position::<G>::start(variant)?;
        let mut line = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            pos.play_unchecked(&m);
            line.push(m);
        }
        if line.len() as u32 != plies || out.contains(&line) || pos.legal_moves().is_empty() {
            continue;
        }
        let r = judge.search(&pos, &[], &Limits::depth(6), &mut |_| {});
        if r.score.abs() <= 33 {
            out.push(line);
        }
    }
    Ok(out)
}

/// A game as it ended.
#[derive(Clone, Debug)]
pub struct Finished<G: Geometry> {
    /// The game, from the start position.
    pub game: Game<G>,
    /// Who won (`None`: a draw).
    pub winner: Option<Side>,
    /// Why it ended: `no move left`, `draw (Repetition)`, `adjudicated draw after 300
    /// plies`, `X forfeits: ...`, `X played an illegal move`, `X lost on time`.
    pub why: String,
    /// Whether a contestant lost by forfeit, by an illegal move or on time (a result the
    /// rules alone do not give).
    pub forfeit: bool,
    /// Whether the endgame tables gave the result (see [`Rules::adjudicate`]).
    pub adjudicated: bool,
}

/// How the games of a match are played and ended, besides the rules of the variant.
#[derive(Clone, Debug)]
pub struct Rules {
    /// What each contestant may spend on a move; [`Budget::Clock`] is each side's time for
    /// the whole game, and a side whose clock runs out loses on time.
    pub budget: Budget,
    /// Plies after which a game still going is scored a draw.
    pub max_plies: usize,
    /// Endgame tables that end a game as soon as its position is in them, with the result
    /// they give (a won ending the loser would defend forever, a dead draw), reported as
    /// adjudicated.
    pub adjudicate: Option<Arc<Tables>>,
}

/// Plays one game from the start of `variant` after `start_moves`: each contestant chooses
/// its moves within the budget of `rules` (on a game clock, the time it has left); a game
/// still going after `rules.max_plies` plies is adjudicated a draw, one whose position is
/// in the tables of `rules.adjudicate` ends with their result, and a contestant that fails
/// to move, plays an illegal move or lets its clock run out loses.
///
/// # Errors
/// An opening move that is not legal, or a contestant that cannot start a new game.
pub fn play_game<G: Geometry>(
    start_moves: &[Move<G>],
    variant: &'static Variant,
    white: &mut dyn Contestant<G>,
    black: &mut dyn Contestant<G>,
    rules: &Rules,
) -> Result<Finished<G>> {
    let (budget, max_plies) = (rules.budget, rules.max_plies);
    // Each side's time left, on a game clock.
    let mut clocks = match budget {
        Budget::Clock(t) => Some([t, t]),
        _ => None,
    };
    let mut game = Game::<G>::start(variant)?;
    for m in start_moves {
        game.play(m)
            .map_err(|_| anyhow!("opening move is illegal"))?;
    }
    white.new_game()?;
    black.new_game()?;
    let end = |game, winner, why: String, forfeit| Finished {
        game,
        winner,
        why,
        forfeit,
        adjudicated: false,
    };
    loop {
        if let Some(ending) = game.ending() {
            return Ok(match ending {
                Ending::NoMove { winner } => end(game, Some(winner), "no move left".into(), false),
                Ending::Draw(r) => end(game, None, format!("draw ({r:?})"), false),
            });
        }
        let side = game.position().side_to_move();
        if let Some(wdl) = rules
            .adjudicate
            .as_ref()
            .and_then(|t| t.probe(game.position()))
        {
            let pieces = game.position().pieces().len();
            let (winner, why) = match wdl {
                Wdl::Draw => (
                    None,
                    format!("adjudicated: a draw by the endgame tables ({pieces} pieces)"),
                ),
                Wdl::Win | Wdl::Loss => {
                    let w = if wdl == Wdl::Win {
                        side
                    } else {
                        side.opposite()
                    };
                    (
                        Some(w),
                        format!("adjudicated: {w} wins by the endgame tables ({pieces} pieces)"),
                    )
                }
            };
            let mut f = end(game, winner, why, false);
            f.adjudicated = true;
            return Ok(f);
        }
        if game.moves().len() >= max_plies {
            let why = format!("adjudicated draw after {max_plies} plies");
            return Ok(end(game, None, why, false));
        }
        let player: &mut dyn Contestant<G> = match side {
            Side::White => white,
            Side::Black => black,
        };
        let i = usize::from(side == Side::Black);
        let budget = clocks.map_or(budget, |c| Budget::Clock(c[i]));
        let started = Instant::now();
        let m = match player.choose(&game, budget) {
            Ok(m) => m,
            Err(e) => {
                let why = format!("{} forfeits: {e:#}", player.name());
                return Ok(end(game, Some(side.opposite()), why, true));
            }
        };
        if let Some(c) = clocks.as_mut() {
            let spent = started.elapsed();
            if spent > c[i] {
                let why = format!("{} lost on time", player.name());
                return Ok(end(game, Some(side.opposite()), why, true));
            }
            c[i] -= spent;
        }
        if game.play(&m).is_err() {
            let why = format!("{} played an illegal move", player.name());
            return Ok(end(game, Some(side.opposite()), why, true));
        }
    }
}

/// One game of a match, as [`play_match`] reports it.
pub struct Round<G: Geometry> {
    /// The game's number in the match, from 1 (games `2k - 1` and `2k` share an opening).
    pub number: usize,
    /// The index of its opening in the match's list.
    pub opening: usize,
    /// Whether the first contestant had White.
    pub first_white: bool,
    /// How the game ended.
    pub finished: Finished<G>,
}

impl<G: Geometry> Round<G> {
    /// The game as a results file keeps it (see [`crate::results`]), the contestants named
    /// `first` and `second`.
    #[must_use]
    pub fn record(&self, first: &str, second: &str) -> GameRecord {
        let first_side = if self.first_white {
            Side::White
        } else {
            Side::Black
        };
        GameRecord {
            opening: self.opening,
            first_white: self.first_white,
            outcome: match self.finished.winner {
                None => Outcome::Draw,
                Some(s) if s == first_side => Outcome::Win,
                Some(_) => Outcome::Loss,
            },
            why: self.finished.why.clone(),
            adjudicated: self.finished.adjudicated,
            forfeit: self.finished.forfeit,
            pdn: self.pdn(first, second),
        }
    }

    /// The game as PDN (Event, Round, White, Black and Termination tags), with the
    /// contestants named `first` and `second`; the result is the match's (`2-0`, `1-1`,
    /// `0-2`), adjudications and forfeits included.
    #[must_use]
    pub fn pdn(&self, first: &str, second: &str) -> String {
        let (wn, bn) = if self.first_white {
            (first, second)
        } else {
            (second, first)
        };
        let result = match self.finished.winner {
            None => "1-1",
            Some(Side::White) => "2-0",
            Some(Side::Black) => "0-2",
        };
        let round = self.number.to_string();
        let tags = [
            ("Event", "tablier match"),
            ("Round", round.as_str()),
            ("White", wn),
            ("Black", bn),
            ("Termination", self.finished.why.as_str()),
        ];
        let mut g = tablier_draughts::replay::to_pdn(&self.finished.game, &tags);
        // Adjudications and forfeits are results the rules alone do not give.
        for (k, v) in &mut g.tags {
            if k == "Result" {
                *v = result.to_string();
            }
        }
        g.result = Some(result.to_string());
        tablier_draughts::pdn::write_pdn(&g)
    }
}

/// A match of `first` against `second`: every opening of `openings` played twice, `first`
/// having White in the first game, under `rules`; the games for which `done(opening,
/// first_white)` holds (played in an earlier run, see [`crate::results`]) are skipped.
/// `stop` is looked at before each game (the match ends there when it is set); `on_game`
/// hears each game with the score of this run so far. Returns this run's score.
///
/// # Errors
/// A game that cannot be played ([`play_game`]).
#[allow(clippy::too_many_arguments)]
pub fn play_match<G: Geometry>(
    openings: &[Vec<Move<G>>],
    variant: &'static Variant,
    first: &mut dyn Contestant<G>,
    second: &mut dyn Contestant<G>,
    rules: &Rules,
    done: &dyn Fn(usize, bool) -> bool,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&Round<G>, &Tally),
) -> Result<Tally> {
    let mut tally = Tally::default();
    'outer: for (i, opening) in openings.iter().enumerate() {
        for first_white in [true, false] {
            if stop.load(Ordering::Relaxed) {
                break 'outer;
            }
            if done(i, first_white) {
                continue;
            }
            let finished = if first_white {
                play_game(opening, variant, first, second, rules)?
            } else {
                play_game(opening, variant, second, first, rules)?
            };
            let our_side = if first_white {
                Side::White
            } else {
                Side::Black
            };
            match finished.winner {
                None => tally.draws += 1,
                Some(s) if s == our_side => tally.wins += 1,
                Some(_) => tally.losses += 1,
            }
            let round = Round {
                number: 2 * i + usize::from(!first_white) + 1,
                opening: i,
                first_white,
                finished,
            };
            on_game(&round, &tally);
        }
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablier_draughts::{G10, INTERNATIONAL};

    /// Plays the first legal move after thinking for `delay`.
    struct Slow {
        delay: Duration,
    }

    impl<G: Geometry> Contestant<G> for Slow {
        fn name(&self) -> String {
            "slow".into()
        }
        fn new_game(&mut self) -> Result<()> {
            Ok(())
        }
        fn choose(&mut self, game: &Game<G>, _: Budget) -> Result<Move<G>> {
            std::thread::sleep(self.delay);
            Ok(game.position().legal_moves()[0])
        }
    }

    fn rules(budget: Budget, max_plies: usize) -> Rules {
        Rules {
            budget,
            max_plies,
            adjudicate: None,
        }
    }

    #[test]
    fn a_side_whose_clock_runs_out_loses_on_time() {
        let mut slow = Slow {
            delay: Duration::from_millis(40),
        };
        let mut quick = Slow {
            delay: Duration::ZERO,
        };
        let clock = rules(Budget::Clock(Duration::from_millis(100)), 100);
        let f = play_game::<G10>(&[], &INTERNATIONAL, &mut slow, &mut quick, &clock).unwrap();
        assert_eq!(f.winner, Some(Side::Black), "{}", f.why);
        assert!(f.forfeit && f.why == "slow lost on time", "{}", f.why);
        // White's third move takes its clock past 100 ms (its second, on a machine so loaded
        // that each sleep overshoots by 10 ms): the time adds up over the moves.
        assert!(
            matches!(f.game.moves().len(), 2 | 4),
            "{}",
            f.game.moves().len()
        );
        // Without a clock the same players play on.
        let per_move = rules(Budget::Time(Duration::from_millis(100)), 6);
        let f = play_game::<G10>(&[], &INTERNATIONAL, &mut slow, &mut quick, &per_move).unwrap();
        assert_eq!((f.winner, f.game.moves().len()), (None, 6), "{}", f.why);
    }

    #[test]
    fn our_engine_keeps_within_a_game_clock() {
        let engine = |label: &str, by_material: bool| {
            let mut engine = Engine::<G10>::new(&INTERNATIONAL, 8);
            engine.set_options(tablier_draughts_engine::SearchOptions {
                moves_left_by_material: by_material,
                ..Default::default()
            });
            EngineContestant {
                engine,
                label: label.into(),
            }
        };
        let (mut a, mut b) = (engine("fixed", false), engine("material", true));
        // Three seconds each for 40 plies (the last moves still get some 50 ms each, far
        // above a loaded machine's scheduling delays): neither side may run out.
        let clock = rules(Budget::Clock(Duration::from_secs(3)), 40);
        let f = play_game::<G10>(&[], &INTERNATIONAL, &mut a, &mut b, &clock).unwrap();
        assert!(!f.forfeit, "{}", f.why);
    }
}
