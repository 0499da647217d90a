//! `tablier match`: draughts engine against engine (ours with other weights, a Hub engine,
//! or a DXP follower such as Scan 2.0) from balloted openings, each played with both
//! colours, with the score, the Elo difference and the games as PDN
//! ([`tablier_draughts_protocol::match_runner`]); with a results file, a long run can stop
//! and go on ([`tablier_draughts_protocol::results`]).

use std::io::Write;
use std::net::TcpStream;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use tablier_core::Side;
use tablier_draughts::{with_board, Geometry, Position, Variant, G10, INTERNATIONAL};
use tablier_draughts_engine::{Engine, SearchOptions, Tables, Weights};
use tablier_draughts_protocol::dxp::session::{
    Forfeit, Note, Options, Played, Score, Series, Session, Transport,
};
use tablier_draughts_protocol::dxp::{frame, EndReason, Message};
use tablier_draughts_protocol::hub;
use tablier_draughts_protocol::match_runner::{
    ballot, play_match, Contestant, EngineContestant, Rules, Tally,
};
use tablier_draughts_protocol::results::{GameRecord, Outcome, Results};
use tablier_draughts_protocol::Budget;

use crate::cmd::draughts::read_patterns;
use crate::common::{interrupted, on_interrupt, short_progress};

/// `tablier match`: engine against engine from balloted openings.
#[derive(Args)]
pub struct MatchArgs {
    /// The variant.
    #[arg(long, default_value = "international")]
    variant: String,
    /// The opponent: `tablier` (our own engine, e.g. with other weights), the command line
    /// of a Hub engine, such as `".venv/bin/dame hub"`, or a DXP follower already running,
    /// `dxp://HOST[:PORT]` (international draughts; Scan 2.0 and Moby Dam are such
    /// followers).
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
    /// ProbCut's margin in centi-men for our engine (0: off; default: the engine's).
    #[arg(long)]
    probcut: Option<i32>,
    /// ProbCut's margin for the opponent when it is `tablier`.
    #[arg(long)]
    opponent_probcut: Option<i32>,
    /// Divisor of our engine's late-move reductions (smaller reduces more; default: the
    /// engine's, 1.75).
    #[arg(long)]
    lmr_divisor: Option<f32>,
    /// Divisor of the opponent's late-move reductions when it is `tablier`.
    #[arg(long)]
    opponent_lmr_divisor: Option<f32>,
    /// Reverse futility pruning's margin per ply for our engine, in centi-men (0: off;
    /// default: the engine's, off).
    #[arg(long)]
    futility: Option<i32>,
    /// The same for the opponent when it is `tablier`.
    #[arg(long)]
    opponent_futility: Option<i32>,
    /// Internal iterative reduction for our engine (`true` or `false`; default: the
    /// engine's, false).
    #[arg(long)]
    iir: Option<bool>,
    /// The same for the opponent when it is `tablier`.
    #[arg(long)]
    opponent_iir: Option<bool>,
    /// Late-move pruning for our engine: near the leaves, the quiet moves after the first
    /// N + depth² are not searched (0: off; default: the engine's, off).
    #[arg(long)]
    late_moves: Option<usize>,
    /// The same for the opponent when it is `tablier`.
    #[arg(long)]
    opponent_late_moves: Option<usize>,
    /// How our engine divides a game clock without a move count: `fixed` (as if 30 moves
    /// were left) or `material` (the moves that the pieces on the board suggest; default:
    /// the engine's).
    #[arg(long)]
    time_plan: Option<TimePlan>,
    /// The same for the opponent when it is `tablier`.
    #[arg(long)]
    opponent_time_plan: Option<TimePlan>,
    /// On a game clock, the share of a move's even share of the time left after which our
    /// engine starts no new iteration (default: the engine's, 0.6).
    #[arg(long)]
    soft_share: Option<f64>,
    /// The same for the opponent when it is `tablier`.
    #[arg(long)]
    opponent_soft_share: Option<f64>,
    /// On a game clock, stretch our engine's soft budget where its best move just changed
    /// or its score fell, and shorten it where the best move stands (`true` or `false`;
    /// default: the engine's, false).
    #[arg(long)]
    time_by_stability: Option<bool>,
    /// The same for the opponent when it is `tablier`.
    #[arg(long)]
    opponent_time_by_stability: Option<bool>,
    /// Number of games (rounded up to an even number: each opening is played with both
    /// colours).
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// Seconds per move for both engines (default 0.1); against a DXP follower, for ours
    /// only, instead of dividing the game's time (the follower keeps its game clock).
    #[arg(long)]
    move_time: Option<f64>,
    /// Against a DXP follower: each side's thinking time for the game, in minutes (the
    /// GAMEREQ's clock, which both sides keep).
    #[arg(long, default_value_t = 1)]
    time_per_game_min: u16,
    /// Against a DXP follower: the moves to make in that time (0: the whole game).
    #[arg(long, default_value_t = 0)]
    moves: u16,
    /// Against a DXP follower: our engine thinks on the follower's time too (pondering: it
    /// searches the position after the reply it expects until the reply arrives).
    #[arg(long)]
    ponder: bool,
    /// Against `tablier` or a Hub engine: each side's time for the whole game, in seconds
    /// (a game clock the runner keeps; a side whose clock runs out loses on time), instead
    /// of a time per move.
    #[arg(long)]
    clock_seconds: Option<f64>,
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
    /// End a game as soon as its position is in our endgame tables (--tables), with the
    /// result they give: won endings and dead draws are not played out; such results are
    /// reported as adjudicated.
    #[arg(long)]
    adjudicate: bool,
    /// Keep the games in this file (one JSON line each) and go on from it: a run with the
    /// same settings plays only the games the file lacks, and the score counts them all.
    /// Ctrl-C keeps every finished game.
    #[arg(long)]
    results: Option<PathBuf>,
    /// Write the games as PDN to this file (with --results: every game of the file).
    #[arg(long)]
    pdn: Option<PathBuf>,
}

impl MatchArgs {
    /// Seconds per move (0.1 unless given).
    fn move_time(&self) -> f64 {
        self.move_time.unwrap_or(0.1)
    }

    /// Our engine's search settings.
    fn ours(&self) -> Tuning {
        Tuning {
            probcut: self.probcut,
            lmr_divisor: self.lmr_divisor,
            futility: self.futility,
            iir: self.iir,
            late_moves: self.late_moves,
            plan: self.time_plan,
            soft_share: self.soft_share,
            stability: self.time_by_stability,
        }
    }

    /// The opponent's search settings, when it is `tablier`.
    fn theirs(&self) -> Tuning {
        Tuning {
            probcut: self.opponent_probcut,
            lmr_divisor: self.opponent_lmr_divisor,
            futility: self.opponent_futility,
            iir: self.opponent_iir,
            late_moves: self.opponent_late_moves,
            plan: self.opponent_time_plan,
            soft_share: self.opponent_soft_share,
            stability: self.opponent_time_by_stability,
        }
    }

    /// What a results file must have been written under to be gone on with: everything
    /// that changes the games, but not their number (the openings of a longer match begin
    /// with those of a shorter one).
    fn settings(&self) -> String {
        let per_move = if self.opponent.starts_with("dxp://") {
            let ours = self
                .move_time
                .map_or(String::new(), |t| format!(", tablier {t} s/move"));
            let ponder = if self.ponder { ", tablier ponders" } else { "" };
            format!(
                "{} min/game for {} moves{ours}{ponder}",
                self.time_per_game_min, self.moves
            )
        } else {
            match (self.depth, self.clock_seconds) {
                (Some(d), _) => format!("depth {d}"),
                (None, Some(c)) => format!("{c} s/game"),
                (None, None) => format!("{} s/move", self.move_time()),
            }
        };
        format!(
            "tablier ({}, {}{}) vs {} ({}, {}{}); {} {per_move}; openings of {} plies, seed {}; draw after {} plies; tables {}{}",
            self.weights.as_ref().map_or("shipped weights".into(), |p| p.display().to_string()),
            self.patterns.as_deref().unwrap_or("shipped patterns"),
            self.ours().describe(),
            self.opponent,
            self.opponent_weights.as_ref().map_or("-".into(), |p| p.display().to_string()),
            self.opponent_patterns.as_deref().unwrap_or("-"),
            self.theirs().describe(),
            self.variant,
            self.opening_plies,
            self.seed,
            self.max_plies,
            self.tables,
            if self.adjudicate { ", adjudicated" } else { "" },
        )
    }
}

/// What a match prints as it goes and at the end, and the results file it keeps.
struct Report {
    bar: indicatif::ProgressBar,
    results: Option<Results>,
    /// This run's score (with a results file, the file's score is the one printed).
    tally: Tally,
    /// The games of this run as PDN (without a results file).
    pdn: String,
    /// This run's games that the endgame tables ended.
    adjudicated: usize,
    notes: Vec<String>,
}

impl Report {
    fn new(args: &MatchArgs, games: u64) -> Result<Report> {
        let results = match &args.results {
            Some(p) => Some(Results::open(p, &args.settings())?),
            None => None,
        };
        let kept = results.as_ref().map_or(0, |r| r.games().len() as u64);
        let bar = short_progress(games, false, "games");
        bar.set_position(kept.min(games));
        if kept > 0 {
            eprintln!(
                "{} games already in {}: going on from there",
                kept,
                args.results.as_ref().expect("a results file").display()
            );
        }
        Ok(Report {
            bar,
            results,
            tally: Tally::default(),
            pdn: String::new(),
            adjudicated: 0,
            notes: Vec::new(),
        })
    }

    /// Whether the game of `opening` with tablier as White (`first_white`) was played in an
    /// earlier run.
    fn done(&self, opening: usize, first_white: bool) -> bool {
        self.results
            .as_ref()
            .is_some_and(|r| r.has(opening, first_white))
    }

    /// The score so far: the results file's, or this run's.
    fn score(&self) -> Tally {
        self.results.as_ref().map_or(self.tally, Results::tally)
    }

    /// A game finished: kept, counted, shown.
    fn game(&mut self, number: usize, record: GameRecord) -> Result<()> {
        match record.outcome {
            Outcome::Win => self.tally.wins += 1,
            Outcome::Draw => self.tally.draws += 1,
            Outcome::Loss => self.tally.losses += 1,
        }
        if record.forfeit {
            self.notes.push(format!("game {number}: {}", record.why));
        }
        self.adjudicated += usize::from(record.adjudicated);
        let why = record.why.clone();
        match &mut self.results {
            Some(r) => r.add(record)?,
            None => {
                self.pdn.push_str(&record.pdn);
                self.pdn.push('\n');
            }
        }
        self.bar.inc(1);
        let t = self.score();
        let (s, e, m) = t.summary();
        let status = format!(
            "+{} ={} -{}  {:.1}%  Elo {e:+.0} ± {m:.0}",
            t.wins,
            t.draws,
            t.losses,
            100.0 * s
        );
        if self.bar.is_hidden() {
            // Not a terminal (a log file): one line a game instead of the bar.
            eprintln!("game {number}: {why}; {status}");
        }
        self.bar.set_message(status);
        Ok(())
    }

    /// Something that happened to a game that is not counted (a lost connection).
    fn remark(&mut self, text: String) {
        self.bar.suspend(|| eprintln!("{text}"));
        self.notes.push(text);
    }

    /// The final lines: the score, the Elo difference, the notes; the PDN file.
    fn finish(self, args: &MatchArgs, heading: String) -> Result<()> {
        self.bar.finish_and_clear();
        if let Some(p) = &args.pdn {
            let pdn = match &self.results {
                Some(r) => r
                    .games()
                    .iter()
                    .map(|g| format!("{}\n", g.pdn))
                    .collect::<String>(),
                None => self.pdn.clone(),
            };
            std::fs::write(p, pdn).with_context(|| format!("writing {}", p.display()))?;
        }
        let t = self.score();
        let (s, e, m) = t.summary();
        let adjudicated = self.results.as_ref().map_or(self.adjudicated, |r| {
            r.games().iter().filter(|g| g.adjudicated).count()
        });
        println!("{heading}");
        println!(
            "+{} ={} -{}  score {:.1}%  Elo difference {e:+.0} ± {m:.0} (95%)",
            t.wins,
            t.draws,
            t.losses,
            100.0 * s
        );
        if adjudicated > 0 {
            let s = if adjudicated == 1 { "" } else { "s" };
            println!("  {adjudicated} game{s} adjudicated by the endgame tables");
        }
        for n in self.notes {
            println!("  {n}");
        }
        Ok(())
    }
}

/// Our endgame tables (`--tables`; none below 2 pieces): read from the cache, or solved now
/// and kept there.
fn tables_of<G: Geometry>(
    args: &MatchArgs,
    variant: &'static Variant,
) -> Result<Option<Arc<Tables>>> {
    if args.tables < 2 {
        return Ok(None);
    }
    let t = crate::cmd::draughts::endgame_tables::<G>(variant, args.tables, false)?;
    Ok(Some(Arc::new(t)))
}

/// The search's switches: the engine's own, with ProbCut's margin where one is given.
/// How a game clock without a move count is divided (see
/// [`SearchOptions::moves_left_by_material`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TimePlan {
    /// As if 30 moves were left, whatever the board.
    Fixed,
    /// Over the moves that the pieces on the board suggest are left.
    Material,
}

/// The search settings of one side as the command line gives them (`None`: the engine's).
#[derive(Clone, Copy, Debug)]
struct Tuning {
    probcut: Option<i32>,
    lmr_divisor: Option<f32>,
    futility: Option<i32>,
    iir: Option<bool>,
    late_moves: Option<usize>,
    plan: Option<TimePlan>,
    soft_share: Option<f64>,
    stability: Option<bool>,
}

impl Tuning {
    /// The settings given, for the results file's heading (empty where none is).
    fn describe(&self) -> String {
        fn item<T: std::fmt::Display>(name: &str, v: Option<T>) -> String {
            v.map_or(String::new(), |v| format!(", {name} {v}"))
        }
        item("probcut", self.probcut)
            + &item("lmr divisor", self.lmr_divisor)
            + &item("futility", self.futility)
            + &item("iir", self.iir)
            + &item("late moves", self.late_moves)
            + &self
                .plan
                .map_or(String::new(), |p| format!(", time plan {p:?}"))
            + &item("soft share", self.soft_share)
            + &item("time by stability", self.stability)
    }

    /// The engine's options with these settings.
    fn options(&self) -> SearchOptions {
        let mut o = SearchOptions::default();
        if let Some(m) = self.probcut {
            o.probcut_margin = m.max(0);
        }
        if let Some(d) = self.lmr_divisor {
            o.lmr_divisor = d;
        }
        if let Some(f) = self.futility {
            o.futility_margin = f.max(0);
        }
        if let Some(b) = self.iir {
            o.iir = b;
        }
        if let Some(n) = self.late_moves {
            o.late_moves = n;
        }
        if let Some(p) = self.plan {
            o.moves_left_by_material = p == TimePlan::Material;
        }
        if let Some(s) = self.soft_share {
            o.soft_share = s;
        }
        if let Some(b) = self.stability {
            o.time_by_stability = b;
        }
        o
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
            Some(file) => Some(Arc::new(read_patterns::<G>(std::path::Path::new(file))?)),
        };
        Ok(w)
    };
    let tables = tables_of::<G>(args, variant)?;
    let mut ours = EngineContestant {
        engine: Engine::<G>::with_weights(variant, 64, load(&args.weights, &args.patterns)?),
        label: "tablier".into(),
    };
    ours.engine.set_tables(tables.clone());
    ours.engine.set_options(args.ours().options());
    let mut theirs: Box<dyn Contestant<G>> = if args.opponent == "tablier" {
        let mut e = Engine::<G>::with_weights(
            variant,
            64,
            load(&args.opponent_weights, &args.opponent_patterns)?,
        );
        e.set_tables(tables.clone());
        e.set_options(args.theirs().options());
        Box::new(EngineContestant {
            engine: e,
            label: "tablier (opponent)".into(),
        })
    } else {
        Box::new(hub::client::Client::spawn(&args.opponent, variant)?)
    };
    let pairs = args.games.div_ceil(2) as usize;
    let openings = ballot::<G>(variant, pairs, args.opening_plies, args.seed)?;
    let budget = match (args.depth, args.clock_seconds) {
        (Some(d), _) => Budget::Depth(d),
        (None, Some(c)) => Budget::Clock(Duration::from_secs_f64(c)),
        (None, None) => Budget::Time(Duration::from_secs_f64(args.move_time())),
    };
    let rules = Rules {
        budget,
        max_plies: args.max_plies,
        adjudicate: if args.adjudicate { tables } else { None },
    };
    let interrupted = interrupted();
    let mut report = Report::new(args, 2 * pairs as u64)?;
    let theirs_name = theirs.name();
    let mut failure = None;
    let kept: std::collections::HashSet<(usize, bool)> = (0..pairs)
        .flat_map(|i| [(i, true), (i, false)])
        .filter(|&(i, w)| report.done(i, w))
        .collect();
    play_match(
        &openings,
        variant,
        &mut ours,
        theirs.as_mut(),
        &rules,
        &|i, w| kept.contains(&(i, w)),
        interrupted,
        &mut |round, _| {
            if failure.is_none() {
                if let Err(e) = report.game(round.number, round.record("tablier", &theirs_name)) {
                    failure = Some(e);
                    interrupted.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
        },
    )?;
    if let Some(e) = failure {
        return Err(e);
    }
    let per_move = match budget {
        Budget::Time(t) => format!("{:.3} s per move", t.as_secs_f64()),
        Budget::Depth(d) => format!("depth {d} per move"),
        Budget::Clock(t) => format!("{:.1} s per game", t.as_secs_f64()),
    };
    let played = report.score().games();
    let heading = format!(
        "tablier vs {theirs_name}: {played} games ({} variant, {per_move}, {} balloted openings of {} plies, seed {})",
        variant.name,
        openings.len(),
        args.opening_plies,
        args.seed
    );
    report.finish(args, heading)
}

/// The connection to a DXP follower in use, closed by Ctrl-C.
static PEER: Mutex<Option<TcpStream>> = Mutex::new(None);

/// Ctrl-C against a DXP follower: the game in progress is ended (GAMEEND, not counted) and
/// the connection closed, which ends the match.
fn close_peer() {
    if let Ok(mut peer) = PEER.lock() {
        if let Some(s) = peer.take() {
            // A GAMEEND first: Moby Dam keeps a game going over a lost connection and refuses
            // the next run's GAMEREQ until told the game is over. Outside a game it is ignored
            // (Scan, Moby Dam); stop code 0, as 1 would make either program exit.
            let _ = (&s).write_all(&frame(&Message::GameEnd {
                reason: EndReason::Unknown,
                stop: false,
            }));
            let _ = s.shutdown(std::net::Shutdown::Both);
        }
    }
}

/// A session with the DXP follower at `addr`, on a new connection.
fn dxp_session(
    addr: &str,
    engine: Engine<G10>,
    args: &MatchArgs,
    tables: Option<Arc<Tables>>,
) -> Result<Session> {
    let stream =
        TcpStream::connect(addr).with_context(|| format!("connecting to the follower {addr}"))?;
    let transport = Transport::tcp(stream.try_clone()?)?;
    if let Ok(mut peer) = PEER.lock() {
        *peer = Some(stream);
    }
    let options = Options {
        name: format!("tablier {}", env!("CARGO_PKG_VERSION")),
        move_time: args.move_time.map(Duration::from_secs_f64),
        max_plies: Some(u32::try_from(args.max_plies).unwrap_or(u32::MAX)),
        adjudicate: tables,
        ponder: args.ponder,
    };
    Ok(Session::new(
        transport,
        engine,
        options,
        |note| match note {
            Note::Chat { from, text } => eprintln!("dxp: chat from {from}: {text}"),
            Note::Remark(text) => eprintln!("dxp: {text}"),
            Note::Sent(_) | Note::Received(_) => {}
        },
    ))
}

/// A DXP game as PDN: the position it started from (after the opening's moves), the moves,
/// and the result as the session scored it.
fn dxp_pdn(played: &Played, number: usize, opponent: &str) -> String {
    let (white, black) = match played.us {
        Side::White => ("tablier", opponent),
        Side::Black => (opponent, "tablier"),
    };
    let round = number.to_string();
    let tags = [
        ("Event", "tablier match"),
        ("Round", round.as_str()),
        ("White", white),
        ("Black", black),
        ("Termination", played.why.as_str()),
    ];
    let mut g = tablier_draughts::replay::to_pdn(&played.game, &tags);
    let result = played.result();
    for (k, v) in &mut g.tags {
        if k == "Result" {
            *v = result.to_string();
        }
    }
    g.result = Some(result.to_string());
    tablier_draughts::pdn::write_pdn(&g)
}

/// `tablier match --opponent dxp://HOST[:PORT]`: every balloted opening played twice against
/// a DXP follower, each game asked for with a GAMEREQ from the opening's position and the
/// game clock; a lost connection is reported and the match goes on on a new one.
fn run_dxp_match(args: &MatchArgs, addr: &str) -> Result<()> {
    if args.variant != "international" {
        bail!("DXP plays international draughts only (--variant international)");
    }
    if args.time_per_game_min == 0 || args.time_per_game_min > 999 {
        bail!("--time-per-game-min must be 1..999");
    }
    let addr = if addr.contains(':') {
        addr.to_string()
    } else {
        format!("{addr}:{}", tablier_draughts_protocol::dxp::DEFAULT_PORT)
    };
    let tables = tables_of::<G10>(args, &INTERNATIONAL)?;
    let pairs = args.games.div_ceil(2) as usize;
    let openings = ballot::<G10>(&INTERNATIONAL, pairs, args.opening_plies, args.seed)?;
    let mut report = Report::new(args, 2 * pairs as u64)?;
    let interrupted = interrupted();
    on_interrupt(close_peer);
    let mut engine = Some(Engine::<G10>::new(&INTERNATIONAL, 64));
    if let Some(e) = engine.as_mut() {
        e.set_tables(tables.clone());
        e.set_options(args.ours().options());
    }
    let adjudicate = if args.adjudicate { tables } else { None };
    let mut session: Option<Session> = None;
    let mut opponent = String::from("the follower");
    // This run's replies pondered on, how many came as expected, and those that came while
    // we pondered on the follower's position itself (no reply expected).
    let mut pondered = (0u32, 0u32, 0u32);
    let mut failures = 0;
    /// Connection failures tolerated in one run before the match stops.
    const MAX_FAILURES: u32 = 5;
    'openings: for (i, opening) in openings.iter().enumerate() {
        let mut start = Position::<G10>::start(&INTERNATIONAL)?;
        for m in opening {
            start.play_unchecked(m);
        }
        for first_white in [true, false] {
            if interrupted.load(std::sync::atomic::Ordering::Relaxed) {
                break 'openings;
            }
            if report.done(i, first_white) {
                continue;
            }
            let number = 2 * i + usize::from(!first_white) + 1;
            let series = Series {
                games: 1,
                minutes: args.time_per_game_min,
                moves: args.moves,
                start,
                first_colour: if first_white {
                    Side::White
                } else {
                    Side::Black
                },
            };
            // A game whose connection fails is played again on a new one.
            loop {
                let mut s = match session.take() {
                    Some(s) => s,
                    None => dxp_session(
                        &addr,
                        engine.take().expect("the engine is ours between sessions"),
                        args,
                        adjudicate.clone(),
                    )?,
                };
                let played = match s.initiate(&addr, &series, &mut |_, _| {}) {
                    Ok(mut played) => played.remove(0),
                    Err(e) => {
                        engine = Some(s.into_engine());
                        if interrupted.load(std::sync::atomic::Ordering::Relaxed) {
                            break 'openings;
                        }
                        if let Some(f) = e.downcast_ref::<Forfeit>() {
                            // The follower broke the protocol: its game is lost.
                            report.game(
                                number,
                                GameRecord {
                                    opening: i,
                                    first_white,
                                    outcome: Outcome::Win,
                                    why: format!("{opponent} forfeits: {f}"),
                                    adjudicated: false,
                                    forfeit: true,
                                    pdn: String::new(),
                                },
                            )?;
                            break;
                        }
                        failures += 1;
                        if failures > MAX_FAILURES {
                            bail!("the follower at {addr} failed {failures} times: stopping (the games played are kept)");
                        }
                        report.remark(format!(
                            "game {number}: {e:#}; played again on a new connection"
                        ));
                        continue;
                    }
                };
                opponent.clone_from(&played.opponent);
                pondered.0 += played.pondered.0;
                pondered.1 += played.pondered.1;
                pondered.2 += played.pondered_open;
                let (outcome, why) = match played.score {
                    Score::Win => (Outcome::Win, played.why.clone()),
                    Score::Draw => (Outcome::Draw, played.why.clone()),
                    Score::Loss => (Outcome::Loss, played.why.clone()),
                    // Our cap, as in the other matches.
                    Score::Unfinished if played.plies >= args.max_plies => (
                        Outcome::Draw,
                        format!("adjudicated draw after {} plies", args.max_plies),
                    ),
                    Score::Unfinished => {
                        report.remark(format!(
                            "game {number}: unfinished ({}); not counted",
                            played.why
                        ));
                        (Outcome::Draw, String::new())
                    }
                };
                if !why.is_empty() {
                    report.game(
                        number,
                        GameRecord {
                            opening: i,
                            first_white,
                            outcome,
                            why,
                            adjudicated: played.adjudicated,
                            forfeit: false,
                            pdn: dxp_pdn(&played, number, &opponent),
                        },
                    )?;
                }
                if played.peer_stop {
                    s.close();
                    engine = Some(s.into_engine());
                } else {
                    session = Some(s);
                }
                break;
            }
        }
    }
    if let Some(mut s) = session.take() {
        s.close();
    }
    if args.ponder && pondered.0 > 0 {
        report.remark(format!(
            "pondered on {} replies in this run, {} of them ({:.0}%) the one expected; \
             {} more on the follower's position itself (no reply expected)",
            pondered.0,
            pondered.1,
            100.0 * f64::from(pondered.1) / f64::from(pondered.0),
            pondered.2
        ));
    }
    let played = report.score().games();
    let heading = format!(
        "tablier vs {opponent} (DXP {addr}): {played} games (international, {} min per game{}{}, {} balloted openings of {} plies, seed {})",
        args.time_per_game_min,
        if args.moves > 0 { format!(" for {} moves", args.moves) } else { String::new() },
        args.move_time.map_or(String::new(), |t| format!(", tablier {t} s per move")),
        openings.len(),
        args.opening_plies,
        args.seed
    );
    report.finish(args, heading)
}

/// Runs `tablier match`.
pub fn run(args: &MatchArgs) -> Result<()> {
    if !(0.001..=600.0).contains(&args.move_time()) {
        bail!("--move-time must be between 0.001 and 600 seconds");
    }
    for d in [args.lmr_divisor, args.opponent_lmr_divisor]
        .into_iter()
        .flatten()
    {
        if !(0.5..=100.0).contains(&d) {
            bail!("--lmr-divisor and --opponent-lmr-divisor must be between 0.5 and 100 (got {d})");
        }
    }
    for s in [args.soft_share, args.opponent_soft_share]
        .into_iter()
        .flatten()
    {
        if !(0.05..=3.0).contains(&s) {
            bail!("--soft-share and --opponent-soft-share must be between 0.05 and 3 (got {s})");
        }
    }
    if let Some(c) = args.clock_seconds {
        if !(0.1..=36_000.0).contains(&c) {
            bail!("--clock-seconds must be between 0.1 and 36000");
        }
        if args.depth.is_some() || args.move_time.is_some() {
            bail!("--clock-seconds is a game clock: give it without --depth or --move-time");
        }
    }
    if let Some(addr) = args.opponent.strip_prefix("dxp://") {
        if args.clock_seconds.is_some() {
            bail!("against a DXP follower the clock is --time-per-game-min (the GAMEREQ's)");
        }
        return run_dxp_match(args, addr);
    }
    if args.ponder {
        bail!("--ponder is for a DXP follower (--opponent dxp://HOST:PORT): the other matches take turns on one thread");
    }
    let variant = Variant::by_name(&args.variant)
        .ok_or_else(|| anyhow!("unknown variant {}", args.variant))?;
    with_board!(variant.board, G => run_match_on::<G>(args, variant))
}
