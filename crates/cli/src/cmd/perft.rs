//! `tablier perft`: the leaves of the legal-move tree, with nodes per second.

use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{bail, Result};
use clap::Args;
use serde::Serialize;
use tablier_draughts::{fen, notation, with_board, Geometry, Position, Variant};

use crate::cmd::draughts::{position, variant};
use crate::common::{interrupted, short_progress};

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
pub fn run(a: &PerftArgs) -> Result<()> {
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
    let stop = interrupted();
    let t = Instant::now();
    let mut divide = Vec::new();
    let mut nodes = 0;
    if a.depth == 0 {
        nodes = 1;
    } else {
        // One first move at a time, so that Ctrl-C stops between subtrees and progress shows.
        let moves = p.legal_moves();
        let bar = short_progress(moves.len() as u64, a.json, "");
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
