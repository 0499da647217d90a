//! The draughts engine at the edge: `tablier hub` (Hub protocol v2 on stdin/stdout, as
//! reference/draughts/PROTOCOLS.md §1 describes it), `tablier dxp` (DamExchange over TCP) and
//! `tablier match` (engine against engine from balloted openings, with the Elo difference).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use rand::{Rng, SeedableRng};
use tablier_core::Side;
use tablier_draughts::game::{Ending, Game};
use tablier_draughts::{with_board, Geometry, Move, Piece, Position, Variant};
use tablier_draughts_engine::search::is_mate;
use tablier_draughts_engine::{Engine, Info, Limits, Tables, TimeControl, Weights};

pub use crate::draughts_dxp::{dxp, DxpArgs};

// ---------------------------------------------------------------------------------------------
// Hub protocol: shared pieces

/// The arguments of a Hub line: `name=value` pairs, or a bare `name` for a flag.
pub type HubArgsList = Vec<(String, Option<String>)>;

/// Splits a Hub line into its command and arguments (values may be quoted; a flag has no
/// value).
///
/// # Errors
/// An unterminated quote.
pub fn parse_hub_line(line: &str) -> Result<(String, HubArgsList)> {
    let line = line.trim();
    let (cmd, mut rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim_start()),
        None => (line, ""),
    };
    let mut args = Vec::new();
    while !rest.is_empty() {
        let end = rest.find(|c: char| c == '=' || c.is_whitespace());
        let (name, after) = match end {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        if let Some(v) = after.strip_prefix('=') {
            let (value, next) = if let Some(q) = v.strip_prefix('"') {
                let close = q
                    .find('"')
                    .ok_or_else(|| anyhow!("unterminated quote after {name}="))?;
                (&q[..close], &q[close + 1..])
            } else {
                let e = v.find(char::is_whitespace).unwrap_or(v.len());
                (&v[..e], &v[e..])
            };
            args.push((name.to_string(), Some(value.to_string())));
            rest = next.trim_start();
        } else {
            args.push((name.to_string(), None));
            rest = after.trim_start();
        }
    }
    Ok((cmd.to_string(), args))
}

fn arg<'a>(args: &'a [(String, Option<String>)], name: &str) -> Option<&'a str> {
    args.iter()
        .find(|(n, _)| n == name)
        .and_then(|(_, v)| v.as_deref())
}

/// The Hub position string: side to move then one letter per square (`w b W B e`).
#[must_use]
pub fn hub_position<G: Geometry>(pos: &Position<G>) -> String {
    let mut s = String::with_capacity(G::SQUARES as usize + 1);
    s.push(pos.side_to_move().letter());
    for sq in 1..=G::SQUARES {
        s.push(match pos.piece_at(sq) {
            None => 'e',
            Some(Piece {
                side: Side::White,
                king: false,
            }) => 'w',
            Some(Piece {
                side: Side::White,
                king: true,
            }) => 'W',
            Some(Piece {
                side: Side::Black,
                king: false,
            }) => 'b',
            Some(Piece {
                side: Side::Black,
                king: true,
            }) => 'B',
        });
    }
    s
}

/// Reads a Hub position string for `variant`.
///
/// # Errors
/// A wrong length, an unknown letter, or pieces that are not a position of the variant.
pub fn parse_hub_position<G: Geometry>(
    variant: &'static Variant,
    text: &str,
) -> Result<Position<G>> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != G::SQUARES as usize + 1 {
        bail!(
            "a {} position has {} characters (side + {} squares), not {}",
            variant.name,
            G::SQUARES + 1,
            G::SQUARES,
            chars.len()
        );
    }
    let side = match chars[0] {
        'W' | 'w' => Side::White,
        'B' | 'b' => Side::Black,
        c => bail!("side to move must be W or B, not {c:?}"),
    };
    let mut pieces = Vec::new();
    for (i, &c) in chars[1..].iter().enumerate() {
        let piece = match c {
            'e' | '.' => continue,
            'w' => (Side::White, false),
            'W' => (Side::White, true),
            'b' => (Side::Black, false),
            'B' => (Side::Black, true),
            c => bail!("unknown square letter {c:?} at square {}", i + 1),
        };
        pieces.push((
            i as u32 + 1,
            Piece {
                side: piece.0,
                king: piece.1,
            },
        ));
    }
    Ok(Position::from_pieces(variant, side, &pieces)?)
}

/// A move in Hub notation: `32-28`, or `from x to x captured…` for a capture.
#[must_use]
pub fn hub_move<G: Geometry>(m: &Move<G>) -> String {
    if m.is_capture() {
        let mut s = format!("{}x{}", m.from(), m.to());
        for c in m.captured_squares() {
            s.push_str(&format!("x{c}"));
        }
        s
    } else {
        format!("{}-{}", m.from(), m.to())
    }
}

/// Finds the legal move of `pos` that a Hub move text names (captured squares in any order).
///
/// # Errors
/// Unreadable text, or no legal move (or more than one) matching it.
pub fn parse_hub_move<G: Geometry>(pos: &Position<G>, text: &str) -> Result<Move<G>> {
    let nums: Vec<u8> = text
        .split(['-', 'x', 'X', ':'])
        .map(|t| t.trim().parse::<u8>())
        .collect::<Result<_, _>>()
        .map_err(|_| anyhow!("unreadable move {text:?}"))?;
    if nums.len() < 2 {
        bail!("unreadable move {text:?}");
    }
    let (from, to) = (nums[0], nums[1]);
    let mut captured: Vec<u8> = nums[2..].to_vec();
    captured.sort_unstable();
    let candidates: Vec<Move<G>> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| {
            m.from() == from
                && m.to() == to
                && (captured.is_empty() || m.captured_squares() == captured)
        })
        .collect();
    match candidates.as_slice() {
        [m] => Ok(*m),
        [] => bail!("{text} is not a legal move here"),
        _ => bail!("{text} is ambiguous: list the captured squares"),
    }
}

/// A score for Hub `info` lines: men, with wins found by the search near ±99 (Scan's
/// convention, which pydraughts reads as a win in so many moves) and table wins near ±89.
fn hub_score(score: i32) -> String {
    use tablier_draughts_engine::search::TABLE_WIN;
    let men = if is_mate(score) {
        let plies = tablier_draughts_engine::WIN - score.abs();
        score.signum() as f64 * (100.0 - f64::from(plies) / 100.0)
    } else if score.abs() >= TABLE_WIN - 1000 {
        score.signum() as f64 * 89.0 + f64::from((score.abs() - TABLE_WIN) % 100) / 100.0
    } else {
        f64::from(score) / 100.0
    };
    format!("{men:.2}")
}

// ---------------------------------------------------------------------------------------------
// Hub protocol: engine side

/// `tablier hub`: the engine over the Hub protocol on stdin/stdout.
#[derive(Args)]
pub struct HubArgs {
    /// The variant until the GUI sets the `variant` parameter.
    #[arg(long, default_value = "international")]
    variant: String,
}

/// A search asked for by `go`.
struct Job {
    pos: String,
    moves: Vec<String>,
    limits: Limits,
}

/// The thread that owns the engine.
struct Worker {
    jobs: Sender<Option<Job>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.jobs.send(None);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn spawn_worker<G: Geometry>(
    variant: &'static Variant,
    hash_mb: usize,
    table_pieces: u32,
) -> Worker {
    let mut engine = Engine::<G>::new(variant, hash_mb);
    // The endgame tables are solved in the background (seconds on 10x10, about 20 s on
    // 12x12), so that `init` answers at once; searches use them from the first job after.
    let (tables_tx, tables_rx) = mpsc::channel();
    if table_pieces >= 2 {
        std::thread::spawn(move || {
            let t = Tables::generate::<G>(variant, table_pieces, &mut |_, _| {});
            let _ = tables_tx.send(Arc::new(t));
        });
    }
    let stop = engine.stop_flag();
    let (tx, rx) = mpsc::channel::<Option<Job>>();
    let thread = std::thread::spawn(move || {
        while let Ok(Some(job)) = rx.recv() {
            if let Ok(t) = tables_rx.try_recv() {
                engine.set_tables(Some(t));
            }
            let line = match run_job(&mut engine, variant, &job) {
                Ok(done) => done,
                Err(e) => {
                    say(&format!("error message=\"{e}\""));
                    "done".to_string()
                }
            };
            say(&line);
        }
    });
    Worker {
        jobs: tx,
        stop,
        thread: Some(thread),
    }
}

fn run_job<G: Geometry>(
    engine: &mut Engine<G>,
    variant: &'static Variant,
    job: &Job,
) -> Result<String> {
    let start = parse_hub_position::<G>(variant, &job.pos)?;
    let mut game = Game::from_position(start);
    for m in &job.moves {
        let mv = parse_hub_move(game.position(), m)?;
        game.play(&mv)
            .map_err(|_| anyhow!("{m} is not legal after the moves before it"))?;
    }
    let pos = *game.position();
    let hist = game.positions_since_irreversible();
    let hist = &hist[..hist.len().saturating_sub(1)];
    if pos.legal_moves().is_empty() {
        bail!("no legal move in this position");
    }
    let mut on_info = |i: &Info<G>| {
        let t = i.time.as_secs_f64();
        let pv: Vec<String> = i.pv.iter().map(hub_move).collect();
        say(&format!(
            "info depth={} mean-depth={} score={} nodes={} time={:.3} nps={:.2} pv=\"{}\"",
            i.depth,
            i.seldepth,
            hub_score(i.score),
            i.nodes,
            t,
            i.nodes as f64 / t.max(1e-6) / 1e6,
            pv.join(" ")
        ));
    };
    let r = engine.search(&pos, hist, &job.limits, &mut on_info);
    let best = r
        .best
        .ok_or_else(|| anyhow!("no legal move in this position"))?;
    let mut line = format!("done move={}", hub_move(&best));
    if let Some(p) = r.ponder {
        line.push_str(&format!(" ponder={}", hub_move(&p)));
    }
    Ok(line)
}

/// The `level` settings, kept until changed.
#[derive(Default, Clone, Copy)]
struct Level {
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time: Option<f64>,
    time: Option<f64>,
    inc: Option<f64>,
    moves: Option<u32>,
}

impl Level {
    fn update(&mut self, args: &[(String, Option<String>)]) -> Result<()> {
        let num = |name: &str| -> Result<Option<f64>> {
            arg(args, name)
                .map(|v| {
                    v.parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite() && *x >= 0.0)
                        .ok_or_else(|| anyhow!("level {name}={v}: not a non-negative number"))
                })
                .transpose()
        };
        if args.iter().any(|(n, _)| n == "infinite") {
            *self = Level::default();
            return Ok(());
        }
        if let Some(d) = num("depth")? {
            self.depth = Some(d as u32);
        }
        if let Some(n) = num("nodes")? {
            self.nodes = Some(n as u64);
        }
        if let Some(t) = num("move-time")? {
            self.move_time = Some(t);
            self.time = None;
        }
        if let Some(t) = num("time")? {
            self.time = Some(t);
            self.move_time = None;
            self.inc = num("inc")?;
            self.moves = num("moves")?.map(|m| m as u32);
        }
        Ok(())
    }

    fn limits(&self, analyse: bool) -> Limits {
        let time = if let Some(t) = self.move_time {
            TimeControl::MoveTime(Duration::from_secs_f64(t))
        } else if let Some(t) = self.time {
            let inc = Duration::from_secs_f64(self.inc.unwrap_or(0.0));
            TimeControl::Clock {
                remaining: Duration::from_secs_f64(t) + inc,
                increment: inc,
                moves_to_go: self.moves.filter(|&m| m > 0),
            }
        } else {
            TimeControl::Infinite
        };
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            time: if analyse { TimeControl::Infinite } else { time },
            search_forced: analyse,
        }
    }
}

/// Runs `tablier hub`.
pub fn hub(args: &HubArgs) -> Result<()> {
    let mut variant = Variant::by_name(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant {}", args.variant))?;
    let mut hash_mb = 64usize;
    let mut table_pieces = 3u32;
    let mut level = Level::default();
    let mut pos: Option<(String, Vec<String>)> = None;
    let mut worker: Option<Worker> = None;
    let mut pondering: Option<Limits> = None;
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let (cmd, a) = match parse_hub_line(&line) {
            Ok(x) => x,
            Err(e) => {
                say(&format!("error message=\"{e}\""));
                continue;
            }
        };
        match cmd.as_str() {
            "hub" => {
                say("id name=tablier version=0.1.0 author=\"the tablier developers\" country=France");
                say(&format!(
                    "param name=variant value={} type=enum values=\"international brazilian canadian english french-old normal\"",
                    variant.name
                ));
                say(&format!(
                    "param name=tt-size value={} type=int min=16 max=30",
                    (hash_mb << 20).ilog2() - 4
                ));
                say(&format!(
                    "param name=bb-size value={table_pieces} type=int min=0 max=3"
                ));
                say("wait");
            }
            "set-param" => {
                let (Some(name), Some(value)) = (arg(&a, "name"), arg(&a, "value")) else {
                    say("error message=\"set-param needs name= and value=\"");
                    continue;
                };
                match name {
                    "variant" => {
                        let name = if value == "normal" {
                            "international"
                        } else {
                            value
                        };
                        match Variant::by_name(name) {
                            Some(v) => variant = v,
                            None => say(&format!("error message=\"unknown variant {value}\"")),
                        }
                    }
                    "tt-size" => match value.parse::<u32>() {
                        Ok(bits) if (16..=30).contains(&bits) => {
                            hash_mb = (((1usize << bits) * 16) >> 20).max(1);
                        }
                        _ => say(&format!("error message=\"tt-size {value}: 16 to 30\"")),
                    },
                    "bb-size" => match value.parse::<u32>() {
                        Ok(n) if n <= 3 => table_pieces = n,
                        _ => say(&format!("error message=\"bb-size {value}: 0 to 3\"")),
                    },
                    _ => {}
                }
            }
            "init" => {
                // The old engine (if any) stops before the new one is made.
                drop(worker.take());
                let w = with_board!(variant.board, G => spawn_worker::<G>(variant, hash_mb, table_pieces));
                worker = Some(w);
                say("ready");
            }
            "pos" => match arg(&a, "pos") {
                Some(p) => {
                    let moves = arg(&a, "moves")
                        .map(|m| m.split_whitespace().map(str::to_string).collect())
                        .unwrap_or_default();
                    pos = Some((p.to_string(), moves));
                }
                None => say("error message=\"pos needs pos=\""),
            },
            "level" => {
                if let Err(e) = level.update(&a) {
                    say(&format!("error message=\"{e}\""));
                }
            }
            "go" => {
                let Some(w) = worker.as_ref() else {
                    say("error message=\"go before init\"");
                    continue;
                };
                let Some((p, moves)) = pos.clone() else {
                    say("error message=\"go before pos\"");
                    continue;
                };
                let mode = a.first().map(|(n, _)| n.as_str()).unwrap_or("think");
                let limits = match mode {
                    "analyze" | "analyse" => level.limits(true),
                    "ponder" => {
                        pondering = Some(level.limits(false));
                        Limits {
                            time: TimeControl::Infinite,
                            ..level.limits(false)
                        }
                    }
                    _ => level.limits(false),
                };
                w.stop.store(false, Ordering::Relaxed);
                let _ = w.jobs.send(Some(Job {
                    pos: p,
                    moves,
                    limits,
                }));
            }
            "ponder-hit" => {
                if let (Some(w), Some(l)) = (worker.as_ref(), pondering.take()) {
                    if let (_, Some(hard)) = l.budgets() {
                        let stop = Arc::clone(&w.stop);
                        std::thread::spawn(move || {
                            std::thread::sleep(hard);
                            stop.store(true, Ordering::Relaxed);
                        });
                    }
                }
            }
            "stop" => {
                if let Some(w) = worker.as_ref() {
                    w.stop.store(true, Ordering::Relaxed);
                }
            }
            "ping" => say("pong"),
            // A fresh engine: the table and history of the last game are forgotten.
            "new-game" if worker.is_some() => {
                drop(worker.take());
                worker = Some(
                    with_board!(variant.board, G => spawn_worker::<G>(variant, hash_mb, table_pieces)),
                );
            }
            "quit" => break,
            // Unknown commands are ignored, as the protocol asks.
            _ => {}
        }
    }
    drop(worker);
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The match runner

/// `tablier match`: engine against engine from balloted openings.
#[derive(Args)]
pub struct MatchArgs {
    /// The variant.
    #[arg(long, default_value = "international")]
    variant: String,
    /// The opponent: `tablier` (our own engine, e.g. with other weights) or the command line
    /// of a Hub engine, such as `".venv/bin/dame hub"`.
    #[arg(long)]
    opponent: String,
    /// Weights file of our engine (default: the shipped weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Weights file of the opponent when it is `tablier`.
    #[arg(long)]
    opponent_weights: Option<PathBuf>,
    /// Pattern tables of our engine: a file written by `tablier train draughts --patterns`,
    /// or `none` (default: the shipped tables, where the variant has some).
    #[arg(long)]
    patterns: Option<String>,
    /// Pattern tables of the opponent when it is `tablier` (a file or `none`).
    #[arg(long)]
    opponent_patterns: Option<String>,
    /// Number of games (rounded up to an even number: each opening is played with both
    /// colours).
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// Seconds per move for both engines.
    #[arg(long, default_value_t = 0.1)]
    move_time: f64,
    /// A fixed depth per move instead of a time (results that do not depend on the
    /// machine's load; a Hub opponent gets `level depth=N`).
    #[arg(long)]
    depth: Option<u32>,
    /// Random plies of each balloted opening.
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plies after which an unfinished game is scored as a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Endgame tables of our engine (pieces; 0 = none).
    #[arg(long, default_value_t = 3)]
    tables: u32,
    /// Write the games as PDN to this file.
    #[arg(long)]
    pdn: Option<PathBuf>,
}

/// One side of a match.
trait Player<G: Geometry> {
    fn name(&self) -> String;
    fn new_game(&mut self) -> Result<()>;
    fn choose(&mut self, game: &Game<G>, budget: Budget) -> Result<Move<G>>;
}

/// What a player may spend on one move.
#[derive(Clone, Copy, Debug)]
enum Budget {
    Time(Duration),
    Depth(u32),
}

struct Internal<G: Geometry> {
    engine: Engine<G>,
    label: String,
}

impl<G: Geometry> Player<G> for Internal<G> {
    fn name(&self) -> String {
        self.label.clone()
    }
    fn new_game(&mut self) -> Result<()> {
        self.engine.new_game();
        Ok(())
    }
    fn choose(&mut self, game: &Game<G>, budget: Budget) -> Result<Move<G>> {
        let hist = game.positions_since_irreversible();
        let hist = &hist[..hist.len().saturating_sub(1)];
        let limits = match budget {
            Budget::Time(t) => Limits::move_time(t),
            Budget::Depth(d) => Limits {
                search_forced: false,
                ..Limits::depth(d)
            },
        };
        let r = self
            .engine
            .search(game.position(), hist, &limits, &mut |_| {});
        r.best.ok_or_else(|| anyhow!("no move"))
    }
}

/// A Hub engine run as a child process.
struct HubClient {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    label: String,
}

impl HubClient {
    fn start(command: &str, variant: &'static Variant) -> Result<HubClient> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let (prog, rest) = words
            .split_first()
            .ok_or_else(|| anyhow!("empty engine command"))?;
        let mut child = Command::new(prog)
            .args(rest)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {command}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut c = HubClient {
            child,
            stdin,
            lines: rx,
            label: command.to_string(),
        };
        c.send("hub")?;
        let mut variants: Option<Vec<String>> = None;
        loop {
            let l = c.recv(Duration::from_secs(20))?;
            let (cmd, a) = parse_hub_line(&l)?;
            match cmd.as_str() {
                "id" => {
                    if let Some(n) = arg(&a, "name") {
                        c.label = format!("{n} {}", arg(&a, "version").unwrap_or(""))
                            .trim()
                            .to_string();
                    }
                }
                "param" if arg(&a, "name") == Some("variant") => {
                    variants = arg(&a, "values")
                        .map(|v| v.split_whitespace().map(str::to_string).collect());
                }
                "wait" => break,
                _ => {}
            }
        }
        match variants {
            Some(vs) => {
                let name = if variant.name == "international" && vs.iter().any(|v| v == "normal") {
                    "normal"
                } else {
                    variant.name
                };
                if !vs.iter().any(|v| v == name) {
                    bail!("{} does not play {}", c.label, variant.name);
                }
                c.send(&format!("set-param name=variant value={name}"))?;
            }
            None if variant.name != "international" => {
                bail!(
                    "{} names no variants: it plays international draughts only",
                    c.label
                )
            }
            None => {}
        }
        c.send("init")?;
        loop {
            let l = c.recv(Duration::from_secs(60))?;
            if l.starts_with("ready") {
                break;
            }
        }
        Ok(c)
    }

    fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .with_context(|| format!("writing to {}", self.label))
    }

    fn recv(&mut self, timeout: Duration) -> Result<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => bail!("{} did not answer in time", self.label),
            Err(RecvTimeoutError::Disconnected) => bail!("{} has quit", self.label),
        }
    }
}

impl Drop for HubClient {
    fn drop(&mut self) {
        let _ = self.send("quit");
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl<G: Geometry> Player<G> for HubClient {
    fn name(&self) -> String {
        self.label.clone()
    }
    fn new_game(&mut self) -> Result<()> {
        self.send("new-game")
    }
    fn choose(&mut self, game: &Game<G>, budget: Budget) -> Result<Move<G>> {
        // The position at the last irreversible move, then the reversible tail.
        let hist = game.positions_since_irreversible();
        let tail = &game.moves()[game.moves().len() - (hist.len() - 1)..];
        let moves: Vec<String> = tail.iter().map(hub_move).collect();
        // Lines left over from an earlier search are not answers to this one.
        while self.lines.try_recv().is_ok() {}
        let mut line = format!("pos pos={}", hub_position(&hist[0]));
        if !moves.is_empty() {
            line.push_str(&format!(" moves=\"{}\"", moves.join(" ")));
        }
        self.send(&line)?;
        let deadline = match budget {
            Budget::Time(t) => {
                self.send(&format!("level move-time={:.3}", t.as_secs_f64()))?;
                t * 10 + Duration::from_secs(5)
            }
            Budget::Depth(d) => {
                self.send(&format!("level depth={d}"))?;
                Duration::from_secs(120)
            }
        };
        self.send("go think")?;
        let start = Instant::now();
        loop {
            let left = deadline.saturating_sub(start.elapsed());
            let l = match self.recv(left.max(Duration::from_millis(1))) {
                Ok(l) => l,
                Err(e) => {
                    // Stop the late search and swallow its answer, so that the next game
                    // does not read it as the answer to its own first question.
                    let _ = self.send("stop");
                    let until = Instant::now() + Duration::from_secs(10);
                    while Instant::now() < until {
                        match self.recv(Duration::from_millis(200)) {
                            Ok(l) if l.starts_with("done") => break,
                            _ => {}
                        }
                    }
                    return Err(e);
                }
            };
            let (cmd, a) = parse_hub_line(&l)?;
            if cmd == "done" {
                let text = arg(&a, "move")
                    .ok_or_else(|| anyhow!("{}: done without a move", self.label))?;
                return parse_hub_move(game.position(), text)
                    .with_context(|| format!("{} played {text}", self.label));
            }
        }
    }
}

/// Result of one game for the first engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GameResult {
    Win,
    Draw,
    Loss,
}

/// Balloted openings: `plies` random legal moves each, kept when a shallow search of ours
/// calls the position level (within a third of a man), all different.
fn ballot<G: Geometry>(
    variant: &'static Variant,
    n: usize,
    plies: u32,
    seed: u64,
) -> Result<Vec<Vec<Move<G>>>> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut judge = Engine::<G>::new(variant, 8);
    let mut out: Vec<Vec<Move<G>>> = Vec::new();
    let mut tries = 0;
    while out.len() < n {
        tries += 1;
        if tries > n * 200 {
            bail!("could not find {n} different level openings of {plies} plies");
        }
        let mut pos = Position::<G>::start(variant)?;
        let mut line = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            pos.play_unchecked(&m);
            line.push(m);
        }
        if line.len() as u32 != plies || out.contains(&line) || pos.legal_moves().is_empty() {
            continue;
        }
        let r = judge.search(&pos, &[], &Limits::depth(6), &mut |_| {});
        if r.score.abs() <= 33 {
            out.push(line);
        }
    }
    Ok(out)
}

/// Elo difference of a score fraction.
fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Score, Elo difference and the half-width of its 95% interval, from wins, draws, losses.
fn elo_summary(w: u32, d: u32, l: u32) -> (f64, f64, f64) {
    let n = f64::from(w + d + l).max(1.0);
    let s = (f64::from(w) + 0.5 * f64::from(d)) / n;
    let var = (f64::from(w) * (1.0 - s).powi(2)
        + f64::from(d) * (0.5 - s).powi(2)
        + f64::from(l) * s.powi(2))
        / n;
    let se = (var / n).sqrt();
    let lo = elo(s - 1.96 * se);
    let hi = elo(s + 1.96 * se);
    (s, elo(s), (hi - lo) / 2.0)
}

fn play_game<G: Geometry>(
    start_moves: &[Move<G>],
    variant: &'static Variant,
    white: &mut dyn Player<G>,
    black: &mut dyn Player<G>,
    budget: Budget,
    max_plies: usize,
) -> Result<(Game<G>, Option<Side>, String)> {
    let mut game = Game::<G>::start(variant)?;
    for m in start_moves {
        game.play(m)
            .map_err(|_| anyhow!("opening move is illegal"))?;
    }
    white.new_game()?;
    black.new_game()?;
    loop {
        if let Some(end) = game.ending() {
            return Ok(match end {
                Ending::NoMove { winner } => (game, Some(winner), "no move left".into()),
                Ending::Draw(r) => (game, None, format!("draw ({r:?})")),
            });
        }
        if game.moves().len() >= max_plies {
            return Ok((
                game,
                None,
                format!("adjudicated draw after {max_plies} plies"),
            ));
        }
        let side = game.position().side_to_move();
        let player: &mut dyn Player<G> = match side {
            Side::White => white,
            Side::Black => black,
        };
        let m = match player.choose(&game, budget) {
            Ok(m) => m,
            Err(e) => {
                let why = format!("{} forfeits: {e:#}", player.name());
                return Ok((game, Some(side.opposite()), why));
            }
        };
        if game.play(&m).is_err() {
            let why = format!("{} played an illegal move", player.name());
            return Ok((game, Some(side.opposite()), why));
        }
    }
}

fn run_match_on<G: Geometry>(args: &MatchArgs, variant: &'static Variant) -> Result<()> {
    let load = |p: &Option<PathBuf>, tables: &Option<String>| -> Result<Weights> {
        let mut w = match p {
            None => Weights::for_variant(variant),
            Some(p) => Weights::parse(
                &std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?,
            )
            .map_err(|e| anyhow!("{}: {e}", p.display()))?,
        };
        w.patterns = match tables.as_deref() {
            None => Weights::shipped_patterns(variant),
            Some("none") => None,
            Some(file) => Some(Arc::new(crate::draughts_engine_cmd::read_patterns::<G>(
                std::path::Path::new(file),
            )?)),
        };
        Ok(w)
    };
    let tables = (args.tables >= 2).then(|| {
        eprintln!("solving endgame tables up to {} pieces…", args.tables);
        Arc::new(Tables::generate::<G>(variant, args.tables, &mut |_, _| {}))
    });
    let mut ours = Internal {
        engine: Engine::<G>::with_weights(variant, 64, load(&args.weights, &args.patterns)?),
        label: "tablier".into(),
    };
    ours.engine.set_tables(tables.clone());
    let mut theirs: Box<dyn Player<G>> = if args.opponent == "tablier" {
        let mut e = Engine::<G>::with_weights(
            variant,
            64,
            load(&args.opponent_weights, &args.opponent_patterns)?,
        );
        e.set_tables(tables);
        Box::new(Internal {
            engine: e,
            label: "tablier (opponent)".into(),
        })
    } else {
        Box::new(HubClient::start(&args.opponent, variant)?)
    };
    let pairs = args.games.div_ceil(2) as usize;
    let openings = ballot::<G>(variant, pairs, args.opening_plies, args.seed)?;
    let budget = match args.depth {
        Some(d) => Budget::Depth(d),
        None => Budget::Time(Duration::from_secs_f64(args.move_time)),
    };
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let flag = Arc::clone(&interrupted);
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    }
    let bar = indicatif::ProgressBar::new(2 * pairs as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games {msg} [{elapsed}]")
            .expect("template"),
    );
    let (mut w, mut d, mut l) = (0u32, 0u32, 0u32);
    let mut pdn = String::new();
    let mut notes = Vec::new();
    let theirs_name = theirs.name();
    'outer: for (i, opening) in openings.iter().enumerate() {
        for ours_white in [true, false] {
            if interrupted.load(Ordering::Relaxed) {
                break 'outer;
            }
            let (game, winner, why) = if ours_white {
                play_game(
                    opening,
                    variant,
                    &mut ours,
                    theirs.as_mut(),
                    budget,
                    args.max_plies,
                )?
            } else {
                play_game(
                    opening,
                    variant,
                    theirs.as_mut(),
                    &mut ours,
                    budget,
                    args.max_plies,
                )?
            };
            let our_side = if ours_white { Side::White } else { Side::Black };
            let r = match winner {
                None => GameResult::Draw,
                Some(s) if s == our_side => GameResult::Win,
                Some(_) => GameResult::Loss,
            };
            match r {
                GameResult::Win => w += 1,
                GameResult::Draw => d += 1,
                GameResult::Loss => l += 1,
            }
            if why.contains("forfeits") || why.contains("illegal") {
                notes.push(format!(
                    "game {}: {why}",
                    2 * i + usize::from(!ours_white) + 1
                ));
            }
            if args.pdn.is_some() {
                let (wn, bn) = if ours_white {
                    ("tablier".to_string(), theirs_name.clone())
                } else {
                    (theirs_name.clone(), "tablier".to_string())
                };
                let result = match winner {
                    None => "1-1",
                    Some(Side::White) => "2-0",
                    Some(Side::Black) => "0-2",
                };
                let round = (2 * i + usize::from(!ours_white) + 1).to_string();
                let tags = [
                    ("Event", "tablier match"),
                    ("Round", round.as_str()),
                    ("White", wn.as_str()),
                    ("Black", bn.as_str()),
                    ("Termination", why.as_str()),
                ];
                let mut g = tablier_draughts::replay::to_pdn(&game, &tags);
                // Adjudications and forfeits are results the rules alone do not give.
                for (k, v) in &mut g.tags {
                    if k == "Result" {
                        *v = result.to_string();
                    }
                }
                g.result = Some(result.to_string());
                pdn.push_str(&tablier_draughts::pdn::write_pdn(&g));
                pdn.push('\n');
            }
            bar.inc(1);
            let (s, e, m) = elo_summary(w, d, l);
            let status = format!("+{w} ={d} -{l}  {:.1}%  Elo {e:+.0} ± {m:.0}", 100.0 * s);
            if bar.is_hidden() {
                // Not a terminal (a log file): one line a game instead of the bar.
                eprintln!("game {}: {why}; {status}", w + d + l);
            }
            bar.set_message(status);
        }
    }
    bar.finish_and_clear();
    if let Some(p) = &args.pdn {
        std::fs::write(p, pdn).with_context(|| format!("writing {}", p.display()))?;
    }
    let (s, e, m) = elo_summary(w, d, l);
    let per_move = match budget {
        Budget::Time(t) => format!("{:.3} s per move", t.as_secs_f64()),
        Budget::Depth(d) => format!("depth {d} per move"),
    };
    println!(
        "tablier vs {theirs_name}: {} games ({} variant, {per_move}, {} balloted openings of {} plies, seed {})",
        w + d + l,
        variant.name,
        openings.len(),
        args.opening_plies,
        args.seed
    );
    println!(
        "+{w} ={d} -{l}  score {:.1}%  Elo difference {e:+.0} ± {m:.0} (95%)",
        100.0 * s
    );
    for n in notes {
        println!("  {n}");
    }
    Ok(())
}

/// Runs `tablier match`.
pub fn run_match(args: &MatchArgs) -> Result<()> {
    let variant = Variant::by_name(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant {}", args.variant))?;
    if !(0.001..=600.0).contains(&args.move_time) {
        bail!("--move-time must be between 0.001 and 600 seconds");
    }
    with_board!(variant.board, G => run_match_on::<G>(args, variant))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablier_draughts::{G10, INTERNATIONAL};

    #[test]
    fn hub_lines() {
        let (c, a) = parse_hub_line(r#"pos pos=Wbbe moves="32-28 18-23" flag"#).unwrap();
        assert_eq!(c, "pos");
        assert_eq!(arg(&a, "pos"), Some("Wbbe"));
        assert_eq!(arg(&a, "moves"), Some("32-28 18-23"));
        assert!(a.iter().any(|(n, v)| n == "flag" && v.is_none()));
        assert!(parse_hub_line(r#"id name="unterminated"#).is_err());
        let (c, a) = parse_hub_line("go").unwrap();
        assert_eq!((c.as_str(), a.len()), ("go", 0));
    }

    #[test]
    fn hub_positions_and_moves() {
        let start = Position::<G10>::start(&INTERNATIONAL).unwrap();
        let s = hub_position(&start);
        assert_eq!(s, "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
        assert_eq!(
            parse_hub_position::<G10>(&INTERNATIONAL, &s).unwrap(),
            start
        );
        assert!(parse_hub_position::<G10>(&INTERNATIONAL, "Wbb").is_err());
        assert!(parse_hub_position::<G10>(&INTERNATIONAL, &s.replace('e', "x")).is_err());
        let m = parse_hub_move(&start, "32-28").unwrap();
        assert_eq!(hub_move(&m), "32-28");
        assert!(parse_hub_move(&start, "32-27x").is_err());
        assert!(parse_hub_move(&start, "18-23").is_err());
        // Captured squares in any order.
        // 27 takes 22 (landing on 18), then 12 (landing on 7).
        let p = tablier_draughts::fen::parse::<G10>(&INTERNATIONAL, "W:W27:B22,12").unwrap();
        let m = parse_hub_move(&p, "27x7x12x22").unwrap();
        assert_eq!(hub_move(&m), "27x7x12x22");
        assert_eq!(parse_hub_move(&p, "27x7x22x12").unwrap(), m);
        assert!(parse_hub_move(&p, "27x7x22").is_err());
    }

    #[test]
    fn elo_figures() {
        let (s, e, m) = elo_summary(60, 20, 20);
        assert!((s - 0.7).abs() < 1e-9);
        assert!((e - 147.2).abs() < 1.0);
        assert!(m > 30.0 && m < 120.0);
        assert_eq!(elo_summary(10, 0, 10).1.round(), 0.0);
    }
}

// ---------------------------------------------------------------------------------------------
// Benchmarks

/// `tablier bench search`: search speed from the start position, against dame-rs.
#[derive(Args)]
pub struct BenchSearchArgs {
    /// The variant.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Depth of the search from the start position.
    #[arg(long, default_value_t = 14)]
    depth: u32,
    /// The dame-rs program (PyPI `dame-rs`) to run on the same position in the same run
    /// (international only); `none` to skip it.
    #[arg(long, default_value = ".venv/bin/dame")]
    dame: String,
}

/// Runs `tablier bench search`.
pub fn bench_search(args: &BenchSearchArgs) -> Result<()> {
    let variant = Variant::by_name(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant {}", args.variant))?;
    if !(1..=40).contains(&args.depth) {
        bail!("--depth must be between 1 and 40");
    }
    let (nodes, secs) = with_board!(variant.board, G => {
        let pos = Position::<G>::start(variant)?;
        let mut engine = Engine::<G>::new(variant, 64);
        let r = engine.search(&pos, &[], &Limits::depth(args.depth), &mut |i| {
            eprintln!("  depth {:>2}  nodes {:>11}  {:.3} s", i.depth, i.nodes, i.time.as_secs_f64());
        });
        (r.nodes, r.time.as_secs_f64())
    });
    println!(
        "tablier: {} from the start to depth {}: {nodes} nodes in {secs:.3} s, {:.2} M nodes/s",
        variant.name,
        args.depth,
        nodes as f64 / secs / 1e6
    );
    if args.dame == "none" || variant.name != "international" {
        return Ok(());
    }
    let out = Command::new(&args.dame)
        .args([
            "search",
            "--depth",
            &args.depth.to_string(),
            "--time",
            "600",
        ])
        .output()
        .with_context(|| format!("running {} (see scripts/python-env.sh)", args.dame))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with("depth"))
        .ok_or_else(|| anyhow!("dame printed no iteration"))?;
    let field = |name: &str| -> Option<f64> {
        let words: Vec<&str> = last.split_whitespace().collect();
        let i = words.iter().position(|w| *w == name)?;
        words.get(i + 1)?.trim_end_matches('s').parse().ok()
    };
    let (Some(d_nodes), Some(d_secs)) = (field("nodes"), field("time")) else {
        bail!("cannot read dame's line: {last}");
    };
    println!(
        "dame-rs: the same position to depth {}: {d_nodes} nodes in {d_secs:.3} s, {:.2} M nodes/s",
        args.depth,
        d_nodes / d_secs / 1e6
    );
    println!(
        "ratio: {:.1}x the nodes per second, {:.1}x faster to depth {} (each engine counts nodes its own way)",
        (nodes as f64 / secs) / (d_nodes / d_secs),
        d_secs / secs,
        args.depth
    );
    Ok(())
}

/// `tablier bench egtb`: what solving the endgame tables costs.
#[derive(Args)]
pub struct BenchEgtbArgs {
    /// The variant.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Pieces on the board at most.
    #[arg(long, default_value_t = 3)]
    pieces: u32,
}

/// Runs `tablier bench egtb`.
pub fn bench_egtb(args: &BenchEgtbArgs) -> Result<()> {
    let variant = Variant::by_name(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant {}", args.variant))?;
    if !(2..=4).contains(&args.pieces) {
        bail!("--pieces must be 2, 3 or 4");
    }
    let start = Instant::now();
    let bar = indicatif::ProgressBar::new(0);
    let t = with_board!(variant.board, G => Tables::generate::<G>(variant, args.pieces, &mut |done, all| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    }));
    bar.finish_and_clear();
    let (w, d, l) = t.counts();
    println!(
        "{} up to {} pieces: {} positions indexed ({} legal: {w} won, {d} drawn, {l} lost for the side to move), solved in {:.1} s, {:.1} MiB at one byte each",
        variant.name,
        args.pieces,
        t.len(),
        w + d + l,
        start.elapsed().as_secs_f64(),
        t.len() as f64 / 1048576.0
    );
    Ok(())
}
