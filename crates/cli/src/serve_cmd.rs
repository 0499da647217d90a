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
    /// This node's name, for several nodes on one PostgreSQL database (each game belongs to
    /// the node that created it; the others serve it through mirrors and take it over if
    /// that node stops). Default on PostgreSQL: a fresh random name; give a fixed one to
    /// take your games back at once after a restart. `local` (the default on SQLite) means
    /// the only node of its database.
    #[arg(long)]
    node: Option<String>,
    /// The URL at which the other nodes reach this one (default: http:// and the address
    /// it listens on).
    #[arg(long)]
    advertise: Option<String>,
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
    let node = match &a.node {
        Some(n) => {
            if n.is_empty()
                || n.len() > 64
                || !n
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(anyhow!("a node name is 1 to 64 letters, digits, - or _"));
            }
            n.clone()
        }
        None if url.starts_with("postgres") => format!(
            "node-{}",
            tablier_server::new_token(&mut rand::thread_rng(), 8)
        ),
        None => tablier_server::store::SOLE_NODE.to_owned(),
    };
    rt.block_on(tablier_server::serve(
        a.addr,
        &url,
        &node,
        a.advertise.clone(),
    ))
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
