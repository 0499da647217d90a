//! `tablier hub`: the draughts engine over the Hub protocol on standard input and output,
//! for draughts GUIs ([`tablier_draughts_protocol::hub::engine`]). Its endgame tables
//! (`bb-size`, up to 4 pieces) are read from the cache that `tablier draughts tables` fills,
//! or solved and kept there the first time.

use std::sync::Arc;

use anyhow::{anyhow, Result};
use clap::Args;
use tablier_draughts::{with_board, Variant};
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
        Arc::new(|v: &'static Variant, pieces: u32| {
            // Quiet: a GUI shows what the engine writes to stderr; a damaged cache file is
            // still reported (and solved again).
            let t = with_board!(v.board, G => crate::cmd::draughts::endgame_tables::<G>(v, pieces, true));
            t.map(Arc::new)
                .map_err(|e| eprintln!("endgame tables: {e:#}"))
                .ok()
        }),
        std::io::stdin().lock(),
        std::io::stdout(),
    )?;
    Ok(())
}
