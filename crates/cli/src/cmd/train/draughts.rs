//! `tablier train draughts`: the evaluation's weights tuned on self-play games (Texel's
//! method), or pattern tables learnt on them; the games are
//! [`tablier_draughts_engine::selfplay`]'s, the files and the progress are here.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use rand::SeedableRng;
use tablier_draughts::{fen, with_board, Geometry, Variant};
use tablier_draughts_engine::eval::{FEATURE_NAMES, NUM_FEATURES};
use tablier_draughts_engine::selfplay::{self, TexelGames};
use tablier_draughts_engine::tune::{self, MatchScore, PlayConfig, PlayedGame};
use tablier_draughts_engine::{Engine, Weights};

use crate::cmd::draughts::{read_patterns, variant};
use crate::common::{interrupted, progress, read_text, stop_on_interrupt};

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
    /// line: its result for white, then its positions as FEN, separated by `;`, each followed
    /// by `=` and the search's score in white's favour where the move was searched).
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
    /// Pattern tables: in the `--check-pairs` games, the starting weights play with these
    /// tables (default: none), so that new tables are checked against older ones.
    #[arg(long)]
    check_patterns: Option<PathBuf>,
    /// Pattern tables: learn two phases of tables, one for the opening and one for the
    /// endgame, blended by the share of the pieces still on the board.
    #[arg(long)]
    phased: bool,
    /// Pattern tables: what the tables learn to predict, per position, is this share of the
    /// score the self-play search gave it (as a winning chance, with the same scale as the
    /// evaluation) and the rest of the game's result (0: the result alone; 1: the score
    /// alone). Positions without a score (loaded from older files) keep the result.
    #[arg(long, default_value_t = 0.0, value_parser = share)]
    score_weight: f32,
}

/// A share between 0 and 1.
fn share(text: &str) -> Result<f32, String> {
    let x: f32 = text.parse().map_err(|e| format!("{e}"))?;
    if (0.0..=1.0).contains(&x) {
        Ok(x)
    } else {
        Err(format!("{x} is not between 0 and 1"))
    }
}

/// Runs `tablier train draughts`.
pub fn run(args: &TrainArgs) -> Result<()> {
    let variant = variant(&args.variant)?;
    if tablier_draughts::french::is_french(variant) {
        bail!(
            "the old French rules use the international weights: tune with --variant international"
        );
    }
    let mut start = match &args.from {
        Some(p) => {
            let text = read_text(p)?;
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
) -> Vec<PlayedGame<G>> {
    let config = PlayConfig {
        depth: args.depth,
        opening_plies: args.opening_plies,
        max_plies: args.max_plies,
    };
    let bar = progress(u64::from(args.games), args.quiet, "games");
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
    let stop = interrupted();
    let mut player = start.clone();
    if let Some(p) = &args.play_patterns {
        player.patterns = Some(Arc::new(read_patterns::<G>(p)?));
    }
    let mut games = self_play_parallel::<G>(args, variant, &player, stop);
    if let Some(p) = &args.save_games {
        std::fs::write(p, saved_games(&games))
            .with_context(|| format!("cannot write {}", p.display()))?;
    }
    for p in &args.load_games {
        let text = read_text(p)?;
        games.extend(
            parse_saved_games::<G>(variant, &text).map_err(|e| anyhow!("{}: {e}", p.display()))?,
        );
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
        mut train,
        held_out: mut held,
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
    if args.score_weight > 0.0 {
        let scored =
            train.blend_scores(args.score_weight, k) + held.blend_scores(args.score_weight, k);
        println!(
            "aiming at {:.2} x the search's score + {:.2} x the result ({scored} of {} positions have a score)",
            args.score_weight,
            1.0 - args.score_weight,
            train.len() + held.len()
        );
    }
    let config = FitConfig {
        k,
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
        phases: if args.phased { 2 } else { 1 },
    };
    let zero = patterns::PatternWeights::zeros(windows.len());
    let (before, held_before) = (train.loss(&zero, k), held.loss(&zero, k));
    println!("log loss without patterns {before:.5}, held out {held_before:.5}");
    let mut rng = rand::rngs::StdRng::seed_from_u64(args.seed);
    let (table, log) = patterns::fit(&train, &held, &config, &mut rng, stop, &mut |e| {
        println!(
            "  pass {:>2}: log loss {:.5}, held out {:.5}",
            e.epoch, e.train, e.held_out
        );
    });
    let best = log.iter().map(|e| e.held_out).fold(held_before, f64::min);
    if args.score_weight > 0.0 {
        println!(
            "held-out log loss against the results alone: {:.5} without patterns, {:.5} with",
            held.result_loss(&zero, k),
            held.result_loss(&table, k)
        );
    }
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
        let mut against = start.clone();
        if let Some(p) = &args.check_patterns {
            against.patterns = Some(Arc::new(read_patterns::<G>(p)?));
        }
        let score = check_match::<G>(variant, (&with, &against), &check, args, args.threads, stop);
        let what = if args.check_patterns.is_some() {
            "new tables vs --check-patterns"
        } else {
            "with vs without patterns"
        };
        println!("{}", check_report(what, &score, args.check_depth));
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
        windows.len() * patterns::CONFIGS * table.phases(),
        began.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Writes pattern tables atomically (a temporary file renamed over the target).
/// The text of `--save-games`: one game a line, its result for white, then its positions as
/// FEN, each with `=` and its search score where it has one, all separated by `;`.
fn saved_games<G: Geometry>(games: &[PlayedGame<G>]) -> String {
    let mut text = String::new();
    for g in games {
        let _ = write!(text, "{}", g.result);
        for (i, pos) in g.positions.iter().enumerate() {
            let _ = write!(text, ";{}", fen::write_plain(pos));
            if let Some(score) = g.scores.get(i).copied().flatten() {
                let _ = write!(text, "={score}");
            }
        }
        text.push('\n');
    }
    text
}

/// Reads the games of [`saved_games`] (files written before the scores were saved read too:
/// their positions have none).
fn parse_saved_games<G: Geometry>(
    variant: &'static Variant,
    text: &str,
) -> Result<Vec<PlayedGame<G>>> {
    let mut games = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let bad = |why: &str| anyhow!("line {}: not a saved game ({why})", n + 1);
        let mut parts = line.split(';');
        let result: f32 = parts
            .next()
            .and_then(|r| r.parse().ok())
            .filter(|r| [0.0, 0.5, 1.0].contains(r))
            .ok_or_else(|| bad("the result is not 0, 0.5 or 1"))?;
        let mut game = PlayedGame {
            positions: Vec::new(),
            scores: Vec::new(),
            result,
        };
        for part in parts {
            let (f, score) = match part.split_once('=') {
                Some((f, s)) => (
                    f,
                    Some(
                        s.parse::<i32>()
                            .map_err(|_| bad("a score is not a number"))?,
                    ),
                ),
                None => (part, None),
            };
            let pos = fen::parse::<G>(variant, f).map_err(|e| anyhow!("line {}: {e}", n + 1))?;
            game.positions.push(pos);
            game.scores.push(score);
        }
        games.push(game);
    }
    Ok(games)
}

fn write_patterns(
    out: &Path,
    table: &tablier_draughts_engine::patterns::PatternWeights,
) -> Result<()> {
    crate::common::write_file(out, &table.to_bytes())
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
    let bar = progress(u64::from(args.check_pairs) * 2, args.quiet, "check games");
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

/// The result of a check match between `what` at `depth`, as the report gives it.
fn check_report(what: &str, score: &MatchScore, depth: u32) -> String {
    format!(
        "{what}, {} games at depth {depth}: +{} ={} -{} ({:.1}%, Elo {:+.0} ± {:.0})",
        score.games(),
        score.wins,
        score.draws,
        score.losses,
        score.fraction() * 100.0,
        score.elo(),
        score.elo_margin()
    )
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
    let stop = interrupted();
    stop_on_interrupt(engine.stop_flag());
    let config = PlayConfig {
        depth: args.depth,
        opening_plies: args.opening_plies,
        max_plies: args.max_plies,
    };
    // Every tenth game is held out: the loss on positions the fit never saw.
    let bar = progress(u64::from(args.games), args.quiet, "games");
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
        stop,
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
        let score = check_match::<G>(variant, (&fit.weights, &start), &check, args, 1, stop);
        let line = check_report("tuned vs starting weights", &score, args.check_depth);
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
    crate::common::write_file(out, text.as_bytes())?;
    println!("wrote {}", out.display());
    Ok(())
}

/// Today's date (UTC) as YYYY-MM-DD.
fn utc_date() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    let [y, m, d] = tablier_catalog::export::civil_date(ms);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        let d = utc_date();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }

    #[test]
    fn saved_games_keep_their_scores_and_old_files_still_read() {
        use tablier_draughts::{G10, INTERNATIONAL};
        let a = fen::parse::<G10>(&INTERNATIONAL, "W:W31,32,38,44:B3,12,17").unwrap();
        let b = fen::parse::<G10>(&INTERNATIONAL, "B:W34,39,48:B7,13,19,20").unwrap();
        let games = vec![
            PlayedGame {
                positions: vec![a, b],
                scores: vec![Some(-35), None],
                result: 0.5,
            },
            PlayedGame {
                positions: vec![b],
                scores: vec![Some(120)],
                result: 1.0,
            },
        ];
        let text = saved_games(&games);
        assert_eq!(
            parse_saved_games::<G10>(&INTERNATIONAL, &text).unwrap(),
            games
        );
        // A file of the format before the scores: every position without one.
        let old = format!("0;{};{}\n", fen::write_plain(&a), fen::write_plain(&b));
        let read = parse_saved_games::<G10>(&INTERNATIONAL, &old).unwrap();
        assert_eq!(read[0].scores, vec![None, None]);
        assert_eq!(read[0].result, 0.0);
        // Bad lines are refused with their number.
        for bad in [
            "0.25;W:W31:B3".to_string(),
            format!("1;{}=x", fen::write_plain(&a)),
            "1;W:W31:B99".to_string(),
        ] {
            let text = format!("{}\n{bad}\n", text.lines().next().unwrap());
            let e = parse_saved_games::<G10>(&INTERNATIONAL, &text).unwrap_err();
            assert!(e.to_string().starts_with("line 2"), "{e}");
        }
    }
}
