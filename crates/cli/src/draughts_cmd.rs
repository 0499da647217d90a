//! `tablier perft`, `tablier draughts ...` and `tablier bench perft`.

use anyhow::{anyhow, bail, Result};
use clap::{Args, Subcommand};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tablier_draughts::{fen, notation, with_board, Geometry, Position, Variant, VARIANTS};

/// An error already reported to the user in full (exit code 1, not a usage error).
#[derive(Debug)]
pub struct Failed;
impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("failed")
    }
}
impl std::error::Error for Failed {}

fn variant(name: &str) -> Result<&'static Variant> {
    Variant::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
        anyhow!("unknown variant {name:?} (known: {})", names.join(", "))
    })
}

fn position<G: Geometry>(v: &'static Variant, fen_text: Option<&str>) -> Result<Position<G>> {
    Ok(match fen_text {
        Some(f) => fen::parse(v, f).map_err(|e| anyhow!("bad FEN {f:?}: {e}"))?,
        None => Position::start(v)?,
    })
}

/// Arguments of `tablier perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Variant: international, brazilian, canadian, english, french-old.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Position as FEN (default: the variant's start).
    #[arg(long)]
    fen: Option<String>,
    /// Depth in plies (french-old: in actions, a huff or a force being one).
    #[arg(long)]
    depth: u32,
    /// Print the count below each legal move.
    #[arg(long)]
    divide: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct PerftReport {
    variant: &'static str,
    fen: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    divide: Vec<(String, u64)>,
}

/// `tablier perft`.
pub fn perft(a: &PerftArgs) -> Result<()> {
    let v = variant(&a.variant)?;
    let report = with_board!(v.board, G => perft_on::<G>(v, a)?);
    if a.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        for (m, n) in &report.divide {
            println!("{m}: {n}");
        }
        println!(
            "perft({}) = {} nodes in {:.3} s ({:.1} M nodes/s)",
            report.depth,
            report.nodes,
            report.seconds,
            report.nodes_per_second / 1e6
        );
    }
    Ok(())
}

fn perft_on<G: Geometry>(v: &'static Variant, a: &PerftArgs) -> Result<PerftReport> {
    let p: Position<G> = position(v, a.fen.as_deref())?;
    let stop = stop_flag();
    let t = Instant::now();
    let mut divide = Vec::new();
    let mut nodes = 0;
    if a.depth == 0 {
        nodes = 1;
    } else {
        // One first move at a time, so that Ctrl-C stops between subtrees and progress shows.
        let moves = p.legal_moves();
        let bar = progress(moves.len() as u64, a.json);
        for m in &moves {
            if stop.load(Ordering::Relaxed) {
                bail!("interrupted after {nodes} nodes");
            }
            let n = if tablier_draughts::french::is_french(v) {
                // Old French rules: the action tree (moves, huffs, forces), crate::french.
                tablier_draughts::french::perft_after(&p, m, a.depth - 1)
            } else {
                let mut q = p;
                q.play_unchecked(m);
                q.perft(a.depth - 1)
            };
            nodes += n;
            if a.divide {
                divide.push((notation::format(&p, m), n));
            }
            bar.inc(1);
        }
        bar.finish_and_clear();
    }
    let seconds = t.elapsed().as_secs_f64();
    Ok(PerftReport {
        variant: v.name,
        fen: fen::write(&p),
        depth: a.depth,
        nodes,
        seconds,
        nodes_per_second: nodes as f64 / seconds.max(1e-9),
        divide,
    })
}

/// A flag set by Ctrl-C.
fn stop_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let f = flag.clone();
    // A second handler cannot be installed; the first one is enough for one command.
    let _ = ctrlc::set_handler(move || f.store(true, Ordering::Relaxed));
    flag
}

fn progress(len: u64, quiet: bool) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} [{elapsed}]")
            .expect("valid template"),
    );
    bar
}

/// `tablier draughts ...`.
#[derive(Subcommand)]
pub enum DraughtsCommand {
    /// List the legal moves of a position.
    Moves {
        /// Variant: international, brazilian, canadian, english, french-old (every legal
        /// move, captures being optional).
        #[arg(long, default_value = "international")]
        variant: String,
        /// Position as FEN (default: the variant's start).
        #[arg(long)]
        fen: Option<String>,
        /// One JSON object per move: notation, path, captured squares.
        #[arg(long)]
        json: bool,
    },
    /// Replay every game of a PDN file against the rules.
    Replay {
        /// The PDN file.
        file: std::path::PathBuf,
        /// Variant for games without a GameType tag.
        #[arg(long, default_value = "international")]
        variant: String,
    },
}

#[derive(Serialize)]
struct MoveJson {
    notation: String,
    from: u8,
    to: u8,
    path: Vec<u8>,
    captured: Vec<u8>,
    promotes: bool,
}

/// Runs a `tablier draughts` subcommand.
pub fn run(cmd: DraughtsCommand) -> Result<()> {
    match cmd {
        DraughtsCommand::Moves {
            variant: name,
            fen: f,
            json,
        } => {
            let v = variant(&name)?;
            with_board!(v.board, G => moves::<G>(v, f.as_deref(), json))
        }
        DraughtsCommand::Replay {
            file,
            variant: name,
        } => replay(&file, variant(&name)?),
    }
}

fn moves<G: Geometry>(v: &'static Variant, f: Option<&str>, json: bool) -> Result<()> {
    let p: Position<G> = position(v, f)?;
    for m in p.legal_moves() {
        let text = notation::format(&p, &m);
        if json {
            let path = if m.is_capture() {
                notation::capture_path(&p, &m)
            } else {
                vec![m.from(), m.to()]
            };
            let j = MoveJson {
                notation: text,
                from: m.from(),
                to: m.to(),
                path,
                captured: m.captured_squares(),
                promotes: p.is_promotion(&m),
            };
            println!("{}", serde_json::to_string(&j)?);
        } else {
            println!("{text}");
        }
    }
    Ok(())
}

/// `tablier bench ...`.
#[derive(Subcommand)]
pub enum BenchCommand {
    /// Perft from the international start, single-threaded, against dame-rs when it is installed.
    Perft {
        /// Depth in plies.
        #[arg(long, default_value_t = 9)]
        depth: u32,
        /// Python interpreter with the `dame-rs` package (PyPI); see scripts/bench-perft.sh.
        #[arg(long)]
        python: Option<String>,
    },
    /// The web server under load: concurrent games at human pace over WebSockets (loopback).
    Load(crate::load::LoadArgs),
    /// Backgammon legal-play generation on a random-play position set, against gnubg_nn.
    BackgammonPlays {
        /// Positions in the set.
        #[arg(long, default_value_t = 20_000)]
        positions: usize,
        /// Python interpreter with gnubg-nn (default `.venv/bin/python`).
        #[arg(long)]
        python: Option<String>,
    },
    /// Draughts search speed (nodes/second) from the start position, against dame-rs.
    Search(crate::draughts_protocol::BenchSearchArgs),
    /// What solving the draughts endgame tables costs (time, positions, memory).
    Egtb(crate::draughts_protocol::BenchEgtbArgs),
    /// Backgammon 0-ply evaluation speed (positions/second), against gnubg_nn's 0-ply.
    BackgammonEval(crate::bg_engine_cmd::BenchEvalArgs),
}

/// Runs a benchmark.
pub fn bench(cmd: BenchCommand) -> Result<()> {
    match cmd {
        BenchCommand::Perft { depth, python } => bench_perft(depth, python.as_deref()),
        BenchCommand::Load(args) => crate::load::run(&args),
        BenchCommand::BackgammonPlays { positions, python } => {
            crate::backgammon_cmd::bench_plays(positions, python.as_deref())
        }
        BenchCommand::Search(args) => crate::draughts_protocol::bench_search(&args),
        BenchCommand::Egtb(args) => crate::draughts_protocol::bench_egtb(&args),
        BenchCommand::BackgammonEval(args) => crate::bg_engine_cmd::bench_eval(&args),
    }
}

/// CPU seconds used by this process so far (user + system), from /proc.
pub(crate) fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn bench_perft(depth: u32, python: Option<&str>) -> Result<()> {
    use tablier_draughts::{G10, INTERNATIONAL};
    let p = Position::<G10>::start(&INTERNATIONAL)?;
    let c0 = cpu_seconds();
    let t = Instant::now();
    let nodes = p.perft(depth);
    let wall = t.elapsed().as_secs_f64();
    let cpu = match (c0, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => wall,
    };
    let ours = nodes as f64 / cpu;
    println!(
        "tablier: perft({depth}) = {nodes} in {cpu:.3} CPU s ({:.1} M nodes per CPU second)",
        ours / 1e6
    );
    // The same count with every move of the last ply played too, for comparison.
    let c1 = cpu_seconds();
    let t1 = Instant::now();
    let played = perft_playing_leaves(&p, depth);
    let cpu1 = match (c1, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => t1.elapsed().as_secs_f64(),
    };
    assert_eq!(played, nodes);
    println!(
        "tablier, every last-ply move played: {:.1} M nodes per CPU second",
        played as f64 / cpu1 / 1e6
    );
    let Some(py) = python else {
        println!("peer: not run (pass --python with an interpreter that has dame-rs)");
        return Ok(());
    };
    let script = format!(
        "import time, dame\nb = dame.Board()\nt = time.process_time()\nn = dame.perft(b, {depth})\nprint(n, time.process_time() - t)\n"
    );
    let out = std::process::Command::new(py)
        .arg("-c")
        .arg(&script)
        .output()?;
    if !out.status.success() {
        bail!(
            "dame-rs did not run: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut f = text.split_whitespace();
    let their_nodes: u64 = f
        .next()
        .ok_or_else(|| anyhow!("no output from dame-rs"))?
        .parse()?;
    let their_cpu: f64 = f
        .next()
        .ok_or_else(|| anyhow!("no time from dame-rs"))?
        .parse()?;
    if their_nodes != nodes {
        bail!("dame-rs counts {their_nodes} nodes, tablier {nodes}: the generators disagree");
    }
    let theirs = their_nodes as f64 / their_cpu;
    println!(
        "dame-rs: perft({depth}) = {their_nodes} in {their_cpu:.3} CPU s ({:.1} M nodes per CPU second)",
        theirs / 1e6
    );
    println!("ratio tablier / dame-rs: {:.2}x", ours / theirs);
    Ok(())
}

/// Perft that plays every move, the last ply's included (no counting of the last list).
fn perft_playing_leaves<G: Geometry>(p: &Position<G>, depth: u32) -> u64 {
    fn rec<G: Geometry>(
        p: &Position<G>,
        depth: u32,
        lists: &mut [Vec<tablier_draughts::Move<G>>],
    ) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (list, rest) = lists.split_first_mut().expect("one list per ply");
        p.generate(list);
        let mut n = 0;
        for m in list.iter() {
            let mut q = *p;
            q.play_unchecked(m);
            n += rec(&q, depth - 1, rest);
        }
        n
    }
    let mut lists: Vec<Vec<tablier_draughts::Move<G>>> =
        (0..=depth).map(|_| Vec::with_capacity(128)).collect();
    rec(p, depth, &mut lists)
}

fn replay(file: &std::path::Path, default: &'static Variant) -> Result<()> {
    use tablier_draughts::{pdn, replay};
    let text = crate::read_text(file)?;
    let (mut ok, mut bad) = (0, 0);
    for (i, g) in pdn::parse_pdn(&text).into_iter().enumerate() {
        let r = g
            .map_err(|e| e.to_string())
            .and_then(|g| replay::replay(&g, i + 1, default).map_err(|e| e.to_string()));
        match r {
            Ok(r) => {
                ok += 1;
                println!(
                    "game {}: {} moves ({}), final position {}",
                    i + 1,
                    r.plies,
                    r.variant,
                    r.final_fen
                );
            }
            Err(e) => {
                bad += 1;
                println!("{e}");
            }
        }
    }
    println!("{ok} games replayed, {bad} rejected");
    if bad > 0 {
        return Err(Failed.into());
    }
    Ok(())
}
