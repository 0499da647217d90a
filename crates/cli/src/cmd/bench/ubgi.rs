//! `tablier bench ubgi`: two UBGI engines (`tablier ubgi`, a UBGI build of another program, or
//! gnubg's nets behind `crates/backgammon-engine/oracle/gnubg_ubgi.py`) play money games
//! refereed by our rules, with duplicate dice: each dice seed is played twice, the seats
//! swapped, so that the luck of the dice cancels out of each pair.
//!
//! The driver sends each decision as an XGID line and reads one line back: a play (from/to
//! pairs, `bar`/25 and `off`/0, a blank line when nothing can be played), `double` or `roll`,
//! `take` or `drop`. A reply that is not a legal answer forfeits the game (a single game at
//! the cube's value) and is reported; an engine that stops answering ends the run.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use tablier_backgammon::game::{Action, Match, Options, Phase};
use tablier_backgammon::notation;
use tablier_backgammon::record::{id_view, match_id};
use tablier_backgammon::xgid::Xgid;
use tablier_core::{Game, SeededDice, Side};

use crate::common::{interrupted, short_progress};

/// `tablier bench ubgi`.
#[derive(Args)]
pub struct BenchUbgiArgs {
    /// The engine measured: a command line that speaks UBGI on stdin/stdout (default: this
    /// program's `ubgi`).
    #[arg(long)]
    engine: Option<String>,
    /// Its opponent, a UBGI command line, e.g. `".venv/bin/python
    /// crates/backgammon-engine/oracle/gnubg_ubgi.py"` (gnubg's 0-ply nets) or `"tablier ubgi
    /// --level 2"`.
    #[arg(long)]
    opponent: String,
    /// Number of games (rounded up to an even number: each dice seed is played with both
    /// seats).
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Seed of the first pair's dice (the next pairs take the next seeds).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play without the doubling cube (no cube question is asked).
    #[arg(long)]
    no_cube: bool,
    /// Seconds an engine may take to answer one decision before the run ends.
    #[arg(long, default_value_t = 120.0)]
    timeout: f64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// A UBGI engine in a child process.
struct Engine {
    name: String,
    command: String,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    timeout: Duration,
}

impl Engine {
    /// Starts `command` (through `sh -c`), says `ubgi` and waits for `readyok`.
    fn start(command: &str, timeout: Duration) -> Result<Engine> {
        let mut child = Command::new("sh")
            .args(["-c", command])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start {command:?}"))?;
        let input = child.stdin.take().context("no stdin")?;
        let output = BufReader::new(child.stdout.take().context("no stdout")?);
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in output.lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            name: command.to_string(),
            command: command.to_string(),
            child,
            input,
            lines,
            timeout,
        };
        engine.send("ubgi")?;
        loop {
            let line = engine.read()?;
            if let Some(name) = line.strip_prefix("id name ") {
                engine.name = name.trim().to_string();
            } else if line.trim() == "readyok" {
                return Ok(engine);
            } else if line.trim() == "sorry" {
                bail!("{command:?} answered `ubgi` with `sorry`");
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .with_context(|| format!("{:?} stopped reading", self.command))
    }

    fn read(&mut self) -> Result<String> {
        match self.lines.recv_timeout(self.timeout) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => bail!(
                "{:?} gave no answer in {:.0} s",
                self.command,
                self.timeout.as_secs_f64()
            ),
            Err(RecvTimeoutError::Disconnected) => bail!("{:?} stopped", self.command),
        }
    }

    /// The engine's answer to one XGID.
    fn ask(&mut self, xgid: &str) -> Result<String> {
        self.send(xgid)?;
        Ok(self.read()?.trim().to_string())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The XGID of a decision in `m`, as the driver sends it.
fn xgid_of(m: &Match) -> String {
    let (position, _) = id_view(m);
    let mut x = Xgid::from_gnubg(&position, &match_id(m));
    x.beaver = m.options().beavers;
    x.to_string()
}

/// Reads a UBGI play: from/to pairs separated by `/`, `-` or spaces; `bar` = 25, `off` = 0.
fn read_play(m: &Match, text: &str) -> Result<Action> {
    let Phase::Moving { roll } = m.phase() else {
        bail!("no roll to play");
    };
    let numbers = text
        .split(|c: char| c.is_whitespace() || c == '/' || c == '-')
        .filter(|t| !t.is_empty())
        .map(|t| match t {
            "bar" => Ok(25),
            "off" => Ok(0),
            _ => t.parse::<u8>().map_err(|_| anyhow!("{t:?} is not a point")),
        })
        .collect::<Result<Vec<u8>>>()?;
    if numbers.len() % 2 != 0 {
        bail!("a play is pairs of points, {} numbers found", numbers.len());
    }
    let hops: Vec<(u8, u8)> = numbers.chunks(2).map(|c| (c[0], c[1])).collect();
    let play = notation::play_from_hops(&m.position(), roll, &hops)?;
    Ok(Action::Play(play))
}

/// How one game ended, from the measured engine's side.
struct Outcome {
    /// Points won (negative: lost).
    points: i64,
    /// The side whose reply forfeited the game, with the reply and the XGID.
    forfeit: Option<(bool, String)>,
}

/// Plays one money game: `engine_white` says whether the measured engine has White.
fn play_game(
    engines: &mut [Engine; 2],
    engine_white: bool,
    options: Options,
    dice_seed: u64,
) -> Result<Outcome> {
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&dice_seed.to_le_bytes());
    seed[8..16].copy_from_slice(b"ubgi-dup");
    let mut dice = SeededDice::from_seed(seed);
    let mut m = Match::new(options);
    // engines[0] is the measured one.
    let index_of = |side: Side| usize::from((side == Side::White) != engine_white);
    loop {
        if let Some(chance) = m.roll_chance(&mut dice) {
            m.apply(&chance).map_err(|e| anyhow!("{e}"))?;
            continue;
        }
        let phase = m.phase();
        if phase == Phase::Over {
            let r = m.results().last().context("a finished game has a result")?;
            let points = i64::from(r.points);
            let ours = index_of(r.winner) == 0;
            return Ok(Outcome {
                points: if ours { points } else { -points },
                forfeit: None,
            });
        }
        if phase == Phase::BeforeRoll && !m.may_double() {
            m.apply(&Action::Roll).map_err(|e| anyhow!("{e}"))?;
            continue;
        }
        let actor = match phase {
            Phase::Doubled => m.turn().opposite(),
            _ => m.turn(),
        };
        let who = index_of(actor);
        let xgid = xgid_of(&m);
        let reply = engines[who].ask(&xgid)?;
        let action = match (phase, reply.as_str()) {
            (Phase::BeforeRoll, "double") => Ok(Action::Double),
            (Phase::BeforeRoll, "roll") => Ok(Action::Roll),
            (Phase::Doubled, "take") => Ok(Action::Take),
            (Phase::Doubled, "drop" | "pass") => Ok(Action::Drop),
            (Phase::Moving { .. }, _) => read_play(&m, &reply),
            _ => Err(anyhow!("not an answer here")),
        };
        match action.and_then(|a| m.apply(&a).map_err(|e| anyhow!("{e}"))) {
            Ok(()) => {}
            Err(e) => {
                let (cube, _) = m.cube();
                let points = i64::from(cube);
                return Ok(Outcome {
                    points: if who == 0 { -points } else { points },
                    forfeit: Some((who == 0, format!("{reply:?} to {xgid}: {e}"))),
                });
            }
        }
    }
}

/// Runs `tablier bench ubgi`.
pub fn run(args: &BenchUbgiArgs) -> Result<()> {
    let timeout = Duration::from_secs_f64(args.timeout.max(0.1));
    let engine_cmd = match &args.engine {
        Some(c) => c.clone(),
        None => format!(
            "'{}' ubgi",
            std::env::current_exe()?
                .display()
                .to_string()
                .replace('\'', "'\\''")
        ),
    };
    let mut engines = [
        Engine::start(&engine_cmd, timeout)?,
        Engine::start(&args.opponent, timeout)?,
    ];
    let options = Options {
        cube: !args.no_cube,
        ..Options::money()
    };
    let pairs = args.games.div_ceil(2).max(1);
    println!(
        "{} against {}: {} money games{}, duplicate dice from seed {}",
        engines[0].name,
        engines[1].name,
        pairs * 2,
        if args.no_cube {
            " without the cube"
        } else {
            " with the cube (Jacoby rule)"
        },
        args.seed
    );
    let bar = short_progress(pairs * 2, args.quiet, "games");
    let stop = interrupted();
    let mut pair_points: Vec<i64> = Vec::new();
    let (mut won, mut lost, mut forfeits) = (0u64, 0u64, [0u64; 2]);
    'pairs: for k in 0..pairs {
        let mut sum = 0;
        for engine_white in [true, false] {
            if stop.load(Ordering::Relaxed) {
                break 'pairs;
            }
            let o = play_game(&mut engines, engine_white, options, args.seed + k)?;
            if let Some((ours, why)) = &o.forfeit {
                forfeits[usize::from(!ours)] += 1;
                let who = &engines[usize::from(!ours)].name;
                bar.println(format!("forfeit by {who}: {why}"));
            }
            if o.points > 0 {
                won += 1;
            } else {
                lost += 1;
            }
            sum += o.points;
            bar.inc(1);
        }
        pair_points.push(sum);
        let n = pair_points.len() as f64;
        let total: i64 = pair_points.iter().sum();
        bar.set_message(format!("{:+.3} ppg", total as f64 / (2.0 * n)));
    }
    bar.finish_and_clear();
    let n = pair_points.len();
    if n == 0 {
        println!("no pair finished");
        return Ok(());
    }
    let total: i64 = pair_points.iter().sum();
    let means: Vec<f64> = pair_points.iter().map(|&p| p as f64 / 2.0).collect();
    let mean = total as f64 / (2 * n) as f64;
    let se = if n > 1 {
        let var = means.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        (var / n as f64).sqrt()
    } else {
        f64::NAN
    };
    println!(
        "{}: {} games ({n} duplicate pairs), won {won}, lost {lost}, points {total:+}, \
         {mean:+.3} ppg ± {se:.3} (standard error over the pairs)",
        engines[0].name,
        2 * n
    );
    if forfeits != [0, 0] {
        println!(
            "forfeits: {} by {}, {} by {}",
            forfeits[0], engines[0].name, forfeits[1], engines[1].name
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablier_backgammon::Roll;

    #[test]
    fn reads_plays_in_every_separator() {
        let mut m = Match::new(Options::money());
        m.apply(&Action::OpeningRoll { white: 6, black: 5 })
            .unwrap();
        for text in ["24/18 18/13", "24 18 18 13", "24-18 18-13"] {
            let Action::Play(p) = read_play(&m, text).unwrap() else {
                panic!("a play");
            };
            let mut want = tablier_backgammon::Position::start();
            want = want
                .legal_plays(Roll::new(6, 5).unwrap())
                .into_iter()
                .find(|p| notation::format_play(p) == "24/13")
                .unwrap()
                .result;
            assert_eq!(p.result, want, "{text}");
        }
        assert!(read_play(&m, "24/18 18").is_err());
        assert!(read_play(&m, "24/20").is_err());
        assert!(read_play(&m, "x/y").is_err());
    }

    #[test]
    fn the_xgid_of_an_opening_roll() {
        let mut m = Match::new(Options::money());
        m.apply(&Action::OpeningRoll { white: 3, black: 1 })
            .unwrap();
        let x = Xgid::parse(&xgid_of(&m)).unwrap();
        assert_eq!(x.position_on_turn(), tablier_backgammon::Position::start());
        assert_eq!(x.dice, tablier_backgammon::xgid::XgDice::Rolled(3, 1));
    }
}
