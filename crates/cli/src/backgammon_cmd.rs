//! `tablier backgammon ...` and the backgammon benchmark.

use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use clap::Subcommand;
use serde::Serialize;
use tablier_backgammon::{notation, Position, Roll};

/// `tablier backgammon ...`.
#[derive(Subcommand)]
pub enum BackgammonCommand {
    /// Every legal play of a roll, in gnubg's notation, with the Position ID it leads to.
    Plays {
        /// gnubg Position ID of the position, from the side on roll (a GNUbgID
        /// `PositionID:MatchID` is accepted too).
        #[arg(long)]
        id: String,
        /// The roll, e.g. `3-1` (also `31` or `3 1`).
        #[arg(long)]
        dice: String,
        /// One JSON object per line and play instead of text (nothing when no play is legal).
        #[arg(long)]
        json: bool,
    },
}

/// Reads a roll written `3-1`, `31`, `3 1` or `3,1`.
pub fn parse_roll(text: &str) -> Result<Roll> {
    let digits: Vec<u8> = text
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | ',' | '/'))
        .map(|c| {
            c.to_digit(10)
                .map(|d| d as u8)
                .ok_or_else(|| anyhow!("{text:?} is not a roll: write two dice like 3-1"))
        })
        .collect::<Result<_>>()?;
    match digits[..] {
        [a, b] => Roll::new(a, b).ok_or_else(|| anyhow!("{text:?}: dice go from 1 to 6")),
        _ => bail!("{text:?} is not a roll: write two dice like 3-1"),
    }
}

/// Reads a position from a Position ID or a GNUbgID.
fn parse_position(id: &str) -> Result<Position> {
    let pid = id.trim().split(':').next().unwrap_or_default();
    Position::from_position_id(pid).with_context(|| format!("bad Position ID {id:?}"))
}

#[derive(Serialize)]
struct PlayJson {
    /// gnubg's text of the play.
    play: String,
    /// `[from, to]` per die played, mover's numbering (25 = bar, 0 = off).
    hops: Vec<[u8; 2]>,
    /// Blots hit.
    hits: usize,
    /// The position after the play, with the opponent on roll.
    position_id: String,
}

/// Runs a `tablier backgammon` command.
pub fn run(cmd: BackgammonCommand) -> Result<()> {
    match cmd {
        BackgammonCommand::Plays { id, dice, json } => {
            let position = parse_position(&id)?;
            let roll = parse_roll(&dice)?;
            let plays = position.legal_plays(roll);
            if plays.len() == 1 && plays[0].hops().is_empty() {
                if !json {
                    println!("no legal play: no number of {roll} can be played, the turn passes");
                }
                return Ok(());
            }
            let rows: Vec<PlayJson> = plays
                .iter()
                .map(|p| PlayJson {
                    play: notation::format_play(p),
                    hops: p.hops().iter().map(|h| [h.from, h.to]).collect(),
                    hits: p.hops().iter().filter(|h| h.hit).count(),
                    // The side to move after the play is the opponent: gnubg encodes from there.
                    position_id: p.result.flip().position_id(),
                })
                .collect();
            if json {
                for r in &rows {
                    println!("{}", serde_json::to_string(r)?);
                }
            } else {
                let width = rows.iter().map(|r| r.play.len()).max().unwrap_or(0);
                for r in &rows {
                    println!("{:width$}  {}", r.play, r.position_id);
                }
                println!("{} legal plays of {roll}", rows.len());
            }
            Ok(())
        }
    }
}

/// `tablier bench backgammon-plays`: legal-play generation on a random-play position set,
/// against gnubg_nn's generator measured in the same run.
pub fn bench_plays(positions: usize, python: Option<&str>) -> Result<()> {
    let python = python
        .map(str::to_owned)
        .unwrap_or_else(|| ".venv/bin/python".into());
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/bench_bg_plays.py");
    let set = std::env::temp_dir().join(format!("tablier-bg-bench-{}.txt", std::process::id()));
    let out = std::process::Command::new(&python)
        .arg(&script)
        .args([positions.to_string(), "1".into()])
        .arg(&set)
        .output()
        .with_context(|| {
            format!("cannot run {python} (make it with `bash scripts/python-env.sh`)")
        })?;
    if !out.status.success() {
        bail!(
            "the gnubg_nn peer did not run: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let mut f = text.split_whitespace();
    let n: usize = f
        .next()
        .ok_or_else(|| anyhow!("no output from the peer"))?
        .parse()?;
    let their_cpu: f64 = f
        .next()
        .ok_or_else(|| anyhow!("no time from the peer"))?
        .parse()?;
    let cases: Vec<(Position, Roll)> = std::fs::read_to_string(&set)?
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let p = Position::from_position_id(w[0])?;
            let r = Roll::new(w[1].parse()?, w[2].parse()?).ok_or_else(|| anyhow!("bad roll"))?;
            Ok((p, r))
        })
        .collect::<Result<_>>()?;
    let _ = std::fs::remove_file(&set);
    if cases.len() != n {
        bail!("the peer wrote {} positions, said {n}", cases.len());
    }
    // Best of many passes over two seconds (wall clock per pass: a pass is too short for the
    // CPU clock's ticks), as the peer takes its best pass.
    let mut buf = Vec::with_capacity(64);
    let mut plays = 0usize;
    let mut best = f64::INFINITY;
    let wall = Instant::now();
    while wall.elapsed().as_secs_f64() < 2.0 {
        let t = Instant::now();
        plays = 0;
        for (p, r) in &cases {
            p.legal_plays_into(*r, &mut buf);
            plays += buf.len();
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    let ours = n as f64 / best;
    let theirs = n as f64 / their_cpu;
    println!(
        "tablier: {n} positions x rolls ({plays} plays) in {best:.4} s (best pass): {:.0} k positions/s",
        ours / 1e3
    );
    println!(
        "gnubg_nn.moves (PyPI gnubg-nn, through Python): {their_cpu:.4} CPU s: {:.0} k positions/s",
        theirs / 1e3
    );
    println!("ratio tablier / gnubg_nn: {:.1}x", ours / theirs);
    Ok(())
}

/// What `tablier convert` writes.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum ConvertTo {
    /// gnubg's `PositionID:MatchID`.
    Gnubgid,
    /// eXtreme Gammon's `XGID=...`.
    Xgid,
    /// gnubg's Position ID alone.
    PositionId,
    /// A `.mat` match file (from a `.mat` input: replayed, then written in gnubg's layout).
    Mat,
    /// One JSON line per game of a `.mat` input: its actions in notation and its result.
    Json,
}

/// `tablier convert`: between gnubg IDs, XGIDs and `.mat` files.
pub fn convert(input: &str, to: Option<ConvertTo>, money_jacoby: bool) -> Result<()> {
    use tablier_backgammon::game::Options;
    use tablier_backgammon::ids::parse_gnubg_id;
    use tablier_backgammon::mat::MatchFile;
    use tablier_backgammon::record;
    use tablier_backgammon::xgid::Xgid;
    use tablier_core::Game;

    let trimmed = input.trim();
    if trimmed.ends_with(".mat") || std::path::Path::new(trimmed).is_file() {
        let text = crate::read_text(std::path::Path::new(trimmed))?;
        let file = MatchFile::parse(&text).map_err(|e| anyhow!("{trimmed}: {e}"))?;
        let options = if file.match_length == 0 {
            Options {
                jacoby: money_jacoby,
                ..Options::money()
            }
        } else {
            Options::match_to(file.match_length)
        };
        let replayed = record::replay_mat(&file, options).map_err(|e| anyhow!("{trimmed}: {e}"))?;
        match to.unwrap_or(ConvertTo::Json) {
            ConvertTo::Mat => {
                let actions: Vec<_> = replayed
                    .games
                    .iter()
                    .flat_map(|g| g.actions.clone())
                    .collect();
                let names = file
                    .games
                    .first()
                    .map(|g| [g.players[0].as_str(), g.players[1].as_str()])
                    .unwrap_or(["white", "black"]);
                if file.match_length == 0 && file.games.len() > 1 {
                    bail!("a money session of several games is written game by game: not supported yet");
                }
                let mut out = record::to_mat(options, names, &actions)?;
                out.tags = file.tags.clone();
                print!("{out}");
            }
            ConvertTo::Json => {
                for (g, game) in replayed.games.iter().zip(&file.games) {
                    // Money games replay on their own; match games continue the match.
                    let mut m = if file.match_length > 0 {
                        replayed_prefix(&replayed, g.number, options)?
                    } else {
                        tablier_backgammon::game::Match::new(options)
                    };
                    let mut texts = Vec::new();
                    for a in &g.actions {
                        texts.push(m.format_action(a));
                        m.apply(a)?;
                    }
                    let line = serde_json::json!({
                        "game": g.number,
                        "players": game.players,
                        "scores": game.scores,
                        "actions": texts,
                        "result": m.results().last(),
                    });
                    println!("{line}");
                }
            }
            ConvertTo::Gnubgid | ConvertTo::Xgid | ConvertTo::PositionId => {
                let id = record::match_id(&replayed.last);
                print_ids(&record::id_view(&replayed.last).0, &id, to.expect("chosen"))?;
            }
        }
        return Ok(());
    }
    let (position, id) = if let Some(rest) = trimmed.strip_prefix("XGID=") {
        let x = Xgid::parse(trimmed).map_err(|e| anyhow!("bad XGID {rest:?}: {e}"))?;
        x.to_gnubg().map_err(|e| anyhow!("{e}"))?
    } else if trimmed.contains(':') {
        parse_gnubg_id(trimmed).map_err(|e| anyhow!("bad GNUbgID {trimmed:?}: {e}"))?
    } else {
        let p = Position::from_position_id(trimmed)
            .map_err(|e| anyhow!("bad Position ID {trimmed:?}: {e}"))?;
        (p, tablier_backgammon::ids::MatchId::default())
    };
    match to {
        Some(t) => print_ids(&position, &id, t),
        None => {
            for t in [ConvertTo::Gnubgid, ConvertTo::Xgid] {
                print_ids(&position, &id, t)?;
            }
            Ok(())
        }
    }
}

/// The match as it stood at the start of game `number` of a replayed file.
fn replayed_prefix(
    replayed: &tablier_backgammon::record::Replayed,
    number: u32,
    options: tablier_backgammon::game::Options,
) -> Result<tablier_backgammon::game::Match> {
    use tablier_core::Game;
    let mut m = tablier_backgammon::game::Match::new(options);
    for g in replayed.games.iter().take_while(|g| g.number != number) {
        for a in &g.actions {
            m.apply(a)?;
        }
    }
    Ok(m)
}

fn print_ids(
    position: &Position,
    id: &tablier_backgammon::ids::MatchId,
    to: ConvertTo,
) -> Result<()> {
    use tablier_backgammon::xgid::Xgid;
    match to {
        ConvertTo::Gnubgid => println!("{}", tablier_backgammon::ids::gnubg_id(position, id)),
        ConvertTo::Xgid => println!("{}", Xgid::from_gnubg(position, id)),
        ConvertTo::PositionId => println!("{}", position.position_id()),
        ConvertTo::Mat | ConvertTo::Json => {
            bail!("a position converts to gnubgid, xgid or position-id")
        }
    }
    Ok(())
}
