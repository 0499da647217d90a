//! `tablier trictrac ...`: a roll checked at the table (`score`: the points of every legal
//! play, and why), the engine's view of it (`hint`), and duels between players (`duel`).

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use serde::Serialize;
use tablier_core::Side;
use tablier_trictrac::{Board, JanContext, Marker, Roll, RollScore};
use tablier_trictrac_engine::duel::{mean_se, play_pair};
use tablier_trictrac_engine::{player, Greedy, Policy, Search, SearchPlayer, State, Weights};

use crate::common::{interrupted, progress};

/// Trictrac tools.
#[derive(Subcommand)]
pub enum TrictracCommand {
    /// Every legal play of a roll with the points it scores for each player, and why.
    Score(ScoreArgs),
    /// The engine's view of a roll: every play with the points it wins now and its value.
    Hint(HintArgs),
    /// Parties in 12 holes between two players (the engine at a level, greedy...), the same
    /// dice for both seatings: holes won per partie with a standard error.
    Duel(DuelArgs),
}

/// Arguments of `tablier trictrac score`.
#[derive(Args)]
pub struct ScoreArgs {
    /// Position in the compact notation, absolute flèches along White's path (White's talon
    /// 1, Black's 24): `1W15-24B15`. Dames not listed are borne off.
    #[arg(long)]
    position: String,
    /// The roll, e.g. `6-5`.
    #[arg(long)]
    roll: String,
    /// Who threw the dice: white or black.
    #[arg(long, default_value = "white")]
    player: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs a trictrac subcommand.
pub fn run(cmd: TrictracCommand) -> Result<()> {
    match cmd {
        TrictracCommand::Score(args) => score(&args),
        TrictracCommand::Hint(args) => hint(&args),
        TrictracCommand::Duel(args) => duel(&args),
    }
}

/// A side named on the command line (`white`/`w`, `black`/`b`).
fn side(name: &str) -> Result<Side> {
    match name.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Side::White),
        "black" | "b" => Ok(Side::Black),
        _ => bail!("unknown player {name:?} (white or black)"),
    }
}

#[derive(Serialize)]
struct EventReport {
    to: Side,
    points: u32,
    kind: &'static str,
    ways: u8,
    at: Option<u8>,
    table: Option<&'static str>,
    paragraph: &'static str,
    why: String,
}

#[derive(Serialize)]
struct PlayReport {
    play: String,
    position_after: String,
    white: u32,
    black: u32,
    events: Vec<EventReport>,
}

#[derive(Serialize)]
struct ScoreReport {
    position: String,
    roll: String,
    player: Side,
    plays: Vec<PlayReport>,
}

fn report(position: &str, roll: &str, player: &str) -> Result<ScoreReport> {
    let board = Board::parse(position).map_err(|e| anyhow!("bad position {position:?}: {e}"))?;
    let roll = Roll::parse(roll).map_err(|e| anyhow!("{e}"))?;
    let player = side(player)?;
    let s = RollScore::new(&board, player, roll, JanContext::default());
    // Every event is decided by the roll and the legal plays (the obligations make every
    // legal play fill, or conserve, when one can): each play scores the same events.
    let events: Vec<EventReport> = s
        .events
        .iter()
        .map(|e| EventReport {
            to: e.to,
            points: e.points,
            kind: e.kind.name(),
            ways: e.ways,
            at: e.at,
            table: e.table.map(|t| t.name()),
            paragraph: e.kind.paragraph(),
            why: e.to_string(),
        })
        .collect();
    let plays: Vec<PlayReport> = s
        .plays
        .legal
        .iter()
        .map(|c| PlayReport {
            play: c.play.notation(),
            position_after: c.end.to_string(),
            white: s.points_for(Side::White),
            black: s.points_for(Side::Black),
            events: events
                .iter()
                .map(|e| EventReport {
                    to: e.to,
                    points: e.points,
                    kind: e.kind,
                    ways: e.ways,
                    at: e.at,
                    table: e.table,
                    paragraph: e.paragraph,
                    why: e.why.clone(),
                })
                .collect(),
        })
        .collect();
    Ok(ScoreReport {
        position: board.to_string(),
        roll: roll.to_string(),
        player,
        plays,
    })
}

fn score(args: &ScoreArgs) -> Result<()> {
    let report = report(&args.position, &args.roll, &args.player)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!(
        "{} throws {} on {}: {} legal play{}",
        report.player,
        report.roll,
        report.position,
        report.plays.len(),
        if report.plays.len() == 1 { "" } else { "s" }
    );
    for p in &report.plays {
        println!(
            "{:<24} white +{:<3} black +{:<3} -> {}",
            p.play, p.white, p.black, p.position_after
        );
        if p.events.is_empty() {
            println!("    no points");
        }
        for e in &p.events {
            println!("    {}", e.why);
        }
    }
    Ok(())
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
fn hint(args: &HintArgs) -> Result<()> {
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
fn duel(args: &DuelArgs) -> Result<()> {
    if args.parties == 0 || args.parties & 1 == 1 {
        bail!("--parties is a positive even number (each dice sequence is played twice)");
    }
    let mut a = make_player(&args.a, args.seed ^ 0xa)?;
    let mut b = make_player(&args.b, args.seed ^ 0xb)?;
    let stop = interrupted();
    let pairs = args.parties / 2;
    let bar = progress(args.parties, args.quiet, "parties");
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
    fn n197_conserver_par_impuissance_report() {
        let r = report(
            "7W2-8W2-9W3-10W3-11W3-12W2-13B2-14B2-15B2-16B2-17B2-19B1-20B1-21B2-24B1",
            "6-6",
            "white",
        )
        .unwrap();
        assert_eq!(r.plays.len(), 1);
        let p = &r.plays[0];
        assert_eq!((p.play.as_str(), p.white, p.black), ("pass", 12, 16));
        let kinds: Vec<&str> = p.events.iter().map(|e| e.kind).collect();
        assert_eq!(
            kinds,
            [
                "battre à vrai",
                "conserver",
                "battre à faux",
                "battre à faux",
                "nombre non joué (jan qui ne peut)"
            ]
        );
    }

    #[test]
    fn bad_input_is_refused() {
        assert!(report("1W16", "6-5", "white").is_err());
        assert!(report("1W15-24B15", "7-1", "white").is_err());
        assert!(report("1W15-24B15", "6-5", "red").is_err());
    }

    #[test]
    fn pairs_of_numbers() {
        assert_eq!(pair("4,0", "points").unwrap(), [4, 0]);
        assert!(pair("4", "points").is_err());
        assert!(pair("a,1", "points").is_err());
        assert!(make_player("nobody", 1).is_err());
        assert!(make_player("level:9", 1).is_err());
    }
}
