//! `tablier train draughts` and `tablier analyse game.pdn`: the draughts engine's commands
//! (`tablier hub`, `dxp`, `match` and the benchmarks are in `draughts_protocol`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use rand::SeedableRng;
use tablier_core::Side;
use tablier_draughts::game::Game;
use tablier_draughts::notation::{self, MoveText};
use tablier_draughts::pdn::{self, Element, PdnGame, PdnSquare};
use tablier_draughts::{fen, replay, with_board, Geometry, Move, Position, Variant, VARIANTS};
use tablier_draughts_engine::eval::{FEATURE_NAMES, NUM_FEATURES};
use tablier_draughts_engine::search::{is_mate, TABLE_WIN};
use tablier_draughts_engine::selfplay::{self, TexelGames};
use tablier_draughts_engine::tune::{self, MatchScore, PlayConfig};
use tablier_draughts_engine::{Engine, Limits, Weights};

pub use crate::draughts_protocol::{dxp, hub, run_match, DxpArgs, HubArgs, MatchArgs};

/// Options of `tablier analyse` for draughts games (`--time`, `--depth`).
#[derive(Args)]
pub struct AnalyseOpts {
    /// Thinking time per position, in seconds (default 1; ignored with `--depth`).
    #[arg(long = "time", id = "draughts_time", value_name = "SECONDS")]
    time: Option<f64>,
    /// Search every position to this depth (plies) instead of by time.
    #[arg(long = "depth", id = "draughts_depth", value_name = "PLIES")]
    depth: Option<u32>,
    /// The variant of games without a `GameType` tag (default: international).
    #[arg(long = "variant", id = "draughts_variant", value_name = "VARIANT")]
    variant: Option<String>,
    /// A move that loses at least this much (men) gets `?`.
    #[arg(
        long = "mistake",
        id = "draughts_mistake",
        value_name = "MEN",
        default_value_t = 0.5
    )]
    mistake: f64,
    /// A move that loses at least this much (men), or throws a win away, gets `??`.
    #[arg(
        long = "blunder",
        id = "draughts_blunder",
        value_name = "MEN",
        default_value_t = 1.5
    )]
    blunder: f64,
    /// No progress bar.
    #[arg(long = "quiet", id = "draughts_quiet")]
    quiet: bool,
}

/// `tablier train draughts`: tuning the evaluation.
#[derive(Args)]
pub struct TrainArgs {
    /// The variant whose weights are tuned.
    #[arg(long, default_value = "international")]
    variant: String,
    /// Self-play games to play.
    #[arg(long, default_value_t = 1000)]
    games: u32,
    /// Search depth of the self-play moves (plies).
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// Random plies of each balloted opening.
    #[arg(long, default_value_t = 8)]
    opening_plies: u32,
    /// A game still going after this many plies is scored a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Weights to start from (default: the ones shipped for the variant).
    #[arg(long)]
    from: Option<PathBuf>,
    /// Where to write the tuned weights (default:
    /// crates/draughts-engine/weights/VARIANT.txt).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Hold these weights at their starting values (repeatable: `--fix kings --fix back`);
    /// `men` is always held at 100.
    #[arg(long, value_name = "FEATURE")]
    fix: Vec<String>,
    /// Ridge: how strongly each weight is pulled toward its starting value.
    #[arg(long, default_value_t = 1e-5)]
    ridge: f64,
    /// Then play this many pairs of games (colours reversed, balloted openings) of the tuned
    /// weights against the starting ones; the file is written only if the tuned weights
    /// score at least 50%.
    #[arg(long, default_value_t = 0)]
    check_pairs: u32,
    /// Search depth of those games.
    #[arg(long, default_value_t = 6)]
    check_depth: u32,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
    /// Learn pattern tables on top of the starting weights instead of tuning the weights
    /// (written to `--out`, default crates/draughts-engine/weights/VARIANT-patterns.bin).
    #[arg(long)]
    patterns: bool,
    /// Self-play games played at once (threads).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Pattern tables: the self-play games are played with these tables (a file written by
    /// `--patterns`); the new tables are still learnt from zero on the weights alone.
    #[arg(long)]
    play_patterns: Option<PathBuf>,
    /// Pattern tables: also write the self-play games' positions to this file (one game per
    /// line: its result for white, then its positions as FEN, separated by `;`).
    #[arg(long)]
    save_games: Option<PathBuf>,
    /// Pattern tables: learn from the games of these files (written by `--save-games`) too
    /// (repeatable; `--games 0` learns from the files alone).
    #[arg(long)]
    load_games: Vec<PathBuf>,
    /// Pattern tables: write the average of these tables (files written by `--patterns`;
    /// at least two) to `--out` instead of learning new ones. Tables learnt on different games
    /// make errors of their own, and their average evaluates better than any one of them.
    #[arg(long, num_args = 2.., value_name = "FILE")]
    average: Vec<PathBuf>,
    /// Pattern tables: passes over the positions.
    #[arg(long, default_value_t = 12)]
    epochs: usize,
    /// Pattern tables: step size of the first pass.
    #[arg(long, default_value_t = 400.0)]
    rate: f32,
    /// Pattern tables: pull of each entry toward zero, per update.
    #[arg(long, default_value_t = 1e-4)]
    l2: f32,
}

fn variant_named(name: &str) -> Result<&'static Variant> {
    Variant::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
        anyhow!("unknown variant {name:?} (known: {})", names.join(", "))
    })
}

/// A flag Ctrl-C sets (and the engine's own stop flags with it).
fn interrupt_flag(engine_flags: Vec<Arc<AtomicBool>>) -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let f = Arc::clone(&flag);
    let _ = ctrlc::set_handler(move || {
        f.store(true, Ordering::Relaxed);
        for e in &engine_flags {
            e.store(true, Ordering::Relaxed);
        }
    });
    flag
}

// ---------------------------------------------------------------------------------------
// tablier train draughts

/// Runs `tablier train draughts`.
pub fn train(args: &TrainArgs) -> Result<()> {
    let variant = variant_named(&args.variant)?;
    if tablier_draughts::french::is_french(variant) {
        bail!(
            "the old French rules use the international weights: tune with --variant international"
        );
    }
    let mut start = match &args.from {
        Some(p) => {
            let text = crate::read_text(p)?;
            Weights::parse(&text).map_err(|e| anyhow!("{}: {e}", p.display()))?
        }
        None => Weights::for_variant(variant),
    };
    // Both kinds of training fit the weights or the tables alone, on the linear evaluation:
    // the shipped tables are set aside.
    start.patterns = None;
    let out = args.out.clone().unwrap_or_else(|| {
        let file = if args.patterns {
            format!("{}-patterns.bin", variant.name)
        } else {
            format!("{}.txt", variant.name)
        };
        PathBuf::from("crates/draughts-engine/weights").join(file)
    });
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            bail!(
                "{} is not a directory (run from the repository's root, or give --out)",
                dir.display()
            );
        }
    }
    if args.games == 0 && args.load_games.is_empty() && args.average.is_empty() {
        bail!("--games must be at least 1 (or games loaded with --load-games)");
    }
    let mut fixed = [false; NUM_FEATURES];
    for name in &args.fix {
        let i = FEATURE_NAMES
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| {
                anyhow!(
                    "--fix {name}: no such feature (known: {})",
                    FEATURE_NAMES.join(", ")
                )
            })?;
        fixed[i] = true;
    }
    if args.patterns {
        return with_board!(variant.board, G => train_patterns_on::<G>(args, variant, start, &out));
    }
    with_board!(variant.board, G => train_on::<G>(args, variant, start, fixed, &out))
}

/// Self-play games of `start` on `--threads` threads, with a progress bar: each game's
/// quiet positions and result.
fn self_play_parallel<G: Geometry>(
    args: &TrainArgs,
    variant: &'static Variant,
    start: &Weights,
    stop: &AtomicBool,
) -> Vec<(Vec<Position<G>>, f32)> {
    let config = PlayConfig {
        depth: args.depth,
        opening_plies: args.opening_plies,
        max_plies: args.max_plies,
    };
    let bar = crate::progress(u64::from(args.games), args.quiet, "games");
    let games = selfplay::self_play_parallel::<G>(
        variant,
        start,
        &config,
        args.games,
        args.threads,
        args.seed,
        stop,
        &|| bar.inc(1),
    );
    bar.finish_and_clear();
    games
}

/// `tablier train draughts --patterns`: pattern tables learnt on self-play games.
fn train_patterns_on<G: Geometry>(
    args: &TrainArgs,
    variant: &'static Variant,
    start: Weights,
    out: &Path,
) -> Result<()> {
    use tablier_draughts_engine::patterns::{self, FitConfig};
    use tablier_draughts_engine::selfplay::PatternData;
    let began = Instant::now();
    if !args.average.is_empty() {
        let tables = args
            .average
            .iter()
            .map(|p| read_patterns::<G>(p))
            .collect::<Result<Vec<_>>>()?;
        let mean = patterns::PatternWeights::average(&tables).map_err(|e| anyhow!(e))?;
        write_patterns(out, &mean)?;
        println!(
            "wrote {}: the average of {} tables ({} entries set)",
            out.display(),
            tables.len(),
            mean.non_zero()
        );
        return Ok(());
    }
    let stop = interrupt_flag(Vec::new());
    let mut player = start.clone();
    if let Some(p) = &args.play_patterns {
        player.patterns = Some(Arc::new(read_patterns::<G>(p)?));
    }
    let mut games = self_play_parallel::<G>(args, variant, &player, &stop);
    if let Some(p) = &args.save_games {
        let mut text = String::new();
        for (positions, result) in &games {
            let fens: Vec<String> = positions.iter().map(fen::write_plain).collect();
            let _ = writeln!(text, "{result};{}", fens.join(";"));
        }
        std::fs::write(p, text).with_context(|| format!("cannot write {}", p.display()))?;
    }
    for p in &args.load_games {
        let text = crate::read_text(p)?;
        for (n, line) in text.lines().enumerate() {
            let bad = || anyhow!("{} line {}: not a saved game", p.display(), n + 1);
            let mut parts = line.split(';');
            let result: f32 = parts.next().and_then(|r| r.parse().ok()).ok_or_else(bad)?;
            let positions = parts
                .map(|f| {
                    fen::parse::<G>(variant, f)
                        .map_err(|e| anyhow!("{} line {}: {e}", p.display(), n + 1))
                })
                .collect::<Result<Vec<_>>>()?;
            games.push((positions, result));
        }
    }
    if stop.load(Ordering::Relaxed) {
        eprintln!(
            "interrupted: learning from the {} games played",
            games.len()
        );
        stop.store(false, Ordering::Relaxed);
    }
    let play_time = began.elapsed();
    let windows = patterns::Windows::<G>::new();
    let PatternData {
        train,
        held_out: held,
        linear,
    } = selfplay::pattern_samples(variant, &start, &games);
    if train.is_empty() || held.is_empty() {
        bail!("too few positions to learn from (play more games)");
    }
    let k = tune::fit_k(&linear, &start) as f32;
    println!(
        "{} games in {:.0} s: {} positions, {} held out; K {k:.5} per centi-man",
        games.len(),
        play_time.as_secs_f64(),
        train.len(),
        held.len()
    );
    let config = FitConfig {
        k,
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
    };
    let zero = patterns::PatternWeights::zeros(windows.len());
    let (before, held_before) = (train.loss(&zero, k), held.loss(&zero, k));
    println!("log loss without patterns {before:.5}, held out {held_before:.5}");
    let mut rng = rand::rngs::StdRng::seed_from_u64(args.seed);
    let (table, log) = patterns::fit(&train, &held, &config, &mut rng, &stop, &mut |e| {
        println!(
            "  pass {:>2}: log loss {:.5}, held out {:.5}",
            e.epoch, e.train, e.held_out
        );
    });
    let best = log.iter().map(|e| e.held_out).fold(held_before, f64::min);
    let table = Arc::new(table);
    let with = Weights {
        patterns: Some(Arc::clone(&table)),
        ..start.clone()
    };
    if args.check_pairs > 0 {
        let check = PlayConfig {
            depth: args.check_depth,
            opening_plies: args.opening_plies,
            max_plies: args.max_plies,
        };
        let score = check_match::<G>(variant, (&with, &start), &check, args, args.threads, &stop);
        println!(
            "with vs without patterns, {} games at depth {}: +{} ={} -{} ({:.1}%, Elo {:+.0} ± {:.0})",
            score.games(),
            args.check_depth,
            score.wins,
            score.draws,
            score.losses,
            score.fraction() * 100.0,
            score.elo(),
            score.elo_margin()
        );
        if score.games() > 0 && score.fraction() < 0.5 {
            println!(
                "the tables score less than 50%: {} is left as it was",
                out.display()
            );
            return Ok(());
        }
    }
    write_patterns(out, &table)?;
    println!(
        "wrote {} ({} of {} entries set; held-out log loss {held_before:.5} -> {best:.5}; {:.0} s in all)",
        out.display(),
        table.non_zero(),
        windows.len() * patterns::CONFIGS,
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Pattern tables from a file written by `--patterns`, for `G`'s board.
pub(crate) fn read_patterns<G: Geometry>(
    path: &Path,
) -> Result<tablier_draughts_engine::patterns::PatternWeights> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let t = tablier_draughts_engine::patterns::PatternWeights::from_bytes(&bytes)
        .map_err(|e| anyhow!("{}: {e}", path.display()))?;
    if t.windows() != tablier_draughts_engine::patterns::Windows::<G>::new().len() {
        bail!("{}: pattern tables of another board size", path.display());
    }
    Ok(t)
}

/// Writes pattern tables atomically (a temporary file renamed over the target).
fn write_patterns(
    out: &Path,
    table: &tablier_draughts_engine::patterns::PatternWeights,
) -> Result<()> {
    let tmp = out.with_extension("tmp");
    std::fs::write(&tmp, table.to_bytes())
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, out).with_context(|| format!("cannot write {}", out.display()))
}

/// Pairs of games (balloted openings, colours reversed) of `a` against `b`, on `threads`
/// threads, with a progress bar: `a`'s score.
fn check_match<G: Geometry>(
    variant: &'static Variant,
    (a, b): (&Weights, &Weights),
    config: &PlayConfig,
    args: &TrainArgs,
    threads: usize,
    stop: &AtomicBool,
) -> MatchScore {
    let bar = crate::progress(u64::from(args.check_pairs) * 2, args.quiet, "check games");
    let score = selfplay::check_match::<G>(
        variant,
        a,
        b,
        config,
        args.check_pairs,
        threads,
        args.seed,
        stop,
        &|s| {
            bar.inc(2);
            bar.set_message(format!("{:.1}%", s.fraction() * 100.0));
        },
    );
    bar.finish_and_clear();
    score
}

fn train_on<G: Geometry>(
    args: &TrainArgs,
    variant: &'static Variant,
    start: Weights,
    fixed: [bool; NUM_FEATURES],
    out: &Path,
) -> Result<()> {
    let began = Instant::now();
    let mut engine = Engine::<G>::with_weights(variant, 16, start.clone());
    let stop = interrupt_flag(vec![engine.stop_flag()]);
    let config = PlayConfig {
        depth: args.depth,
        opening_plies: args.opening_plies,
        max_plies: args.max_plies,
    };
    // Every tenth game is held out: the loss on positions the fit never saw.
    let bar = crate::progress(u64::from(args.games), args.quiet, "games");
    let TexelGames {
        train: train_set,
        held_out,
        games,
        results,
    } = selfplay::texel_games(
        &mut engine,
        &config,
        args.games,
        args.seed,
        &stop,
        &mut |g| {
            bar.inc(1);
            bar.set_message(format!("{} positions", g.train.len() + g.held_out.len()));
        },
    );
    bar.finish_and_clear();
    let play_time = began.elapsed();
    if stop.load(Ordering::Relaxed) {
        eprintln!("interrupted: tuning on the {games} games played");
    }
    if train_set.is_empty() {
        bail!("no position to tune on (no game finished)");
    }
    println!(
        "{games} games (white {} wins, {} draws, black {} wins) in {:.0} s: {} positions, {} held out",
        results[2],
        results[1],
        results[0],
        play_time.as_secs_f64(),
        train_set.len(),
        held_out.len()
    );
    let fit = tune::fit_weights_fixing(&train_set, &start, args.ridge, &fixed);
    let held_before = tune::log_loss(&held_out, &start, fit.k_before);
    let held_after = tune::log_loss(&held_out, &fit.weights, fit.k_after);
    println!(
        "log loss {:.5} -> {:.5} (K {:.5} -> {:.5} per centi-man, {} Newton steps); held out {:.5} -> {:.5}",
        fit.loss_before,
        fit.loss_after,
        fit.k_before,
        fit.k_after,
        fit.iterations,
        held_before,
        held_after
    );
    for (name, (a, b)) in FEATURE_NAMES.iter().zip(start.w.iter().zip(fit.weights.w)) {
        println!("  {name:<18} {a:>9.3} -> {b:>9.3}");
    }
    let mut check_line = None;
    if args.check_pairs > 0 && !stop.load(Ordering::Relaxed) {
        let check = PlayConfig {
            depth: args.check_depth,
            ..config
        };
        // One thread: the games of the check do not depend on `--threads`.
        let score = check_match::<G>(variant, (&fit.weights, &start), &check, args, 1, &stop);
        let line = format!(
            "tuned vs starting weights, {} games at depth {}: +{} ={} -{} ({:.1}%, Elo {:+.0} ± {:.0})",
            score.games(),
            args.check_depth,
            score.wins,
            score.draws,
            score.losses,
            score.fraction() * 100.0,
            score.elo(),
            score.elo_margin()
        );
        println!("{line}");
        if score.games() > 0 && score.fraction() < 0.5 {
            println!(
                "the tuned weights score less than 50%: {} is left as it was",
                out.display()
            );
            return Ok(());
        }
        check_line = Some(line);
    }
    let command: Vec<String> = std::env::args()
        .skip(1)
        .map(|a| if a.contains(' ') { format!("'{a}'") } else { a })
        .collect();
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Tuned by `tablier {}` ({}).",
        command.join(" "),
        utc_date()
    );
    let _ = writeln!(
        text,
        "# Texel's method: {games} self-play games ({} plies balloted, then depth {}), seed {};",
        args.opening_plies, args.depth, args.seed
    );
    let _ = writeln!(
        text,
        "# {} quiet positions fitted, {} held out; log loss {:.5} -> {:.5} (held out {:.5} -> {:.5});",
        train_set.len(),
        held_out.len(),
        fit.loss_before,
        fit.loss_after,
        held_before,
        held_after
    );
    let _ = writeln!(
        text,
        "# K {:.5} -> {:.5} per centi-man; {:.0} s (wall clock) in all.",
        fit.k_before,
        fit.k_after,
        began.elapsed().as_secs_f64()
    );
    if let Some(line) = check_line {
        let _ = writeln!(text, "# Check: {line}.");
    }
    text.push_str(&fit.weights.to_text());
    let tmp = out.with_extension("tmp");
    std::fs::write(&tmp, &text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, out).with_context(|| format!("cannot write {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

/// Today's date (UTC) as YYYY-MM-DD.
fn utc_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Howard Hinnant's civil_from_days.
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

// ---------------------------------------------------------------------------------------
// tablier analyse game.pdn

/// Runs `tablier analyse` on a PDN file.
pub fn analyse(file: &Path, output: Option<&Path>, opts: &AnalyseOpts) -> Result<()> {
    let default = match &opts.variant {
        Some(v) => variant_named(v)?,
        None => &tablier_draughts::INTERNATIONAL,
    };
    if let Some(t) = opts.time {
        if !(t.is_finite() && t > 0.0 && t <= 86_400.0) {
            bail!("--time must be a number of seconds above 0");
        }
    }
    if opts.depth == Some(0) {
        bail!("--depth must be at least 1");
    }
    let limits = match opts.depth {
        Some(d) => Limits::depth(d),
        None => Limits {
            search_forced: true,
            ..Limits::move_time(Duration::from_secs_f64(opts.time.unwrap_or(1.0)))
        },
    };
    let text = crate::read_text(file)?;
    let parsed = pdn::parse_pdn(&text);
    if parsed.is_empty() {
        bail!("{}: no game found", file.display());
    }
    // Every game that replays, with its variant; the others are reported.
    let mut failures = Vec::new();
    let mut jobs = Vec::new();
    for (i, g) in parsed.into_iter().enumerate() {
        let n = i + 1;
        match g {
            Err(e) => failures.push(format!("{}: {e}", file.display())),
            Ok(g) => match replay::replay(&g, n, default) {
                Err(e) => failures.push(format!("{}: {e}", file.display())),
                Ok(r) => {
                    let v = Variant::by_name(r.variant).expect("replay names a known variant");
                    if tablier_draughts::french::is_french(v) {
                        failures.push(format!(
                            "{}: game {n}: the old French rules are not analysed",
                            file.display()
                        ));
                    } else {
                        jobs.push((n, g, v, r.plies));
                    }
                }
            },
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    let total: usize = jobs.iter().map(|j| j.3).sum();
    let stop = Arc::new(AtomicBool::new(false));
    let engine_stops = Arc::new(std::sync::Mutex::new(Vec::<Arc<AtomicBool>>::new()));
    {
        let s = Arc::clone(&stop);
        let e = Arc::clone(&engine_stops);
        let _ = ctrlc::set_handler(move || {
            s.store(true, Ordering::Relaxed);
            if let Ok(list) = e.lock() {
                for f in list.iter() {
                    f.store(true, Ordering::Relaxed);
                }
            }
        });
    }
    let bar = crate::progress(total as u64, opts.quiet, "positions");
    let mut out = String::new();
    let mut interrupted = false;
    for (n, g, v, _) in &jobs {
        let push = |out: &mut String, game: &PdnGame| {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&pdn::write_pdn(game));
        };
        if stop.load(Ordering::Relaxed) {
            // Interrupted: the games not analysed are written as they were.
            interrupted = true;
            push(&mut out, g);
            continue;
        }
        bar.set_message(format!("game {n}"));
        let ctx = Ctx {
            limits,
            opts,
            stop: &stop,
            engine_stops: &engine_stops,
            bar: &bar,
        };
        match with_board!(v.board, G => annotate::<G>(g, v, &ctx)) {
            Ok(game) => push(&mut out, &game),
            Err(e) => {
                let msg = format!("{}: game {n}: {e}", file.display());
                eprintln!("{msg}");
                failures.push(msg);
            }
        }
    }
    bar.finish_and_clear();
    if interrupted {
        eprintln!("interrupted: the moves analysed so far have their comments, the rest is written as it was");
    }
    match output {
        Some(p) => {
            std::fs::write(p, &out).with_context(|| format!("cannot write {}", p.display()))?
        }
        None => print!("{out}"),
    }
    if !failures.is_empty() {
        eprintln!(
            "{} game(s) analysed, {} rejected",
            jobs.len(),
            failures.len()
        );
        return Err(crate::draughts_cmd::Failed.into());
    }
    Ok(())
}

struct Ctx<'a> {
    limits: Limits,
    opts: &'a AnalyseOpts,
    stop: &'a AtomicBool,
    engine_stops: &'a std::sync::Mutex<Vec<Arc<AtomicBool>>>,
    bar: &'a indicatif::ProgressBar,
}

/// What the search says of one position.
struct Verdict<G: Geometry> {
    /// Score in centi-men from the side to move's view.
    score: i32,
    best: Option<Move<G>>,
    pv: Vec<Move<G>>,
}

/// A score in men from white's view: `+0.35`, `+#12` (a win found in 12 plies), `+won`
/// (the endgame tables).
fn format_score(score_white: i32) -> String {
    let sign = if score_white < 0 { '-' } else { '+' };
    if is_mate(score_white) {
        let plies = tablier_draughts_engine::WIN - score_white.abs();
        format!("{sign}#{plies}")
    } else if score_white.abs() >= TABLE_WIN - 1000 {
        format!("{sign}won")
    } else {
        format!("{sign}{:.2}", f64::from(score_white.abs()) / 100.0)
    }
}

/// The score of a move for its player, from the score of the position it leads to (for the
/// opponent): a win or loss found there is one ply further away.
fn parent_score(child: i32) -> i32 {
    let s = -child;
    if is_mate(s) {
        s - s.signum()
    } else {
        s
    }
}

/// Whether a score (side to move's view) says the game is won.
fn winning(score: i32) -> bool {
    score > 0 && (is_mate(score) || score >= TABLE_WIN - 1000)
}

/// The moves of `pv` from `pos` in notation.
fn line<G: Geometry>(pos: &Position<G>, pv: &[Move<G>]) -> String {
    let mut p = *pos;
    let mut words = Vec::new();
    for m in pv {
        if !p.legal_moves().contains(m) {
            break;
        }
        words.push(notation::format(&p, m));
        p.play_unchecked(m);
    }
    words.join(" ")
}

fn square<G: Geometry>(s: PdnSquare) -> Result<u32> {
    match s {
        PdnSquare::Num(n) => Ok(u32::from(n)),
        PdnSquare::Alg { file, rank } => {
            let rank = u32::from(rank);
            if rank == 0 || rank > G::N {
                bail!("square {s} is not on the board");
            }
            G::square_at(G::N - rank, u32::from(file))
                .ok_or_else(|| anyhow!("square {s} is not a playing square"))
        }
    }
}

/// Searches `pos` (the game's current position, or the one just after it when the game
/// is over by a draw rule).
fn search<G: Geometry>(
    engine: &mut Engine<G>,
    game: &Game<G>,
    pos: &Position<G>,
    limits: &Limits,
) -> Verdict<G> {
    if pos.legal_moves().is_empty() {
        return Verdict {
            score: -tablier_draughts_engine::WIN,
            best: None,
            pv: Vec::new(),
        };
    }
    let h = game.positions_since_irreversible();
    let hist = if game.position() == pos {
        &h[..h.len().saturating_sub(1)]
    } else {
        &[][..]
    };
    let r = engine.search(pos, hist, limits, &mut |_| {});
    Verdict {
        score: r.score,
        best: r.best,
        pv: r.pv,
    }
}

/// Analyses one game (already replayed without error): returns it with a comment after each
/// move and `?`/`??` on mistakes (the moves after an interruption are left as they were).
fn annotate<G: Geometry>(g: &PdnGame, variant: &'static Variant, ctx: &Ctx<'_>) -> Result<PdnGame> {
    let mut engine = Engine::<G>::new(variant, 64);
    if let Ok(mut list) = ctx.engine_stops.lock() {
        list.push(engine.stop_flag());
    }
    let start: Position<G> = match g.tag("FEN") {
        Some(f) => fen::parse(variant, f).map_err(|e| anyhow!("bad FEN tag {f:?}: {e}"))?,
        None => Position::start(variant).map_err(|e| anyhow!("{e}"))?,
    };
    let mut game = Game::from_position(start);
    let mut pos = start;
    let mut plies = 0usize;
    // The search of the position about to be played in, carried from the previous move.
    let mut before: Option<Verdict<G>> = None;
    let mut body = Vec::with_capacity(g.body.len() * 2);
    for el in &g.body {
        match el {
            Element::Setup(f) => {
                pos = fen::parse(variant, f).map_err(|e| anyhow!("bad setup {f:?}: {e}"))?;
                game = Game::from_position(pos);
                before = None;
                body.push(el.clone());
            }
            Element::Move {
                number,
                mv,
                strength,
            } => {
                let mover = pos.side_to_move();
                let label = format!(
                    "{}{}",
                    plies / 2 + 1,
                    if mover == variant.first { "." } else { "..." }
                );
                let squares = mv
                    .squares
                    .iter()
                    .map(|s| square::<G>(*s))
                    .collect::<Result<Vec<u32>>>()
                    .with_context(|| format!("move {label} {mv}"))?;
                let mt = MoveText {
                    squares,
                    capture: mv.capture,
                };
                let m = notation::resolve(&pos, &mt, &mv.to_string())
                    .map_err(|e| anyhow!("move {label} {mv}: {e}"))?;
                if ctx.stop.load(Ordering::Relaxed) {
                    body.push(el.clone());
                    pos.play_unchecked(&m);
                    continue;
                }
                let b = match before.take() {
                    Some(b) => b,
                    None => search(&mut engine, &game, &pos, &ctx.limits),
                };
                let after_pos = {
                    let mut p = pos;
                    p.play_unchecked(&m);
                    p
                };
                if game.ending().is_none() {
                    game.play(&m).map_err(|e| anyhow!("move {label}: {e}"))?;
                }
                let a = search(&mut engine, &game, &after_pos, &ctx.limits);
                if ctx.stop.load(Ordering::Relaxed) {
                    // The searches were cut short: this move is left without a comment.
                    body.push(el.clone());
                    pos = after_pos;
                    continue;
                }
                ctx.bar.inc(1);
                // Scores from the mover's view: the best move's, and the move played's.
                let best_score = b.score;
                let played_score = if b.best == Some(m) {
                    best_score
                } else {
                    parent_score(a.score)
                };
                let loss = f64::from((best_score - played_score).max(0)) / 100.0;
                let blunder =
                    loss >= ctx.opts.blunder || (winning(best_score) && !winning(played_score));
                let mark = if b.best == Some(m) {
                    None
                } else if blunder {
                    Some("??")
                } else if loss >= ctx.opts.mistake {
                    Some("?")
                } else {
                    None
                };
                let white = |s: i32| if mover == Side::White { s } else { -s };
                let mut comment = format!("eval {}", format_score(white(played_score)));
                if let Some(best) = b.best {
                    let text = notation::format(&pos, &best);
                    if b.best == Some(m) {
                        let _ = write!(comment, ", best {text}");
                    } else {
                        let _ =
                            write!(comment, ", best {text} {}", format_score(white(best_score)));
                    }
                    let pv = line(&pos, &b.pv);
                    if !pv.is_empty() {
                        let _ = write!(comment, " ({pv})");
                    }
                }
                body.push(Element::Move {
                    number: *number,
                    mv: mv.clone(),
                    strength: mark.map(str::to_string).or_else(|| strength.clone()),
                });
                body.push(Element::Comment(comment));
                pos = after_pos;
                before = Some(a);
                plies += 1;
            }
            _ => body.push(el.clone()),
        }
    }
    let annotated = PdnGame {
        tags: g.tags.clone(),
        body,
        result: g.result.clone(),
    };
    Ok(annotated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_men_from_white() {
        assert_eq!(format_score(35), "+0.35");
        assert_eq!(format_score(-120), "-1.20");
        assert_eq!(format_score(0), "+0.00");
        assert_eq!(format_score(tablier_draughts_engine::WIN - 12), "+#12");
        assert_eq!(format_score(-(TABLE_WIN + 300)), "-won");
        // A move that leaves the opponent without a move wins in one ply.
        assert_eq!(
            parent_score(-tablier_draughts_engine::WIN),
            tablier_draughts_engine::WIN - 1
        );
        assert_eq!(parent_score(35), -35);
    }

    #[test]
    fn dates() {
        let d = utc_date();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
