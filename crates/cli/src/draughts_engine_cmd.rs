//! `tablier hub`, `tablier dxp`, `tablier match`, `tablier analyse game.pdn`,
//! `tablier train draughts` and `tablier bench search`: the draughts engine's commands.

use std::path::Path;

use anyhow::{bail, Result};
use clap::Args;

pub use crate::draughts_protocol::{dxp, hub, run_match, DxpArgs, HubArgs, MatchArgs};

/// Options of `tablier analyse` for draughts games (`--time`, `--depth`).
#[derive(Args)]
pub struct AnalyseOpts {}

/// `tablier train draughts`: tuning the evaluation.
#[derive(Args)]
pub struct TrainArgs {}

/// `tablier bench search`.
#[derive(Args)]
pub struct BenchSearchArgs {}

/// Runs `tablier analyse` on a PDN file.
pub fn analyse(_file: &Path, _output: Option<&Path>, _opts: &AnalyseOpts) -> Result<()> {
    bail!("the draughts engine is not built yet (issue 7)")
}

/// Runs `tablier train draughts`.
pub fn train(_args: &TrainArgs) -> Result<()> {
    bail!("the draughts engine is not built yet (issue 7)")
}

/// Runs `tablier bench search`.
pub fn bench_search(_args: &BenchSearchArgs) -> Result<()> {
    bail!("the draughts engine is not built yet (issue 7)")
}
