//! `tablier train trictrac` and `tablier trictrac hint`: the trictrac engine's commands.

use anyhow::{bail, Result};
use clap::Args;

/// `tablier train trictrac`.
#[derive(Args)]
pub struct TrainArgs {}

/// `tablier trictrac hint`.
#[derive(Args)]
pub struct HintArgs {}

/// Runs `tablier train trictrac`.
pub fn train(_args: &TrainArgs) -> Result<()> {
    bail!("the trictrac engine is not built yet (issue 9)")
}

/// Runs `tablier trictrac hint`.
pub fn hint(_args: &HintArgs) -> Result<()> {
    bail!("the trictrac engine is not built yet (issue 9)")
}
