//! Oracle test: our Position IDs, Match IDs and XGID readings equal GNU Backgammon's own
//! (PyPI `gnubg` 1.1.0a16, with `gnubg-nn` 1.1.0a11 for random play), both ways.
//!
//! `tests/oracle/gnubg_ids.py` (see its docstring) writes JSON lines:
//! - positions from seeded random play (hits, the bar and bear-offs included) with
//!   `gnubg.positionid`: we read each ID and must get gnubg's board, and encode the board and
//!   must get gnubg's ID;
//! - random match states (cube, owner, player on roll and to act, Crawford, game state,
//!   resignation, double, dice, length, scores, Jacoby) with `gnubg.matchid`: we encode the
//!   state and must get gnubg's ID, and decode gnubg's ID and must get the state back (with
//!   gnubg's normalisations: the higher die first, no score and no Crawford in money);
//! - random XGIDs (either player on turn, `00`/`D`/dice, scores, rules, cube limits) with what
//!   `gnubg.setgnubgid(xgid)` + `gnubg.gnubgid()` give: our reading must give gnubg's GNUbgID,
//!   and converting gnubg's GNUbgID back to an XGID must give the same XGID (up to what a
//!   GNUbgID cannot hold: beaver option, cube limit, money scores, dice order, `D`).
//!
//! The interpreter is `$TABLIER_PYTHON`, else `<workspace>/.venv/bin/python`, created by
//! `bash scripts/python-env.sh`. Without a working gnubg the test fails; it never passes
//! silently. `TABLIER_ORACLE_POSITIONS=N` changes the number of cases of each kind (default
//! 6,000) and `TABLIER_ORACLE_SEED=S` the seed.

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use tablier_backgammon::ids::{
    gnubg_id, parse_gnubg_id, CubeOwner, GameState, MatchId, ResignationOffer,
};
use tablier_backgammon::xgid::{XgDice, Xgid};
use tablier_backgammon::Position;

const SEED: u64 = 20_261_122;
const CASES: u64 = 6_000;

mod common;
use common::{env_number, python};

/// Runs the script once and returns its lines.
fn oracle_lines() -> Vec<Value> {
    let count = env_number("TABLIER_ORACLE_POSITIONS", CASES);
    let seed = env_number("TABLIER_ORACLE_SEED", SEED);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/gnubg_ids.py");
    let out_file = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("gnubg_ids_{seed}.jsonl"));
    let out = Command::new(python())
        .arg(&script)
        .args(["--count", &count.to_string(), "--seed", &seed.to_string()])
        .arg("--out")
        .arg(&out_file)
        .output()
        .expect("run the gnubg script");
    assert!(
        out.status.success(),
        "{} failed: {}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&out_file).expect("the script's output");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad line {l:?}: {e}")))
        .collect();
    assert_eq!(
        lines.len() as u64,
        3 * count,
        "the script printed too few lines"
    );
    lines
}

fn side(v: &Value) -> [u8; 25] {
    let a = v.as_array().expect("25 counts");
    assert_eq!(a.len(), 25);
    std::array::from_fn(|i| u8::try_from(a[i].as_u64().expect("count")).expect("small"))
}

fn num(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap_or_else(|| panic!("{key} in {v}"))
}

fn s(v: &Value, key: &str) -> String {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} in {v}"))
        .to_string()
}

/// The Match ID gnubg must have written for one random state of the script.
fn expected_match_id(v: &Value) -> MatchId {
    let ml = num(v, "length") as u16;
    let dice = v["dice"].as_array().expect("dice");
    let (a, b) = (
        dice[0].as_u64().unwrap() as u8,
        dice[1].as_u64().unwrap() as u8,
    );
    let score = v["score"].as_array().expect("score");
    MatchId {
        cube: num(v, "cube") as u32,
        cube_owner: match v["owner"].as_i64().expect("owner") {
            -1 => CubeOwner::Centred,
            p => CubeOwner::Player(p as u8),
        },
        on_roll: num(v, "move") as u8,
        crawford: ml > 0 && num(v, "crawford") == 1,
        game_state: match num(v, "state") {
            0 => GameState::NoGame,
            1 => GameState::Playing,
            2 => GameState::Over,
            3 => GameState::Resigned,
            _ => GameState::Dropped,
        },
        turn: num(v, "turn") as u8,
        double_offered: num(v, "doubled") == 1,
        resignation: match num(v, "resigned") {
            0 => ResignationOffer::None,
            1 => ResignationOffer::Single,
            2 => ResignationOffer::Gammon,
            _ => ResignationOffer::Backgammon,
        },
        // gnubg stores the higher die first.
        dice: (a > 0).then(|| (a.max(b), a.min(b))),
        match_length: ml,
        score: if ml > 0 {
            [
                score[0].as_u64().unwrap() as u16,
                score[1].as_u64().unwrap() as u16,
            ]
        } else {
            [0, 0]
        },
        jacoby: ml == 0 && num(v, "jacoby") == 1,
    }
}

/// The XGID we must get back from gnubg's GNUbgID: the original minus what a GNUbgID cannot
/// hold.
fn normalised_xgid(x: &Xgid) -> Xgid {
    let mut n = *x;
    let (_, m) = x.to_gnubg().expect("gnubg reads it");
    n.cube = m.cube;
    n.crawford = m.crawford;
    if n.match_length == 0 {
        n.score_bottom = 0;
        n.score_top = 0;
    }
    n.dice = match x.dice {
        XgDice::Rolled(a, b) => XgDice::Rolled(a.max(b), a.min(b)),
        XgDice::Doubled => XgDice::ToRoll,
        d => d,
    };
    n
}

#[test]
fn ids_agree_with_gnubg() {
    let lines = oracle_lines();
    let mut failures: Vec<String> = Vec::new();
    let (mut positions, mut on_bar, mut borne_off, mut bear_in) = (0, 0, 0, 0);
    let (mut matches, mut match_play, mut pending) = (0, 0, 0);
    let (mut xgids, mut top_on_turn, mut doubled) = (0, 0, 0);
    for v in &lines {
        match v["kind"].as_str().expect("kind") {
            "position" => {
                positions += 1;
                let board = v["board"].as_array().expect("board");
                let (opp, mover) = (side(&board[0]), side(&board[1]));
                let id = s(v, "id");
                let theirs = Position::from_sides(&mover, &opp).expect("gnubg's board");
                match Position::from_position_id(&id) {
                    Ok(ours) if ours == theirs => {}
                    other => failures.push(format!("decode {id}: {other:?} != {theirs:?}")),
                }
                if theirs.position_id() != id {
                    failures.push(format!(
                        "encode {theirs:?}: {} != {id}",
                        theirs.position_id()
                    ));
                }
                on_bar += usize::from(mover[24] > 0 || opp[24] > 0);
                borne_off += usize::from(theirs.mover_off() > 0 || theirs.opponent_off() > 0);
                bear_in += usize::from(theirs.mover_all_home());
            }
            "match" => {
                matches += 1;
                let want = expected_match_id(v);
                let id = s(v, "id");
                match want.try_encode() {
                    Ok(ours) if ours == id => {}
                    other => failures.push(format!("encode {want:?}: {other:?} != {id}")),
                }
                match MatchId::decode(&id) {
                    Ok(ours) if ours == want => {}
                    other => failures.push(format!("decode {id}: {other:?} != {want:?}")),
                }
                match_play += usize::from(want.match_length > 0);
                pending += usize::from(want.double_offered || want.turn != want.on_roll);
            }
            "xgid" => {
                xgids += 1;
                let text = s(v, "xgid");
                let theirs = s(v, "gnubgid");
                let x = match Xgid::parse(&text) {
                    Ok(x) => x,
                    Err(e) => {
                        failures.push(format!("parse {text}: {e}"));
                        continue;
                    }
                };
                if x.to_string() != text {
                    failures.push(format!("format {text}: {x}"));
                }
                match x.to_gnubg() {
                    Ok((p, m)) if gnubg_id(&p, &m) == theirs => {}
                    other => failures.push(format!(
                        "{text}: ours {:?} != gnubg {theirs}",
                        other.map(|(p, m)| gnubg_id(&p, &m))
                    )),
                }
                match parse_gnubg_id(&theirs) {
                    Ok((p, m)) => {
                        let mut back = Xgid::from_gnubg(&p, &m);
                        back.beaver = x.beaver;
                        back.max_cube_log2 = x.max_cube_log2;
                        let want = normalised_xgid(&x);
                        if back != want {
                            failures.push(format!("{theirs} -> {back} != {want} (from {text})"));
                        }
                    }
                    Err(e) => failures.push(format!("read gnubg's {theirs}: {e}")),
                }
                top_on_turn += usize::from(x.turn == tablier_backgammon::xgid::XgSide::Top);
                doubled += usize::from(x.dice == XgDice::Doubled);
            }
            k => panic!("unknown kind {k}"),
        }
    }
    eprintln!(
        "Position IDs: {positions} ({on_bar} with a checker on the bar, {borne_off} with checkers \
         off, {bear_in} with the mover all home); Match IDs: {matches} ({match_play} match play, \
         {pending} with an answer pending); XGIDs: {xgids} ({top_on_turn} top on turn, {doubled} \
         D); failures: {}",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} differences with gnubg, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    let cases = env_number("TABLIER_ORACLE_POSITIONS", CASES);
    assert!(positions as u64 == cases && matches as u64 == cases && xgids as u64 == cases);
    if cases >= 5_000 {
        assert!(on_bar > 500 && borne_off > 200 && bear_in > 200);
        assert!(match_play > 2_000 && pending > 500 && top_on_turn > 1_000 && doubled > 500);
    }
}
