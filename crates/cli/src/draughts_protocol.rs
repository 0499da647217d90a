//! The draughts engine at the edge: `tablier hub` (Hub protocol on stdin/stdout), `tablier dxp`
//! (DamExchange over TCP, initiator or follower) and `tablier match` (engine against engine).

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

/// Runs `tablier hub`.
pub fn hub(_args: &HubArgs) -> Result<()> {
    bail!("the Hub protocol is not built yet (issue 7)")
}

/// Runs `tablier dxp`.
pub fn dxp(_args: &DxpArgs) -> Result<()> {
    bail!("DXP is not built yet (issue 7)")
}

/// Runs `tablier match`.
pub fn run_match(_args: &MatchArgs) -> Result<()> {
    bail!("the match runner is not built yet (issue 7)")
}
