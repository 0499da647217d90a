//! `tablier train trictrac`, `tablier trictrac hint` and `tablier trictrac duel`: the trictrac
//! engine's commands.

use crate::trictrac_cmd::side;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;
use tablier_core::Side;
use tablier_trictrac::{Board, Marker, Roll};
use tablier_trictrac_engine::duel::{mean_se, play_pair};
use tablier_trictrac_engine::selfplay::{self, Checkpoint, Progress, Run};
use tablier_trictrac_engine::{player, Greedy, Policy, Search, SearchPlayer, State, Weights};

/// `tablier train trictrac`.
#[derive(Args)]
pub struct TrainArgs {
    /// Seed of the self-play dice and of the exploration noise.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play parties in all (a resumed run goes on to this number).
    #[arg(long, default_value_t = 1200)]
    games: u64,
    /// Parties between two fits of the weights (one generation).
    #[arg(long, default_value_t = 100)]
    generation: u64,
    /// Random term of ±this many holes on every value during self-play.
    #[arg(long, default_value_t = 0.05)]
    explore: f64,
    /// Weight of the older samples at each new fit (1: keep all equally).
    #[arg(long, default_value_t = 0.6)]
    discount: f64,
    /// Where the trained weights are written (the shipped file is
    /// crates/trictrac-engine/weights/trictrac-eval.txt).
    #[arg(long, default_value = "trictrac-eval.txt")]
    out: PathBuf,
    /// The checkpoint, written after every generation and on Ctrl-C.
    #[arg(long, default_value = "trictrac-train.ckpt")]
    checkpoint: PathBuf,
    /// Go on from the checkpoint.
    #[arg(long)]
    resume: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// `tablier trictrac hint`.
#[derive(Args)]
pub struct HintArgs {
    /// Position in the compact notation (`1W15-24B15`).
    #[arg(long)]
    position: String,
    /// The roll, e.g. `6-5`.
    #[arg(long)]
    roll: String,
    /// Who threw the dice: white or black.
    #[arg(long, default_value = "white")]
    player: String,
    /// Points of White and Black before the roll, `W,B`.
    #[arg(long, default_value = "0,0")]
    points: String,
    /// Holes of White and Black, `W,B`.
    #[arg(long, default_value = "0,0")]
    holes: String,
    /// Who holds the bredouille: white, black or none (by default the only player with
    /// points, if only one has).
    #[arg(long)]
    bredouille: Option<String>,
    /// Search depth: 1 or 2 plies.
    #[arg(long, default_value_t = 1)]
    plies: u8,
    /// A weights file of `tablier train trictrac` instead of the shipped weights.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// `tablier trictrac duel`.
#[derive(Args)]
pub struct DuelArgs {
    /// Player A: `greedy`, `untrained` (the search with the untrained evaluation), `trained`
    /// (the shipped weights), `trained2` (shipped, 2 plies), `level:N`, or `file:PATH`
    /// (weights file, 1 ply).
    #[arg(long, default_value = "trained")]
    a: String,
    /// Player B, as for A.
    #[arg(long, default_value = "greedy")]
    b: String,
    /// Parties in 12 holes (even: each dice sequence is played twice, seats swapped).
    #[arg(long, default_value_t = 500)]
    parties: u64,
    /// Seed of the dice sequences.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Print one JSON object at the end.
    #[arg(long)]
    json: bool,
}

/// Writes the checkpoint atomically (a temporary file renamed over it).
fn save(ck: &Checkpoint, path: &Path) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, ck.to_text()).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}

/// Runs `tablier train trictrac`.
pub fn train(args: &TrainArgs) -> Result<()> {
    if args.generation == 0 {
        bail!("--generation must be at least 1");
    }
    if !(0.0..=1.0).contains(&args.discount) {
        bail!("--discount is between 0 and 1");
    }
    let mut ck = if args.resume {
        let text = std::fs::read_to_string(&args.checkpoint)
            .with_context(|| format!("reading {}", args.checkpoint.display()))?;
        let ck = Checkpoint::parse(&text)?;
        if ck.seed != args.seed {
            bail!(
                "the checkpoint was made with --seed {}, not {}",
                ck.seed,
                args.seed
            );
        }
        ck
    } else {
        Checkpoint::new(args.seed)
    };
    let stop = crate::interrupt_flag();
    let bar = crate::progress(args.games, args.quiet, "parties");
    bar.set_position(ck.games.min(args.games));
    let started = Instant::now();
    let run = Run {
        games: args.games,
        generation: args.generation,
        explore: args.explore,
        discount: args.discount,
    };
    let end = selfplay::train(&mut ck, &run, &stop, &mut |progress| {
        match progress {
            Progress::Partie(_) => bar.inc(1),
            Progress::Generation(ck) => {
                save(ck, &args.checkpoint)?;
                bar.set_message(format!("generation {}", ck.games / args.generation));
            }
        }
        Ok::<(), anyhow::Error>(())
    })?;
    if end.stopped {
        save(&ck, &args.checkpoint)?;
        bar.abandon();
        eprintln!(
            "stopped: checkpoint at {} parties in {} (go on with --resume)",
            ck.games,
            args.checkpoint.display()
        );
        return Ok(());
    }
    bar.finish();
    std::fs::write(&args.out, ck.weights.to_text())
        .with_context(|| format!("writing {}", args.out.display()))?;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{} self-play parties ({} positions this run) in {:.0} s; weights in {}",
        ck.games,
        end.samples,
        secs,
        args.out.display()
    );
    Ok(())
}

fn pair(text: &str, what: &str) -> Result<[u32; 2]> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    match parts[..] {
        [w, b] => Ok([
            w.parse()
                .map_err(|_| anyhow!("--{what}: {w:?} is not a number"))?,
            b.parse()
                .map_err(|_| anyhow!("--{what}: {b:?} is not a number"))?,
        ]),
        _ => bail!("--{what} is `W,B`, e.g. 4,0"),
    }
}

#[derive(Serialize)]
struct HintPlay {
    play: String,
    position_after: String,
    value: f64,
}

#[derive(Serialize)]
struct HintReport {
    position: String,
    roll: String,
    player: Side,
    gains: u32,
    given: u32,
    holes_won: u32,
    go_value: Option<f64>,
    decision: String,
    plays: Vec<HintPlay>,
}

/// Runs `tablier trictrac hint`.
pub fn hint(args: &HintArgs) -> Result<()> {
    let board: Board = args
        .position
        .parse()
        .map_err(|e| anyhow!("--position: {e}"))?;
    let roll = Roll::parse(&args.roll).map_err(|e| {
        anyhow!(
            "--roll: {:?} is not a roll (two numbers 1 to 6, e.g. 6-5)",
            e.0
        )
    })?;
    let who = side(&args.player)?;
    let points = pair(&args.points, "points")?;
    let holes = pair(&args.holes, "holes")?;
    if points.iter().any(|&p| p >= 12) {
        bail!("--points: each player has 0 to 11 points");
    }
    if !(1..=2).contains(&args.plies) {
        bail!("--plies is 1 or 2");
    }
    let mut marker = Marker::new();
    marker.points = points;
    marker.holes = holes;
    marker.bredouille = match args.bredouille.as_deref() {
        None => [
            points[0] > 0 && points[1] == 0,
            points[1] > 0 && points[0] == 0,
        ],
        Some("none") => [false, false],
        Some(name) => {
            let s = side(name)?;
            if points[s.index()] == 0 {
                bail!("--bredouille: {s} has no points");
            }
            [s == Side::White, s == Side::Black]
        }
    };
    let mut state = State::from_position(board, marker, who);
    if state.over {
        bail!("--holes: the partie is over (12 holes)");
    }
    let (score, holes_won) = state.begin_roll(roll);
    let weights = match &args.weights {
        Some(path) => read_weights(path)?,
        None => Weights::shipped(),
    };
    let search = Search::new(weights, args.plies);
    let analysis = search.analyse(&state, &score, holes_won);
    let mut plays: Vec<HintPlay> = score
        .plays
        .legal
        .iter()
        .zip(&analysis.plays)
        .map(|(c, v)| HintPlay {
            play: c.play.notation(),
            position_after: c.end.to_string(),
            value: *v,
        })
        .collect();
    plays.sort_by(|a, b| b.value.total_cmp(&a.value));
    let decision = if state.over {
        "the partie is over".to_string()
    } else if analysis.goes() {
        "go (s'en aller)".to_string()
    } else if analysis.go.is_some() {
        format!("stay and play {}", plays.first().map_or("", |p| &p.play))
    } else {
        format!("play {}", plays.first().map_or("", |p| &p.play))
    };
    let report = HintReport {
        position: board.to_string(),
        roll: roll.to_string(),
        player: who,
        gains: score.gains(),
        given: score.given(),
        holes_won,
        go_value: analysis.go,
        decision,
        plays,
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!(
        "{} throws {} on {}: he wins {} points now ({} hole(s)), the opponent gets {}",
        report.player, report.roll, report.position, report.gains, report.holes_won, report.given
    );
    println!(
        "values: the final margin of holes for {} as the engine estimates it",
        report.player
    );
    if let Some(g) = report.go_value {
        println!("  {:>7.2}  go (s'en aller)", g);
    }
    for p in &report.plays {
        println!("  {:>7.2}  {:<22} -> {}", p.value, p.play, p.position_after);
    }
    println!("engine: {}", report.decision);
    Ok(())
}

fn read_weights(path: &PathBuf) -> Result<Weights> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Weights::parse(&text).with_context(|| format!("reading {}", path.display()))
}

fn make_player(spec: &str, seed: u64) -> Result<Box<dyn Policy>> {
    Ok(match spec {
        "greedy" => Box::new(Greedy::new(seed)),
        "untrained" => Box::new(SearchPlayer::new(
            Search::new(Weights::untrained(), 1),
            0.0,
            seed,
        )),
        "trained" => Box::new(SearchPlayer::new(
            Search::new(Weights::shipped(), 1),
            0.0,
            seed,
        )),
        "trained2" => Box::new(SearchPlayer::new(
            Search::new(Weights::shipped(), 2),
            0.0,
            seed,
        )),
        _ => {
            if let Some(l) = spec.strip_prefix("level:") {
                let level: u8 = l
                    .parse()
                    .map_err(|_| anyhow!("{spec:?}: level is a number"))?;
                Box::new(player(level, seed)?)
            } else if let Some(path) = spec.strip_prefix("file:") {
                Box::new(SearchPlayer::new(
                    Search::new(read_weights(&PathBuf::from(path))?, 1),
                    0.0,
                    seed,
                ))
            } else {
                bail!("unknown player {spec:?} (greedy, untrained, trained, trained2, level:N, file:PATH)")
            }
        }
    })
}

#[derive(Serialize)]
struct DuelReport {
    a: String,
    b: String,
    parties: u64,
    seed: u64,
    holes_per_partie: f64,
    standard_error: f64,
    a_won: u64,
    b_won: u64,
    seconds: f64,
}

/// Runs `tablier trictrac duel`.
pub fn duel(args: &DuelArgs) -> Result<()> {
    if args.parties == 0 || args.parties & 1 == 1 {
        bail!("--parties is a positive even number (each dice sequence is played twice)");
    }
    let mut a = make_player(&args.a, args.seed ^ 0xa)?;
    let mut b = make_player(&args.b, args.seed ^ 0xb)?;
    let stop = crate::interrupt_flag();
    let pairs = args.parties / 2;
    let bar = crate::progress(args.parties, args.quiet, "parties");
    let started = Instant::now();
    let mut per_pair = Vec::new();
    let (mut a_won, mut b_won) = (0, 0);
    for n in 0..pairs {
        if stop.load(Ordering::Relaxed) {
            eprintln!("stopped after {} parties", 2 * n);
            break;
        }
        let r = play_pair(a.as_mut(), b.as_mut(), args.seed, n);
        for m in r.margins {
            if m > 0.0 {
                a_won += 1;
            } else if m < 0.0 {
                b_won += 1;
            }
        }
        per_pair.push((r.margins[0] + r.margins[1]) / 2.0);
        let (m, se) = mean_se(&per_pair);
        bar.set_message(format!("A {m:+.2} ± {se:.2} holes per partie"));
        bar.inc(2);
    }
    bar.finish_and_clear();
    let (m, se) = mean_se(&per_pair);
    let report = DuelReport {
        a: args.a.clone(),
        b: args.b.clone(),
        parties: 2 * per_pair.len() as u64,
        seed: args.seed,
        holes_per_partie: m,
        standard_error: se,
        a_won,
        b_won,
        seconds: started.elapsed().as_secs_f64(),
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "{} vs {}: {} parties in 12 holes ({} dice sequences, seats swapped), seed {}",
            report.a,
            report.b,
            report.parties,
            per_pair.len(),
            report.seed
        );
        println!(
            "A: {:+.2} ± {:.2} holes per partie (standard error); parties won A {} B {}; {:.0} s",
            m, se, a_won, b_won, report.seconds
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_of_numbers() {
        assert_eq!(pair("4,0", "points").unwrap(), [4, 0]);
        assert!(pair("4", "points").is_err());
        assert!(pair("a,1", "points").is_err());
        assert!(make_player("nobody", 1).is_err());
        assert!(make_player("level:9", 1).is_err());
    }
}
