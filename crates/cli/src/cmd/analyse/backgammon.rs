//! `tablier analyse MATCH.mat`: every decision of a backgammon match file, with the equity
//! it lost, judged by our engine or (`--judge bgsage`) by bgsage, whose nets share nothing with
//! ours or gnubg's.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;

use crate::cmd::backgammon::evaluator;
use crate::common::{progress, read_text};

/// Options of `tablier analyse` for backgammon matches (`--ply`).
#[derive(Args)]
pub struct BackgammonAnalyseOpts {
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
    /// Who judges the decisions: our engine at `--ply`, or bgsage (PyPI, MPL-2.0) at
    /// `--judge-plies`, run by `--python` (made by `bash scripts/python-env.sh`).
    #[arg(long = "judge", id = "bg_judge", value_enum, default_value_t = Judge::Tablier)]
    judge: Judge,
    /// bgsage's look-ahead when it judges, counted as gnubg and we count plies (0 = the net
    /// alone, up to 3; bgsage names it one more, as XG does: 3 is its "4ply").
    #[arg(long = "judge-plies", id = "bg_judge_plies", default_value_t = 3)]
    judge_plies: u32,
    /// The Python that has bgsage.
    #[arg(long = "python", id = "bg_python", default_value = ".venv/bin/python")]
    python: String,
}

/// Who judges a backgammon record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Judge {
    /// Our engine.
    Tablier,
    /// bgsage.
    Bgsage,
}

/// Runs `tablier analyse` on a .mat file.
pub fn analyse(file: &Path, output: Option<&Path>, opts: &BackgammonAnalyseOpts) -> Result<()> {
    use std::fmt::Write as _;
    use tablier_backgammon::game::Options;
    use tablier_backgammon::mat::MatchFile;
    use tablier_backgammon::record::replay_mat;
    use tablier_backgammon_engine::analysis::{self, Kind};
    if opts.ply > 2 {
        bail!("--ply goes from 0 to 2");
    }
    if opts.judge_plies > 3 {
        bail!("--judge-plies goes from 0 to 3");
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
    let (a, judged_by) = match opts.judge {
        Judge::Tablier => (
            analysis::analyse(&ev, options, &games, opts.ply, |g| {
                bar.set_position(g as u64)
            })?,
            format!("tablier {}-ply", opts.ply),
        ),
        Judge::Bgsage => {
            bar.finish_and_clear();
            let points = analysis::points(options, &games)?;
            (
                judge_with_bgsage(&points, opts)?,
                format!("bgsage {}-ply", opts.judge_plies),
            )
        }
    };
    bar.finish_and_clear();
    let mut out = String::new();
    writeln!(
        out,
        "{} ({}), judged by {} in {:.1} s",
        file.display(),
        if mat.match_length == 0 {
            "money".to_string()
        } else {
            format!("{}-point match", mat.match_length)
        },
        judged_by,
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

/// bgsage's board: 26 numbers seen from the player on roll in `pos` (his checkers positive on
/// 1 to 24, his bar 25, the opponent's bar 0 counted positive).
fn sage_board(pos: &tablier_backgammon::Position) -> Vec<i32> {
    let mut b: Vec<i32> = (0..26).map(|i| i32::from(pos.raw(i))).collect();
    b[0] = -b[0];
    b
}

/// Every decision of `points` judged by bgsage (one run of
/// `crates/backgammon-engine/oracle/bgsage_judge.py` for them all).
fn judge_with_bgsage(
    points: &[tablier_backgammon_engine::analysis::Point],
    opts: &BackgammonAnalyseOpts,
) -> Result<tablier_backgammon_engine::analysis::Analysis> {
    use std::io::{BufRead, Write};
    use tablier_backgammon_engine::analysis::{Analysis, PointKind};
    use tablier_backgammon_engine::cube::Owner;
    let mut input = String::new();
    for p in points {
        let ci = &p.cube;
        let away = |score: u32| {
            if ci.match_length == 0 {
                0
            } else {
                ci.match_length - score
            }
        };
        let mut req = serde_json::json!({
            "board": sage_board(&p.position),
            "cube": ci.value,
            "owner": match ci.owner {
                Owner::Centre => "centered",
                Owner::Me => "player",
                Owner::Opponent => "opponent",
            },
            "away": [away(ci.score[0]), away(ci.score[1])],
            "crawford": ci.crawford,
            "jacoby": ci.jacoby,
            "beaver": ci.beavers,
        });
        match &p.kind {
            PointKind::Play { roll, played, .. } => {
                req["kind"] = "play".into();
                let (high, low) = roll.high_low();
                req["dice"] = serde_json::json!([high, low]);
                req["after"] = sage_board(&played.result).into();
            }
            _ => req["kind"] = "cube".into(),
        }
        input += &(req.to_string() + "\n");
    }
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../backgammon-engine/oracle/bgsage_judge.py");
    let mut child = std::process::Command::new(&opts.python)
        .arg(&script)
        .arg(opts.judge_plies.to_string())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .with_context(|| {
            format!(
                "cannot run {} (make it with `bash scripts/python-env.sh`)",
                opts.python
            )
        })?;
    let mut stdin = child.stdin.take().context("the judge's input")?;
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let stdout = child.stdout.take().context("the judge's output")?;
    let mut a = Analysis::default();
    let mut lines = std::io::BufReader::new(stdout).lines();
    for p in points {
        let line = lines
            .next()
            .transpose()?
            .context("bgsage stopped before the end (its error is above)")?;
        let v: serde_json::Value =
            serde_json::from_str(&line).with_context(|| format!("bgsage said: {line}"))?;
        let num = |k: &str| {
            v[k].as_f64()
                .map(|x| x as f32)
                .with_context(|| format!("bgsage said: {line}"))
        };
        match &p.kind {
            PointKind::Play { plays, played, .. } => {
                let best_board: Vec<i32> = serde_json::from_value(v["best"].clone())
                    .with_context(|| format!("bgsage said: {line}"))?;
                let best = plays
                    .iter()
                    .find(|q| sage_board(&q.result) == best_board)
                    .unwrap_or(played);
                a.add_play(p, num("loss")?, best);
            }
            _ => a.add_cube(p, num("nd")?, num("dt")?, num("dp")?),
        }
    }
    writer
        .join()
        .map_err(|_| anyhow::anyhow!("the judge's input"))??;
    let status = child.wait()?;
    if !status.success() {
        bail!("bgsage stopped ({status})");
    }
    Ok(a)
}
