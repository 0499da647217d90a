//! `tablier bench perft`: move generation from the international start, against dame-rs.

use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use clap::Args;
use tablier_draughts::{Geometry, Position, G10, INTERNATIONAL};

use crate::common::cpu_seconds;

/// `tablier bench perft`.
#[derive(Args)]
pub struct BenchPerftArgs {
    /// Depth in plies.
    #[arg(long, default_value_t = 9)]
    depth: u32,
    /// Python interpreter with the `dame-rs` package (PyPI); see scripts/bench-perft.sh.
    #[arg(long)]
    python: Option<String>,
}

/// Runs `tablier bench perft`.
pub fn run(args: &BenchPerftArgs) -> Result<()> {
    let (depth, python) = (args.depth, args.python.as_deref());
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
