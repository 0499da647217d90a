//! The engine side of the Hub protocol: what `tablier hub` says to a GUI.
//!
//! [`Session`] holds the state a GUI sets up (variant, hash table, endgame tables, level,
//! position) and handles one line at a time: its answers go to a callback, and what the
//! engine must do (start, search, stop) comes back as an [`Effect`]. It does no I/O and never
//! searches, so any line can be tried on it. [`run`] is the whole engine over a pair of
//! streams: the session, and a thread that owns the engine and answers `go` with `info` lines
//! and `done`.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{anyhow, bail, Result};
use tablier_draughts::game::Game;
use tablier_draughts::{with_board, Geometry, Position, Variant};
use tablier_draughts_engine::{Engine, Info, Limits, Tables, TimeControl, SOFT_SHARE};

use super::codec::{
    argument, error_line, parse_line, parse_move, parse_position, write_move, write_score,
};
use crate::limits::{seconds, MAX_SECONDS};

/// A search asked for by `go`: the position as the GUI gave it, and the limits of the level.
#[derive(Clone, Debug)]
pub struct Job {
    /// The Hub position string of `pos pos=...`.
    pub pos: String,
    /// The moves of `pos moves=...`, played from that position.
    pub moves: Vec<String>,
    /// What the search may spend.
    pub limits: Limits,
}

impl Job {
    /// The position the job searches, and the positions of the game before it since the
    /// last irreversible move (for repetitions), read from its `pos` and `moves`.
    ///
    /// # Errors
    /// An unreadable position or move, an illegal move, or a position with no legal move.
    pub fn positions<G: Geometry>(
        &self,
        variant: &'static Variant,
    ) -> Result<(Position<G>, Vec<Position<G>>)> {
        let start = parse_position::<G>(variant, &self.pos)?;
        let mut game = Game::from_position(start);
        for m in &self.moves {
            let mv = parse_move(game.position(), m)?;
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
            argument(args, name)
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
            argument(args, name)
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

/// The most pieces of endgame tables a GUI may ask for (`bb-size`) in `variant`: four up to
/// the 10x10 board (on 10x10, 116 M positions: four minutes to solve once, a 29 MB file
/// after), three on 12x12, where four pieces would be too many positions to solve here.
#[must_use]
pub fn max_table_pieces(variant: &Variant) -> u32 {
    if variant.board.side() <= 10 {
        4
    } else {
        3
    }
}

/// Where the engine's endgame tables come from: given the variant and the most pieces, the
/// tables, or `None` where they cannot be had. [`solve_tables`] solves them in memory at each
/// start; `tablier hub` reads them from the cache that `tablier draughts tables` fills (and
/// solves and keeps them there the first time).
pub type TableSource = Arc<dyn Fn(&'static Variant, u32) -> Option<Arc<Tables>> + Send + Sync>;

/// A [`TableSource`] that solves the tables in memory.
#[must_use]
pub fn solve_tables() -> TableSource {
    Arc::new(|v: &'static Variant, pieces: u32| {
        Some(Arc::new(with_board!(v.board, G => Tables::generate::<G>(
            v,
            pieces,
            &mut |_, _| {}
        ))))
    })
}

/// The tables of the last start, kept for the next: a new game in the same variant and with
/// the same `bb-size` reuses them instead of loading or solving them again.
#[derive(Clone)]
struct TableCache {
    source: TableSource,
    #[allow(clippy::type_complexity)]
    last: Arc<Mutex<Option<(&'static str, u32, Arc<Tables>)>>>,
}

impl TableCache {
    /// The tables of `variant` up to `pieces`. The lock is held while they are loaded, so a
    /// second start waits for the first instead of solving them twice.
    fn get(&self, variant: &'static Variant, pieces: u32) -> Option<Arc<Tables>> {
        let mut last = self.last.lock().ok()?;
        if let Some((name, n, t)) = last.as_ref() {
            if *name == variant.name && *n == pieces {
                return Some(Arc::clone(t));
            }
        }
        let t = (self.source)(variant, pieces)?;
        *last = Some((variant.name, pieces, Arc::clone(&t)));
        Some(t)
    }
}

/// The Hub `tt-size` range: 2^16 to 2^30 entries.
const TT_BITS: std::ops::RangeInclusive<u32> = 16..=30;

/// Bytes of a hash table of 2^`bits` entries (16 bytes each).
fn tt_bytes(bits: u32) -> u64 {
    16u64 << bits
}

/// What [`Session::handle`] leaves to the engine's owner.
#[derive(Debug)]
pub enum Effect {
    /// The line needs no answer and changes nothing outside the session.
    Nothing,
    /// (Re)start the engine with the session's settings (`init`, `new-game`); answer
    /// `ready` if `ready`.
    Start {
        /// Whether the GUI waits for `ready` (`init`; not `new-game`).
        ready: bool,
    },
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
pub struct Session {
    variant: &'static Variant,
    hash_mb: usize,
    table_pieces: u32,
    level: Level,
    pos: Option<(String, Vec<String>)>,
    /// Whether the engine has been started (`init`).
    started: bool,
    /// The limits of a `go ponder` (and the pieces in the position it ponders), kept for
    /// the `ponder-hit` that turns it into a timed search.
    pondering: Option<(Limits, Option<usize>)>,
    /// The most bytes the hash table may take.
    memory_limit: u64,
}

impl Session {
    /// A session that plays `variant` until the GUI sets another, with a hash table of at
    /// most `memory_limit` bytes (64 MiB, 3-piece endgame tables and no level until the GUI
    /// sets them).
    #[must_use]
    pub fn new(variant: &'static Variant, memory_limit: u64) -> Session {
        Session {
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

    /// The variant the engine must play.
    #[must_use]
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The hash table's size, in MiB.
    #[must_use]
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Pieces of the endgame tables (0: none).
    #[must_use]
    pub fn table_pieces(&self) -> u32 {
        self.table_pieces
    }

    /// The largest `tt-size` this machine can hold (at least the smallest one).
    fn max_tt_bits(&self) -> u32 {
        TT_BITS
            .rev()
            .find(|&b| tt_bytes(b) <= self.memory_limit)
            .unwrap_or(*TT_BITS.start())
    }

    /// Handles one line from the GUI: answers go through `say`, what the engine must do is
    /// returned. A line that cannot be read, or a value out of range, is answered with an
    /// `error` line and changes nothing; unknown commands are ignored, as the protocol asks.
    pub fn handle(&mut self, line: &str, say: &mut dyn FnMut(&str)) -> Effect {
        if line.trim().is_empty() {
            return Effect::Nothing;
        }
        let (cmd, a) = match parse_line(line) {
            Ok(x) => x,
            Err(e) => {
                say(&error_line(&e));
                return Effect::Nothing;
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
                    "param name=bb-size value={} type=int min=0 max={}",
                    self.table_pieces,
                    max_table_pieces(self.variant)
                ));
                say("wait");
            }
            "set-param" => {
                let (Some(name), Some(value)) = (argument(&a, "name"), argument(&a, "value"))
                else {
                    say(&error_line("set-param needs name= and value="));
                    return Effect::Nothing;
                };
                self.set_param(name, value, say);
            }
            "init" => {
                self.started = true;
                return Effect::Start { ready: true };
            }
            "pos" => match argument(&a, "pos") {
                Some(p) => {
                    let moves = argument(&a, "moves")
                        .map(|m| m.split_whitespace().map(str::to_string).collect())
                        .unwrap_or_default();
                    self.pos = Some((p.to_string(), moves));
                }
                None => say(&error_line("pos needs pos=")),
            },
            "level" => {
                if let Err(e) = self.level.update(&a) {
                    say(&error_line(&e));
                }
            }
            "go" => {
                if !self.started {
                    say(&error_line("go before init"));
                    return Effect::Nothing;
                }
                let Some((pos, moves)) = self.pos.clone() else {
                    say(&error_line("go before pos"));
                    return Effect::Nothing;
                };
                let mode = a.first().map(|(n, _)| n.as_str()).unwrap_or("think");
                let limits = match mode {
                    "analyze" | "analyse" => self.level.limits(true),
                    "ponder" => {
                        let job = Job {
                            pos: pos.clone(),
                            moves: moves.clone(),
                            limits: self.level.limits(false),
                        };
                        let variant = self.variant;
                        let pieces = with_board!(variant.board, G => job
                            .positions::<G>(variant)
                            .ok()
                            .map(|(p, _)| p.pieces().len()));
                        self.pondering = Some((self.level.limits(false), pieces));
                        Limits {
                            time: TimeControl::Infinite,
                            ..self.level.limits(false)
                        }
                    }
                    _ => self.level.limits(false),
                };
                return Effect::Go(Job { pos, moves, limits });
            }
            "ponder-hit" => {
                // The search's own time plan: the clock is divided over the moves the
                // pondered position's material suggests are left.
                if let Some((l, pieces)) = self.pondering.take() {
                    if let (_, Some(hard)) = l.budgets_for(pieces, SOFT_SHARE) {
                        return Effect::StopAfter(hard);
                    }
                }
            }
            "stop" => return Effect::Stop,
            "ping" => say("pong"),
            // A fresh engine: the table and history of the last game are forgotten.
            "new-game" if self.started => return Effect::Start { ready: false },
            "quit" => return Effect::Quit,
            // Unknown commands are ignored, as the protocol asks.
            _ => {}
        }
        Effect::Nothing
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
                    Some(v) => {
                        self.variant = v;
                        self.table_pieces = self.table_pieces.min(max_table_pieces(v));
                    }
                    None => say(&error_line(format!("unknown variant {value}"))),
                }
            }
            "tt-size" => match value.parse::<u32>() {
                Ok(bits) if TT_BITS.contains(&bits) => {
                    let bytes = tt_bytes(bits);
                    if bytes > self.memory_limit {
                        say(&error_line(format!(
                            "tt-size {value}: a table of {} MiB is more than the {} MiB this machine can give it (half its memory); at most {}",
                            bytes >> 20,
                            self.memory_limit >> 20,
                            self.max_tt_bits()
                        )));
                    } else {
                        self.hash_mb = ((bytes >> 20) as usize).max(1);
                    }
                }
                _ => say(&error_line(format!(
                    "tt-size {value}: {} to {}",
                    TT_BITS.start(),
                    TT_BITS.end()
                ))),
            },
            "bb-size" => match value.parse::<u32>() {
                Ok(n) if n <= max_table_pieces(self.variant) => self.table_pieces = n,
                _ => say(&error_line(format!(
                    "bb-size {value}: 0 to {} in {}",
                    max_table_pieces(self.variant),
                    self.variant.name
                ))),
            },
            _ => {}
        }
    }
}

/// Where the engine's lines go: shared by the session's loop and the engine's thread, one
/// whole line at a time.
struct Output<W: Write>(Arc<Mutex<W>>);

impl<W: Write> Clone for Output<W> {
    fn clone(&self) -> Self {
        Output(Arc::clone(&self.0))
    }
}

impl<W: Write> Output<W> {
    /// Writes `line` and flushes it (errors are ignored: a GUI that has gone reads nothing).
    fn say(&self, line: &str) {
        if let Ok(mut out) = self.0.lock() {
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
    }
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

fn spawn_worker<G: Geometry, W: Write + Send + 'static>(
    variant: &'static Variant,
    hash_mb: usize,
    table_pieces: u32,
    tables: TableCache,
    out: Output<W>,
) -> Worker {
    let mut engine = Engine::<G>::new(variant, hash_mb);
    // The endgame tables are loaded or solved in the background (3 pieces: seconds on 10x10,
    // about 20 s on 12x12; 4 pieces on 10x10: under a second from the cache, four minutes to
    // solve the first time), so that `init` answers at once; searches use them from the
    // first job after they are there.
    let (tables_tx, tables_rx) = mpsc::channel();
    if table_pieces >= 2 {
        std::thread::spawn(move || {
            if let Some(t) = tables.get(variant, table_pieces) {
                let _ = tables_tx.send(t);
            }
        });
    }
    let stop = engine.stop_flag();
    let (tx, rx) = mpsc::channel::<Option<Job>>();
    let thread = std::thread::spawn(move || {
        while let Ok(Some(job)) = rx.recv() {
            if let Ok(t) = tables_rx.try_recv() {
                engine.set_tables(Some(t));
            }
            let line = match run_job(&mut engine, variant, &job, &out) {
                Ok(done) => done,
                Err(e) => {
                    out.say(&error_line(&e));
                    "done".to_string()
                }
            };
            out.say(&line);
        }
    });
    Worker {
        jobs: tx,
        stop,
        thread: Some(thread),
    }
}

fn run_job<G: Geometry, W: Write>(
    engine: &mut Engine<G>,
    variant: &'static Variant,
    job: &Job,
    out: &Output<W>,
) -> Result<String> {
    let (pos, hist) = job.positions::<G>(variant)?;
    let mut on_info = |i: &Info<G>| {
        let t = i.time.as_secs_f64();
        let pv: Vec<String> = i.pv.iter().map(write_move).collect();
        out.say(&format!(
            "info depth={} mean-depth={} score={} nodes={} time={:.3} nps={:.2} pv=\"{}\"",
            i.depth,
            i.seldepth,
            write_score(i.score),
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
    let mut line = format!("done move={}", write_move(&best));
    if let Some(p) = r.ponder {
        line.push_str(&format!(" ponder={}", write_move(&p)));
    }
    Ok(line)
}

/// The engine over the Hub protocol: reads the GUI's lines from `input` until `quit` or its
/// end, and writes the answers, `info` lines and `done` to `output` (each line flushed). The
/// engine searches on a thread of its own, so that `stop` is heard during a search.
/// `variant` is played until the GUI sets another; the hash table never takes more than
/// `memory_limit` bytes (see [`crate::memory_limit`]); the endgame tables (`bb-size`) come
/// from `tables`, once per variant and size.
///
/// # Errors
/// Reading `input` fails.
pub fn run<R: BufRead, W: Write + Send + 'static>(
    variant: &'static Variant,
    memory_limit: u64,
    tables: TableSource,
    input: R,
    output: W,
) -> std::io::Result<()> {
    let tables = TableCache {
        source: tables,
        last: Arc::new(Mutex::new(None)),
    };
    let out = Output(Arc::new(Mutex::new(output)));
    let mut session = Session::new(variant, memory_limit);
    let mut worker: Option<Worker> = None;
    for line in input.lines() {
        let line = line?;
        match session.handle(&line, &mut |l| out.say(l)) {
            Effect::Nothing => {}
            Effect::Start { ready } => {
                // The old engine (if any) stops before the new one is made.
                drop(worker.take());
                let (v, mb, pieces) = (session.variant, session.hash_mb, session.table_pieces);
                let (o, t) = (out.clone(), tables.clone());
                worker = Some(with_board!(v.board, G => spawn_worker::<G, W>(v, mb, pieces, t, o)));
                if ready {
                    out.say("ready");
                }
            }
            Effect::Go(job) => {
                if let Some(w) = worker.as_ref() {
                    w.stop.store(false, Ordering::Relaxed);
                    let _ = w.jobs.send(Some(job));
                }
            }
            Effect::StopAfter(hard) => {
                if let Some(w) = worker.as_ref() {
                    let stop = Arc::clone(&w.stop);
                    std::thread::spawn(move || {
                        std::thread::sleep(hard);
                        stop.store(true, Ordering::Relaxed);
                    });
                }
            }
            Effect::Stop => {
                if let Some(w) = worker.as_ref() {
                    w.stop.store(true, Ordering::Relaxed);
                }
            }
            Effect::Quit => break,
        }
    }
    drop(worker);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::{write_position, Arguments};
    use crate::test_util::engine_side;
    use proptest::prelude::*;
    use std::time::Instant;
    use tablier_draughts::{G10, INTERNATIONAL};

    fn level_args(line: &str) -> Arguments {
        parse_line(&format!("level {line}")).unwrap().1
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
    fn session(limit: u64) -> (Session, Vec<String>) {
        (Session::new(&INTERNATIONAL, limit), Vec::new())
    }

    fn send(s: &mut Session, said: &mut Vec<String>, line: &str) -> Effect {
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
    fn four_piece_tables_where_the_board_allows_them() {
        let (mut s, mut said) = session(1 << 30);
        send(&mut s, &mut said, "hub");
        assert!(
            said.iter()
                .any(|l| l == "param name=bb-size value=3 type=int min=0 max=4"),
            "{said:?}"
        );
        send(&mut s, &mut said, "set-param name=bb-size value=4");
        assert_eq!(s.table_pieces(), 4);
        for bad in ["5", "-1", "4.0", ""] {
            said.clear();
            send(
                &mut s,
                &mut said,
                &format!("set-param name=bb-size value={bad}"),
            );
            assert!(said[0].contains("0 to 4 in international"), "{said:?}");
            assert_eq!(s.table_pieces(), 4);
        }
        // 12x12: four pieces are refused, and a size set for another board comes down to 3.
        send(&mut s, &mut said, "set-param name=variant value=canadian");
        assert_eq!(s.table_pieces(), 3);
        said.clear();
        send(&mut s, &mut said, "set-param name=bb-size value=4");
        assert!(said[0].contains("0 to 3 in canadian"), "{said:?}");
        assert_eq!(s.table_pieces(), 3);
        send(&mut s, &mut said, "set-param name=variant value=english");
        send(&mut s, &mut said, "set-param name=bb-size value=4");
        assert_eq!(s.table_pieces(), 4);
    }

    #[test]
    fn the_tables_are_asked_for_once_per_variant_and_size() {
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        let source: TableSource = Arc::new(move |v: &'static Variant, n: u32| {
            tx.lock().unwrap().send((v.name, n)).unwrap();
            // Small tables of any kind will do: what is counted is the asking.
            Some(Arc::new(Tables::generate::<G10>(
                &INTERNATIONAL,
                2,
                &mut |_, _| {},
            )))
        });
        let cache = TableCache {
            source: Arc::clone(&source),
            last: Arc::new(Mutex::new(None)),
        };
        for _ in 0..3 {
            assert_eq!(cache.get(&INTERNATIONAL, 4).unwrap().max_pieces(), 2);
        }
        assert_eq!(rx.try_iter().collect::<Vec<_>>(), [("international", 4)]);
        cache.get(&INTERNATIONAL, 3).unwrap();
        cache.get(&tablier_draughts::ENGLISH, 3).unwrap();
        assert_eq!(
            rx.try_iter().collect::<Vec<_>>(),
            [("international", 3), ("english", 3)]
        );
        // Through the protocol: the GUI's bb-size reaches the source, and a new game in the
        // same settings does not ask again.
        let lines = "hub\nset-param name=bb-size value=4\ninit\nnew-game\nnew-game\nquit\n";
        run(
            &INTERNATIONAL,
            1 << 30,
            source,
            lines.as_bytes(),
            std::io::sink(),
        )
        .unwrap();
        let first = rx.recv_timeout(Duration::from_secs(30)).unwrap();
        assert_eq!(first, ("international", 4));
        assert!(rx.recv_timeout(Duration::from_secs(2)).is_err());
    }

    #[test]
    fn a_refused_level_leaves_the_last_one_for_go() {
        let (mut s, mut said) = session(1 << 30);
        let start = write_position(&Position::<G10>::start(&INTERNATIONAL).unwrap());
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
            Effect::Go(job) => {
                assert_eq!(job.limits.depth, Some(3));
                assert_eq!(job.limits.time, TimeControl::Infinite);
            }
            other => panic!("{other:?}"),
        }
    }

    /// A `ponder-hit` on a game clock gives the search the time the engine's own plan gives
    /// that position: less at the start (40 pieces) than the 30-move share, more in an
    /// ending.
    #[test]
    fn a_ponder_hit_spends_what_the_material_plan_gives() {
        let start = write_position(&Position::<G10>::start(&INTERNATIONAL).unwrap());
        // White men on 31 and 32, black men on 19 and 20: four pieces.
        let ending = format!(
            "W{}",
            (1..=50)
                .map(|sq| match sq {
                    31 | 32 => 'w',
                    19 | 20 => 'b',
                    _ => 'e',
                })
                .collect::<String>()
        );
        let clock = |pieces| {
            Limits {
                time: TimeControl::Clock {
                    remaining: Duration::from_secs(60),
                    increment: Duration::ZERO,
                    moves_to_go: None,
                },
                ..Limits::move_time(Duration::ZERO)
            }
            .budgets_for(pieces, SOFT_SHARE)
            .1
            .unwrap()
        };
        for (pos, pieces) in [(start, 40), (ending, 4)] {
            let (mut s, mut said) = session(1 << 30);
            for line in [
                "init",
                "level time=60",
                &format!("pos pos={pos}"),
                "go ponder",
            ] {
                send(&mut s, &mut said, line);
            }
            assert!(said.is_empty(), "{said:?}");
            match send(&mut s, &mut said, "ponder-hit") {
                Effect::StopAfter(hard) => assert_eq!(hard, clock(Some(pieces))),
                other => panic!("{other:?}"),
            }
        }
        assert!(clock(Some(40)) < clock(None) && clock(None) < clock(Some(4)));
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
                with_board!(v.board, G => write_position(&Position::<G>::start(v).unwrap()))
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
        #![proptest_config(tablier_test_support::fuzz::config(10_000))]

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
            let mut s = Session::new(&INTERNATIONAL, limit);
            let mut engine_variant: Option<&'static Variant> = None;
            for line in &lines {
                let mut said = Vec::new();
                let effect = s.handle(line, &mut |l| said.push(l.to_string()));
                for l in &said {
                    let (cmd, args) = parse_line(l).expect("a Hub line");
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
                    Effect::Start { .. } => engine_variant = Some(s.variant),
                    Effect::Go(job) => {
                        let v = engine_variant.expect("go only after init");
                        let _ = with_board!(v.board, G => job.positions::<G>(v).map(|_| ()));
                        engine_side(&job.limits);
                    }
                    Effect::StopAfter(d) => {
                        prop_assert!(Instant::now().checked_add(d).is_some());
                    }
                    Effect::Stop | Effect::Nothing => {}
                    Effect::Quit => break,
                }
            }
        }
    }
}
