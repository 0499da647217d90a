//! `tablier verify RECORD`: a finished game's record checked by recomputing it.

use std::path::PathBuf;

use anyhow::{anyhow, Context, Result};

use crate::common::Failed;

/// `tablier verify` arguments.
#[derive(clap::Args)]
pub struct VerifyArgs {
    /// The record (JSON, as `GET /api/games/{id}/record` gives it).
    record: PathBuf,
}

/// `tablier verify RECORD`: recomputes every roll of a finished game's record from its
/// revealed seed and checks the seed against the commitment published at the start.
pub fn run(args: &VerifyArgs) -> Result<()> {
    let path = args.record.as_path();
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow!(
            "{} is not UTF-8 text (byte {} is not): a game record is JSON",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    let record: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        anyhow!(
            "{} is not a JSON game record (line {}, column {})",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    match tablier_catalog::verify(&record) {
        Ok(v) => {
            let how = match v.result.winner {
                Some(s) => format!(
                    "{} won {} point{} ({})",
                    tablier_catalog::side_name(s),
                    v.result.points,
                    if v.result.points == 1 { "" } else { "s" },
                    v.result.reason
                ),
                None => format!("a draw ({})", v.result.reason),
            };
            println!(
                "verified: the seed and the spec match the commitment; {} rolls recomputed, {} actions replayed, all legal; the game ends as recorded: {how}",
                v.rolls, v.actions
            );
            Ok(())
        }
        Err(e) => {
            eprintln!("tablier: not verified: {e}");
            Err(anyhow!(Failed))
        }
    }
}
