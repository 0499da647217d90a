//! `tablier trictrac ...`: a roll checked at the table (`score`: the points of every legal
//! play, and why), the engine's view of it (`hint`), and duels between players (`duel`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use serde::Serialize;
use tablier_core::Side;
use tablier_trictrac::marker::Pavillon;
use tablier_trictrac::{Board, JanContext, Marker, Roll, RollScore};
use tablier_trictrac_engine::duel::{mean_se, play_ecrire_pair, play_marque_pair, play_pair};
use tablier_trictrac_engine::ecrire::{end_value, EcrirePlayer, MarqueContext};
use tablier_trictrac_engine::rester::StayModel;
use tablier_trictrac_engine::tenue::TenuePlayouts;
use tablier_trictrac_engine::{
    player, Greedy, Objective, Policy, Search, SearchPlayer, State, Weights,
};

use crate::common::{for_each_index, interrupted, progress};

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
    // legal play fill, or conserve, when one can): each play scores the same events — but
    // for the sortie, marked after a play that bears off the last dame (n°118).
    let report_of = |e: &tablier_trictrac::Event| EventReport {
        to: e.to,
        points: e.points,
        kind: e.kind.name(),
        ways: e.ways,
        at: e.at,
        table: e.table.map(|t| t.name()),
        paragraph: e.kind.paragraph(),
        why: e.to_string(),
    };
    let plays: Vec<PlayReport> = s
        .plays
        .legal
        .iter()
        .map(|c| {
            let events: Vec<EventReport> = s.events_of_play(&c.end).iter().map(report_of).collect();
            PlayReport {
                play: c.play.notation(),
                position_after: c.end.to_string(),
                white: s.points_of_play(&c.end, Side::White),
                black: s.points_of_play(&c.end, Side::Black),
                events,
            }
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
    /// What decides: `partie` (the chance of winning the partie in 12 holes, what the levels
    /// play for) or `margin` (the expected margin of holes). The chances are shown either
    /// way. At 1 ply staying after a hole is corrected as the levels correct it.
    #[arg(long, default_value = "partie")]
    objective: String,
    /// A marqué of a partie à écrire (n°220–226): the holes may pass 12, and when going
    /// would end the marqué (6 holes or more) the marqué's table decides, in jetons.
    #[arg(long)]
    ecrire: bool,
    /// With --ecrire: who holds the pavillon (white, black), `lost` (both have interrupted
    /// each other, n°225) or `none` (no hole taken yet).
    #[arg(long, default_value = "none")]
    pavillon: String,
    /// With --ecrire: refaits before this marqué (the consolation is 2 + 2 × refaits).
    #[arg(long, default_value_t = 0)]
    refaits: u32,
    /// With --ecrire: the marqué is one of a partie of this many marqués (an even number),
    /// and the postillons at stake on it count (n°227); 0: a single marqué.
    #[arg(long, default_value_t = 0)]
    marques: u32,
    /// With --marques: marqués already lost by White and by Black, as `W,B`.
    #[arg(long, default_value = "0,0")]
    lost: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// `tablier trictrac duel`.
#[derive(Args)]
pub struct DuelArgs {
    /// Player A: `greedy`, `untrained` (the search with the untrained evaluation), `margin`
    /// (the shipped weights, maximising the hole margin, 1 ply; also `trained`), `margin2`
    /// (2 plies; also `trained2`), `partie` (maximising the chance of winning the partie,
    /// 1 ply), `partie2`, `closing` (the margin until a player has 9 holes, the chance of
    /// the partie from there, 1 ply), `closing2`, `closing-stay` (the margin, staying near the
    /// end where the chance of the partie says stay), `closing-stay2`, `ecrire` (the margin,
    /// going or staying by the marqué's table where going ends a marqué of a partie à
    /// écrire, the postillons at stake counted; for --ecrire), `ecrire2`, `ecrire-no-table`
    /// (`ecrire` with the margin deciding instead of the table), `ecrire-no-postillons`
    /// (the table without the postillons at stake), `margin-stay` (the margin with the shipped
    /// correction of staying after a hole, learnt by playing decisions out), `stay:PATH`
    /// (the same with a model of `tablier train trictrac-stay`), `level:N` (the levels
    /// people meet), or `file:PATH` (weights file, margin, 1 ply).
    #[arg(long, default_value = "trained")]
    a: String,
    /// Player B, as for A.
    #[arg(long, default_value = "greedy")]
    b: String,
    /// Parties in 12 holes (even: each dice sequence is played twice, seats swapped), or
    /// marqués with --ecrire.
    #[arg(long, default_value_t = 500)]
    parties: u64,
    /// Play single marqués of a partie à écrire (n°220–226) instead of parties in 12 holes,
    /// scored in jetons (the marqué's value, n°222–224; a refait counts 0).
    #[arg(long)]
    ecrire: bool,
    /// With --ecrire: play whole parties à écrire of this many marqués (an even number),
    /// scored by their settlement in jetons, postillons included (n°227–237); 0: single
    /// marqués.
    #[arg(long, default_value_t = 0)]
    marques: u32,
    /// Seed of the dice sequences.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Threads playing dice sequences (0: one per core; the result does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
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
    /// In the objective's units: holes of margin, or 2·chance − 1.
    value: f64,
    /// The chance of winning the partie after this play (by the partie objective's search).
    chance: Option<f64>,
}

#[derive(Serialize)]
struct HintReport {
    position: String,
    roll: String,
    player: Side,
    gains: u32,
    given: u32,
    holes_won: u32,
    objective: String,
    go_value: Option<f64>,
    /// The chance of winning the partie by going (by the partie objective's search).
    go_chance: Option<f64>,
    /// With --ecrire, when going would end the marqué: its value and the table's value of
    /// staying, in jetons for the player.
    marque: Option<MarqueHint>,
    decision: String,
    plays: Vec<HintPlay>,
}

#[derive(Serialize)]
struct MarqueHint {
    /// The marqué's value if the player goes (n°222–226).
    marque_jetons: f64,
    /// What winning the marqué rather than losing it changes in postillons (with --marques).
    stake: f64,
    /// Going and staying as the table counts them: the marqué's value, and half the stake
    /// to its winner, half against its loser.
    go_jetons: f64,
    stay_jetons: f64,
}

/// Runs `tablier trictrac hint`.
fn hint(args: &HintArgs) -> Result<()> {
    let report = hint_report(args)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!(
        "{} throws {} on {}: he wins {} points now ({} hole(s)), the opponent gets {}",
        report.player, report.roll, report.position, report.gains, report.holes_won, report.given
    );
    let unit = if report.objective == "partie" {
        "2·chance − 1"
    } else {
        "holes of margin"
    };
    println!(
        "values ({unit}, what the engine decides by) and the chance that {} wins the partie in 12 holes",
        report.player
    );
    let row = |v: f64, c: Option<f64>, what: &str| {
        let c = c.map_or(String::new(), |c| format!("{:5.1}%", 100.0 * c));
        println!("  {v:>7.2}  {c:>6}  {what}");
    };
    if let Some(m) = &report.marque {
        println!(
            "going ends the marqué: go {:+.2} jetons, stay {:+.2} jetons (the marqué's table)",
            m.go_jetons, m.stay_jetons
        );
        if m.stake != 0.0 {
            println!(
                "  (the marqué is worth {:+.0} jetons; {:.1} jetons of postillons ride on winning it, half counted each way)",
                m.marque_jetons, m.stake
            );
        }
    }
    if let Some(g) = report.go_value {
        row(g, report.go_chance, "go (s'en aller)");
    }
    for p in &report.plays {
        row(
            p.value,
            p.chance,
            &format!("{:<22} -> {}", p.play, p.position_after),
        );
    }
    println!("engine: {}", report.decision);
    Ok(())
}

/// The engine's view of a roll for `tablier trictrac hint`.
fn hint_report(args: &HintArgs) -> Result<HintReport> {
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
    let lost = pair(&args.lost, "lost")?;
    if args.ecrire {
        marker.pavillon = pavillon(&args.pavillon, holes)?;
        if args.marques % 2 == 1 {
            bail!("--marques: a partie à écrire has an even number of marqués (n°220)");
        }
        if args.marques == 0 && lost != [0, 0] {
            bail!("--lost is for a marqué of a partie of --marques N");
        }
        if args.marques > 0 && lost[0] + lost[1] >= args.marques {
            bail!(
                "--lost: {} marqués lost, the partie of {} is over",
                lost[0] + lost[1],
                args.marques
            );
        }
    } else if args.pavillon != "none" || args.refaits > 0 || args.marques > 0 || lost != [0, 0] {
        bail!(
            "--pavillon, --refaits, --marques and --lost are for a marqué of a partie à écrire (--ecrire)"
        );
    }
    let mut state = State::from_position(board, marker, who);
    if state.over && !args.ecrire {
        bail!("--holes: the partie is over (12 holes)");
    }
    let (score, holes_won) = state.begin_roll(roll);
    // A marqué goes on past 12 holes; the search sees the score as it is.
    state.over &= !args.ecrire;
    let marque = if args.ecrire && holes_won > 0 {
        let context = MarqueContext {
            marques: args.marques,
            lost,
            refaits: args.refaits,
        };
        let t = context.table();
        t.go_value(&state.marker, who).map(|go| MarqueHint {
            marque_jetons: end_value(&state.marker, who, args.refaits).unwrap_or(0.0),
            stake: t.stake,
            go_jetons: go,
            stay_jetons: t.stay_value(&state.marker, who, score.given()),
        })
    } else {
        None
    };
    let weights = match &args.weights {
        Some(path) => read_weights(path)?,
        None => Weights::shipped(),
    };
    let partie = match args.objective.as_str() {
        "partie" => true,
        "margin" => false,
        o => bail!("--objective: {o:?} is `partie` or `margin`"),
    };
    // As the levels search: the correction of staying at 1 ply, the tenue played out near
    // the end of the partie.
    let stay = (args.plies == 1).then(|| StayModel::shipped().clone());
    let by_chance = Search {
        stay: stay.clone(),
        tenue: Some(TenuePlayouts::LEVELS),
        ..Search::for_partie(weights.clone(), args.plies)
    }
    .analyse(&state, &score, holes_won);
    let analysis = if partie {
        by_chance.clone()
    } else {
        Search {
            stay,
            ..Search::new(weights, args.plies)
        }
        .analyse(&state, &score, holes_won)
    };
    let chance = tablier_trictrac_engine::search::chance;
    let mut plays: Vec<HintPlay> = score
        .plays
        .legal
        .iter()
        .zip(analysis.plays.iter().zip(&by_chance.plays))
        .map(|(c, (v, p))| HintPlay {
            play: c.play.notation(),
            position_after: c.end.to_string(),
            value: *v,
            chance: Some(chance(*p)),
        })
        .collect();
    plays.sort_by(|a, b| b.value.total_cmp(&a.value));
    let goes = marque
        .as_ref()
        .map_or(analysis.goes(), |m| m.go_jetons > m.stay_jetons);
    let decision = if state.over {
        "the partie is over".to_string()
    } else if goes {
        "go (s'en aller)".to_string()
    } else if analysis.go.is_some() {
        format!("stay and play {}", plays.first().map_or("", |p| &p.play))
    } else {
        format!("play {}", plays.first().map_or("", |p| &p.play))
    };
    Ok(HintReport {
        position: board.to_string(),
        roll: roll.to_string(),
        player: who,
        gains: score.gains(),
        given: score.given(),
        holes_won,
        objective: args.objective.clone(),
        go_value: analysis.go,
        go_chance: by_chance.go.map(chance),
        marque,
        decision,
        plays,
    })
}

/// The pavillon of `--pavillon` with these holes: its holder took it second when the other
/// has holes (n°223–225).
fn pavillon(name: &str, holes: [u32; 2]) -> Result<Pavillon> {
    Ok(match name {
        "none" => Pavillon::default(),
        "lost" => Pavillon {
            holder: None,
            passed: true,
            lost: true,
        },
        _ => {
            let s = side(name)
                .map_err(|_| anyhow!("--pavillon: {name:?} is white, black, lost or none"))?;
            if holes[s.index()] == 0 {
                bail!("--pavillon: {s} has no holes");
            }
            Pavillon {
                holder: Some(s),
                passed: holes[s.opposite().index()] > 0,
                lost: false,
            }
        }
    })
}

/// Reads a trictrac weights file of `tablier train trictrac`, naming the file in any error.
pub(crate) fn read_weights(path: &Path) -> Result<Weights> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    Weights::parse(&text).with_context(|| format!("reading {}", path.display()))
}

fn make_player(spec: &str, seed: u64) -> Result<Box<dyn Policy + Send>> {
    let margin = |plies| SearchPlayer::new(Search::new(Weights::shipped(), plies), 0.0, seed);
    let partie =
        |plies| SearchPlayer::new(Search::for_partie(Weights::shipped(), plies), 0.0, seed);
    let closing = |plies| SearchPlayer::new(Search::closing(Weights::shipped(), plies), 0.0, seed);
    // The search with the shipped correction of staying (the levels' at 1 ply).
    let corrected = |search: Search| {
        let search = Search {
            stay: Some(StayModel::shipped().clone()),
            ..search
        };
        SearchPlayer::new(search, 0.0, seed)
    };
    let stay = |plies| {
        let search = Search {
            objective: Objective::ClosingStay,
            ..Search::new(Weights::shipped(), plies)
        };
        SearchPlayer::new(search, 0.0, seed)
    };
    Ok(match spec {
        "greedy" => Box::new(Greedy::new(seed)),
        "untrained" => Box::new(SearchPlayer::new(
            Search::new(Weights::untrained(), 1),
            0.0,
            seed,
        )),
        "trained" | "margin" => Box::new(margin(1)),
        "trained2" | "margin2" => Box::new(margin(2)),
        "partie" => Box::new(partie(1)),
        "partie2" => Box::new(partie(2)),
        "closing" => Box::new(closing(1)),
        "closing2" => Box::new(closing(2)),
        "margin-stay" => Box::new(corrected(Search::new(Weights::shipped(), 1))),
        "partie-stay" => Box::new(corrected(Search::for_partie(Weights::shipped(), 1))),
        "closing-stay" => Box::new(stay(1)),
        "closing-stay2" => Box::new(stay(2)),
        "ecrire" => Box::new(EcrirePlayer::new(margin(1))),
        "ecrire2" => Box::new(EcrirePlayer::new(margin(2))),
        "ecrire-no-table" => Box::new(EcrirePlayer {
            table: false,
            ..EcrirePlayer::new(margin(1))
        }),
        "ecrire-no-postillons" => Box::new(EcrirePlayer {
            postillons: false,
            ..EcrirePlayer::new(margin(1))
        }),
        _ => {
            if let Some(l) = spec.strip_prefix("level:") {
                let level: u8 = l
                    .parse()
                    .map_err(|_| anyhow!("{spec:?}: level is a number"))?;
                Box::new(player(level, seed)?)
            } else if let Some(path) = spec.strip_prefix("stay:") {
                let text =
                    std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
                let model = StayModel::parse(&text).with_context(|| format!("reading {path}"))?;
                let search = Search {
                    stay: Some(model),
                    ..Search::new(Weights::shipped(), 1)
                };
                Box::new(SearchPlayer::new(search, 0.0, seed))
            } else if let Some(path) = spec.strip_prefix("file:") {
                Box::new(SearchPlayer::new(
                    Search::new(read_weights(&PathBuf::from(path))?, 1),
                    0.0,
                    seed,
                ))
            } else {
                bail!("unknown player {spec:?} (greedy, untrained, margin, margin2, partie, partie2, closing, closing2, closing-stay, closing-stay2, ecrire, ecrire2, ecrire-no-table, ecrire-no-postillons, margin-stay, partie-stay, level:N, file:PATH, stay:PATH)")
            }
        }
    })
}

#[derive(Serialize)]
struct DuelReport {
    a: String,
    b: String,
    /// What was played: `partie` (in 12 holes) or `marqué` (of a partie à écrire).
    game: &'static str,
    /// The unit of the margins: holes, or jetons for marqués.
    unit: &'static str,
    parties: u64,
    seed: u64,
    /// A's mean margin per game, in `unit` (holes per partie, or jetons per marqué).
    holes_per_partie: f64,
    standard_error: f64,
    a_won: u64,
    b_won: u64,
    /// A's share of the parties (a tie by holes counts half).
    a_share: f64,
    /// 95% margin of that share, from the spread between dice sequences.
    a_share_margin: f64,
    seconds: f64,
}

/// Runs `tablier trictrac duel`.
fn duel(args: &DuelArgs) -> Result<()> {
    if args.parties == 0 || args.parties & 1 == 1 {
        bail!("--parties is a positive even number (each dice sequence is played twice)");
    }
    // Refuse an unknown player before starting.
    make_player(&args.a, 0)?;
    make_player(&args.b, 0)?;
    let stop = interrupted();
    let pairs = args.parties / 2;
    if args.marques % 2 == 1 || (args.marques > 0 && !args.ecrire) {
        bail!("--marques is an even number of marqués, with --ecrire");
    }
    let (game, games, unit) = if args.marques > 0 {
        ("partie à écrire", "parties", "jetons")
    } else if args.ecrire {
        ("marqué", "marqués", "jetons")
    } else {
        ("partie", "parties", "holes")
    };
    let bar = progress(args.parties, args.quiet, "parties");
    let started = Instant::now();
    let results = std::sync::Mutex::new(Vec::<(u64, [f64; 2])>::new());
    for_each_index(args.threads, pairs, stop, |n| {
        // Each pair has its own players (seeded by the pair), so that the result does not
        // depend on the threads (both specs were checked above).
        let (Ok(mut a), Ok(mut b)) = (
            make_player(&args.a, args.seed ^ 0xa ^ (n << 8)),
            make_player(&args.b, args.seed ^ 0xb ^ (n << 8)),
        ) else {
            return;
        };
        let r = if args.marques > 0 {
            play_ecrire_pair(a.as_mut(), b.as_mut(), args.seed, n, args.marques)
        } else if args.ecrire {
            play_marque_pair(a.as_mut(), b.as_mut(), args.seed, n)
        } else {
            play_pair(a.as_mut(), b.as_mut(), args.seed, n)
        };
        let mut all = results.lock().expect("no thread panics holding it");
        all.push((n, r.margins));
        let per_pair: Vec<f64> = all.iter().map(|(_, m)| (m[0] + m[1]) / 2.0).collect();
        let (m, se) = mean_se(&per_pair);
        bar.set_message(format!("A {m:+.2} ± {se:.2} {unit} per {game}"));
        bar.inc(2);
    });
    bar.finish_and_clear();
    let mut all = results.into_inner().expect("the threads are done");
    all.sort_by_key(|r| r.0);
    if (all.len() as u64) < pairs {
        eprintln!("stopped after {} parties", 2 * all.len());
    }
    let per_pair: Vec<f64> = all.iter().map(|(_, m)| (m[0] + m[1]) / 2.0).collect();
    let won = |m: f64| {
        if m > 0.0 {
            1.0
        } else if m < 0.0 {
            0.0
        } else {
            0.5
        }
    };
    let won_per_pair: Vec<f64> = all
        .iter()
        .map(|(_, m)| (won(m[0]) + won(m[1])) / 2.0)
        .collect();
    let a_won = all
        .iter()
        .flat_map(|(_, m)| m.iter())
        .filter(|&&m| m > 0.0)
        .count() as u64;
    let b_won = all
        .iter()
        .flat_map(|(_, m)| m.iter())
        .filter(|&&m| m < 0.0)
        .count() as u64;
    let (m, se) = mean_se(&per_pair);
    let (share, share_se) = mean_se(&won_per_pair);
    let report = DuelReport {
        a: args.a.clone(),
        b: args.b.clone(),
        game,
        unit,
        parties: 2 * per_pair.len() as u64,
        seed: args.seed,
        holes_per_partie: m,
        standard_error: se,
        a_won,
        b_won,
        a_share: share,
        a_share_margin: 1.96 * share_se,
        seconds: started.elapsed().as_secs_f64(),
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "{} vs {}: {} {} ({} dice sequences, seats swapped), seed {}",
            report.a,
            report.b,
            report.parties,
            if args.marques > 0 {
                format!("parties à écrire of {} marqués", args.marques)
            } else if args.ecrire {
                "marqués of a partie à écrire".to_string()
            } else {
                "parties in 12 holes".to_string()
            },
            per_pair.len(),
            report.seed
        );
        println!(
            "{games} won: A {} B {}: A {:.1}% ± {:.1}% (95%, by dice sequence)",
            a_won,
            b_won,
            100.0 * share,
            100.0 * report.a_share_margin
        );
        println!(
            "A: {:+.2} ± {:.2} {unit} per {game} (standard error); {:.0} s",
            m, se, report.seconds
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

    fn hint_args(holes: &str, objective: &str) -> HintArgs {
        HintArgs {
            position: "1W1-7W2-8W2-9W2-10W2-11W2-12W4-13B5-14B2-15B2-16B2-17B2-21B1-22B1".into(),
            roll: "6-3".into(),
            player: "white".into(),
            points: "8,0".into(),
            holes: holes.into(),
            bredouille: Some("none".into()),
            plies: 1,
            weights: None,
            objective: objective.into(),
            ecrire: false,
            pavillon: "none".into(),
            refaits: 0,
            marques: 0,
            lost: "0,0".into(),
            json: true,
        }
    }

    /// A marqué of a partie à écrire: at 10 holes against 4 with the pavillon after the
    /// throw, the table alone stays for the grande bredouille (n°386); with a postillon at
    /// stake (four marqués, one lost by each: n°227) it goes and banks the marqué.
    #[test]
    fn hint_counts_the_postillons_at_stake() {
        let args = |marques: u32, lost: &str| HintArgs {
            position: "1W1-7W2-8W2-9W2-10W2-11W2-12W4-13B5-14B2-15B2-16B2-17B2-18B2".into(),
            roll: "2-1".into(),
            holes: "8,4".into(),
            ecrire: true,
            pavillon: "white".into(),
            marques,
            lost: lost.into(),
            // White's 8 points marked without a break: the 4 won now are a double hole.
            bredouille: None,
            ..hint_args("8,4", "partie")
        };
        let alone = hint_report(&args(0, "0,0")).unwrap();
        let m = alone.marque.as_ref().unwrap();
        assert_eq!((m.marque_jetons, m.stake, m.go_jetons), (20.0, 0.0, 20.0));
        assert!(alone.decision.starts_with("stay"), "{}", alone.decision);
        let stake = hint_report(&args(4, "1,1")).unwrap();
        let m = stake.marque.as_ref().unwrap();
        assert_eq!((m.marque_jetons, m.stake, m.go_jetons), (20.0, 28.0, 34.0));
        assert!(stake.decision.starts_with("go"), "{}", stake.decision);
        for (marques, lost) in [(3, "0,0"), (4, "2,2"), (0, "1,0"), (4, "1")] {
            assert!(
                hint_report(&args(marques, lost)).is_err(),
                "{marques} {lost}"
            );
        }
    }

    /// The hint shows the chance of winning the partie with going and with each play, and
    /// decides by it as the levels do (n°387's position, book_decisions.rs).
    #[test]
    fn hint_shows_the_chance_of_the_partie() {
        let behind = hint_report(&hint_args("2,11", "partie")).unwrap();
        let go = behind.go_chance.unwrap();
        assert!((0.0..=1.0).contains(&go));
        assert!(behind
            .plays
            .iter()
            .all(|p| p.chance.is_some_and(|c| (0.0..=1.0).contains(&c))));
        let stay_less_go = |r: &HintReport| r.plays[0].value - r.go_value.unwrap();
        let even = hint_report(&hint_args("5,5", "partie")).unwrap();
        assert!(even.go_chance.unwrap() > go);
        for r in [&behind, &even] {
            assert_eq!(
                r.decision.starts_with("go"),
                stay_less_go(r) < 0.0,
                "{}",
                r.decision
            );
        }
        // Deciding by the margin, the chances are still shown, and the decision is the
        // margin's: go.
        let margin = hint_report(&hint_args("2,11", "margin")).unwrap();
        assert_eq!(margin.go_chance, behind.go_chance);
        assert!(margin.plays.iter().all(|p| p.chance.is_some()));
        assert!(margin.decision.starts_with("go"), "{}", margin.decision);
        assert!(hint_report(&hint_args("2,11", "hope")).is_err());
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
