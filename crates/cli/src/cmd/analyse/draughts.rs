//! `tablier analyse GAME.pdn`: each move of a draughts game searched, with its evaluation,
//! the best move, and `?` or `??` on mistakes.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use tablier_core::Side;
use tablier_draughts::game::Game;
use tablier_draughts::notation::{self, MoveText};
use tablier_draughts::pdn::{self, Element, PdnGame, PdnSquare};
use tablier_draughts::{fen, replay, with_board, Geometry, Move, Position, Variant};
use tablier_draughts_engine::search::{is_mate, TABLE_WIN};
use tablier_draughts_engine::{Engine, Limits};

use crate::cmd::draughts::variant;
use crate::common::{interrupted, progress, read_text, stop_on_interrupt, Failed};

/// Options of `tablier analyse` for draughts games (`--time`, `--depth`).
#[derive(Args)]
pub struct DraughtsAnalyseOpts {
    /// Thinking time per position, in seconds (default 1; ignored with `--depth`).
    #[arg(long = "time", id = "draughts_time", value_name = "SECONDS")]
    time: Option<f64>,
    /// Search every position to this depth (plies) instead of by time.
    #[arg(long = "depth", id = "draughts_depth", value_name = "PLIES")]
    depth: Option<u32>,
    /// The variant of games without a `GameType` tag (default: international).
    #[arg(long = "variant", id = "draughts_variant", value_name = "VARIANT")]
    variant: Option<String>,
    /// A move that loses at least this much (men) gets `?`.
    #[arg(
        long = "mistake",
        id = "draughts_mistake",
        value_name = "MEN",
        default_value_t = 0.5
    )]
    mistake: f64,
    /// A move that loses at least this much (men), or throws a win away, gets `??`.
    #[arg(
        long = "blunder",
        id = "draughts_blunder",
        value_name = "MEN",
        default_value_t = 1.5
    )]
    blunder: f64,
    /// No progress bar.
    #[arg(long = "quiet", id = "draughts_quiet")]
    quiet: bool,
}

/// Runs `tablier analyse` on a PDN file.
pub fn analyse(file: &Path, output: Option<&Path>, opts: &DraughtsAnalyseOpts) -> Result<()> {
    let default = match &opts.variant {
        Some(v) => variant(v)?,
        None => &tablier_draughts::INTERNATIONAL,
    };
    if let Some(t) = opts.time {
        if !(t.is_finite() && t > 0.0 && t <= 86_400.0) {
            bail!("--time must be a number of seconds above 0");
        }
    }
    if opts.depth == Some(0) {
        bail!("--depth must be at least 1");
    }
    let limits = match opts.depth {
        Some(d) => Limits::depth(d),
        None => Limits {
            search_forced: true,
            ..Limits::move_time(Duration::from_secs_f64(opts.time.unwrap_or(1.0)))
        },
    };
    let text = read_text(file)?;
    let parsed = pdn::parse_pdn(&text);
    if parsed.is_empty() {
        bail!("{}: no game found", file.display());
    }
    // Every game that replays, with its variant; the others are reported.
    let mut failures = Vec::new();
    let mut jobs = Vec::new();
    for (i, g) in parsed.into_iter().enumerate() {
        let n = i + 1;
        match g {
            Err(e) => failures.push(format!("{}: {e}", file.display())),
            Ok(g) => match replay::replay(&g, n, default) {
                Err(e) => failures.push(format!("{}: {e}", file.display())),
                Ok(r) => {
                    let v = Variant::by_name(r.variant).expect("replay names a known variant");
                    if tablier_draughts::french::is_french(v) {
                        failures.push(format!(
                            "{}: game {n}: the old French rules are not analysed",
                            file.display()
                        ));
                    } else {
                        jobs.push((n, g, v, r.plies));
                    }
                }
            },
        }
    }
    for f in &failures {
        eprintln!("{f}");
    }
    let total: usize = jobs.iter().map(|j| j.3).sum();
    let stop = interrupted();
    let bar = progress(total as u64, opts.quiet, "positions");
    let mut out = String::new();
    let mut interrupted = false;
    for (n, g, v, _) in &jobs {
        let push = |out: &mut String, game: &PdnGame| {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&pdn::write_pdn(game));
        };
        if stop.load(Ordering::Relaxed) {
            // Interrupted: the games not analysed are written as they were.
            interrupted = true;
            push(&mut out, g);
            continue;
        }
        bar.set_message(format!("game {n}"));
        let ctx = Ctx {
            limits,
            opts,
            stop,
            bar: &bar,
        };
        match with_board!(v.board, G => annotate::<G>(g, v, &ctx)) {
            Ok(game) => push(&mut out, &game),
            Err(e) => {
                let msg = format!("{}: game {n}: {e}", file.display());
                eprintln!("{msg}");
                failures.push(msg);
            }
        }
    }
    bar.finish_and_clear();
    if interrupted {
        eprintln!("interrupted: the moves analysed so far have their comments, the rest is written as it was");
    }
    match output {
        Some(p) => {
            std::fs::write(p, &out).with_context(|| format!("cannot write {}", p.display()))?
        }
        None => print!("{out}"),
    }
    if !failures.is_empty() {
        eprintln!(
            "{} game(s) analysed, {} rejected",
            jobs.len(),
            failures.len()
        );
        return Err(Failed.into());
    }
    Ok(())
}

struct Ctx<'a> {
    limits: Limits,
    opts: &'a DraughtsAnalyseOpts,
    stop: &'a AtomicBool,
    bar: &'a indicatif::ProgressBar,
}

/// What the search says of one position.
struct Verdict<G: Geometry> {
    /// Score in centi-men from the side to move's view.
    score: i32,
    best: Option<Move<G>>,
    pv: Vec<Move<G>>,
}

/// A score in men from white's view: `+0.35`, `+#12` (a win found in 12 plies), `+won`
/// (the endgame tables).
fn format_score(score_white: i32) -> String {
    let sign = if score_white < 0 { '-' } else { '+' };
    if is_mate(score_white) {
        let plies = tablier_draughts_engine::WIN - score_white.abs();
        format!("{sign}#{plies}")
    } else if score_white.abs() >= TABLE_WIN - 1000 {
        format!("{sign}won")
    } else {
        format!("{sign}{:.2}", f64::from(score_white.abs()) / 100.0)
    }
}

/// The score of a move for its player, from the score of the position it leads to (for the
/// opponent): a win or loss found there is one ply further away.
fn parent_score(child: i32) -> i32 {
    let s = -child;
    if is_mate(s) {
        s - s.signum()
    } else {
        s
    }
}

/// Whether a score (side to move's view) says the game is won.
fn winning(score: i32) -> bool {
    score > 0 && (is_mate(score) || score >= TABLE_WIN - 1000)
}

/// The moves of `pv` from `pos` in notation.
fn line<G: Geometry>(pos: &Position<G>, pv: &[Move<G>]) -> String {
    let mut p = *pos;
    let mut words = Vec::new();
    for m in pv {
        if !p.legal_moves().contains(m) {
            break;
        }
        words.push(notation::format(&p, m));
        p.play_unchecked(m);
    }
    words.join(" ")
}

fn square<G: Geometry>(s: PdnSquare) -> Result<u32> {
    match s {
        PdnSquare::Num(n) => Ok(u32::from(n)),
        PdnSquare::Alg { file, rank } => {
            let rank = u32::from(rank);
            if rank == 0 || rank > G::N {
                bail!("square {s} is not on the board");
            }
            G::square_at(G::N - rank, u32::from(file))
                .ok_or_else(|| anyhow!("square {s} is not a playing square"))
        }
    }
}

/// Searches `pos` (the game's current position, or the one just after it when the game
/// is over by a draw rule).
fn search<G: Geometry>(
    engine: &mut Engine<G>,
    game: &Game<G>,
    pos: &Position<G>,
    limits: &Limits,
) -> Verdict<G> {
    if pos.legal_moves().is_empty() {
        return Verdict {
            score: -tablier_draughts_engine::WIN,
            best: None,
            pv: Vec::new(),
        };
    }
    let h = game.positions_since_irreversible();
    let hist = if game.position() == pos {
        &h[..h.len().saturating_sub(1)]
    } else {
        &[][..]
    };
    let r = engine.search(pos, hist, limits, &mut |_| {});
    Verdict {
        score: r.score,
        best: r.best,
        pv: r.pv,
    }
}

/// Analyses one game (already replayed without error): returns it with a comment after each
/// move and `?`/`??` on mistakes (the moves after an interruption are left as they were).
fn annotate<G: Geometry>(g: &PdnGame, variant: &'static Variant, ctx: &Ctx<'_>) -> Result<PdnGame> {
    let mut engine = Engine::<G>::new(variant, 64);
    stop_on_interrupt(engine.stop_flag());
    let start: Position<G> = match g.tag("FEN") {
        Some(f) => fen::parse(variant, f).map_err(|e| anyhow!("bad FEN tag {f:?}: {e}"))?,
        None => Position::start(variant).map_err(|e| anyhow!("{e}"))?,
    };
    let mut game = Game::from_position(start);
    let mut pos = start;
    let mut plies = 0usize;
    // The search of the position about to be played in, carried from the previous move.
    let mut before: Option<Verdict<G>> = None;
    let mut body = Vec::with_capacity(g.body.len() * 2);
    for el in &g.body {
        match el {
            Element::Setup(f) => {
                pos = fen::parse(variant, f).map_err(|e| anyhow!("bad setup {f:?}: {e}"))?;
                game = Game::from_position(pos);
                before = None;
                body.push(el.clone());
            }
            Element::Move {
                number,
                mv,
                strength,
            } => {
                let mover = pos.side_to_move();
                let label = format!(
                    "{}{}",
                    plies / 2 + 1,
                    if mover == variant.first { "." } else { "..." }
                );
                let squares = mv
                    .squares
                    .iter()
                    .map(|s| square::<G>(*s))
                    .collect::<Result<Vec<u32>>>()
                    .with_context(|| format!("move {label} {mv}"))?;
                let mt = MoveText {
                    squares,
                    capture: mv.capture,
                };
                let m = notation::resolve(&pos, &mt, &mv.to_string())
                    .map_err(|e| anyhow!("move {label} {mv}: {e}"))?;
                if ctx.stop.load(Ordering::Relaxed) {
                    body.push(el.clone());
                    pos.play_unchecked(&m);
                    continue;
                }
                let b = match before.take() {
                    Some(b) => b,
                    None => search(&mut engine, &game, &pos, &ctx.limits),
                };
                let after_pos = {
                    let mut p = pos;
                    p.play_unchecked(&m);
                    p
                };
                if game.ending().is_none() {
                    game.play(&m).map_err(|e| anyhow!("move {label}: {e}"))?;
                }
                let a = search(&mut engine, &game, &after_pos, &ctx.limits);
                if ctx.stop.load(Ordering::Relaxed) {
                    // The searches were cut short: this move is left without a comment.
                    body.push(el.clone());
                    pos = after_pos;
                    continue;
                }
                ctx.bar.inc(1);
                // Scores from the mover's view: the best move's, and the move played's.
                let best_score = b.score;
                let played_score = if b.best == Some(m) {
                    best_score
                } else {
                    parent_score(a.score)
                };
                let loss = f64::from((best_score - played_score).max(0)) / 100.0;
                let blunder =
                    loss >= ctx.opts.blunder || (winning(best_score) && !winning(played_score));
                let mark = if b.best == Some(m) {
                    None
                } else if blunder {
                    Some("??")
                } else if loss >= ctx.opts.mistake {
                    Some("?")
                } else {
                    None
                };
                let white = |s: i32| if mover == Side::White { s } else { -s };
                let mut comment = format!("eval {}", format_score(white(played_score)));
                if let Some(best) = b.best {
                    let text = notation::format(&pos, &best);
                    if b.best == Some(m) {
                        let _ = write!(comment, ", best {text}");
                    } else {
                        let _ =
                            write!(comment, ", best {text} {}", format_score(white(best_score)));
                    }
                    let pv = line(&pos, &b.pv);
                    if !pv.is_empty() {
                        let _ = write!(comment, " ({pv})");
                    }
                }
                body.push(Element::Move {
                    number: *number,
                    mv: mv.clone(),
                    strength: mark.map(str::to_string).or_else(|| strength.clone()),
                });
                body.push(Element::Comment(comment));
                pos = after_pos;
                before = Some(a);
                plies += 1;
            }
            _ => body.push(el.clone()),
        }
    }
    let annotated = PdnGame {
        tags: g.tags.clone(),
        body,
        result: g.result.clone(),
    };
    Ok(annotated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_men_from_white() {
        assert_eq!(format_score(35), "+0.35");
        assert_eq!(format_score(-120), "-1.20");
        assert_eq!(format_score(0), "+0.00");
        assert_eq!(format_score(tablier_draughts_engine::WIN - 12), "+#12");
        assert_eq!(format_score(-(TABLE_WIN + 300)), "-won");
        // A move that leaves the opponent without a move wins in one ply.
        assert_eq!(
            parent_score(-tablier_draughts_engine::WIN),
            tablier_draughts_engine::WIN - 1
        );
        assert_eq!(parent_score(35), -35);
    }
}
