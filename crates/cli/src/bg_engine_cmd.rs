//! `tablier train backgammon`, `tablier rollout`, `tablier analyse match.mat`,
//! `tablier gnubg-external` and `tablier bench backgammon-eval`: the backgammon engine's commands.

use std::path::Path;

use anyhow::{bail, Result};
use clap::Args;

/// `tablier train backgammon`.
#[derive(Args)]
pub struct TrainArgs {}

/// `tablier rollout`.
#[derive(Args)]
pub struct RolloutArgs {}

/// Options of `tablier analyse` for backgammon matches (`--ply`).
#[derive(Args)]
pub struct AnalyseOpts {}

/// `tablier gnubg-external`.
#[derive(Args)]
pub struct ExternalArgs {}

/// `tablier bench backgammon-eval`.
#[derive(Args)]
pub struct BenchEvalArgs {}

/// Runs `tablier train backgammon`.
pub fn train(_args: &TrainArgs) -> Result<()> {
    bail!("the backgammon engine is not built yet (issue 8)")
}

/// Runs `tablier rollout`.
pub fn rollout(_args: &RolloutArgs) -> Result<()> {
    bail!("the backgammon engine is not built yet (issue 8)")
}

/// Runs `tablier analyse` on a .mat file.
pub fn analyse(_file: &Path, _output: Option<&Path>, _opts: &AnalyseOpts) -> Result<()> {
    bail!("the backgammon engine is not built yet (issue 8)")
}

/// Runs `tablier gnubg-external`.
pub fn external(_args: &ExternalArgs) -> Result<()> {
    bail!("the backgammon engine is not built yet (issue 8)")
}

/// Runs `tablier bench backgammon-eval`.
pub fn bench_eval(_args: &BenchEvalArgs) -> Result<()> {
    bail!("the backgammon engine is not built yet (issue 8)")
}
