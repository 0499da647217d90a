//! `tablier hub`: the draughts engine over the Hub protocol on standard input and output,
//! for draughts GUIs ([`tablier_draughts_protocol::hub::engine`]).

use anyhow::{anyhow, Result};
use clap::Args;
use tablier_draughts::Variant;
use tablier_draughts_protocol::hub;

/// `tablier hub`: the engine over the Hub protocol on stdin/stdout.
#[derive(Args)]
pub struct HubArgs {
    /// The variant until the GUI sets the `variant` parameter.
    #[arg(long, default_value = "international")]
    variant: String,
}

/// Runs `tablier hub`.
pub fn run(args: &HubArgs) -> Result<()> {
    let variant = Variant::by_name(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant {}", args.variant))?;
    hub::engine::run(
        variant,
        tablier_draughts_protocol::memory_limit(),
        std::io::stdin().lock(),
        std::io::stdout(),
    )?;
    Ok(())
}
