//! `tablier serve` and `tablier verify`.

use std::path::PathBuf;

use anyhow::{anyhow, Context, Result};

/// `tablier serve` options.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    /// Folder for the embedded SQLite database file `tablier.sqlite` (default: the working
    /// directory).
    #[arg(long)]
    data: Option<PathBuf>,
    /// A database URL instead (`postgres://user@host/db`, or `sqlite://file`).
    #[arg(long)]
    database: Option<String>,
}

/// Runs the server until Ctrl-C.
pub fn serve(a: &ServeArgs) -> Result<()> {
    let url = match &a.database {
        Some(u) => u.clone(),
        None => {
            let dir = a.data.clone().unwrap_or_else(|| PathBuf::from("."));
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            format!("sqlite://{}", dir.join("tablier.sqlite").display())
        }
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    rt.block_on(tablier_server::serve(a.addr, &url))
        .map_err(|e| anyhow!(e))
}

/// `tablier verify RECORD`: recomputes every roll of a finished game's record from its
/// revealed seed and checks the seed against the commitment published at the start.
pub fn verify(path: &std::path::Path) -> Result<()> {
    let text = crate::read_text(path)?;
    let record: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a JSON game record", path.display()))?;
    match tablier_server::room::verify(&record) {
        Ok(v) => {
            println!(
                "verified: the seed matches its commitment; {} rolls recomputed, {} actions replayed, all legal",
                v.rolls, v.actions
            );
            Ok(())
        }
        Err(e) => {
            eprintln!("tablier: not verified: {e}");
            Err(anyhow!(crate::draughts_cmd::Failed))
        }
    }
}
