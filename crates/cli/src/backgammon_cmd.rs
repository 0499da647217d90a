//! `tablier backgammon ...` and the backgammon benchmark.

use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use clap::Subcommand;
use serde::Serialize;
use tablier_backgammon::{notation, Position, Roll};

/// `tablier backgammon ...`.
#[derive(Subcommand)]
pub enum BackgammonCommand {
    /// Every legal play of a roll, in gnubg's notation, with the Position ID it leads to.
    Plays {
        /// gnubg Position ID of the position, from the side on roll (a GNUbgID
        /// `PositionID:MatchID` is accepted too).
        #[arg(long)]
        id: String,
        /// The roll, e.g. `3-1` (also `31` or `3 1`).
        #[arg(long)]
        dice: String,
        /// One JSON object per line and play instead of text (nothing when no play is legal).
        #[arg(long)]
        json: bool,
    },
}

/// Reads a roll written `3-1`, `31`, `3 1` or `3,1`.
pub fn parse_roll(text: &str) -> Result<Roll> {
    let digits: Vec<u8> = text
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | ',' | '/'))
        .map(|c| {
            c.to_digit(10)
                .map(|d| d as u8)
                .ok_or_else(|| anyhow!("{text:?} is not a roll: write two dice like 3-1"))
        })
        .collect::<Result<_>>()?;
    match digits[..] {
        [a, b] => Roll::new(a, b).ok_or_else(|| anyhow!("{text:?}: dice go from 1 to 6")),
        _ => bail!("{text:?} is not a roll: write two dice like 3-1"),
    }
}

/// Reads a position from a Position ID or a GNUbgID.
fn parse_position(id: &str) -> Result<Position> {
    let pid = id.trim().split(':').next().unwrap_or_default();
    Position::from_position_id(pid).with_context(|| format!("bad Position ID {id:?}"))
}

#[derive(Serialize)]
struct PlayJson {
    /// gnubg's text of the play.
    play: String,
    /// `[from, to]` per die played, mover's numbering (25 = bar, 0 = off).
    hops: Vec<[u8; 2]>,
    /// Blots hit.
    hits: usize,
    /// The position after the play, with the opponent on roll.
    position_id: String,
}

/// Runs a `tablier backgammon` command.
pub fn run(cmd: BackgammonCommand) -> Result<()> {
    match cmd {
        BackgammonCommand::Plays { id, dice, json } => {
            let position = parse_position(&id)?;
            let roll = parse_roll(&dice)?;
            let plays = position.legal_plays(roll);
            if plays.len() == 1 && plays[0].hops().is_empty() {
                if !json {
                    println!("no legal play: no number of {roll} can be played, the turn passes");
                }
                return Ok(());
            }
            let rows: Vec<PlayJson> = plays
                .iter()
                .map(|p| PlayJson {
                    play: notation::format_play(p),
                    hops: p.hops().iter().map(|h| [h.from, h.to]).collect(),
                    hits: p.hops().iter().filter(|h| h.hit).count(),
                    // The side to move after the play is the opponent: gnubg encodes from there.
                    position_id: p.result.flip().position_id(),
                })
                .collect();
            if json {
                for r in &rows {
                    println!("{}", serde_json::to_string(r)?);
                }
            } else {
                let width = rows.iter().map(|r| r.play.len()).max().unwrap_or(0);
                for r in &rows {
                    println!("{:width$}  {}", r.play, r.position_id);
                }
                println!("{} legal plays of {roll}", rows.len());
            }
            Ok(())
        }
    }
}

/// `tablier bench backgammon-plays`: legal-play generation on a random-play position set,
/// against gnubg_nn's generator measured in the same run.
pub fn bench_plays(positions: usize, python: Option<&str>) -> Result<()> {
    let python = python
        .map(str::to_owned)
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
