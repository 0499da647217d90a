//! `tablier hub`, `tablier dxp`, `tablier match`, `tablier analyse game.pdn`,
//! `tablier train draughts` and `tablier bench search`: the draughts engine's commands.

use std::path::Path;

use anyhow::{bail, Result};
use clap::Args;

/// `tablier hub`: the engine over the Hub protocol on stdin/stdout.
#[derive(Args)]
pub struct HubArgs {}

/// `tablier dxp`: the engine over DXP (TCP).
#[derive(Args)]
pub struct DxpArgs {}

/// `tablier match`: engine against engine from balloted openings.
#[derive(Args)]
pub struct MatchArgs {}

/// Options of `tablier analyse` for draughts games (`--time`, `--depth`).
#[derive(Args)]
pub struct AnalyseOpts {}

/// `tablier train draughts`: tuning the evaluation.
#[derive(Args)]
pub struct TrainArgs {}

/// `tablier bench search`.
#[derive(Args)]
pub struct BenchSearchArgs {}

/// Runs `tablier hub`.
pub fn hub(_args: &HubArgs) -> Result<()> {
    bail!("the draughts engine is not built yet (issue 7)")
}

/// Runs `tablier dxp`.
pub fn dxp(_args: &DxpArgs) -> Result<()> {
    bail!("the draughts engine is not built yet (issue 7)")
}

/// Runs `tablier match`.
pub fn run_match(_args: &MatchArgs) -> Result<()> {
    bail!("the draughts engine is not built yet (issue 7)")
}

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
