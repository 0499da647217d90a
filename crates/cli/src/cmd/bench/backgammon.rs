//! `tablier bench backgammon-plays` and `tablier bench backgammon-eval`: legal-play
//! generation and 0-ply evaluation against GNU Backgammon's (PyPI gnubg-nn), and money games
//! against gnubg 0-ply.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablier_backgammon::{notation, Position, Roll};
use tablier_backgammon_engine::eval::{terminal_for_winner, Evaluator, Scratch};
use tablier_backgammon_engine::search;

use crate::cmd::backgammon::evaluator;
use crate::common::{interrupted, progress};

/// `tablier bench backgammon-plays`.
#[derive(Args)]
pub struct BenchPlaysArgs {
    /// Positions in the set.
    #[arg(long, default_value_t = 20_000)]
    positions: usize,
    /// Python interpreter with gnubg-nn (default `.venv/bin/python`).
    #[arg(long)]
    python: Option<String>,
}

/// `tablier bench backgammon-plays`: legal-play generation on a random-play position set,
/// against gnubg_nn's generator measured in the same run.
pub fn plays(args: &BenchPlaysArgs) -> Result<()> {
    let positions = args.positions;
    let python = args
        .python
        .clone()
        .unwrap_or_else(|| ".venv/bin/python".into());
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/bench_bg_plays.py");
    let set = std::env::temp_dir().join(format!("tablier-bg-bench-{}.txt", std::process::id()));
    let out = std::process::Command::new(&python)
        .arg(&script)
        .args([positions.to_string(), "1".into()])
        .arg(&set)
        .output()
        .with_context(|| {
            format!("cannot run {python} (make it with `bash scripts/python-env.sh`)")
        })?;
    if !out.status.success() {
        bail!(
            "the gnubg_nn peer did not run: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let mut f = text.split_whitespace();
    let n: usize = f
        .next()
        .ok_or_else(|| anyhow!("no output from the peer"))?
        .parse()?;
    let their_cpu: f64 = f
        .next()
        .ok_or_else(|| anyhow!("no time from the peer"))?
        .parse()?;
    let cases: Vec<(Position, Roll)> = std::fs::read_to_string(&set)?
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let p = Position::from_position_id(w[0])?;
            let r = Roll::new(w[1].parse()?, w[2].parse()?).ok_or_else(|| anyhow!("bad roll"))?;
            Ok((p, r))
        })
        .collect::<Result<_>>()?;
    let _ = std::fs::remove_file(&set);
    if cases.len() != n {
        bail!("the peer wrote {} positions, said {n}", cases.len());
    }
    // Best of many passes over two seconds (wall clock per pass: a pass is too short for the
    // CPU clock's ticks), as the peer takes its best pass.
    let mut buf = Vec::with_capacity(64);
    let mut plays = 0usize;
    let mut best = f64::INFINITY;
    let wall = Instant::now();
    while wall.elapsed().as_secs_f64() < 2.0 {
        let t = Instant::now();
        plays = 0;
        for (p, r) in &cases {
            p.legal_plays_into(*r, &mut buf);
            plays += buf.len();
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    let ours = n as f64 / best;
    let theirs = n as f64 / their_cpu;
    println!(
        "tablier: {n} positions x rolls ({plays} plays) in {best:.4} s (best pass): {:.0} k positions/s",
        ours / 1e3
    );
    println!(
        "gnubg_nn.moves (PyPI gnubg-nn, through Python): {their_cpu:.4} CPU s: {:.0} k positions/s",
        theirs / 1e3
    );
    println!("ratio tablier / gnubg_nn: {:.1}x", ours / theirs);
    Ok(())
}

/// `tablier bench backgammon-eval`.
#[derive(Args)]
pub struct BenchEvalArgs {
    /// Positions of the speed set (drawn by seeded random play).
    #[arg(long, default_value_t = 20_000)]
    positions: usize,
    /// The Python that has gnubg-nn (made by `bash scripts/python-env.sh`).
    #[arg(long, default_value = ".venv/bin/python")]
    python: String,
    /// Then play this many cubeless money games against gnubg 0-ply (duplicate dice: each
    /// dice stream twice, sides swapped) and report points per game with its standard error.
    #[arg(long, default_value_t = 0)]
    versus_gnubg: u32,
    /// Look-ahead of tablier in those games (0, 1 or 2 plies).
    #[arg(long, default_value_t = 0)]
    plies: u32,
    /// Seed of the dice of those games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Weights to use instead of the shipped ones.
    #[arg(long)]
    weights: Option<PathBuf>,
}

/// GNU Backgammon's nets as a peer: a Python script driving PyPI gnubg-nn.
const GNUBG_PEER: &str = include_str!("../../../../backgammon-engine/oracle/gnubg_peer.py");

/// Positions met in seeded random play (side on roll), none of them finished.
fn random_play_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut plays = Vec::new();
    let mut pos = Position::start();
    while out.len() < count {
        out.push(pos);
        let roll = Roll::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).expect("dice");
        pos.legal_plays_into(roll, &mut plays);
        let next = plays[rng.gen_range(0..plays.len())].result;
        pos = if next.mover_off() == 15 {
            Position::start()
        } else {
            next.flip()
        };
    }
    out
}

/// Runs `tablier bench backgammon-eval`.
pub fn eval(args: &BenchEvalArgs) -> Result<()> {
    let ev = evaluator(args.weights.as_deref())?;
    if args.positions > 0 {
        bench_speed(&ev, args)?;
    }
    if args.versus_gnubg > 0 {
        versus_gnubg(&ev, args)?;
    }
    Ok(())
}

fn bench_speed(ev: &Evaluator, args: &BenchEvalArgs) -> Result<()> {
    let set = random_play_positions(args.positions, 7);
    let file = std::env::temp_dir().join(format!("tablier-bg-eval-{}.txt", std::process::id()));
    let ids: String = set.iter().map(|p| p.position_id() + "\n").collect();
    std::fs::write(&file, ids)?;
    let out = std::process::Command::new(&args.python)
        .args(["-c", GNUBG_PEER, "eval"])
        .arg(&file)
        .output()
        .with_context(|| {
            format!(
                "cannot run {} (make it with `bash scripts/python-env.sh`)",
                args.python
            )
        });
    let _ = std::fs::remove_file(&file);
    let out = out?;
    if !out.status.success() {
        bail!(
            "the gnubg_nn peer did not run: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [n, cpu] = fields[..] else {
        bail!("unexpected output from the peer: {text:?}");
    };
    let (n, their_cpu): (usize, f64) = (n.parse()?, cpu.parse()?);
    // Median of five passes (ours has no cache; gnubg's is defeated by one pass only).
    let mut s = Scratch::default();
    let mut times = Vec::new();
    let mut sink = 0.0f32;
    for _ in 0..5 {
        let t = Instant::now();
        for p in &set {
            sink += ev.probs(p, &mut s)[0];
        }
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let ours = set.len() as f64 / times[2];
    let theirs = n as f64 / their_cpu;
    println!(
        "tablier 0-ply ({}-{}-5 nets, bear-off database): {} positions in {:.4} s (median of 5): {:.0} k positions/s (checksum {sink:.1})",
        ev.nets[0].inputs(),
        ev.nets[0].hidden(),
        set.len(),
        times[2],
        ours / 1e3
    );
    println!(
        "gnubg_nn.probabilities 0-ply (PyPI gnubg-nn, through Python, one pass): {their_cpu:.4} CPU s: {:.0} k positions/s",
        theirs / 1e3
    );
    println!("ratio tablier / gnubg_nn: {:.2}x", ours / theirs);
    Ok(())
}

/// gnubg 0-ply as an opponent, through the peer script.
struct GnubgPlayer {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
}

impl GnubgPlayer {
    fn start(python: &str) -> Result<GnubgPlayer> {
        let mut child = std::process::Command::new(python)
            .args(["-c", GNUBG_PEER, "play"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot run {python}"))?;
        let input = child.stdin.take().context("no stdin")?;
        let output = std::io::BufReader::new(child.stdout.take().context("no stdout")?);
        Ok(GnubgPlayer {
            child,
            input,
            output,
        })
    }

    fn play(&mut self, pos: &Position, roll: Roll) -> Result<tablier_backgammon::Play> {
        use std::io::{BufRead, Write};
        let (a, b) = roll.high_low();
        writeln!(self.input, "{} {a} {b}", pos.position_id())?;
        self.input.flush()?;
        let mut line = String::new();
        if self.output.read_line(&mut line)? == 0 {
            bail!("the gnubg peer stopped");
        }
        let nums: Vec<u8> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<std::result::Result<_, _>>()?;
        let hops: Vec<(u8, u8)> = nums.chunks(2).map(|c| (c[0], c[1])).collect();
        notation::play_from_hops(pos, roll, &hops).map_err(|e| anyhow::anyhow!("gnubg's play: {e}"))
    }
}

impl Drop for GnubgPlayer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Points won by tablier in one cubeless money game against gnubg.
fn duel_game(
    ev: &Evaluator,
    gnubg: &mut GnubgPlayer,
    plies: u32,
    dice_seed: u64,
    tablier_first: bool,
    s: &mut Scratch,
) -> Result<i32> {
    let mut rng = ChaCha8Rng::seed_from_u64(dice_seed);
    let mut pos = Position::start();
    let mut ours = tablier_first;
    let mut plays = Vec::new();
    let mut first = true;
    loop {
        let roll = tablier_backgammon_engine::train::throw(&mut rng, first);
        first = false;
        let result = if ours {
            let lvl = search::Level { plies, noise: 0.0 };
            let (i, _) = search::choose(ev, &pos, roll, lvl, &mut rng, &mut plays, s);
            plays[i].result
        } else {
            gnubg.play(&pos, roll)?.result
        };
        if result.mover_off() == 15 {
            let t = terminal_for_winner(&result);
            let pts = 1 + t[1] as i32 + t[2] as i32;
            return Ok(if ours { pts } else { -pts });
        }
        pos = result.flip();
        ours = !ours;
    }
}

fn versus_gnubg(ev: &Evaluator, args: &BenchEvalArgs) -> Result<()> {
    let mut gnubg = GnubgPlayer::start(&args.python)?;
    let mut s = Scratch::default();
    let pairs = args.versus_gnubg.div_ceil(2);
    let stop = interrupted();
    let bar = progress(u64::from(pairs) * 2, false, "games");
    let started = Instant::now();
    let mut results: Vec<f64> = Vec::new();
    let mut total = 0i64;
    for k in 0..pairs {
        if stop.load(Ordering::Relaxed) {
            bar.abandon_with_message("interrupted");
            break;
        }
        let dice_seed = args.seed.wrapping_mul(1_000_003).wrapping_add(u64::from(k));
        let a = duel_game(ev, &mut gnubg, args.plies, dice_seed, true, &mut s)?;
        let b = duel_game(ev, &mut gnubg, args.plies, dice_seed, false, &mut s)?;
        total += i64::from(a + b);
        results.push(f64::from(a + b) / 2.0);
        bar.inc(2);
        bar.set_message(format!(
            "{:+.3} ppg",
            total as f64 / (2 * results.len()) as f64
        ));
    }
    bar.finish_and_clear();
    let n = results.len() as f64;
    if results.is_empty() {
        bail!("no game played");
    }
    let mean = results.iter().sum::<f64>() / n;
    let var = results.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    println!(
        "tablier {}-ply vs gnubg 0-ply (gnubg-nn), cubeless money, duplicate dice: {} games, {:+.3} ± {:.3} points per game (standard error over {} dice pairs), {:.0} s",
        args.plies,
        2 * results.len(),
        mean,
        (var / n).sqrt(),
        results.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
