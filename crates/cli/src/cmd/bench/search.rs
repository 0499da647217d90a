//! `tablier bench search`: the engine's search speed from the start position, against
//! dame-rs.

use std::process::Command;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use tablier_draughts::{with_board, Position, Variant};
use tablier_draughts_engine::{Engine, Limits};

/// `tablier bench search`: search speed from the start position, against dame-rs.
#[derive(Args)]
pub struct BenchSearchArgs {
    /// The variant.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Depth of the search from the start position.
    #[arg(long, default_value_t = 14)]
    depth: u32,
    /// The dame-rs program (PyPI `dame-rs`) to run on the same position in the same run
    /// (international only); `none` to skip it.
    #[arg(long, default_value = ".venv/bin/dame")]
    dame: String,
    /// Positions to search instead of the start (one FEN a line, `#` comments): each is searched
    /// to `--depth` in turn without clearing the hash table, as in a game, and the nodes of all
    /// of them are added up (a deterministic count: it compares search or table changes by the
    /// work they need for the same depth, whatever the machine's load).
    #[arg(long)]
    positions: Option<std::path::PathBuf>,
    /// The hash table's size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

/// Runs `tablier bench search`.
pub fn run(args: &BenchSearchArgs) -> Result<()> {
    let variant = Variant::by_name(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant {}", args.variant))?;
    if !(1..=40).contains(&args.depth) {
        bail!("--depth must be between 1 and 40");
    }
    if !(1..=65_536).contains(&args.hash) {
        bail!("--hash must be between 1 and 65536 MiB");
    }
    if let Some(path) = &args.positions {
        return run_positions(variant, path, args.depth, args.hash);
    }
    let (nodes, secs) = with_board!(variant.board, G => {
        let pos = Position::<G>::start(variant)?;
        let mut engine = Engine::<G>::new(variant, args.hash);
        let r = engine.search(&pos, &[], &Limits::depth(args.depth), &mut |i| {
            eprintln!("  depth {:>2}  nodes {:>11}  {:.3} s", i.depth, i.nodes, i.time.as_secs_f64());
        });
        (r.nodes, r.time.as_secs_f64())
    });
    println!(
        "tablier: {} from the start to depth {}: {nodes} nodes in {secs:.3} s, {:.2} M nodes/s",
        variant.name,
        args.depth,
        nodes as f64 / secs / 1e6
    );
    if args.dame == "none" || variant.name != "international" {
        return Ok(());
    }
    let out = Command::new(&args.dame)
        .args([
            "search",
            "--depth",
            &args.depth.to_string(),
            "--time",
            "600",
        ])
        .output()
        .with_context(|| format!("running {} (see scripts/python-env.sh)", args.dame))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with("depth"))
        .ok_or_else(|| anyhow!("dame printed no iteration"))?;
    let field = |name: &str| -> Option<f64> {
        let words: Vec<&str> = last.split_whitespace().collect();
        let i = words.iter().position(|w| *w == name)?;
        words.get(i + 1)?.trim_end_matches('s').parse().ok()
    };
    let (Some(d_nodes), Some(d_secs)) = (field("nodes"), field("time")) else {
        bail!("cannot read dame's line: {last}");
    };
    println!(
        "dame-rs: the same position to depth {}: {d_nodes} nodes in {d_secs:.3} s, {:.2} M nodes/s",
        args.depth,
        d_nodes / d_secs / 1e6
    );
    println!(
        "ratio: {:.1}x the nodes per second, {:.1}x faster to depth {} (each engine counts nodes its own way)",
        (nodes as f64 / secs) / (d_nodes / d_secs),
        d_secs / secs,
        args.depth
    );
    Ok(())
}

/// `--positions`: every position of the file searched to `depth` in turn, one table for all.
fn run_positions(
    variant: &'static Variant,
    path: &std::path::Path,
    depth: u32,
    hash: usize,
) -> Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if lines.is_empty() {
        bail!("{}: no position", path.display());
    }
    let (nodes, secs) = with_board!(variant.board, G => {
        let mut positions = Vec::with_capacity(lines.len());
        for (n, line) in &lines {
            let pos = tablier_draughts::fen::parse::<G>(variant, line)
                .map_err(|e| anyhow!("{}:{n}: {e}", path.display()))?;
            positions.push(pos);
        }
        let mut engine = Engine::<G>::new(variant, hash);
        let (mut nodes, mut secs) = (0u64, 0f64);
        for pos in &positions {
            if pos.legal_moves().is_empty() {
                continue;
            }
            let r = engine.search(pos, &[], &Limits::depth(depth), &mut |_| {});
            nodes += r.nodes;
            secs += r.time.as_secs_f64();
        }
        (nodes, secs)
    });
    println!(
        "tablier: {} positions of {} to depth {depth}, hash {hash} MiB: {nodes} nodes in {secs:.3} s, {:.2} M nodes/s",
        lines.len(),
        path.display(),
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
