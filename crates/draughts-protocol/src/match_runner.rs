//! Engine against engine: balloted openings ([`ballot`]), each played twice with the colours
//! swapped ([`play_match`]), and the score with its Elo difference and 95% margin
//! ([`Tally`]). A side is a [`Contestant`]: our engine ([`EngineContestant`]) or another
//! program's over the Hub protocol ([`crate::hub::client::Client`]).

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{anyhow, bail, Result};
use rand::{Rng, SeedableRng};
use tablier_core::Side;
use tablier_draughts::game::{Ending, Game};
use tablier_draughts::{Geometry, Move, Position, Variant};
use tablier_draughts_engine::{Engine, Limits};

use crate::hub::client::Client;
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

/// Elo difference of a score fraction.
fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Score fraction, Elo difference and the half-width of its 95% interval (from the games'
/// win/draw/loss variance), from wins, draws and losses.
#[must_use]
pub fn elo_summary(w: u32, d: u32, l: u32) -> (f64, f64, f64) {
    let n = f64::from(w + d + l).max(1.0);
    let s = (f64::from(w) + 0.5 * f64::from(d)) / n;
    let var = (f64::from(w) * (1.0 - s).powi(2)
        + f64::from(d) * (0.5 - s).powi(2)
        + f64::from(l) * s.powi(2))
        / n;
    let se = (var / n).sqrt();
    let lo = elo(s - 1.96 * se);
    let hi = elo(s + 1.96 * se);
    (s, elo(s), (hi - lo) / 2.0)
}

/// The score of a match so far, from the first contestant's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score fraction, Elo difference and its 95% margin ([`elo_summary`]).
    #[must_use]
    pub fn summary(&self) -> (f64, f64, f64) {
        elo_summary(self.wins, self.draws, self.losses)
    }
}

/// A game as it ended.
#[derive(Clone, Debug)]
pub struct Finished<G: Geometry> {
    /// The game, from the start position.
    pub game: Game<G>,
    /// Who won (`None`: a draw).
    pub winner: Option<Side>,
    /// Why it ended: `no move left`, `draw (Repetition)`, `adjudicated draw after 300
    /// plies`, `X forfeits: ...`, `X played an illegal move`.
    pub why: String,
    /// Whether a contestant lost by forfeit or by an illegal move (a result the rules alone
    /// do not give).
    pub forfeit: bool,
}

/// Plays one game from the start of `variant` after `start_moves`: each contestant chooses
/// its moves within `budget`; a game still going after `max_plies` plies is adjudicated a
/// draw, and a contestant that fails to move, or plays an illegal move, loses.
///
/// # Errors
/// An opening move that is not legal, or a contestant that cannot start a new game.
pub fn play_game<G: Geometry>(
    start_moves: &[Move<G>],
    variant: &'static Variant,
    white: &mut dyn Contestant<G>,
    black: &mut dyn Contestant<G>,
    budget: Budget,
    max_plies: usize,
) -> Result<Finished<G>> {
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
    };
    loop {
        if let Some(ending) = game.ending() {
            return Ok(match ending {
                Ending::NoMove { winner } => end(game, Some(winner), "no move left".into(), false),
                Ending::Draw(r) => end(game, None, format!("draw ({r:?})"), false),
            });
        }
        if game.moves().len() >= max_plies {
            let why = format!("adjudicated draw after {max_plies} plies");
            return Ok(end(game, None, why, false));
        }
        let side = game.position().side_to_move();
        let player: &mut dyn Contestant<G> = match side {
            Side::White => white,
            Side::Black => black,
        };
        let m = match player.choose(&game, budget) {
            Ok(m) => m,
            Err(e) => {
                let why = format!("{} forfeits: {e:#}", player.name());
                return Ok(end(game, Some(side.opposite()), why, true));
            }
        };
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
    /// Whether the first contestant had White.
    pub first_white: bool,
    /// How the game ended.
    pub finished: Finished<G>,
}

impl<G: Geometry> Round<G> {
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
/// having White in the first game, each move within `budget`, games adjudicated drawn after
/// `max_plies` plies. `stop` is looked at before each game (the match ends there when it is
/// set); `on_game` hears each game with the score so far. Returns the score.
///
/// # Errors
/// A game that cannot be played ([`play_game`]).
#[allow(clippy::too_many_arguments)]
pub fn play_match<G: Geometry>(
    openings: &[Vec<Move<G>>],
    variant: &'static Variant,
    first: &mut dyn Contestant<G>,
    second: &mut dyn Contestant<G>,
    budget: Budget,
    max_plies: usize,
    stop: &AtomicBool,
    on_game: &mut dyn FnMut(&Round<G>, &Tally),
) -> Result<Tally> {
    let mut tally = Tally::default();
    'outer: for (i, opening) in openings.iter().enumerate() {
        for first_white in [true, false] {
            if stop.load(Ordering::Relaxed) {
                break 'outer;
            }
            let finished = if first_white {
                play_game(opening, variant, first, second, budget, max_plies)?
            } else {
                play_game(opening, variant, second, first, budget, max_plies)?
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

    #[test]
    fn elo_figures() {
        let (s, e, m) = elo_summary(60, 20, 20);
        assert!((s - 0.7).abs() < 1e-9);
        assert!((e - 147.2).abs() < 1.0);
        assert!(m > 30.0 && m < 120.0);
        assert_eq!(elo_summary(10, 0, 10).1.round(), 0.0);
    }
}
