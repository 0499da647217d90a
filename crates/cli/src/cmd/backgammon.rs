//! `tablier backgammon ...` (the legal plays of a roll, the engine's hint on a decision), and
//! what the backgammon commands share: reading the engine's weights.

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use serde::Serialize;
use tablier_backgammon::{notation, Position, Roll};
use tablier_backgammon_engine::eval::Evaluator;
use tablier_backgammon_engine::search::PlayValue;

/// Reads a weights file.
pub(crate) fn read_weights(path: &Path) -> Result<Evaluator> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Evaluator::from_bytes(&bytes).with_context(|| format!("loading {}", path.display()))
}

/// The evaluator to use: a weights file, or the shipped one.
pub(crate) fn evaluator(weights: Option<&Path>) -> Result<Evaluator> {
    match weights {
        Some(p) => read_weights(p),
        None => Ok(Evaluator::shipped().clone()),
    }
}

/// How the backgammon engine plays, for the commands that seat it (`gnubg-external`, `ubgi`).
#[derive(Args)]
pub struct EngineArgs {
    /// Level of play, 0 (beginner) to the strongest.
    #[arg(long, default_value_t = tablier_backgammon_engine::MAX_LEVEL)]
    pub level: u8,
    /// Never offer a double (takes and drops are still answered).
    #[arg(long)]
    pub no_double: bool,
    /// Weights to use instead of the shipped ones.
    #[arg(long)]
    pub weights: Option<std::path::PathBuf>,
    /// Seed of the noise of the lower levels.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How plays are valued: `cubeful-search` (the cube at every node of the search, the
    /// default), `cubeful` (the cube model once on each play's searched probabilities) or
    /// `cubeless` (money equity whatever the cube and score, as before 2026-11-27).
    #[arg(long, value_enum, default_value_t = PlayValueArg::CubefulSearch)]
    pub play_value: PlayValueArg,
}

/// `--play-value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayValueArg {
    /// The cube model on each play's searched probabilities.
    Cubeful,
    /// The cube at every node of the search.
    CubefulSearch,
    /// Money equity, whatever the cube and the score.
    Cubeless,
}

impl EngineArgs {
    /// The evaluator and the player these arguments name.
    pub fn load(&self) -> Result<(Evaluator, tablier_backgammon_engine::player::Player)> {
        Ok((
            evaluator(self.weights.as_deref())?,
            tablier_backgammon_engine::player::Player {
                doubles: !self.no_double,
                play_value: match self.play_value {
                    PlayValueArg::Cubeful => PlayValue::Cubeful,
                    PlayValueArg::CubefulSearch => PlayValue::CubefulSearch,
                    PlayValueArg::Cubeless => PlayValue::Cubeless,
                },
                ..tablier_backgammon_engine::player::Player::at_level(self.level)
            },
        ))
    }
}

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
    /// The engine's view of a decision, with its numbers: before the roll the cube action
    /// (no double, double/take, double/pass), with a double pending the answer, with dice the
    /// best plays; as gnubg's `hint`.
    Hint {
        /// The decision: a GNUbgID (`PositionID:MatchID`, score, cube and dice in the Match ID)
        /// or an XGID.
        id: String,
        /// Level of play whose search is shown (0 to the strongest).
        #[arg(long, default_value_t = tablier_backgammon_engine::MAX_LEVEL)]
        level: u8,
        /// How many plays to list.
        #[arg(long, default_value_t = 5)]
        plays: usize,
        /// Weights to use instead of the shipped ones.
        #[arg(long)]
        weights: Option<std::path::PathBuf>,
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
        BackgammonCommand::Hint {
            id,
            level,
            plays,
            weights,
        } => {
            let ev = evaluator(weights.as_deref())?;
            print!("{}", hint(&ev, &id, level, plays)?);
            Ok(())
        }
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

/// The decision an ID asks for, read as [`hint`] reads it.
fn read_decision(id: &str) -> Result<tablier_backgammon_engine::fibs::BoardLine> {
    use tablier_backgammon::xgid::Xgid;
    let id = id.trim();
    let x = if id.starts_with("XGID=") {
        Xgid::parse(id).map_err(|e| anyhow!("bad XGID {id:?}: {e}"))?
    } else {
        let (p, m) = tablier_backgammon::ids::parse_gnubg_id(id)
            .map_err(|e| anyhow!("bad GNUbgID {id:?} (PositionID:MatchID): {e}"))?;
        Xgid::from_gnubg(&p, &m)
    };
    tablier_backgammon_engine::fibs::board_from_xgid(&x).map_err(|e| anyhow!("{id:?}: {e}"))
}

/// `tablier backgammon hint`: the engine's numbers for the decision `id` asks for, at `level`.
fn hint(ev: &Evaluator, id: &str, level: u8, shown: usize) -> Result<String> {
    use std::fmt::Write;
    use tablier_backgammon_engine::cube::Owner;
    use tablier_backgammon_engine::eval::Scratch;
    use tablier_backgammon_engine::player::Player;
    use tablier_backgammon_engine::search;
    let b = read_decision(id)?;
    let player = Player::at_level(level);
    let ci = b.cube;
    let mut s = Scratch::default();
    let mut out = String::new();
    let owner = match ci.owner {
        Owner::Centre => "centred",
        Owner::Me => "owned by the side on roll",
        Owner::Opponent => "owned by the opponent",
    };
    let game = if ci.match_length > 0 {
        format!(
            "{}-point match, score {}-{} (side on roll first){}",
            ci.match_length,
            ci.score[0],
            ci.score[1],
            if ci.crawford {
                ", Crawford game"
            } else if ci.post_crawford {
                ", post-Crawford"
            } else {
                ""
            }
        )
    } else {
        format!(
            "money game{}{}",
            if ci.jacoby { ", Jacoby rule" } else { "" },
            if ci.beavers { ", beavers" } else { "" }
        )
    };
    writeln!(out, "{game}; cube {} {owner}", ci.value)?;
    let pos = &b.position;
    let (mine, theirs) = pos.pip_count();
    writeln!(out, "pips: side on roll {mine}, opponent {theirs}")?;
    if let Some(roll) = b.dice {
        let mut plays = Vec::new();
        pos.legal_plays_into(roll, &mut plays);
        let plies = player.level.plies;
        let ranked = search::rank_0ply(ev, &plays, &mut s);
        let mut rows: Vec<((f32, f32), f32, usize)> = ranked
            .iter()
            .take(shown.max(1) * 2)
            .map(|&(i, p0)| {
                let how = player.play_value;
                let v = search::play_value_keyed(ev, &plays[i], plies, &ci, how, &mut s);
                (v, tablier_backgammon_engine::eval::equity(&p0), i)
            })
            .collect();
        // Equal values (a double the opponent should pass after each) in the order of the
        // search's second key.
        rows.sort_by(|a, b| b.0 .0.total_cmp(&a.0 .0).then(b.0 .1.total_cmp(&a.0 .1)));
        let rows: Vec<(f32, f32, usize)> = rows.into_iter().map(|(v, e, i)| (v.0, e, i)).collect();
        writeln!(
            out,
            "{} legal plays of {roll}; the best by their {plies}-ply value with the cube (0-ply cubeless equity beside):",
            plays.len()
        )?;
        let best = rows.first().map_or(0.0, |r| r.0);
        for (k, (v, e0, i)) in rows.iter().take(shown.max(1)).enumerate() {
            let text = notation::format_play(&plays[*i]);
            let text = if text.is_empty() {
                "(no play)".to_owned()
            } else {
                text
            };
            writeln!(
                out,
                "{:>2}. {text:<24} {v:+.4} ({:+.4})  0-ply {e0:+.4}",
                k + 1,
                v - best
            )?;
        }
        // The play the level chooses: its search may value fewer plays at full depth than
        // the list (gnubg's second filter at 2 plies), and at the weak levels it errs on purpose.
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0);
        let chosen = player.choose_play(ev, pos, roll, &ci, &mut rng, &mut s);
        let text = notation::format_play(&chosen);
        writeln!(
            out,
            "level {level} plays {}",
            if text.is_empty() {
                "nothing (no play)"
            } else {
                &text
            }
        )?;
        return Ok(out);
    }
    let plies = if b.doubled {
        player.answer_plies()
    } else {
        player.cube_plies()
    };
    let d = search::cube_decision(ev, pos, &ci, plies, &mut s);
    let p = search::probs_nply(ev, pos, plies, search::MoveFilter::default(), &mut s);
    writeln!(
        out,
        "{plies}-ply cubeless: win {:.3} (gammon {:.3}, backgammon {:.3}), lose gammon {:.3} (backgammon {:.3}); equity {:+.4}",
        p[0], p[1], p[2], p[3], p[4], tablier_backgammon_engine::eval::equity(&p)
    )?;
    if !ci.may_double() && !b.doubled {
        writeln!(
            out,
            "the side on roll may not double: equity {:+.4}",
            d.no_double
        )?;
        return Ok(out);
    }
    writeln!(
        out,
        "{plies}-ply cubeful equities (for the side on roll, in units of the cube):"
    )?;
    writeln!(out, "  no double     {:+.4}", d.no_double)?;
    writeln!(out, "  double, take  {:+.4}", d.double_take)?;
    writeln!(out, "  double, pass  {:+.4}", d.double_pass)?;
    let verdict = match (d.double, d.take, d.too_good) {
        (true, true, _) => "double, take",
        (true, false, _) => "double, pass",
        (false, _, true) => "too good to double, pass",
        (false, true, false) => "no double, take",
        (false, false, false) => "no double, pass",
    };
    let verdict = if d.beaver && ci.beavers && ci.match_length == 0 {
        format!("{verdict} (beaver)")
    } else {
        verdict.to_owned()
    };
    writeln!(out, "proper cube action: {verdict}")?;
    if b.doubled {
        let answer = match player.answer_double(ev, pos, &ci, &mut s) {
            tablier_backgammon::game::Action::Beaver => "beaver",
            tablier_backgammon::game::Action::Take => "take",
            _ => "pass",
        };
        writeln!(out, "a double is pending: the opponent should {answer}")?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line of `hint`'s text that starts with `label`, its number.
    fn number(text: &str, label: &str) -> f32 {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(label))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no {label:?} in:\n{text}"))
    }

    #[test]
    fn hint_gives_the_cube_action_with_its_numbers() {
        let ev = Evaluator::shipped();
        // 7-point match, 4-0 up, owning a 2-cube, 36 pips behind with two blots in the
        // opponent's board. GNU Backgammon 1.07 at 3 plies: no redouble, take (no double
        // -0.358, double/take -2.332): doubling to 4 lets the opponent win the match by
        // winning this game. (Tablier redoubled here when it read gnubg's scores swapped.)
        let text = hint(ev, "s8zEASHgefABSA:AQHgAEAAAAAE", 5, 5).unwrap();
        assert!(text.contains("7-point match, score 4-0"), "{text}");
        assert!(
            text.contains("proper cube action: no double, take"),
            "{text}"
        );
        let nd = number(&text, "no double");
        let dt = number(&text, "double, take");
        assert!((nd - -0.358).abs() < 0.1, "{text}");
        assert!(dt < -2.0, "{text}");
        // Money, the side on roll wins on this roll without a gammon (two checkers on his
        // ace point against three on the opponent's six): double, pass, as gnubg 1.07 says
        // (no double 1.0, double/take 2.0).
        let text = hint(ev, "4AAAMAAAAAAAAA:MAEAAAAAAAAA", 5, 5).unwrap();
        assert!(text.contains("money game"), "{text}");
        assert!(text.contains("proper cube action: double, pass"), "{text}");
        assert_eq!(number(&text, "double, take"), 2.0, "{text}");
        // The same decision with the double pending (XGID dice `D`): the opponent passes.
        let x = "XGID=------C-----------------b-:0:0:-1:D:0:0:1:0:10";
        let text = hint(ev, x, 5, 5).unwrap();
        assert!(text.contains("the opponent should pass"), "{text}");
    }

    #[test]
    fn hint_lists_the_best_plays_and_refuses_bad_ids() {
        let ev = Evaluator::shipped();
        // The opening 3-1 (dice in the XGID): making the 5-point, as every program plays it.
        let text = hint(
            ev,
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10",
            3,
            3,
        )
        .unwrap();
        let first = text
            .lines()
            .find(|l| l.starts_with(" 1."))
            .expect("a best play");
        assert!(first.contains("8/5 6/5"), "{text}");
        assert!(text.contains("level 3 plays 8/5 6/5"), "{text}");
        assert_eq!(
            text.lines().filter(|l| l.contains(". ")).count(),
            3,
            "{text}"
        );
        for bad in ["", "XGID=nonsense", "4HPwATDgc/ABMA:nonsense", "hello"] {
            assert!(hint(ev, bad, 5, 5).is_err(), "{bad:?} accepted");
        }
    }
}
