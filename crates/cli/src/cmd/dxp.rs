//! `tablier dxp`: the draughts engine over DXP, the DamExchange protocol (international
//! draughts, 10x10), as follower (`--listen`) or initiator (`--connect`), on TCP. The
//! protocol and the sessions are [`tablier_draughts_protocol::dxp`]'s; here are the
//! options, the connections, and what is printed: each game's result on standard output,
//! chats and remarks (and with `--transcript` every message) on standard error.
//!
//! Ctrl-C sends GAMEEND with stop code 1 (and a chat) before closing the connection.

use std::io::Write;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use tablier_draughts::{fen, Position, G10, INTERNATIONAL};
use tablier_draughts_engine::Engine;
use tablier_draughts_protocol::dxp::session::{Note, Options, Series, Session, Transport};
use tablier_draughts_protocol::dxp::{self, EndReason, Message, DEFAULT_PORT};
use tablier_draughts_protocol::MAX_SECONDS;

use crate::common::on_interrupt;

/// `tablier dxp`: the engine over DXP (TCP), as follower (`--listen`) or initiator
/// (`--connect`).
#[derive(Args)]
pub struct DxpArgs {
    /// Follower: listen on this address (port 27531 if left out; port 0 picks a free one) and
    /// play the games an initiator asks for.
    #[arg(long, value_name = "ADDR", conflicts_with = "connect")]
    listen: Option<String>,
    /// Initiator: connect to a follower at HOST:PORT (port 27531 if left out) and ask it for
    /// games.
    #[arg(long, value_name = "HOST:PORT", required_unless_present = "listen")]
    connect: Option<String>,
    /// Initiator: number of games, colours alternating (tablier takes White in the first).
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Initiator: thinking time of each player for the whole game, in minutes (the
    /// GAMEREQ's field, 1..999).
    #[arg(long, default_value_t = 5)]
    time_per_game_min: u16,
    /// Initiator: the number of moves to make in that time (0: the whole game).
    #[arg(long, default_value_t = 0)]
    moves: u16,
    /// Initiator: start every game from this position (FEN) instead of the normal start.
    #[arg(long)]
    fen: Option<String>,
    /// Think this many seconds per move instead of dividing the game's thinking time (above
    /// 0, at most 1e9).
    #[arg(long, value_name = "SECONDS")]
    move_time: Option<f64>,
    /// End a game without result (GAMEEND reason 0, with a chat) once this many plies have
    /// been played and it is our turn.
    #[arg(long)]
    max_plies: Option<u32>,
    /// Think on the other side's time too (pondering: search the position after the reply
    /// our engine expects until the reply arrives).
    #[arg(long)]
    ponder: bool,
    /// Follower: serve one connection, then exit.
    #[arg(long)]
    once: bool,
    /// Transposition table size in MiB (at most half of the machine's memory).
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Endgame tables up to this many pieces (2 to 4; 0: none), read from the cache that
    /// `tablier draughts tables` fills, or solved at start and kept there.
    #[arg(long, default_value_t = 3)]
    tables: u32,
    /// Print every message sent (`>>`) and received (`<<`) on stderr.
    #[arg(long)]
    transcript: bool,
}

/// The connection in use, for the Ctrl-C handler.
static PEER: Mutex<Option<TcpStream>> = Mutex::new(None);

fn new_engine(args: &DxpArgs) -> Result<Engine<G10>> {
    let mut engine = Engine::<G10>::new(&INTERNATIONAL, args.hash.max(1));
    if args.tables >= 2 {
        let tables =
            crate::cmd::draughts::endgame_tables::<G10>(&INTERNATIONAL, args.tables, false)?;
        engine.set_tables(Some(Arc::new(tables)));
    }
    Ok(engine)
}

fn engine_name() -> String {
    format!("tablier {}", env!("CARGO_PKG_VERSION"))
}

/// `--move-time`, checked: more than 0 and at most [`MAX_SECONDS`].
fn move_time(args: &DxpArgs) -> Result<Option<Duration>> {
    args.move_time
        .map(|s| {
            tablier_draughts_protocol::seconds(s)
                .filter(|d| !d.is_zero())
                .ok_or_else(|| {
                    anyhow!("--move-time must be a number of seconds above 0 and at most {MAX_SECONDS:e}")
                })
        })
        .transpose()
}

/// `--hash`, checked against the memory the machine can give (half of it).
fn check_hash(args: &DxpArgs, memory_limit: u64) -> Result<()> {
    let bytes = (args.hash as u64).saturating_mul(1 << 20);
    if bytes > memory_limit {
        bail!(
            "--hash {}: more than the {} MiB this machine can give the table (half its memory)",
            args.hash,
            memory_limit >> 20
        );
    }
    Ok(())
}

/// A session of `engine` on `stream`, which the Ctrl-C handler will close.
fn session(stream: TcpStream, args: &DxpArgs, engine: Engine<G10>) -> Result<Session> {
    let transport = Transport::tcp(stream.try_clone()?)?;
    if let Ok(mut peer) = PEER.lock() {
        *peer = Some(stream);
    }
    let options = Options {
        name: engine_name(),
        move_time: move_time(args)?,
        max_plies: args.max_plies,
        adjudicate: None,
        ponder: args.ponder,
    };
    let transcript = args.transcript;
    Ok(Session::new(
        transport,
        engine,
        options,
        move |note| match note {
            Note::Sent(text) if transcript => eprintln!(">> {text}"),
            Note::Received(text) if transcript => eprintln!("<< {text}"),
            Note::Sent(_) | Note::Received(_) => {}
            Note::Chat { from, text } => eprintln!("dxp: chat from {from}: {text}"),
            Note::Remark(text) => eprintln!("dxp: {text}"),
        },
    ))
}

/// Serves one connection as follower: answers GAMEREQs and plays the games.
fn follow(stream: TcpStream, args: &DxpArgs, engine: Engine<G10>) -> Result<Engine<G10>> {
    let peer = stream
        .peer_addr()
        .map_or_else(|_| "?".to_string(), |a| a.to_string());
    let mut s = session(stream, args, engine)?;
    s.follow(&peer, &mut |number, played| {
        println!("{}", played.line(number));
    })?;
    Ok(s.into_engine())
}

/// `addr` with DXP's port if it names none.
fn with_port(addr: &str) -> String {
    if addr.contains(':') {
        addr.to_string()
    } else {
        format!("{addr}:{DEFAULT_PORT}")
    }
}

fn run_follower(addr: &str, args: &DxpArgs) -> Result<()> {
    let addr = with_port(addr);
    let listener = TcpListener::bind(&addr).with_context(|| format!("listening on {addr}"))?;
    let mut engine = new_engine(args)?;
    // Said once the engine (and its endgame tables) is ready.
    println!("tablier dxp: listening on {}", listener.local_addr()?);
    let _ = std::io::stdout().flush();
    loop {
        let (stream, peer) = listener.accept().context("accepting a connection")?;
        eprintln!("dxp: connection from {peer}");
        engine = match follow(stream, args, engine) {
            Ok(engine) => engine,
            Err(e) => {
                if args.once {
                    return Err(e);
                }
                eprintln!("dxp: {e:#}");
                new_engine(args)?
            }
        };
        if args.once {
            return Ok(());
        }
    }
}

fn run_initiator(addr: &str, args: &DxpArgs) -> Result<()> {
    let addr = with_port(addr);
    let start = match &args.fen {
        None => Position::start(&INTERNATIONAL)?,
        Some(f) => fen::parse::<G10>(&INTERNATIONAL, f).map_err(|e| anyhow!("--fen {f}: {e}"))?,
    };
    if args.time_per_game_min == 0 || args.time_per_game_min > 999 {
        bail!("--time-per-game-min must be 1..999");
    }
    let stream = TcpStream::connect(&addr).with_context(|| format!("connecting to {addr}"))?;
    let engine = new_engine(args)?;
    let mut s = session(stream, args, engine)?;
    let series = Series {
        games: args.games,
        minutes: args.time_per_game_min,
        moves: args.moves,
        start,
        first_colour: tablier_core::Side::White,
    };
    let played = s.initiate(&addr, &series, &mut |number, played| {
        println!("{}", played.line(number));
    })?;
    s.close();
    let (mut w, mut d, mut l, mut u) = (0, 0, 0, 0);
    for p in &played {
        match p.score {
            dxp::session::Score::Win => w += 1,
            dxp::session::Score::Draw => d += 1,
            dxp::session::Score::Loss => l += 1,
            dxp::session::Score::Unfinished => u += 1,
        }
    }
    let opponent = played.first().map_or("?", |p| p.opponent.as_str());
    println!(
        "tablier {w} wins, {d} draws, {l} losses{} against {opponent} in {} games: {} points of {}",
        if u > 0 {
            format!(", {u} unfinished")
        } else {
            String::new()
        },
        played.len(),
        2 * w + d,
        2 * (w + d + l)
    );
    Ok(())
}

/// Runs `tablier dxp`.
///
/// # Errors
/// A connection that cannot be made or fails, a GAMEREQ refused (initiator), an illegal or
/// unreadable move received.
pub fn run(args: &DxpArgs) -> Result<()> {
    move_time(args)?;
    check_hash(args, tablier_draughts_protocol::memory_limit())?;
    // Ctrl-C: the other side hears GAMEEND with stop code 1 before the connection closes.
    on_interrupt(|| {
        if let Some(mut peer) = PEER.lock().ok().and_then(|mut p| p.take()) {
            let mut bytes = dxp::frame(&Message::GameEnd {
                reason: EndReason::Unknown,
                stop: true,
            });
            bytes.extend(dxp::frame(&Message::Chat("stopped by the operator".into())));
            let _ = peer.write_all(&bytes);
            let _ = peer.shutdown(Shutdown::Both);
        }
        eprintln!("dxp: stopped");
        std::process::exit(130);
    });
    match (&args.listen, &args.connect) {
        (Some(addr), None) => run_follower(addr, args),
        (None, Some(addr)) => run_initiator(addr, args),
        _ => bail!("give either --listen ADDR (follower) or --connect HOST:PORT (initiator)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn dxp_args(args: &[&str]) -> DxpArgs {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            dxp: DxpArgs,
        }
        let mut argv = vec!["dxp", "--listen", "127.0.0.1:0"];
        argv.extend_from_slice(args);
        <Cli as clap::Parser>::try_parse_from(argv).unwrap().dxp
    }

    #[test]
    fn move_times_the_engine_cannot_keep_are_refused() {
        for bad in ["1e30", "1.8e19", "1e10", "inf", "NaN", "-1", "0"] {
            let args = dxp_args(&[&format!("--move-time={bad}")]);
            assert!(move_time(&args).is_err(), "--move-time {bad}");
        }
        for good in ["0.001", "1", "1e9"] {
            let args = dxp_args(&["--move-time", good]);
            let t = move_time(&args).unwrap().unwrap();
            assert!(Instant::now().checked_add(t).is_some());
        }
    }

    #[test]
    fn hash_tables_larger_than_the_machine_can_give_are_refused() {
        let gib = 1 << 30;
        assert!(check_hash(&dxp_args(&[]), gib).is_ok());
        assert!(check_hash(&dxp_args(&["--hash", "1024"]), gib).is_ok());
        let e = check_hash(&dxp_args(&["--hash", "1025"]), gib).unwrap_err();
        assert!(e.to_string().contains("1024 MiB"), "{e}");
        let huge = usize::MAX.to_string();
        assert!(check_hash(&dxp_args(&["--hash", &huge]), u64::MAX / 2).is_err());
    }
}
