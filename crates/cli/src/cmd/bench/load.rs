//! `tablier bench load`: a bounded load generator for `tablier serve`, on loopback only.
//!
//! It starts a server in this process on 127.0.0.1 (port 0, a fresh SQLite database in a
//! temporary folder), creates `--games` draughts games between two human seats, connects both
//! players of each game by WebSocket, and lets them move at a human pace (a random wait of
//! `--min-think` to `--max-think` ms before each move) for `--seconds`. For each move it
//! measures the time from sending it to the opponent's socket receiving the new state: the
//! move's arrival, its storage and its broadcast, plus loopback. It prints the number of moves,
//! errors, and the latency percentiles.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use futures_util::{SinkExt, StreamExt};
use rand::Rng;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// `tablier bench load` options.
#[derive(clap::Args)]
pub struct LoadArgs {
    /// Games played at once.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// How long the players play, in seconds.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Shortest think before a move, ms.
    #[arg(long, default_value_t = 2000)]
    min_think: u64,
    /// Longest think before a move, ms.
    #[arg(long, default_value_t = 8000)]
    max_think: u64,
}

async fn post(addr: SocketAddr, path: &str, body: &Value) -> Result<Value> {
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    let body = body.to_string();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await?;
    let mut out = String::new();
    s.read_to_string(&mut out).await?;
    let start = out.find("\r\n\r\n").context("no HTTP body")? + 4;
    Ok(serde_json::from_str(&out[start..])?)
}

#[derive(Default)]
struct Totals {
    moves: AtomicU64,
    errors: AtomicU64,
    finished: AtomicU64,
}

/// Runs the load and prints the figures.
pub fn run(a: &LoadArgs) -> Result<()> {
    if a.games == 0 || a.games > 5000 || a.seconds > 3600 || a.min_think > a.max_think {
        bail!("between 1 and 5000 games, at most an hour, and --min-think <= --max-think");
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(load(a))
}

async fn load(a: &LoadArgs) -> Result<()> {
    let dir = std::env::temp_dir().join(format!("tablier-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let store = tablier_server::store::Store::open(&format!(
        "sqlite://{}",
        dir.join("load.sqlite").display()
    ))
    .await
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    // The load generator is one address creating every game and sending every message:
    // the per-client limits are off here.
    let hub = tablier_server::Hub::with_options(
        std::sync::Arc::new(store),
        tablier_server::Options::unlimited(),
    )
    .await
    .map_err(|e| anyhow::anyhow!(e))?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        let _ = axum::serve(listener, tablier_server::router(hub)).await;
    });
    println!("server on {addr}; creating {} games", a.games);
    let mut games = Vec::with_capacity(a.games);
    for _ in 0..a.games {
        let g = post(
            addr,
            "/api/games",
            &json!({"family": "draughts", "variant": "international",
                    "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await?;
        let id = g["id"].as_str().context("no id")?.to_owned();
        let tokens = [
            g["tokens"][0].as_str().context("no token")?.to_owned(),
            g["tokens"][1].as_str().context("no token")?.to_owned(),
        ];
        games.push((id, tokens));
    }
    let totals = Arc::new(Totals::default());
    let latencies = Arc::new(std::sync::Mutex::new(Vec::<f64>::new()));
    let deadline = Instant::now() + Duration::from_secs(a.seconds);
    let think = (a.min_think, a.max_think);
    println!(
        "{} games, {} WebSocket clients, playing for {} s at {}-{} ms per move",
        a.games,
        2 * a.games,
        a.seconds,
        think.0,
        think.1
    );
    let mut tasks = Vec::new();
    for (id, tokens) in games {
        let totals = totals.clone();
        let latencies = latencies.clone();
        tasks.push(tokio::spawn(async move {
            if let Err(e) =
                play_game(addr, &id, &tokens, deadline, think, &totals, &latencies).await
            {
                totals.errors.fetch_add(1, Ordering::Relaxed);
                eprintln!("game {id}: {e:#}");
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let mut l = latencies.lock().unwrap().clone();
    l.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        l.get(((l.len() as f64 * p) as usize).min(l.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0.0)
    };
    let moves = totals.moves.load(Ordering::Relaxed);
    println!(
        "moves {moves} ({:.1}/s), errors {}, games finished {}",
        moves as f64 / a.seconds as f64,
        totals.errors.load(Ordering::Relaxed),
        totals.finished.load(Ordering::Relaxed)
    );
    println!(
        "move sent -> opponent has the new state: p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        pct(0.50),
        pct(0.90),
        pct(0.99),
        l.last().copied().unwrap_or(0.0)
    );
    let _ = std::fs::remove_dir_all(&dir);
    if totals.errors.load(Ordering::Relaxed) > 0 {
        bail!("errors under load");
    }
    Ok(())
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next state message with a version of at least `v`.
async fn state_at_least(ws: &mut Ws, v: u64) -> Result<Value> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .context("no state within 30 s")?
            .context("socket closed")??;
        if let Message::Text(t) = msg {
            let m: Value = serde_json::from_str(&t)?;
            if m["t"] == "error" {
                bail!("refused: {}", m["reason"]);
            }
            if m["t"] == "state" && m["v"].as_u64().unwrap_or(0) >= v {
                return Ok(m);
            }
        }
    }
}

async fn play_game(
    addr: SocketAddr,
    id: &str,
    tokens: &[String; 2],
    deadline: Instant,
    think: (u64, u64),
    totals: &Totals,
    latencies: &std::sync::Mutex<Vec<f64>>,
) -> Result<()> {
    let mut socks = Vec::new();
    for t in tokens {
        let (ws, _) =
            tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{id}?token={t}")).await?;
        socks.push(ws);
    }
    let mut state = state_at_least(&mut socks[0], 0).await?;
    state_at_least(&mut socks[1], 0).await?;
    let mut ack = 0u64;
    loop {
        let mover = match state["actor"].as_str() {
            Some("white") => 0,
            Some("black") => 1,
            _ => {
                totals.finished.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
        };
        let wait = rand::thread_rng().gen_range(think.0..=think.1);
        if Instant::now() + Duration::from_millis(wait) > deadline {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(wait)).await;
        let legal = state["legal"].as_array().context("no legal moves")?;
        let pick = legal[rand::thread_rng().gen_range(0..legal.len())]
            .as_str()
            .context("a move")?
            .to_owned();
        let v = state["v"].as_u64().unwrap_or(0);
        ack += 1;
        let sent = Instant::now();
        socks[mover]
            .send(Message::Text(
                json!({"t": "act", "action": pick, "ack": ack})
                    .to_string()
                    .into(),
            ))
            .await?;
        // The broadcast reaching the opponent.
        state = state_at_least(&mut socks[1 - mover], v + 1).await?;
        latencies
            .lock()
            .unwrap()
            .push(sent.elapsed().as_secs_f64() * 1000.0);
        totals.moves.fetch_add(1, Ordering::Relaxed);
        // The mover's own copy (and ack) are read so its socket does not fill up.
        state_at_least(&mut socks[mover], v + 1).await?;
    }
}
