//! `tablier draughts ...` (legal moves, replaying PDN files), and what the draughts commands
//! share: the variant and position options, the pattern tables files.

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use clap::Subcommand;
use serde::Serialize;
use tablier_draughts::{fen, notation, with_board, Geometry, Position, Variant, VARIANTS};
use tablier_draughts_engine::patterns::{PatternWeights, Windows};

use crate::common::{read_text, Failed};

/// The variant named `name`, or an error listing the known ones.
pub(crate) fn variant(name: &str) -> Result<&'static Variant> {
    Variant::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
        anyhow!("unknown variant {name:?} (known: {})", names.join(", "))
    })
}

/// The position of a `--fen` option, or the variant's start.
pub(crate) fn position<G: Geometry>(
    v: &'static Variant,
    fen_text: Option<&str>,
) -> Result<Position<G>> {
    Ok(match fen_text {
        Some(f) => fen::parse(v, f).map_err(|e| anyhow!("bad FEN {f:?}: {e}"))?,
        None => Position::start(v)?,
    })
}

/// Pattern tables from a file written by `--patterns`, for `G`'s board.
pub(crate) fn read_patterns<G: Geometry>(path: &Path) -> Result<PatternWeights> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let t = PatternWeights::from_bytes(&bytes).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    if t.windows() != Windows::<G>::new().len() {
        bail!("{}: pattern tables of another board size", path.display());
    }
    Ok(t)
}

/// `tablier draughts ...`.
#[derive(Subcommand)]
pub enum DraughtsCommand {
    /// List the legal moves of a position.
    Moves {
        /// Variant: international, brazilian, canadian, english, french-old (every legal
        /// move, captures being optional).
        #[arg(long, default_value = "international")]
        variant: String,
        /// Position as FEN (default: the variant's start).
        #[arg(long)]
        fen: Option<String>,
        /// One JSON object per move: notation, path, captured squares.
        #[arg(long)]
        json: bool,
    },
    /// Replay every game of a PDN file against the rules.
    Replay {
        /// The PDN file.
        file: std::path::PathBuf,
        /// Variant for games without a GameType tag.
        #[arg(long, default_value = "international")]
        variant: String,
    },
}

#[derive(Serialize)]
struct MoveJson {
    notation: String,
    from: u8,
    to: u8,
    path: Vec<u8>,
    captured: Vec<u8>,
    promotes: bool,
}

/// Runs a `tablier draughts` subcommand.
pub fn run(cmd: DraughtsCommand) -> Result<()> {
    match cmd {
        DraughtsCommand::Moves {
            variant: name,
            fen: f,
            json,
        } => {
            let v = variant(&name)?;
            with_board!(v.board, G => moves::<G>(v, f.as_deref(), json))
        }
        DraughtsCommand::Replay {
            file,
            variant: name,
        } => replay(&file, variant(&name)?),
    }
}

fn moves<G: Geometry>(v: &'static Variant, f: Option<&str>, json: bool) -> Result<()> {
    let p: Position<G> = position(v, f)?;
    for m in p.legal_moves() {
        let text = notation::format(&p, &m);
        if json {
            let path = if m.is_capture() {
                notation::capture_path(&p, &m)
            } else {
                vec![m.from(), m.to()]
            };
            let j = MoveJson {
                notation: text,
                from: m.from(),
                to: m.to(),
                path,
                captured: m.captured_squares(),
                promotes: p.is_promotion(&m),
            };
            println!("{}", serde_json::to_string(&j)?);
        } else {
            println!("{text}");
        }
    }
    Ok(())
}

fn replay(file: &std::path::Path, default: &'static Variant) -> Result<()> {
    use tablier_draughts::{pdn, replay};
    let text = read_text(file)?;
    let (mut ok, mut bad) = (0, 0);
    for (i, g) in pdn::parse_pdn(&text).into_iter().enumerate() {
        let r = g
            .map_err(|e| e.to_string())
            .and_then(|g| replay::replay(&g, i + 1, default).map_err(|e| e.to_string()));
        match r {
            Ok(r) => {
                ok += 1;
                println!(
                    "game {}: {} moves ({}), final position {}",
                    i + 1,
                    r.plies,
                    r.variant,
                    r.final_fen
                );
            }
            Err(e) => {
                bad += 1;
                println!("{e}");
            }
        }
    }
    println!("{ok} games replayed, {bad} rejected");
    if bad > 0 {
        return Err(Failed.into());
    }
    Ok(())
}
