//! `tablier bench backgammon-checker`: our checker plays judged by GNU Backgammon, several of
//! our players side by side on the same positions.
//!
//! The positions come from seeded self-play (level 2), each with the roll thrown in it and a
//! money cube (Jacoby, beavers): in the middle half the time, else at 2 owned by one side or
//! the other. Each player (a way of valuing plays, `cubeful`, `cubeful-search` or `cubeless`,
//! and optionally other weights) chooses its play at the level asked; where they choose
//! differently, gnubg (PyPI, through `crates/backgammon-engine/oracle/gnubg_cube_judge.py`)
//! gives the cubeful equity of each position reached, for the opponent on roll, at the judge's
//! plies: the play is worth the opposite of his best cube action. A player's loss at a position
//! is the gap to the best of the plays chosen there (0 where all agree), in thousandths of the
//! cube (mEMG); the paired differences with the first player come with their standard error.
//! The verdicts are kept in a file under `target/` so that later runs judge at once.
//!
//! A player `gnubg:N` is gnubg itself choosing at N plies, cubeful, with its World Class
//! player's move filters (through `crates/backgammon-engine/oracle/gnubg_play.py`): beside it,
//! our players' losses are measured against the reference the issue names, on the same
//! positions and under the same judge.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablier_backgammon::notation::parse_play;
use tablier_backgammon::{Play, Position, Roll};
use tablier_backgammon_engine::cube::{self, CubeInfo, Owner};
use tablier_backgammon_engine::eval::{
    net_of, terminal_for_winner, Evaluator, Scratch, NET_CONTACT, NET_CRASHED, NET_RACE,
};
use tablier_backgammon_engine::player::Player;
use tablier_backgammon_engine::search::{MoveFilter, PlayValue};

use super::cube::{at_match_score, id_of, money_cube, run_judge, run_oracle, self_play, verdict};
use crate::cmd::backgammon::{evaluator, read_weights};
use crate::common::progress;

/// `tablier bench backgammon-checker`.
#[derive(Args)]
pub struct BenchCheckerArgs {
    /// Positions (each with a roll and a cube) in the set.
    #[arg(long, default_value_t = 500)]
    positions: usize,
    /// Seed of the self-play that draws them.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Our level (its look-ahead), for every player that does not name its own: by default 5
    /// (two plies), the level that plays in gnubg 2-ply's time; 6 searches three.
    #[arg(long, default_value_t = 5)]
    level: u8,
    /// The players compared, each `VALUE[#LEVEL][%FILTER][/FILTER][@WEIGHTS]` or `gnubg:PLIES`:
    /// how it values its plays (`cubeful`, `cubeful-search` or `cubeless`); optionally its own
    /// level instead of `--level` (`cubeful-search#6`); optionally its first
    /// (0-ply) move filter (`KEEP:MARGIN`; by default the level's, 8:0.16); optionally its
    /// second move filter before the full depth (`KEEP:MARGIN`, e.g. `2:0.04`, or `none`; by
    /// default the level's); and optionally a weights file instead of the shipped one. `gnubg:2`
    /// is gnubg itself at 2 plies (its World Class player). The first is the reference of the
    /// paired differences.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "cubeful-search,cubeful,cubeless"
    )]
    players: Vec<String>,
    /// Positions of matches to this many points instead of money games (0): each at a score
    /// drawn with both sides 2 to this many away (no Crawford game), the cube in the middle or
    /// at 2 on either side; positions where a play ends the game are left out (gnubg's match
    /// equities and ours are not on one scale there).
    #[arg(long, default_value_t = 0)]
    match_length: u32,
    /// gnubg's plies as the judge (cubeful equities).
    #[arg(long, default_value_t = 2)]
    judge_plies: u32,
    /// The Python that has PyPI gnubg (made by `bash scripts/python-env.sh`).
    #[arg(long, default_value = ".venv/bin/python")]
    python: String,
    /// gnubg's verdicts (JSON lines; default `target/bg-checker/judged-PLIES.jsonl`), made
    /// when missing, completed when short.
    #[arg(long)]
    judged: Option<PathBuf>,
    /// Print the positions where the first player loses most (up to this many), with every
    /// player's loss there.
    #[arg(long, default_value_t = 0)]
    show: usize,
    /// Keep only crashed positions (contact where a side has six live checkers or fewer, the
    /// crashed net's), drawn from the same self-play.
    #[arg(long)]
    crashed: bool,
}

/// Who chooses a player's plays.
enum Chooser {
    /// Our engine, with its evaluator.
    Ours(Box<Evaluator>, Player),
    /// gnubg at this many plies (PyPI gnubg, its World Class move filters).
    Gnubg(u32),
}

/// One player of the comparison.
struct Contender {
    name: String,
    chooser: Chooser,
}

fn contender(spec: &str, level: u8) -> Result<Contender> {
    if let Some(plies) = spec.strip_prefix("gnubg:") {
        let plies: u32 = plies
            .parse()
            .ok()
            .filter(|p| *p <= 3)
            .with_context(|| format!("{spec:?}: gnubg plays at 0 to 3 plies (gnubg:2)"))?;
        return Ok(Contender {
            name: spec.to_owned(),
            chooser: Chooser::Gnubg(plies),
        });
    }
    let (value, weights) = match spec.split_once('@') {
        Some((v, w)) => (v, Some(w)),
        None => (spec, None),
    };
    // `VALUE#LEVEL`: the player's own level instead of the bench's.
    let (value, level) = match value.split_once('#') {
        Some((v, rest)) => {
            // The level comes before the filters: `cubeful-search#6%16:0.48`.
            let end = rest.find(['%', '/']).unwrap_or(rest.len());
            let n: u8 = rest[..end]
                .parse()
                .ok()
                .filter(|n| *n <= tablier_backgammon_engine::MAX_LEVEL)
                .with_context(|| {
                    format!(
                        "{spec:?}: a player's level goes from 0 to {}",
                        tablier_backgammon_engine::MAX_LEVEL
                    )
                })?;
            (format!("{v}{}", &rest[end..]), n)
        }
        None => (value.to_owned(), level),
    };
    let value = value.as_str();
    // `VALUE%KEEP:MARGIN`: the first (0-ply) filter instead of the level's.
    let (value, filter) = match value.split_once('%') {
        Some((v, f)) => (v, move_filter(f)?),
        None => (value, Player::at_level(level).filter),
    };
    // `VALUE/KEEP:MARGIN`: gnubg's second filter before the full depth; `VALUE/none`: no
    // second filter; `VALUE`: the level's.
    let (value, narrow) = match value.split_once('/') {
        Some((v, "none")) => (v, None),
        Some((v, f)) => (v, Some(move_filter(f)?)),
        None => (value, Player::at_level(level).narrow),
    };
    let play_value = match value {
        "cubeful" => PlayValue::Cubeful,
        "cubeful-search" => PlayValue::CubefulSearch,
        "cubeless" => PlayValue::Cubeless,
        other => bail!("{other:?}: a player values its plays cubeful, cubeful-search or cubeless"),
    };
    let ev = match weights {
        Some(w) => read_weights(std::path::Path::new(w))?,
        None => evaluator(None)?,
    };
    Ok(Contender {
        name: spec.to_owned(),
        chooser: Chooser::Ours(
            Box::new(ev),
            Player {
                play_value,
                narrow,
                filter,
                ..Player::at_level(level)
            },
        ),
    })
}

/// A move filter written `KEEP:MARGIN`.
fn move_filter(f: &str) -> Result<MoveFilter> {
    let (keep, margin) = f
        .split_once(':')
        .ok_or_else(|| anyhow::anyhow!("{f:?}: a move filter is KEEP:MARGIN"))?;
    let filter = MoveFilter {
        keep: keep.parse()?,
        margin: margin.parse()?,
    };
    if filter.keep == 0 || filter.margin.is_nan() || filter.margin < 0.0 {
        bail!("{f:?}: a move filter keeps one play at least, within a margin of 0 or more");
    }
    Ok(filter)
}

/// gnubg's plays at `plies` on `set`, through the oracle script (its choices kept in
/// `gnubg-plays.jsonl` in `dir`, so that a later run asks only for new positions):
/// each the position reached, read from gnubg's notation and checked against our own list of
/// legal plays.
fn gnubg_plays(
    python: &str,
    set: &[(Position, Roll, CubeInfo)],
    plies: u32,
    dir: &std::path::Path,
) -> Result<Vec<Position>> {
    std::fs::create_dir_all(dir)?;
    let tasks: Vec<String> = set
        .iter()
        .map(|(pos, roll, ci)| {
            let (a, b) = roll.high_low();
            format!("{} {a} {b}", id_of(pos, ci))
        })
        .collect();
    let key = format!("play{plies}");
    let answers = run_oracle(
        python,
        "gnubg_play.py",
        &tasks,
        &dir.join("gnubg-plays.tasks"),
        &dir.join("gnubg-plays.jsonl"),
        &[&plies.to_string()],
    )?;
    let by_task: HashMap<&str, &str> = answers
        .iter()
        .filter_map(|(id, v)| Some((id.as_str(), v.get(&key)?.as_str()?)))
        .collect();
    set.iter()
        .zip(&tasks)
        .map(|((pos, roll, _), task)| {
            let text = *by_task
                .get(task.as_str())
                .with_context(|| format!("gnubg gave no play for {task}"))?;
            let play = if text.is_empty() {
                Play::none(pos)
            } else {
                parse_play(pos, *roll, text)
                    .with_context(|| format!("gnubg's play {text:?} for {task}"))?
            };
            if !pos
                .legal_plays(*roll)
                .iter()
                .any(|p| p.result == play.result)
            {
                bail!("gnubg's play {text:?} for {task} is not one of our legal plays");
            }
            Ok(play.result)
        })
        .collect()
}

/// Positions from seeded self-play at level 2, each with its roll and a cube (money, or a
/// match of `length` points at a score drawn for it).
fn draw_positions(
    count: usize,
    seed: u64,
    length: u32,
    crashed: bool,
) -> Vec<(Position, Roll, CubeInfo)> {
    let mut out = Vec::with_capacity(count);
    self_play(Evaluator::shipped(), seed, |rng, _game, pos, rolled| {
        // A choice to make (two plays at least), one time in three.
        if let Some((roll, plays)) = rolled {
            if plays.len() > 1 && rng.gen_range(0..3) == 0 {
                let mut ci = match rng.gen_range(0..4) {
                    0 => money_cube(2, Owner::Me),
                    1 => money_cube(2, Owner::Opponent),
                    _ => money_cube(1, Owner::Centre),
                };
                if length > 1 {
                    ci = at_match_score(ci, length, rng);
                }
                if !crashed || net_of(pos) == Some(NET_CRASHED) {
                    out.push((*pos, roll, ci));
                }
            }
        }
        out.len() < count
    });
    out
}

/// Runs `tablier bench backgammon-checker`.
pub fn run(args: &BenchCheckerArgs) -> Result<()> {
    if args.players.is_empty() {
        bail!("--players names one player at least");
    }
    if args.judge_plies > 3 {
        bail!("--judge-plies goes from 0 to 3");
    }
    let contenders = args
        .players
        .iter()
        .map(|p| contender(p, args.level))
        .collect::<Result<Vec<_>>>()?;
    let set = draw_positions(args.positions, args.seed, args.match_length, args.crashed);
    // Each player's play: the position it leads to.
    let mut chosen: Vec<Vec<Position>> = vec![Vec::with_capacity(set.len()); contenders.len()];
    let mut spent = vec![Duration::ZERO; contenders.len()];
    let bar = progress((set.len() * contenders.len()) as u64, false, "plays");
    let mut s = Scratch::default();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let path = args.judged.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "target/bg-checker/judged-{}.jsonl",
            args.judge_plies
        ))
    });
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."))
        .to_path_buf();
    for (k, c) in contenders.iter().enumerate() {
        match &c.chooser {
            Chooser::Ours(ev, player) => {
                for (pos, roll, ci) in &set {
                    let t = Instant::now();
                    let play = player.choose_play(ev, pos, *roll, ci, &mut rng, &mut s);
                    spent[k] += t.elapsed();
                    chosen[k].push(play.result);
                    bar.inc(1);
                }
            }
            Chooser::Gnubg(plies) => {
                bar.suspend(|| -> Result<()> {
                    let t = Instant::now();
                    chosen[k] = gnubg_plays(&args.python, &set, *plies, &dir)?;
                    spent[k] = t.elapsed();
                    Ok(())
                })?;
                bar.inc(set.len() as u64);
            }
        }
    }
    bar.finish_and_clear();
    // The positions reached where the players differ, for the opponent on roll.
    let mut ids = Vec::new();
    for (n, (_, _, ci)) in set.iter().enumerate() {
        if chosen.iter().all(|c| c[n] == chosen[0][n]) {
            continue;
        }
        if ci.match_length > 0 && chosen.iter().any(|c| c[n].mover_off() == 15) {
            continue;
        }
        for c in &chosen {
            if c[n].mover_off() < 15 {
                ids.push(id_of(&c[n].flip(), &ci.flipped()));
            }
        }
    }
    ids.sort();
    ids.dedup();
    eprintln!(
        "{} positions, {} where the players differ: gnubg {}-ply judges {} positions reached",
        set.len(),
        (0..set.len())
            .filter(|&n| chosen.iter().any(|c| c[n] != chosen[0][n]))
            .count(),
        args.judge_plies,
        ids.len()
    );
    let key = format!("p{}", args.judge_plies);
    let judged: HashMap<String, serde_json::Value> = if ids.is_empty() {
        HashMap::new()
    } else {
        run_judge(&args.python, &ids, &path, &[&args.judge_plies.to_string()])?
    };
    // The value of a play for its player, in units of the cube: the opposite of the
    // opponent's best cube action, or the game won.
    let value = |after: &Position, ci: &CubeInfo| -> Result<f64> {
        if after.mover_off() == 15 {
            return Ok(f64::from(cube::terminal_value(
                &terminal_for_winner(after),
                ci,
            )));
        }
        let theirs = ci.flipped();
        let id = id_of(&after.flip(), &theirs);
        let v = judged
            .get(&id)
            .and_then(|v| verdict(v, &key))
            .with_context(|| format!("gnubg gave no verdict on {id}"))?;
        let [nd, dt, dp] = v;
        let best = if theirs.may_double() {
            nd.max(dt.min(dp))
        } else {
            nd
        };
        Ok(-f64::from(best))
    };
    let mut loss = vec![0.0f64; contenders.len()];
    let mut diffs: Vec<Vec<f64>> = vec![Vec::with_capacity(set.len()); contenders.len()];
    // Each player's loss by the class of the position played from (contact, crashed, race,
    // bear-off: the net that values it, if one does).
    const CLASSES: [&str; 4] = ["contact", "crashed", "race", "bear-off"];
    let class_of = |pos: &Position| match net_of(pos) {
        Some(NET_CONTACT) => 0,
        Some(NET_CRASHED) => 1,
        Some(NET_RACE) => 2,
        _ => 3,
    };
    let mut by_class = vec![[0.0f64; 4]; contenders.len()];
    let mut in_class = [0usize; 4];
    // (first player's loss, position index, every player's loss) where the plays differ.
    let mut worst: Vec<(f64, usize, Vec<f64>)> = Vec::new();
    let mut left_out = 0;
    for (i, (pos, _, ci)) in set.iter().enumerate() {
        let differ = chosen.iter().any(|c| c[i] != chosen[0][i]);
        if differ && ci.match_length > 0 && chosen.iter().any(|c| c[i].mover_off() == 15) {
            left_out += 1;
            continue;
        }
        let values = if differ {
            chosen
                .iter()
                .map(|c| value(&c[i], ci))
                .collect::<Result<Vec<_>>>()?
        } else {
            vec![0.0; contenders.len()]
        };
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let class = class_of(pos);
        in_class[class] += 1;
        for (k, v) in values.iter().enumerate() {
            loss[k] += best - v;
            by_class[k][class] += best - v;
            diffs[k].push(values[0] - v);
        }
        if differ {
            worst.push((
                best - values[0],
                i,
                values.iter().map(|v| best - v).collect(),
            ));
        }
    }
    let n = (set.len() - left_out) as f64;
    let kind = if args.match_length > 0 {
        format!(
            "{}-point match positions (scores 2 to {0} away",
            args.match_length
        )
    } else {
        "money positions (Jacoby, beavers".to_owned()
    };
    println!(
        "Checker plays at level {} on {} {kind}; cube in the middle, or at 2 on either side), judged by gnubg {}-ply (PyPI gnubg, cubeful); loss: mEMG a position below the best of the plays chosen{}",
        args.level,
        set.len() - left_out,
        args.judge_plies,
        if left_out > 0 {
            format!(" ({left_out} left out: a play ended the game)")
        } else {
            String::new()
        }
    );
    for (k, c) in contenders.iter().enumerate() {
        let d = &diffs[k];
        let mean = d.iter().sum::<f64>() / n;
        let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0).max(1.0);
        let agree = (0..set.len())
            .filter(|&i| chosen[k][i] == chosen[0][i])
            .count();
        let time = match c.chooser {
            Chooser::Ours(..) => format!("{:.1} ms a play", spent[k].as_secs_f64() * 1000.0 / n),
            Chooser::Gnubg(_) => "gnubg's time not counted".to_owned(),
        };
        let split = (0..4)
            .filter(|&j| in_class[j] > 0)
            .map(|j| {
                format!(
                    "{} {:.2}",
                    CLASSES[j],
                    1000.0 * by_class[k][j] / in_class[j] as f64
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        println!(
            "{:<32} loss {:6.2} ({split}); behind the first by {:+6.2} ± {:.2} (standard error); the first's play {:5.1}% of the time; {time}",
            c.name,
            1000.0 * loss[k] / n,
            1000.0 * mean,
            1000.0 * (var / n).sqrt(),
            100.0 * agree as f64 / n,
        );
    }
    println!(
        "positions by class: {} contact, {} crashed, {} race, {} bear-off",
        in_class[0], in_class[1], in_class[2], in_class[3]
    );
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (first, i, losses) in worst.iter().take(args.show) {
        let (pos, roll, ci) = &set[*i];
        let (a, b) = roll.high_low();
        let each = contenders
            .iter()
            .zip(losses)
            .map(|(c, l)| format!("{} {:.0}", c.name, 1000.0 * l))
            .collect::<Vec<_>>()
            .join(", ");
        println!(
            "  {} rolled {a}{b} ({}): first player loses {:.0} mEMG ({each})",
            id_of(pos, ci),
            CLASSES[class_of(pos)],
            1000.0 * first
        );
    }
    Ok(())
}
