//! `tablier bench backgammon-cube`: our cube decisions judged by GNU Backgammon at 3 plies on a
//! set of money positions from our own games, beside gnubg 2-ply's decisions on the same set
//! under the same judge.
//!
//! The positions come from seeded self-play (level 2); a position before the roll is kept
//! when its side on roll is the favourite (0-ply cubeless win of 58% or more), with the cube in
//! the middle or, one time in three, redoubled to him. gnubg (PyPI, through
//! `crates/backgammon-engine/oracle/gnubg_cube_judge.py`) gives the cubeful equities of no
//! double, double/take and double/pass at 2 and 3 plies; the verdicts are kept in a file under
//! `target/` so that later runs, with other settings of ours, judge at once. gnubg 2-ply and its
//! 3-ply judge share their nets, so gnubg 2-ply's figure here flatters it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablier_backgammon::ids::{gnubg_id, parse_gnubg_id, CubeOwner, MatchId};
use tablier_backgammon::{Play, Position, Roll};
use tablier_backgammon_engine::cube::{self, CubeInfo, Owner};
use tablier_backgammon_engine::eval::{classify, Evaluator, Probs, Scratch};
use tablier_backgammon_engine::search;

use crate::cmd::backgammon::evaluator;
use crate::common::progress;

/// `tablier bench backgammon-cube`.
#[derive(Args)]
pub struct BenchCubeArgs {
    /// Positions in the set.
    #[arg(long, default_value_t = 1000)]
    positions: usize,
    /// Seed of the self-play that draws them.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Our look-ahead for cube decisions (each is measured).
    #[arg(long, value_delimiter = ',', default_value = "0,1,2")]
    plies: Vec<u32>,
    /// The Python that has PyPI gnubg (made by `bash scripts/python-env.sh`).
    #[arg(long, default_value = ".venv/bin/python")]
    python: String,
    /// gnubg's verdicts (JSON lines; default `target/bg-cube/judged-SEED-POSITIONS.jsonl`),
    /// made when missing, completed when short.
    #[arg(long)]
    judged: Option<PathBuf>,
    /// Weights of our players instead of the shipped ones. The positions are drawn with the
    /// shipped weights whatever this says, so that runs with other weights are judged on the
    /// same positions.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Show the N worst decisions of each of our players (position, gnubg's verdict, ours).
    #[arg(long, default_value_t = 0)]
    show: usize,
    /// The judge: gnubg at 3 plies, or bgsage at 3 plies (PyPI bgsage, nets of its own: then
    /// gnubg 3-ply is judged beside gnubg 2-ply).
    #[arg(long, value_enum, default_value_t = Judge::Gnubg)]
    judge: Judge,
    /// Positions of matches to this many points instead of money games (0): each at a score
    /// drawn for it, 2 to this many points away for each side (gnubg judges; bgsage judges
    /// money only).
    #[arg(long, default_value_t = 0)]
    match_length: u32,
    /// At most one position from each self-play game (its first that qualifies), so that no
    /// single game's long run of similar positions weighs on the figure: the set is then the
    /// first position of each game from the same stream of games as without it.
    #[arg(long)]
    one_per_game: bool,
}

/// Who judges the decisions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Judge {
    /// GNU Backgammon 3-ply.
    Gnubg,
    /// bgsage 3-ply.
    Bgsage,
}

/// gnubg's equities of the three actions, in units of the cube, for the player on roll:
/// no double, double/take, double/pass.
type Verdict = [f32; 3];

/// One judged position.
struct Judged {
    pos: Position,
    ci: CubeInfo,
    /// gnubg at 0 plies: its cube model on its net's probabilities.
    p0: Verdict,
    /// gnubg's 0-ply probabilities.
    probs0: Probs,
    /// gnubg at 2 plies.
    p2: Verdict,
    /// gnubg at 3 plies.
    p3: Verdict,
    /// The judge's verdict: gnubg's or bgsage's at 3 plies.
    judge: Verdict,
    /// The judge's cubeless probabilities.
    judge_probs: Probs,
}

/// Errors of one player's decisions under the judge, summed over the set.
#[derive(Default)]
struct Tally {
    doubler_error: f64,
    taker_error: f64,
    close_doubles: u32,
    close_takes: u32,
    missed: u32,
    wrong_doubles: u32,
    wrong_takes: u32,
    wrong_passes: u32,
}

/// A decision is close when the two choices are within this equity under the judge (the
/// others are counted too, but rarely wrong).
const CLOSE: f32 = 0.2;

impl Tally {
    /// Adds one position: the player doubles or not, and takes or passes when doubled.
    fn add(&mut self, judge: &Verdict, double: bool, take: bool) {
        let [nd, dt, dp] = *judge;
        let dbl = dt.min(dp);
        let best = nd.max(dbl);
        if (nd - dbl).abs() < CLOSE {
            self.close_doubles += 1;
        }
        if (dt - dp).abs() < CLOSE {
            self.close_takes += 1;
        }
        let e = f64::from(best - if double { dbl } else { nd });
        self.doubler_error += e;
        if e > 0.0 {
            if double {
                self.wrong_doubles += 1;
            } else {
                self.missed += 1;
            }
        }
        // The taker's error, seen from the doubler: taking gives him dt, passing dp.
        let t = f64::from(if take {
            dt - dt.min(dp)
        } else {
            dp - dt.min(dp)
        });
        self.taker_error += t;
        if t > 0.0 {
            if take {
                self.wrong_takes += 1;
            } else {
                self.wrong_passes += 1;
            }
        }
    }

    fn line(&self, who: &str, extra: &str) -> String {
        format!(
            "{who:<34} doubler {:5.1} mEMG over {:4} close ({:3} missed, {:3} wrong doubles); taker {:5.1} mEMG over {:4} close ({:3} wrong takes, {:3} wrong passes); overall {:5.1}{extra}",
            1000.0 * self.doubler_error / f64::from(self.close_doubles.max(1)),
            self.close_doubles,
            self.missed,
            self.wrong_doubles,
            1000.0 * self.taker_error / f64::from(self.close_takes.max(1)),
            self.close_takes,
            self.wrong_takes,
            self.wrong_passes,
            1000.0 * (self.doubler_error + self.taker_error)
                / f64::from((self.close_doubles + self.close_takes).max(1)),
        )
    }
}

/// The cube of a money game with Jacoby and beavers (gnubg's money rules) for the side on roll.
pub(crate) fn money_cube(value: u32, owner: Owner) -> CubeInfo {
    CubeInfo {
        value,
        owner,
        jacoby: true,
        beavers: true,
        ..CubeInfo::money()
    }
}

/// The cube `ci` in a match of `length` points at a score drawn for it, each side 2 to
/// `length` points away.
pub(crate) fn at_match_score(ci: CubeInfo, length: u32, rng: &mut ChaCha8Rng) -> CubeInfo {
    let away = [rng.gen_range(2..=length), rng.gen_range(2..=length)];
    CubeInfo {
        match_length: length,
        score: [length - away[0], length - away[1]],
        jacoby: false,
        beavers: false,
        ..ci
    }
}

/// Seeded self-play at level 2 with `ev`, game after game from the start, for as long as
/// `visit` returns true: it sees the game's number (from 0) and each position before the
/// roll (`None`), then with the roll thrown and its legal plays, and may draw from the same
/// generator.
pub(crate) fn self_play(
    ev: &Evaluator,
    seed: u64,
    mut visit: impl FnMut(&mut ChaCha8Rng, usize, &Position, Option<(Roll, &[Play])>) -> bool,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut s = Scratch::default();
    let mut plays = Vec::new();
    let lvl = search::level(2);
    for game in 0.. {
        let mut pos = Position::start();
        loop {
            if !visit(&mut rng, game, &pos, None) {
                return;
            }
            let roll = Roll::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).expect("dice");
            pos.legal_plays_into(roll, &mut plays);
            if !visit(&mut rng, game, &pos, Some((roll, &plays))) {
                return;
            }
            let (i, _) = search::choose(ev, &pos, roll, lvl, &mut rng, &mut plays, &mut s);
            let next = plays[i].result;
            if next.mover_off() == 15 {
                break;
            }
            pos = next.flip();
        }
    }
}

/// Positions before the roll from seeded self-play at level 2, favouring the side on roll;
/// money games, or matches of `length` points at a score drawn for each position (a cube he
/// may turn: a 2-cube of his only where it does not already win him the match). With
/// `one_per_game` only the first position kept in each game; the generator is drawn from in
/// the same way either way, so that set is part of the other. Each position comes with the
/// number of its game.
fn draw_positions(
    ev: &Evaluator,
    count: usize,
    seed: u64,
    length: u32,
    one_per_game: bool,
) -> Vec<(Position, CubeInfo, usize)> {
    let mut s = Scratch::default();
    let mut out = Vec::with_capacity(count);
    let mut last_game = None;
    self_play(ev, seed, |rng, game, pos, rolled| {
        if rolled.is_none() && ev.probs(pos, &mut s)[0] >= 0.58 && rng.gen_bool(0.5) {
            let mut ci = if rng.gen_range(0..3) == 0 {
                money_cube(2, Owner::Me)
            } else {
                money_cube(1, Owner::Centre)
            };
            if length > 1 {
                ci = at_match_score(ci, length, rng);
            }
            if ci.may_double() && !(one_per_game && last_game == Some(game)) {
                out.push((*pos, ci, game));
                last_game = Some(game);
            }
        }
        out.len() < count
    });
    out
}

/// The GNUbgID of a position before the roll (a money game, or a match at the score of
/// `ci`), its side on roll being gnubg's player 1.
pub(crate) fn id_of(pos: &Position, ci: &CubeInfo) -> String {
    let m = MatchId {
        cube: ci.value,
        cube_owner: match ci.owner {
            Owner::Centre => CubeOwner::Centred,
            Owner::Me => CubeOwner::Player(1),
            Owner::Opponent => CubeOwner::Player(0),
        },
        match_length: ci.match_length as u16,
        score: [ci.score[1] as u16, ci.score[0] as u16],
        crawford: ci.crawford,
        jacoby: ci.match_length == 0 && MatchId::default().jacoby,
        ..MatchId::default()
    };
    gnubg_id(pos, &m)
}

/// The three equities (no double, double/take, double/pass) under `key` of a judge's line.
pub(crate) fn verdict(v: &serde_json::Value, key: &str) -> Option<[f32; 3]> {
    let a = v.get(key)?.as_array()?;
    Some([
        a.first()?.as_f64()? as f32,
        a.get(1)?.as_f64()? as f32,
        a.get(2)?.as_f64()? as f32,
    ])
}

/// Runs the judge script with `python` on the positions of `ids` not in `path` yet (`plies`
/// as it reads them) and reads every verdict back, by position.
pub(crate) fn run_judge(
    python: &str,
    ids: &[String],
    path: &std::path::Path,
    plies: &[&str],
) -> Result<HashMap<String, serde_json::Value>> {
    let list = path.with_extension("ids");
    run_oracle(python, "gnubg_cube_judge.py", ids, &list, path, plies)
}

/// Runs the oracle script `script` (in `crates/backgammon-engine/oracle/`) with `python` on
/// `tasks`, written one a line to `list`: it appends its answers to `out` as JSON lines
/// (`extra` after the two paths on its command line), skipping those already there, and every
/// answer is read back by its `id`.
pub(crate) fn run_oracle(
    python: &str,
    script: &str,
    tasks: &[String],
    list: &std::path::Path,
    out: &std::path::Path,
    extra: &[&str],
) -> Result<HashMap<String, serde_json::Value>> {
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(list, tasks.join("\n") + "\n")?;
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../backgammon-engine/oracle")
        .join(script);
    let status = std::process::Command::new(python)
        .arg(&script)
        .arg(list)
        .arg(out)
        .args(extra)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .status()
        .with_context(|| {
            format!("cannot run {python} (make it with `bash scripts/python-env.sh`)")
        })?;
    if !status.success() {
        bail!(
            "{} stopped ({status}); run again to go on",
            script.display()
        );
    }
    let mut by_id = HashMap::new();
    for line in std::fs::read_to_string(out)?.lines() {
        let v: serde_json::Value = serde_json::from_str(line)
            .with_context(|| format!("{}: not JSON: {line}", out.display()))?;
        if let Some(id) = v.get("id").and_then(|i| i.as_str()) {
            by_id.insert(id.to_owned(), v.clone());
        }
    }
    Ok(by_id)
}

fn probs_of(v: &serde_json::Value, key: &str) -> Result<Probs> {
    let pr = v
        .get(key)
        .and_then(|p| p.as_array())
        .with_context(|| format!("no {key}"))?;
    let mut probs = [0.0f32; 5];
    for (k, x) in probs.iter_mut().enumerate() {
        *x = pr.get(k).and_then(serde_json::Value::as_f64).unwrap_or(0.0) as f32;
    }
    Ok(probs)
}

/// Has gnubg (and bgsage, when it judges) judge the positions not judged yet, and reads
/// every verdict back.
fn judge(args: &BenchCubeArgs, set: &[(Position, CubeInfo)]) -> Result<Vec<Judged>> {
    let path = args.judged.clone().unwrap_or_else(|| {
        let kind = if args.match_length > 1 {
            format!("-m{}", args.match_length)
        } else {
            String::new()
        };
        let per_game = if args.one_per_game { "-g" } else { "" };
        PathBuf::from(format!(
            "target/bg-cube/judged-{}-{}{kind}{per_game}.jsonl",
            args.seed, args.positions
        ))
    });
    let ids: Vec<String> = set.iter().map(|(p, ci)| id_of(p, ci)).collect();
    let gnubg = run_judge(&args.python, &ids, &path, &["2", "3"])?;
    // gnubg's 0-ply verdicts (its model on its net's probabilities, seconds for the set) in a
    // file of their own, so that the 2- and 3-ply files made before stay valid.
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("judged")
        .to_owned();
    let static_path = path.with_file_name(format!("{stem}-p0.jsonl"));
    let gnubg0 = run_judge(&args.python, &ids, &static_path, &["0"])?;
    let sage = if args.judge == Judge::Bgsage {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("judged");
        let sage_path = path.with_file_name(format!("{stem}-bgsage.jsonl"));
        Some(run_judge(&args.python, &ids, &sage_path, &["sage3"])?)
    } else {
        None
    };
    let mut out = Vec::with_capacity(set.len());
    for (id, (pos, ci)) in ids.iter().zip(set) {
        let v = gnubg
            .get(id)
            .with_context(|| format!("gnubg gave no verdict on {id}"))?;
        let (Some(p2), Some(p3)) = (verdict(v, "p2"), verdict(v, "p3")) else {
            bail!("{id}: a verdict lacks p2 or p3");
        };
        let v0 = gnubg0
            .get(id)
            .with_context(|| format!("gnubg gave no 0-ply verdict on {id}"))?;
        let p0 = verdict(v0, "p0").with_context(|| format!("{id}: no p0"))?;
        let probs0 = probs_of(v0, "probs0")?;
        let (judge, judge_probs) = match &sage {
            None => (p3, probs_of(v, "probs3")?),
            Some(sage) => {
                let s = sage
                    .get(id)
                    .with_context(|| format!("bgsage gave no verdict on {id}"))?;
                let s3 = verdict(s, "s3").with_context(|| format!("{id}: no s3"))?;
                (s3, probs_of(s, "sprobs3")?)
            }
        };
        // The ID read back is the same position (a check of the encoding both ways).
        debug_assert_eq!(parse_gnubg_id(id).map(|(p, _)| p).ok(), Some(*pos));
        out.push(Judged {
            pos: *pos,
            ci: *ci,
            p0,
            probs0,
            p2,
            p3,
            judge,
            judge_probs,
        });
    }
    Ok(out)
}

/// Runs `tablier bench backgammon-cube`.
pub fn run(args: &BenchCubeArgs) -> Result<()> {
    let ev = evaluator(args.weights.as_deref())?;
    let t = Instant::now();
    if args.match_length > 1 && args.judge == Judge::Bgsage {
        bail!(
            "bgsage judges money positions only: leave --match-length out or use the gnubg judge"
        );
    }
    // The shipped nets draw the set: the same positions whatever `--weights` says.
    let shipped;
    let drawer = if args.weights.is_some() {
        shipped = evaluator(None)?;
        &shipped
    } else {
        &ev
    };
    let set = draw_positions(
        drawer,
        args.positions,
        args.seed,
        args.match_length,
        args.one_per_game,
    )
    .into_iter()
    .map(|(pos, ci, _)| (pos, ci))
    .collect::<Vec<_>>();
    eprintln!(
        "{} positions drawn from self-play in {:.1} s; gnubg (2 and 3 plies){} judges them",
        set.len(),
        t.elapsed().as_secs_f64(),
        if args.judge == Judge::Bgsage {
            " and bgsage (3 plies)"
        } else {
            ""
        }
    );
    let judged = judge(args, &set)?;
    let judge_name = match args.judge {
        Judge::Gnubg => "gnubg 3-ply (PyPI gnubg 1.1.0a16)",
        Judge::Bgsage => "bgsage 3-ply (PyPI bgsage)",
    };
    let model_row = match args.judge {
        Judge::Gnubg => "our cube model on gnubg 3-ply probs",
        Judge::Bgsage => "our cube model on bgsage 3-ply probs",
    };
    let kind = if args.match_length > 1 {
        format!(
            "{}-point match positions (scores 2 to {0} away)",
            args.match_length
        )
    } else {
        "money positions (Jacoby, beavers)".to_owned()
    };
    println!(
        "Cube decisions on {} {kind}, {} of them redoubles; judged by {judge_name}; mEMG per close decision (within {CLOSE} of the other choice under the judge)",
        judged.len(),
        judged.iter().filter(|j| j.ci.owner == Owner::Me).count()
    );
    let mut theirs = Tally::default();
    let mut theirs3 = Tally::default();
    // The two cube models side by side on the same (gnubg 0-ply) probabilities.
    let mut theirs0 = Tally::default();
    let mut model_on_theirs0 = Tally::default();
    let mut janowski_on_theirs = Tally::default();
    let mut worst = Vec::new();
    for j in &judged {
        let [nd, dt, dp] = j.p0;
        theirs0.add(&j.judge, dt.min(dp) > nd, dt <= dp);
        let x = cube::cube_efficiency_at(classify(&j.pos), j.pos.pip_count().0, 0);
        let d = cube::decide(&j.probs0, &j.ci, x);
        model_on_theirs0.add(&j.judge, d.double, d.take);
        let [nd, dt, dp] = j.p2;
        theirs.add(&j.judge, dt.min(dp) > nd, dt <= dp);
        let [nd, dt, dp] = j.p3;
        theirs3.add(&j.judge, dt.min(dp) > nd, dt <= dp);
        let x = cube::cube_efficiency_at(classify(&j.pos), j.pos.pip_count().0, 0);
        let d = cube::decide(&j.judge_probs, &j.ci, x);
        let before = janowski_on_theirs.doubler_error + janowski_on_theirs.taker_error;
        janowski_on_theirs.add(&j.judge, d.double, d.take);
        let e = janowski_on_theirs.doubler_error + janowski_on_theirs.taker_error - before;
        worst.push((e, j, d, j.judge_probs));
    }
    println!("{}", theirs0.line("gnubg 0-ply (its model)", ""));
    println!(
        "{}",
        model_on_theirs0.line("our cube model on gnubg 0-ply probs", "")
    );
    println!("{}", theirs.line("gnubg 2-ply", ""));
    if args.judge == Judge::Bgsage {
        println!("{}", theirs3.line("gnubg 3-ply", ""));
    }
    println!("{}", janowski_on_theirs.line(model_row, ""));
    show_worst(model_row, worst, args.show);
    let mut s = Scratch::default();
    for &plies in &args.plies {
        for cubeful in [false, true] {
            // At 0 plies both are the same; beyond 2 the cubeless search (every play kept by
            // the filter searched at every ply) takes seconds a position.
            if (cubeful && plies == 0) || (!cubeful && plies > 2) {
                continue;
            }
            let bar = progress(judged.len() as u64, false, "positions");
            let t = Instant::now();
            let mut ours = Tally::default();
            let mut worst = Vec::new();
            for j in &judged {
                let p = if args.show > 0 {
                    search::probs_nply(&ev, &j.pos, plies, search::MoveFilter::default(), &mut s)
                } else {
                    [0.0; 5]
                };
                let d = if cubeful {
                    search::cube_decision(&ev, &j.pos, &j.ci, plies, &mut s)
                } else {
                    search::cube_decision_cubeless(&ev, &j.pos, &j.ci, plies, &mut s)
                };
                let before = ours.doubler_error + ours.taker_error;
                ours.add(&j.judge, d.double, d.take);
                worst.push((ours.doubler_error + ours.taker_error - before, j, d, p));
                bar.inc(1);
            }
            bar.finish_and_clear();
            let per = t.elapsed().as_secs_f64() * 1000.0 / judged.len() as f64;
            let who = if cubeful {
                format!("tablier {plies}-ply, cube searched")
            } else {
                format!("tablier {plies}-ply cubeless, then model")
            };
            println!("{}", ours.line(&who, &format!("; {per:.1} ms a position")));
            show_worst(&who, worst, args.show);
        }
    }
    Ok(())
}

/// Prints the `n` costliest decisions: the position, gnubg's and our probabilities and
/// equities.
fn show_worst(who: &str, mut worst: Vec<(f64, &Judged, cube::CubeDecision, Probs)>, n: usize) {
    if n == 0 {
        return;
    }
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("  worst decisions of {who}:");
    for (e, j, d, p) in worst.into_iter().take(n).filter(|w| w.0 > 0.0) {
        let f = |p: &Probs| {
            format!(
                "{:.3} {:.3} {:.3} {:.3} {:.3}",
                p[0], p[1], p[2], p[3], p[4]
            )
        };
        println!(
            "  {:6.3} {} {:?} pips {:?}\n         judge's probs {} nd {:+.3} dt {:+.3} dp {:+.3}\n         ours    probs {} nd {:+.3} dt {:+.3} -> {}{}",
            e,
            id_of(&j.pos, &j.ci),
            classify(&j.pos),
            j.pos.pip_count(),
            f(&j.judge_probs),
            j.judge[0],
            j.judge[1],
            j.judge[2],
            f(&p),
            d.no_double,
            d.double_take,
            if d.double { "double" } else { "no double" },
            if d.take { ", take" } else { ", pass" },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_position_per_game_is_the_first_of_each_game_in_the_whole_set() {
        let ev = Evaluator::shipped();
        let all = draw_positions(ev, 300, 7, 0, false);
        let one = draw_positions(ev, 25, 7, 0, true);
        assert_eq!(one.len(), 25);
        // Some game gives the whole set several positions; one a game gives each game one.
        assert!(all.windows(2).any(|w| w[0].2 == w[1].2));
        assert!(one.windows(2).all(|w| w[0].2 < w[1].2));
        // Each is its game's first in the whole set (the same stream of games).
        let last = all.last().unwrap().2;
        let mut compared = 0;
        for (pos, ci, game) in one.iter().filter(|x| x.2 < last) {
            let first = all
                .iter()
                .find(|x| x.2 == *game)
                .expect("the game is in both");
            assert_eq!(id_of(pos, ci), id_of(&first.0, &first.1));
            compared += 1;
        }
        assert!(compared >= 10, "{compared}");
    }
}
