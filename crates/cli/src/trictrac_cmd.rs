//! `tablier trictrac ...`: check a roll at the table.

use anyhow::{anyhow, bail, Result};
use clap::{Args, Subcommand};
use serde::Serialize;
use tablier_core::Side;
use tablier_trictrac::{Board, JanContext, Roll, RollScore};

/// Trictrac tools.
#[derive(Subcommand)]
pub enum TrictracCommand {
    /// Every legal play of a roll with the points it scores for each player, and why.
    Score(ScoreArgs),
    /// The engine's view of a roll: every play with the points it wins now and its value.
    Hint(crate::trictrac_engine_cmd::HintArgs),
    /// Parties in 12 holes between two players (the engine at a level, greedy...), the same
    /// dice for both seatings: holes won per partie with a standard error.
    Duel(crate::trictrac_engine_cmd::DuelArgs),
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
        TrictracCommand::Hint(args) => crate::trictrac_engine_cmd::hint(&args),
        TrictracCommand::Duel(args) => crate::trictrac_engine_cmd::duel(&args),
    }
}

/// A side named on the command line (`white`/`w`, `black`/`b`).
pub(crate) fn side(name: &str) -> Result<Side> {
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
}
