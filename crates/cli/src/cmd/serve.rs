//! `tablier serve`: the web server, on SQLite or PostgreSQL, logging through `tracing`.

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
    /// New games one client address may create per minute, after a burst of
    /// `--games-burst` (0: no limit).
    #[arg(long, default_value_t = tablier_server::Options::default().games_per_minute)]
    games_per_minute: u32,
    /// New games one client address may create at once.
    #[arg(long, default_value_t = tablier_server::Options::default().games_burst)]
    games_burst: u32,
    /// Engine seats that may think at the same time (default: half the cores, at least
    /// one); the others wait in line.
    #[arg(long)]
    engine_workers: Option<usize>,
    /// Allow games between two engine seats (they take CPU with nobody playing). Even
    /// then, such games are not taken up again at start-up until someone opens them.
    #[arg(long)]
    engine_games: bool,
    /// WebSocket messages one connection may send per second, after a burst of 60 (0: no
    /// limit).
    #[arg(long, default_value_t = tablier_server::Options::default().messages_per_second)]
    messages_per_second: u32,
    /// Minutes a public challenge stays on the home page before it expires.
    #[arg(long, default_value_t = tablier_server::Options::default().challenge_s / 60)]
    challenge_minutes: u32,
    /// Log as JSON lines instead of text (the level comes from RUST_LOG, default `info`).
    #[arg(long)]
    log_json: bool,
}

/// Sends the server's `tracing` events to standard error: human-readable lines, or JSON
/// lines with `--log-json`; `RUST_LOG` filters them (default `info`).
fn install_logging(json: bool) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    // A second call (tests calling `serve` twice in one process) keeps the first.
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}

/// Runs the server until Ctrl-C.
pub fn run(a: &ServeArgs) -> Result<()> {
    install_logging(a.log_json);
    let defaults = tablier_server::Options::default();
    let options = tablier_server::Options {
        games_per_minute: a.games_per_minute,
        games_burst: a.games_burst,
        engine_workers: a.engine_workers.unwrap_or(defaults.engine_workers).max(1),
        engine_games: a.engine_games,
        messages_per_second: a.messages_per_second,
        messages_burst: defaults.messages_burst,
        challenge_s: a.challenge_minutes.saturating_mul(60).max(60),
    };
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
        options,
    ))
    .map_err(|e| anyhow!(e))
}
