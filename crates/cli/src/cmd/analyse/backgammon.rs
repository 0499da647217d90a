//! `tablier analyse MATCH.mat`: every decision of a backgammon match file, with the equity
//! it lost.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::cmd::backgammon::evaluator;
use crate::common::{progress, read_text};

/// Options of `tablier analyse` for backgammon matches (`--ply`).
#[derive(Args)]
pub struct AnalyseOpts {
    /// Look-ahead of the backgammon analysis of checker plays (0, 1 or 2; cube decisions use
    /// at most 1).
    #[arg(long = "ply", id = "bg_ply", default_value_t = 1)]
    ply: u32,
    /// Money sessions: the Jacoby rule was in force.
    #[arg(long = "jacoby", id = "bg_jacoby")]
    jacoby: bool,
    /// Backgammon weights to use instead of the shipped ones.
    #[arg(long = "weights", id = "bg_weights")]
    weights: Option<PathBuf>,
}

/// Runs `tablier analyse` on a .mat file.
pub fn analyse(file: &Path, output: Option<&Path>, opts: &AnalyseOpts) -> Result<()> {
    use std::fmt::Write as _;
    use tablier_backgammon::game::Options;
    use tablier_backgammon::mat::MatchFile;
    use tablier_backgammon::record::replay_mat;
    use tablier_backgammon_engine::analysis::{self, Kind};
    if opts.ply > 2 {
        bail!("--ply goes from 0 to 2");
    }
    let ev = evaluator(opts.weights.as_deref())?;
    let text = read_text(file)?;
    let mat = MatchFile::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let options = if mat.match_length == 0 {
        Options {
            jacoby: opts.jacoby,
            ..Options::money()
        }
    } else {
        Options::match_to(mat.match_length)
    };
    let replayed =
        replay_mat(&mat, options).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let games: Vec<_> = replayed.games.iter().map(|g| g.actions.clone()).collect();
    let names = mat
        .games
        .first()
        .map(|g| [g.players[0].clone(), g.players[1].clone()])
        .unwrap_or_else(|| ["white".into(), "black".into()]);
    let bar = progress(games.len() as u64, false, "games");
    let started = Instant::now();
    let a = analysis::analyse(&ev, options, &games, opts.ply, |g| {
        bar.set_position(g as u64)
    })?;
    bar.finish_and_clear();
    let mut out = String::new();
    writeln!(
        out,
        "{} ({}), analysed at {}-ply in {:.1} s",
        file.display(),
        if mat.match_length == 0 {
            "money".to_string()
        } else {
            format!("{}-point match", mat.match_length)
        },
        opts.ply,
        started.elapsed().as_secs_f64()
    )?;
    let mut game = 0;
    for d in &a.decisions {
        if d.game != game {
            game = d.game;
            writeln!(out, "\nGame {game}")?;
        }
        let who = &names[d.side.index()];
        let what = match &d.kind {
            Kind::Play { roll, played, best } => {
                if played == best {
                    format!("{roll}: {played}")
                } else {
                    format!("{roll}: {played}  (best {best})")
                }
            }
            Kind::Cube { action, best } | Kind::Response { action, best } => {
                if action == best {
                    action.to_string()
                } else {
                    format!("{action}  (best {best})")
                }
            }
        };
        writeln!(
            out,
            "{:>4} {:<12} {:<48} {:>7.3} {}",
            d.turn,
            who,
            what,
            -d.loss,
            d.mark()
        )?;
    }
    writeln!(out)?;
    for (i, name) in names.iter().enumerate() {
        let st = &a.stats[i];
        writeln!(
            out,
            "{name}: {} checker plays (loss {:.3}), {} cube decisions (loss {:.3}); error rate {:.1} mp/decision",
            st.plays,
            st.play_loss,
            st.cube,
            st.cube_loss,
            st.error_rate()
        )?;
    }
    match output {
        Some(p) => std::fs::write(p, out).with_context(|| format!("writing {}", p.display()))?,
        None => print!("{out}"),
    }
    Ok(())
}
