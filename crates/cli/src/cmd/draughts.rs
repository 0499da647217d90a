//! `tablier draughts ...` (legal moves, replaying PDN files, endgame tables), and what the
//! draughts commands share: the variant and position options, the pattern tables files, the
//! endgame tables kept on disk.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::Subcommand;
use serde::Serialize;
use tablier_draughts::{fen, notation, with_board, Geometry, Position, Variant, VARIANTS};
use tablier_draughts_engine::patterns::{PatternWeights, Windows};
use tablier_draughts_engine::Tables;

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
    /// Solve the endgame tables (win/draw/loss of every position with few pieces) and keep
    /// them on disk, where `match`, `dxp` and this command find them again; with `--fen`, the
    /// tables' value of that position.
    Tables {
        /// The variant.
        #[arg(long, default_value = "international")]
        variant: String,
        /// Pieces on the board at most (2 to 4).
        #[arg(long, default_value_t = 4)]
        pieces: u32,
        /// A position to look up (side to move's value).
        #[arg(long)]
        fen: Option<String>,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
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
        DraughtsCommand::Tables {
            variant: name,
            pieces,
            fen: f,
            quiet,
        } => {
            let v = variant(&name)?;
            with_board!(v.board, G => show_tables::<G>(v, pieces, f.as_deref(), quiet))
        }
    }
}

fn show_tables<G: Geometry>(
    v: &'static Variant,
    pieces: u32,
    f: Option<&str>,
    quiet: bool,
) -> Result<()> {
    // The position first: a bad FEN is refused before minutes of solving.
    let pos = f.map(|f| position::<G>(v, Some(f))).transpose()?;
    let t = endgame_tables::<G>(v, pieces, quiet)?;
    let (w, d, l) = t.counts();
    println!(
        "{} up to {pieces} pieces: {} positions ({w} won, {d} drawn, {l} lost for the side to move), in {}",
        v.name,
        w + d + l,
        tables_path(v, pieces).display()
    );
    if let Some(p) = pos {
        match t.probe(&p) {
            Some(value) => println!("{}: {value:?} for the side to move", f.unwrap_or_default()),
            None => {
                let (wm, wk) = p.count(tablier_core::Side::White);
                let (bm, bk) = p.count(tablier_core::Side::Black);
                bail!(
                    "{} pieces: the tables hold positions of at most {pieces}",
                    wm + wk + bm + bk
                )
            }
        }
    }
    Ok(())
}

/// Where solved endgame tables are kept: `$TABLIER_CACHE`, else `$XDG_CACHE_HOME/tablier`,
/// else `~/.cache/tablier`, else `target/cache` under the working directory.
fn cache_dir() -> PathBuf {
    let from = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    from("TABLIER_CACHE")
        .or_else(|| from("XDG_CACHE_HOME").map(|d| d.join("tablier")))
        .or_else(|| from("HOME").map(|d| d.join(".cache/tablier")))
        .unwrap_or_else(|| PathBuf::from("target/cache"))
}

/// The file of the tables of `v` up to `pieces`.
pub(crate) fn tables_path(v: &Variant, pieces: u32) -> PathBuf {
    cache_dir().join(format!("egtb-{}-{pieces}.tbdw", v.name))
}

/// The endgame tables of `v` up to `pieces` (2 to 4): read from the cache when they were
/// solved before, else solved now (with a progress bar unless `quiet`: international up to
/// four pieces takes minutes) and written there. A cache file that does not read back is
/// reported and solved again.
pub(crate) fn endgame_tables<G: Geometry>(
    v: &'static Variant,
    pieces: u32,
    quiet: bool,
) -> Result<Tables> {
    if !(2..=4).contains(&pieces) {
        bail!("endgame tables go from 2 to 4 pieces, not {pieces}");
    }
    let path = tables_path(v, pieces);
    if let Ok(bytes) = std::fs::read(&path) {
        match Tables::from_bytes(v, &bytes) {
            Ok(t) if t.max_pieces() == pieces => return Ok(t),
            Ok(_) => eprintln!("{}: tables of another size; solving again", path.display()),
            Err(e) => eprintln!("{}: {e}; solving again", path.display()),
        }
    }
    if !quiet {
        eprintln!(
            "solving the {} endgame tables up to {pieces} pieces (kept in {})…",
            v.name,
            path.display()
        );
    }
    let bar = crate::common::short_progress(0, quiet, "materials");
    let t = Tables::generate::<G>(v, pieces, &mut |done, all| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    // Written whole or not at all: a reader never sees half a file.
    let write = || -> Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        crate::common::write_file(&path, &t.to_bytes())
    };
    if let Err(e) = write() {
        eprintln!("could not keep the tables in {}: {e:#}", path.display());
    }
    Ok(t)
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
