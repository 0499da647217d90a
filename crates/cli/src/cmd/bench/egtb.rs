//! `tablier bench egtb`: what solving the endgame tables costs.

use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use clap::Args;
use tablier_draughts::{with_board, Variant};
use tablier_draughts_engine::Tables;

/// `tablier bench egtb`: what solving the endgame tables costs.
#[derive(Args)]
pub struct BenchEgtbArgs {
    /// The variant.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Pieces on the board at most.
    #[arg(long, default_value_t = 3)]
    pieces: u32,
}

/// Runs `tablier bench egtb`.
pub fn run(args: &BenchEgtbArgs) -> Result<()> {
    let variant = Variant::by_name(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant {}", args.variant))?;
    if !(2..=4).contains(&args.pieces) {
        bail!("--pieces must be 2, 3 or 4");
    }
    let start = Instant::now();
    let bar = indicatif::ProgressBar::new(0);
    let t = with_board!(variant.board, G => Tables::generate::<G>(variant, args.pieces, &mut |done, all| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    }));
    bar.finish_and_clear();
    let (w, d, l) = t.counts();
    println!(
        "{} up to {} pieces: {} positions indexed ({} legal: {w} won, {d} drawn, {l} lost for the side to move), solved in {:.1} s, {:.1} MiB at one byte each",
        variant.name,
        args.pieces,
        t.len(),
        w + d + l,
        start.elapsed().as_secs_f64(),
        t.len() as f64 / 1048576.0
    );
    Ok(())
}
