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
#[derive(Debug)]
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

/// A Hub `error` line; the message's own quotes become `'`, so that it stays one value.
fn hub_error(message: impl std::fmt::Display) -> String {
    format!(
        "error message=\"{}\"",
        message.to_string().replace('"', "'")
    )
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
                    say(&hub_error(&e));
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

/// The position a job searches and the positions of the game before it since the last
/// irreversible move (for repetitions), read from the job's `pos` and `moves`.
///
/// # Errors
/// An unreadable position or move, an illegal move, or a position with no legal move.
fn prepare_job<G: Geometry>(
    variant: &'static Variant,
    job: &Job,
) -> Result<(Position<G>, Vec<Position<G>>)> {
    let start = parse_hub_position::<G>(variant, &job.pos)?;
    let mut game = Game::from_position(start);
    for m in &job.moves {
        let mv = parse_hub_move(game.position(), m)?;
        game.play(&mv)
            .map_err(|_| anyhow!("{m} is not legal after the moves before it"))?;
    }
    let pos = *game.position();
    let hist = game.positions_since_irreversible();
    let hist = hist[..hist.len().saturating_sub(1)].to_vec();
    if pos.legal_moves().is_empty() {
        bail!("no legal move in this position");
    }
    Ok((pos, hist))
}

fn run_job<G: Geometry>(
    engine: &mut Engine<G>,
    variant: &'static Variant,
    job: &Job,
) -> Result<String> {
    let (pos, hist) = prepare_job::<G>(variant, job)?;
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
    let r = engine.search(&pos, &hist, &job.limits, &mut on_info);
    let best = r
        .best
        .ok_or_else(|| anyhow!("no legal move in this position"))?;
    let mut line = format!("done move={}", hub_move(&best));
    if let Some(p) = r.ponder {
        line.push_str(&format!(" ponder={}", hub_move(&p)));
    }
    Ok(line)
}

/// The longest time a `level` (or `tablier dxp --move-time`) may give, in seconds: about
/// 31 years. Longer times mean nothing to a game, and the engine adds them to the current
/// instant, which cannot reach much further.
pub(crate) const MAX_SECONDS: f64 = 1e9;

/// A time in seconds as a duration, if it is a number from 0 to [`MAX_SECONDS`].
pub(crate) fn seconds(x: f64) -> Option<Duration> {
    if (0.0..=MAX_SECONDS).contains(&x) {
        Duration::try_from_secs_f64(x.abs()).ok()
    } else {
        None
    }
}

/// The `level` settings, kept until changed. Every value has been checked: the limits made
/// from them are ones the engine can keep.
#[derive(Default, Clone, Copy, Debug, PartialEq)]
struct Level {
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time: Option<Duration>,
    time: Option<Duration>,
    inc: Option<Duration>,
    moves: Option<u32>,
}

impl Level {
    /// Applies a `level` line's arguments. Either all of them are taken, or (on an error)
    /// none: the level stays as it was.
    ///
    /// # Errors
    /// A value that is not a number, or out of its range: times from 0 to [`MAX_SECONDS`],
    /// `depth` and `moves` whole numbers up to 2^32 - 1, `nodes` up to 2^64 - 1.
    fn update(&mut self, args: &[(String, Option<String>)]) -> Result<()> {
        let time = |name: &str| -> Result<Option<Duration>> {
            arg(args, name)
                .map(|v| {
                    v.parse::<f64>().ok().and_then(seconds).ok_or_else(|| {
                        anyhow!(
                            "level {name}={v}: not a number of seconds from 0 to {MAX_SECONDS:e}"
                        )
                    })
                })
                .transpose()
        };
        let whole = |name: &str, max: u64| -> Result<Option<u64>> {
            arg(args, name)
                .map(|v| {
                    let n = match v.parse::<u64>() {
                        Ok(n) => Some(n),
                        // `1e6`, `10.0`: whole numbers written otherwise.
                        Err(_) => v
                            .parse::<f64>()
                            .ok()
                            .filter(|x| *x >= 0.0 && x.fract() == 0.0 && *x < 2f64.powi(64))
                            .map(|x| x as u64),
                    };
                    n.filter(|&n| n <= max).ok_or_else(|| {
                        anyhow!("level {name}={v}: not a whole number from 0 to {max}")
                    })
                })
                .transpose()
        };
        if args.iter().any(|(n, _)| n == "infinite") {
            *self = Level::default();
            return Ok(());
        }
        let mut next = *self;
        if let Some(d) = whole("depth", u64::from(u32::MAX))? {
            next.depth = Some(d as u32);
        }
        if let Some(n) = whole("nodes", u64::MAX)? {
            next.nodes = Some(n);
        }
        if let Some(t) = time("move-time")? {
            next.move_time = Some(t);
            next.time = None;
        }
        if let Some(t) = time("time")? {
            next.time = Some(t);
            next.move_time = None;
            next.inc = time("inc")?;
            next.moves = whole("moves", u64::from(u32::MAX))?.map(|m| m as u32);
        }
        *self = next;
        Ok(())
    }

    fn limits(&self, analyse: bool) -> Limits {
        let time = if let Some(t) = self.move_time {
            TimeControl::MoveTime(t)
        } else if let Some(t) = self.time {
            let inc = self.inc.unwrap_or(Duration::ZERO);
            TimeControl::Clock {
                remaining: t.saturating_add(inc),
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

/// The most memory the hash table may take, in bytes: half of the machine's memory (from
/// `/proc/meminfo`), or 4 GiB where that cannot be read.
pub(crate) fn memory_limit() -> u64 {
    const UNKNOWN: u64 = 4 << 30;
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| total_memory(&text))
        .map_or(UNKNOWN, |total| total / 2)
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
fn total_memory(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line["MemTotal:".len()..].split_whitespace();
    let n: u64 = words.next()?.parse().ok()?;
    let unit = match words.next() {
        Some("kB") => 1024,
        None => 1,
        Some(_) => return None,
    };
    n.checked_mul(unit)
}

/// The Hub `tt-size` range: 2^16 to 2^30 entries.
const TT_BITS: std::ops::RangeInclusive<u32> = 16..=30;

/// Bytes of a hash table of 2^`bits` entries (16 bytes each).
fn tt_bytes(bits: u32) -> u64 {
    16u64 << bits
}

/// What [`HubSession::handle`] leaves to the engine's owner.
#[derive(Debug)]
enum HubEffect {
    /// Nothing.
    Nothing,
    /// (Re)start the engine with the session's settings (`init`, `new-game`); answer
    /// `ready` if `ready`.
    Start { ready: bool },
    /// Search (`go`).
    Go(Job),
    /// Stop the search after this long (`ponder-hit` on a clock).
    StopAfter(Duration),
    /// Stop the search now.
    Stop,
    /// End the session.
    Quit,
}

/// The state of a Hub session (settings, level, position), and the handling of each line:
/// everything but the engine itself, so that any line can be tried without searching or
/// allocating.
struct HubSession {
    variant: &'static Variant,
    hash_mb: usize,
    table_pieces: u32,
    level: Level,
    pos: Option<(String, Vec<String>)>,
    /// Whether the engine has been started (`init`).
    started: bool,
    pondering: Option<Limits>,
    /// The most bytes the hash table may take.
    memory_limit: u64,
}

impl HubSession {
    fn new(variant: &'static Variant, memory_limit: u64) -> HubSession {
        HubSession {
            variant,
            hash_mb: 64,
            table_pieces: 3,
            level: Level::default(),
            pos: None,
            started: false,
            pondering: None,
            memory_limit,
        }
    }

    /// The largest `tt-size` this machine can hold (at least the smallest one).
    fn max_tt_bits(&self) -> u32 {
        TT_BITS
            .rev()
            .find(|&b| tt_bytes(b) <= self.memory_limit)
            .unwrap_or(*TT_BITS.start())
    }

    /// Handles one line from the GUI: answers go through `say`, what the engine must do is
    /// returned.
    fn handle(&mut self, line: &str, say: &mut dyn FnMut(&str)) -> HubEffect {
        if line.trim().is_empty() {
            return HubEffect::Nothing;
        }
        let (cmd, a) = match parse_hub_line(line) {
            Ok(x) => x,
            Err(e) => {
                say(&hub_error(&e));
                return HubEffect::Nothing;
            }
        };
        match cmd.as_str() {
            "hub" => {
                say("id name=tablier version=0.1.0 author=\"the tablier developers\" country=France");
                say(&format!(
                    "param name=variant value={} type=enum values=\"international brazilian canadian english french-old normal\"",
                    self.variant.name
                ));
                say(&format!(
                    "param name=tt-size value={} type=int min={} max={}",
                    (self.hash_mb << 20).ilog2() - 4,
                    TT_BITS.start(),
                    self.max_tt_bits()
                ));
                say(&format!(
                    "param name=bb-size value={} type=int min=0 max=3",
                    self.table_pieces
                ));
                say("wait");
            }
            "set-param" => {
                let (Some(name), Some(value)) = (arg(&a, "name"), arg(&a, "value")) else {
                    say(&hub_error("set-param needs name= and value="));
                    return HubEffect::Nothing;
                };
                self.set_param(name, value, say);
            }
            "init" => {
                self.started = true;
                return HubEffect::Start { ready: true };
            }
            "pos" => match arg(&a, "pos") {
                Some(p) => {
                    let moves = arg(&a, "moves")
                        .map(|m| m.split_whitespace().map(str::to_string).collect())
                        .unwrap_or_default();
                    self.pos = Some((p.to_string(), moves));
                }
                None => say(&hub_error("pos needs pos=")),
            },
            "level" => {
                if let Err(e) = self.level.update(&a) {
                    say(&hub_error(&e));
                }
            }
            "go" => {
                if !self.started {
                    say(&hub_error("go before init"));
                    return HubEffect::Nothing;
                }
                let Some((pos, moves)) = self.pos.clone() else {
                    say(&hub_error("go before pos"));
                    return HubEffect::Nothing;
                };
                let mode = a.first().map(|(n, _)| n.as_str()).unwrap_or("think");
                let limits = match mode {
                    "analyze" | "analyse" => self.level.limits(true),
                    "ponder" => {
                        self.pondering = Some(self.level.limits(false));
                        Limits {
                            time: TimeControl::Infinite,
                            ..self.level.limits(false)
                        }
                    }
                    _ => self.level.limits(false),
                };
                return HubEffect::Go(Job { pos, moves, limits });
            }
            "ponder-hit" => {
                if let Some(l) = self.pondering.take() {
                    if let (_, Some(hard)) = l.budgets() {
                        return HubEffect::StopAfter(hard);
                    }
                }
            }
            "stop" => return HubEffect::Stop,
            "ping" => say("pong"),
            // A fresh engine: the table and history of the last game are forgotten.
            "new-game" if self.started => return HubEffect::Start { ready: false },
            "quit" => return HubEffect::Quit,
            // Unknown commands are ignored, as the protocol asks.
            _ => {}
        }
        HubEffect::Nothing
    }

    /// `set-param`: a value out of range (or a table larger than the machine can hold) is
    /// refused with an `error` line and the setting stays as it was.
    fn set_param(&mut self, name: &str, value: &str, say: &mut dyn FnMut(&str)) {
        match name {
            "variant" => {
                let name = if value == "normal" {
                    "international"
                } else {
                    value
                };
                match Variant::by_name(name) {
                    Some(v) => self.variant = v,
                    None => say(&hub_error(format!("unknown variant {value}"))),
                }
            }
            "tt-size" => match value.parse::<u32>() {
                Ok(bits) if TT_BITS.contains(&bits) => {
                    let bytes = tt_bytes(bits);
                    if bytes > self.memory_limit {
                        say(&hub_error(format!(
                            "tt-size {value}: a table of {} MiB is more than the {} MiB this machine can give it (half its memory); at most {}",
                            bytes >> 20,
                            self.memory_limit >> 20,
                            self.max_tt_bits()
                        )));
                    } else {
                        self.hash_mb = ((bytes >> 20) as usize).max(1);
                    }
                }
                _ => say(&hub_error(format!(
                    "tt-size {value}: {} to {}",
                    TT_BITS.start(),
                    TT_BITS.end()
                ))),
            },
            "bb-size" => match value.parse::<u32>() {
                Ok(n) if n <= 3 => self.table_pieces = n,
                _ => say(&hub_error(format!("bb-size {value}: 0 to 3"))),
            },
            _ => {}
        }
    }
}

/// Runs `tablier hub`.
pub fn hub(args: &HubArgs) -> Result<()> {
    let variant = Variant::by_name(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant {}", args.variant))?;
    let mut session = HubSession::new(variant, memory_limit());
    let mut worker: Option<Worker> = None;
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line?;
        match session.handle(&line, &mut |l| say(l)) {
            HubEffect::Nothing => {}
            HubEffect::Start { ready } => {
                // The old engine (if any) stops before the new one is made.
                drop(worker.take());
                let (v, mb, pieces) = (session.variant, session.hash_mb, session.table_pieces);
                worker = Some(with_board!(v.board, G => spawn_worker::<G>(v, mb, pieces)));
                if ready {
                    say("ready");
                }
            }
            HubEffect::Go(job) => {
                if let Some(w) = worker.as_ref() {
                    w.stop.store(false, Ordering::Relaxed);
                    let _ = w.jobs.send(Some(job));
                }
            }
            HubEffect::StopAfter(hard) => {
                if let Some(w) = worker.as_ref() {
                    let stop = Arc::clone(&w.stop);
                    std::thread::spawn(move || {
                        std::thread::sleep(hard);
                        stop.store(true, Ordering::Relaxed);
                    });
                }
            }
            HubEffect::Stop => {
                if let Some(w) = worker.as_ref() {
                    w.stop.store(true, Ordering::Relaxed);
                }
            }
            HubEffect::Quit => break,
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
    use proptest::prelude::*;
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

    fn level_args(line: &str) -> HubArgsList {
        parse_hub_line(&format!("level {line}")).unwrap().1
    }

    /// What the engine does with a level's limits: the budgets, and the instant at which the
    /// search must stop; none of it may panic.
    fn engine_side(limits: &Limits) {
        let (soft, hard) = limits.budgets();
        for d in [soft, hard].into_iter().flatten() {
            assert!(Instant::now().checked_add(d).is_some(), "{limits:?}");
        }
    }

    #[test]
    fn out_of_range_levels_are_refused_and_change_nothing() {
        let mut level = Level::default();
        level
            .update(&level_args("time=300 inc=2 moves=40"))
            .unwrap();
        let before = (level.limits(false), level.limits(true));
        for bad in [
            "move-time=1e30",
            "time=1e30",
            "time=1.8e19 inc=1.8e19",
            "time=300 inc=1e30",
            "time=300 moves=1e30",
            "move-time=-1",
            "move-time=NaN",
            "time=inf",
            "move-time=1e10",
            "depth=-3",
            "depth=1e30",
            "depth=4294967296",
            "depth=2.5",
            "nodes=1e30",
            "nodes=-1",
            "nodes=18446744073709551616",
            // A good value before a bad one is not taken either.
            "depth=5 move-time=1e30",
        ] {
            let e = level.update(&level_args(bad)).expect_err(bad).to_string();
            assert!(e.contains("level"), "{bad}: {e}");
            assert_eq!((level.limits(false), level.limits(true)), before, "{bad}");
        }
        // The extremes that are allowed still make limits the engine can use.
        for good in [
            "move-time=1e9",
            "time=1e9 inc=1e9 moves=4294967295",
            "depth=4294967295 nodes=18446744073709551615",
            "move-time=0",
            "time=0.001",
        ] {
            level.update(&level_args(good)).expect(good);
            engine_side(&level.limits(false));
        }
        assert_eq!(level.limits(false).depth, Some(u32::MAX));
        assert_eq!(level.limits(false).nodes, Some(u64::MAX));
    }

    /// A session with `limit` bytes for the hash table; what it says is collected.
    fn session(limit: u64) -> (HubSession, Vec<String>) {
        (HubSession::new(&INTERNATIONAL, limit), Vec::new())
    }

    fn send(s: &mut HubSession, said: &mut Vec<String>, line: &str) -> HubEffect {
        s.handle(line, &mut |l| said.push(l.to_string()))
    }

    #[test]
    fn hash_tables_larger_than_the_machine_can_give_are_refused() {
        // A machine that can give the table 1 GiB: 2^26 entries of 16 bytes, not 2^27.
        let (mut s, mut said) = session(1 << 30);
        send(&mut s, &mut said, "set-param name=tt-size value=26");
        assert!(said.is_empty(), "{said:?}");
        assert_eq!(s.hash_mb, 1024);
        for bits in ["27", "30"] {
            send(
                &mut s,
                &mut said,
                &format!("set-param name=tt-size value={bits}"),
            );
            let e = said.pop().expect("an error line");
            assert!(
                e.starts_with("error message=") && e.contains("MiB") && e.contains("at most 26"),
                "{e}"
            );
            // The table already set stays.
            assert_eq!(s.hash_mb, 1024);
        }
        for bad in ["31", "15", "-1", "4294967296", "1e3", ""] {
            send(
                &mut s,
                &mut said,
                &format!("set-param name=tt-size value={bad}"),
            );
            assert!(said.pop().unwrap().starts_with("error message="), "{bad}");
            assert_eq!(s.hash_mb, 1024);
        }
        // The GUI is told the largest size it may ask for.
        send(&mut s, &mut said, "hub");
        assert!(
            said.iter()
                .any(|l| l.starts_with("param name=tt-size") && l.ends_with("min=16 max=26")),
            "{said:?}"
        );
        // A machine too small even for the smallest table still offers it.
        let (mut s, mut said) = session(1 << 10);
        send(&mut s, &mut said, "hub");
        assert!(
            said.iter().any(|l| l.ends_with("min=16 max=16")),
            "{said:?}"
        );
    }

    #[test]
    fn total_memory_is_read_from_meminfo() {
        let text = "MemTotal:       24684084 kB\nMemFree:        22385416 kB\n";
        assert_eq!(total_memory(text), Some(24_684_084 * 1024));
        assert_eq!(total_memory("MemFree: 1 kB\n"), None);
        assert_eq!(total_memory("MemTotal: lots\n"), None);
        assert_eq!(total_memory("MemTotal: 18446744073709551615 kB\n"), None);
        assert!(memory_limit() > 0);
    }

    #[test]
    fn a_refused_level_leaves_the_last_one_for_go() {
        let (mut s, mut said) = session(1 << 30);
        let start = hub_position(&Position::<G10>::start(&INTERNATIONAL).unwrap());
        for line in [
            "init".to_string(),
            format!("pos pos={start}"),
            "level depth=3".to_string(),
            "level move-time=1e30".to_string(),
            "level time=1e30".to_string(),
            "level time=1.8e19 inc=1.8e19".to_string(),
        ] {
            send(&mut s, &mut said, &line);
        }
        assert_eq!(said.len(), 3, "{said:?}");
        assert!(said.iter().all(|l| l.starts_with("error message=\"level ")));
        match send(&mut s, &mut said, "go") {
            HubEffect::Go(job) => {
                assert_eq!(job.limits.depth, Some(3));
                assert_eq!(job.limits.time, TimeControl::Infinite);
            }
            other => panic!("{other:?}"),
        }
    }

    /// Cases per fuzz property: `PROPTEST_CASES` when set (to fuzz longer, e.g.
    /// `PROPTEST_CASES=1000000`), else `default`, a few seconds' worth in CI.
    fn cases(default: u32) -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    }

    /// Numbers as a GUI (or an attacker) may write them: any integer or float, and the
    /// extremes.
    fn number() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<u8>().prop_map(|n| n.to_string()),
            any::<i64>().prop_map(|n| n.to_string()),
            any::<u64>().prop_map(|n| n.to_string()),
            any::<f64>().prop_map(|x| x.to_string()),
            any::<f64>().prop_map(|x| format!("{x:e}")),
            proptest::sample::select(vec![
                "NaN",
                "nan",
                "inf",
                "-inf",
                "infinity",
                "1e30",
                "1.8e19",
                "-0",
                "0",
                "-1",
                "1e-30",
                "1e9",
                "1e10",
                "4294967295",
                "4294967296",
                "18446744073709551615",
                "18446744073709551616",
                "",
                "abc",
                "0x10",
                "a\"b",
                "1\"",
                "1_000",
                "30",
                "31",
                "16",
                "3",
                "4",
            ])
            .prop_map(str::to_string),
        ]
    }

    /// Hub positions: the start of each variant, mutated, or any text.
    fn position() -> impl Strategy<Value = String> {
        let starts: Vec<String> = ["international", "brazilian", "canadian", "english"]
            .iter()
            .map(|name| {
                let v = Variant::by_name(name).unwrap();
                with_board!(v.board, G => hub_position(&Position::<G>::start(v).unwrap()))
            })
            .collect();
        let letters = proptest::sample::select(vec!['w', 'b', 'W', 'B', 'e', '.', 'x', 'é']);
        prop_oneof![
            (
                proptest::sample::select(starts),
                proptest::collection::vec((any::<proptest::sample::Index>(), letters), 0..6)
            )
                .prop_map(|(start, edits)| {
                    let mut chars: Vec<char> = start.chars().collect();
                    for (i, c) in edits {
                        let i = i.index(chars.len());
                        chars[i] = c;
                    }
                    chars.into_iter().collect()
                }),
            "[WBwbeE.]{0,60}",
            any::<String>(),
        ]
    }

    /// Hub moves: `from-to` and captures with any numbers, and any text.
    fn moves() -> impl Strategy<Value = String> {
        let one = prop_oneof![
            (1..=50u16, 1..=50u16).prop_map(|(a, b)| format!("{a}-{b}")),
            proptest::collection::vec(0..=300u16, 2..6)
                .prop_map(|v| { v.iter().map(u16::to_string).collect::<Vec<_>>().join("x") }),
            proptest::sample::select(vec![
                "32-28", "19-23", "28x19", "14x23", "31-27", "x", "-", ""
            ])
            .prop_map(str::to_string),
            "[0-9x:-]{0,8}",
        ];
        proptest::collection::vec(one, 0..8).prop_map(|m| m.join(" "))
    }

    /// Lines of a Hub session: every command, with random arguments.
    fn hub_line() -> impl Strategy<Value = String> {
        let key = proptest::sample::select(vec![
            "depth",
            "nodes",
            "move-time",
            "time",
            "inc",
            "moves",
            "infinite",
            "other",
        ]);
        let level = proptest::collection::vec((key, number()), 1..5).prop_map(|args| {
            let args: Vec<String> = args.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("level {}", args.join(" "))
        });
        let param = (
            proptest::sample::select(vec!["tt-size", "bb-size", "variant", "other"]),
            prop_oneof![
                number(),
                proptest::sample::select(vec![
                    "international",
                    "normal",
                    "brazilian",
                    "canadian",
                    "english",
                    "french-old",
                    "chess",
                ])
                .prop_map(str::to_string),
            ],
        )
            .prop_map(|(name, value)| format!("set-param name={name} value=\"{value}\""));
        let pos = (position(), moves()).prop_map(|(p, m)| format!("pos pos=\"{p}\" moves=\"{m}\""));
        let go =
            proptest::sample::select(vec!["go", "go think", "go ponder", "go analyze", "go x"])
                .prop_map(str::to_string);
        let plain = proptest::sample::select(vec![
            "hub",
            "init",
            "new-game",
            "ponder-hit",
            "stop",
            "ping",
            "quit",
            "",
            "level",
            "set-param",
            "pos",
            "set-param name=tt-size",
        ])
        .prop_map(str::to_string);
        prop_oneof![
            3 => level,
            2 => param,
            3 => pos,
            3 => go,
            2 => plain,
            1 => any::<String>(),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases(10_000)))]

        /// A session of random lines, handled as `tablier hub` handles them, with what
        /// would reach the engine checked instead of run (no search, no table): no panic;
        /// every answer a Hub line; the hash table never beyond what the machine can give;
        /// every search's position read or refused with a reason; every time budget one the
        /// engine can keep.
        #[test]
        fn hub_sessions_never_panic(
            lines in proptest::collection::vec(hub_line(), 1..25),
            tiny_machine in any::<bool>(),
        ) {
            let limit = if tiny_machine { 1 << 26 } else { 1 << 33 };
            let mut s = HubSession::new(&INTERNATIONAL, limit);
            let mut engine_variant: Option<&'static Variant> = None;
            for line in &lines {
                let mut said = Vec::new();
                let effect = s.handle(line, &mut |l| said.push(l.to_string()));
                for l in &said {
                    let (cmd, args) = parse_hub_line(l).expect("a Hub line");
                    prop_assert!(
                        ["id", "param", "wait", "error", "pong"].contains(&cmd.as_str()),
                        "{:?} answered {:?}", line, l
                    );
                    if cmd == "error" {
                        // The message is one value, whatever the line held.
                        prop_assert!(
                            args.len() == 1 && args[0].0 == "message" && args[0].1.is_some(),
                            "{:?} answered {:?}", line, l
                        );
                    }
                }
                prop_assert!(s.hash_mb == 64 || (s.hash_mb as u64) << 20 <= limit);
                match effect {
                    HubEffect::Start { .. } => engine_variant = Some(s.variant),
                    HubEffect::Go(job) => {
                        let v = engine_variant.expect("go only after init");
                        let _ = with_board!(v.board, G => prepare_job::<G>(v, &job).map(|_| ()));
                        engine_side(&job.limits);
                    }
                    HubEffect::StopAfter(d) => {
                        prop_assert!(Instant::now().checked_add(d).is_some());
                    }
                    HubEffect::Stop | HubEffect::Nothing => {}
                    HubEffect::Quit => break,
                }
            }
        }
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
