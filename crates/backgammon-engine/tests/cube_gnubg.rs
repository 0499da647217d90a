//! Oracle test: our money cube decisions against GNU Backgammon's (PyPI gnubg, 0-ply, whose cube
//! efficiency is that of an unsearched cube: ours at 0 plies), on 400
//! positions met in seeded random play, both sides' cube in the middle, Jacoby off, beavers
//! on. To judge the cube model and not the evaluator, our Janowski formulas are fed gnubg's
//! own cubeless probabilities; the no-double and double/take equities and the three decisions
//! (double, take, beaver) are compared. A second test does the same on 300 positions at
//! scores of 5- and 7-point matches, for the double and take decisions.

use std::io::Write;
use std::process::{Command, Stdio};

use rand::{Rng, SeedableRng};
use tablier_backgammon::ids::{gnubg_id, MatchId};
use tablier_backgammon::{Position, Roll};
use tablier_backgammon_engine::bearoff::all_positions;
use tablier_backgammon_engine::cube::{cube_efficiency_at, decide, CubeInfo};
use tablier_backgammon_engine::eval::classify;

#[path = "../../backgammon/tests/common/mod.rs"]
mod common;

fn random_play_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut plays = Vec::new();
    let mut pos = Position::start();
    while out.len() < count {
        // Keep one position in five, to spread them over many games.
        if rng.gen_range(0..5) == 0 {
            out.push(pos);
        }
        let roll = Roll::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).unwrap();
        pos.legal_plays_into(roll, &mut plays);
        let next = plays[rng.gen_range(0..plays.len())].result;
        pos = if next.mover_off() == 15 {
            Position::start()
        } else {
            next.flip()
        };
    }
    out
}

/// gnubg's answers for GNUbgIDs, one a line (money games under the Jacoby rule when `jacoby`).
fn oracle(input: &str, jacoby: bool) -> String {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/gnubg_cube.py");
    let mut child = Command::new(common::python())
        .arg(script)
        .env("JACOBY", if jacoby { "on" } else { "off" })
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the oracle script starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn money_cube_decisions_agree_with_gnubg_given_its_probabilities() {
    money_cube_decisions(false);
}

/// The same under the Jacoby rule (gnubg's money default, and the benchmarks'): gammons count
/// only once the cube is turned.
#[test]
fn money_cube_decisions_under_the_jacoby_rule_agree_with_gnubg() {
    money_cube_decisions(true);
}

fn money_cube_decisions(jacoby: bool) {
    let positions = random_play_positions(400, 2026);
    let mid = MatchId {
        jacoby,
        ..MatchId::default()
    };
    let input: String = positions.iter().map(|p| gnubg_id(p, &mid) + "\n").collect();
    let text = oracle(&input, jacoby);
    let ci = CubeInfo {
        beavers: true,
        jacoby,
        ..CubeInfo::money()
    };
    let (mut n, mut same_double, mut same_take, mut same_beaver) = (0, 0, 0, 0);
    let (mut nd_err, mut dt_err) = (0.0f64, 0.0f64);
    let mut compared = 0usize;
    let mut beaver_cases = 0usize;
    let mut disagreements = Vec::new();
    for (line, pos) in text.lines().zip(&positions) {
        let (nums, action) = line.split_once(" | ").expect("numbers | action");
        let f: Vec<&str> = nums.split_whitespace().collect();
        let p: [f32; 5] = std::array::from_fn(|i| f[i].parse().unwrap());
        let (nd, dt): (f32, f32) = (f[5].parse().unwrap(), f[6].parse().unwrap());
        let ours = decide(
            &p,
            &ci,
            cube_efficiency_at(classify(pos), pos.pip_count().0, 0),
        );
        // gnubg: "No double", "Double, take", "Double, pass", "Too good to double, pass",
        // "No double, beaver", "Redouble, take", "No redouble", ...
        let gnubg_double = action.starts_with("Double") || action.starts_with("Redouble");
        let gnubg_take = !(action.contains("pass") || action.contains("drop"));
        let gnubg_beaver = action.contains("beaver");
        n += 1;
        same_double += usize::from(ours.double == gnubg_double);
        same_take += usize::from(ours.take == gnubg_take);
        // gnubg does not advise a beaver when the doubler is past losing a single game (no
        // double below −1, or, under the Jacoby rule, where a game without a double counts
        // single, double/take below −1): such doubles are compared on take and pass only.
        if nd.is_finite() && nd > -1.0 && dt > -1.0 {
            beaver_cases += 1;
            same_beaver += usize::from(ours.beaver == gnubg_beaver);
        }
        if nd.is_finite() && dt.is_finite() {
            compared += 1;
            nd_err += f64::from((ours.no_double - nd).abs());
            dt_err += f64::from((ours.double_take - dt).abs());
        }
        if ours.double != gnubg_double || ours.take != gnubg_take || ours.beaver != gnubg_beaver {
            disagreements.push(format!(
                "{}: gnubg {action} (ND {nd:+.3}, D/T {dt:+.3}); ours ND {:+.3} D/T {:+.3} double {} take {} beaver {}",
                f[8], ours.no_double, ours.double_take, ours.double, ours.take, ours.beaver
            ));
        }
    }
    assert_eq!(n, positions.len());
    let pct = |k: usize| 100.0 * k as f64 / n as f64;
    eprintln!(
        "Jacoby {jacoby}: {n} positions: same double/no double {:.1}%, same take/pass {:.1}%, same beaver {:.1}% (of {beaver_cases} with no double above -1); \
         mean |ND - gnubg| {:.4}, mean |D/T - gnubg| {:.4}",
        pct(same_double),
        pct(same_take),
        100.0 * same_beaver as f64 / beaver_cases as f64,
        nd_err / compared as f64,
        dt_err / compared as f64
    );
    for d in disagreements.iter().take(5) {
        eprintln!("  {d}");
    }
    // gnubg 0-ply's efficiency is that of an unsearched cube (0.76 in contact): with the
    // deeper searches' 0.68 the equities differ by about 0.03 and a tenth of the doubles.
    assert!(pct(same_double) >= 99.0);
    assert!(pct(same_take) >= 99.0);
    assert!(beaver_cases >= 100 && same_beaver * 100 >= beaver_cases * 95);
    assert!(
        compared >= n * 9 / 10,
        "gnubg gave equities for {compared} of {n}"
    );
    assert!(nd_err / (compared as f64) < 0.002);
    assert!(dt_err / (compared as f64) < 0.002);
}

#[test]
fn match_cube_decisions_mostly_agree_with_gnubg_given_its_probabilities() {
    use tablier_backgammon::ids::CubeOwner;
    use tablier_backgammon_engine::cube::Owner;
    let positions = random_play_positions(300, 77);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    // Scores of 5- and 7-point matches before anyone is at match point, cube centred at 1 or
    // owned at 2 by the side on roll (who may then redouble).
    let cases: Vec<(Position, MatchId, CubeInfo)> = positions
        .iter()
        .map(|p| {
            let len: u32 = if rng.gen_range(0..2) == 0 { 5 } else { 7 };
            let owned = rng.gen_range(0..3) == 0;
            let cube = if owned { 2 } else { 1 };
            let (me, them) = (rng.gen_range(0..len - 1), rng.gen_range(0..len - 1));
            let me = if owned { me.min(len - 5) } else { me };
            let mid = MatchId {
                cube,
                cube_owner: if owned {
                    CubeOwner::Player(1)
                } else {
                    CubeOwner::Centred
                },
                match_length: len as u16,
                score: [them as u16, me as u16],
                jacoby: false,
                ..MatchId::default()
            };
            let ci = CubeInfo {
                value: cube,
                owner: if owned { Owner::Me } else { Owner::Centre },
                match_length: len,
                score: [me, them],
                ..CubeInfo::money()
            };
            (*p, mid, ci)
        })
        .collect();
    let input: String = cases
        .iter()
        .map(|(p, m, _)| gnubg_id(p, m) + "\n")
        .collect();
    let text = oracle(&input, false);
    let (mut n, mut same_double, mut same_take) = (0, 0, 0);
    for (line, (pos, _, ci)) in text.lines().zip(&cases) {
        let (nums, action) = line.split_once(" | ").expect("numbers | action");
        let f: Vec<&str> = nums.split_whitespace().collect();
        let p: [f32; 5] = std::array::from_fn(|i| f[i].parse().unwrap());
        let ours = decide(
            &p,
            ci,
            cube_efficiency_at(classify(pos), pos.pip_count().0, 0),
        );
        let gnubg_double = action.starts_with("Double") || action.starts_with("Redouble");
        let gnubg_take = !(action.contains("pass") || action.contains("drop"));
        n += 1;
        same_double += usize::from(ours.double == gnubg_double);
        same_take += usize::from(ours.take == gnubg_take);
    }
    assert_eq!(n, cases.len());
    let pct = |k: usize| 100.0 * k as f64 / n as f64;
    eprintln!(
        "{n} match positions: same double/no double {:.1}%, same take/pass {:.1}%",
        pct(same_double),
        pct(same_take)
    );
    // Measured: 98.3% and 100% with the take and cash points found by recursion over the cube
    // levels of the match (88.7% and 97.3% with money's points on MET-rescaled values).
    assert!(pct(same_double) >= 99.0);
    assert!(pct(same_take) >= 99.0);
}

/// Bear-offs of up to six checkers a side: gnubg reads them from its two-sided database
/// (`gnubg_ts0.bd`, "Bearoff2"), cubeless chances and cubeful money equities both; ours are
/// solved by our own programme. gnubg prints the equities to three decimals and stores them in
/// 16 bits, hence the tolerances.
#[test]
fn two_sided_bearoff_equals_gnubg_bearoff2() {
    use tablier_backgammon_engine::bearoff::{small_index, TwoSided, SMALL_POSITIONS};
    let small: Vec<[u8; 6]> = all_positions()
        .into_iter()
        .filter(|p| small_index(p).is_some())
        .collect();
    assert_eq!(small.len(), SMALL_POSITIONS);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
    let mut cases = Vec::new();
    while cases.len() < 300 {
        let a = small[rng.gen_range(1..small.len())];
        let b = small[rng.gen_range(1..small.len())];
        cases.push((a, b));
    }
    let input: String = cases
        .iter()
        .map(|(a, b)| gnubg_id(&home_boards(a, b), &MatchId::default()) + "\n")
        .collect();
    let text = oracle(&input, false);
    let db = TwoSided::global();
    let (mut worst_p, mut worst_nd, mut worst_dt) = (0f32, 0f32, 0f32);
    let mut n = 0;
    for (line, (a, b)) in text.lines().zip(&cases) {
        let (nums, _) = line.split_once(" | ").expect("numbers | action");
        let f: Vec<f32> = nums
            .split_whitespace()
            .take(7)
            .map(|v| v.parse().unwrap())
            .collect();
        let e = db.lookup(a, b).unwrap();
        let d = e.decision(&CubeInfo::money());
        worst_p = worst_p.max((e.win - f[0]).abs());
        worst_nd = worst_nd.max((d.no_double - f[5]).abs());
        worst_dt = worst_dt.max((d.double_take - f[6]).abs());
        assert!(
            (e.win - f[0]).abs() < 1e-3,
            "{a:?} {b:?}: win {} gnubg {}",
            e.win,
            f[0]
        );
        assert!(
            (d.no_double - f[5]).abs() < 2e-3 && (d.double_take - f[6]).abs() < 2e-3,
            "{a:?} against {b:?}: no double {:+.4} double/take {:+.4}, gnubg {:+.3} {:+.3}",
            d.no_double,
            d.double_take,
            f[5],
            f[6]
        );
        n += 1;
    }
    assert_eq!(n, cases.len());
    eprintln!(
        "{n} two-sided bear-offs equal to gnubg's Bearoff2 (largest differences: win {worst_p:.1e}, no double {worst_nd:.1e}, double/take {worst_dt:.1e})"
    );
}

/// Bear-offs where a side still has all fifteen checkers: our gammon chances (the rolls to bear
/// everything off against the rolls to bear the first checker off) against gnubg's one-sided
/// evaluation ("Bearoff1", `gnubg_os0.bd` with its gammon distributions).
#[test]
fn bearoff_gammons_agree_with_gnubg() {
    use tablier_backgammon_engine::eval::bearoff_probs;
    let all = all_positions();
    let full: Vec<[u8; 6]> = all
        .iter()
        .copied()
        .filter(|p| p.iter().map(|&n| u32::from(n)).sum::<u32>() == 15 && p[..2] == [0, 0])
        .collect();
    // Fifteen checkers with none on the 1- and 2-points against a side short of its bear-off
    // (up to four checkers), so that gammons are live.
    let short: Vec<[u8; 6]> = all
        .iter()
        .copied()
        .filter(|p| (1..=4).contains(&p.iter().map(|&n| u32::from(n)).sum::<u32>()))
        .collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut cases = Vec::new();
    while cases.len() < 200 {
        let a = short[rng.gen_range(0..short.len())];
        let b = full[rng.gen_range(0..full.len())];
        // Half with the side on roll the one that has borne nothing off.
        cases.push(if cases.len() % 2 == 0 {
            home_boards(&a, &b)
        } else {
            home_boards(&b, &a)
        });
    }
    let input: String = cases
        .iter()
        .map(|p| gnubg_id(p, &MatchId::default()) + "\n")
        .collect();
    let text = oracle(&input, false);
    let (mut worst, mut sum, mut n, mut gammons) = (0f32, 0f32, 0, 0);
    for (line, pos) in text.lines().zip(&cases) {
        let f: Vec<f32> = line
            .split_whitespace()
            .take(5)
            .map(|v| v.parse().unwrap())
            .collect();
        let ours = bearoff_probs(pos);
        for k in [0, 1, 3] {
            let d = (ours[k] - f[k]).abs();
            worst = worst.max(d);
            sum += d;
            assert!(
                d < 0.02,
                "{}: ours {ours:?}, gnubg {f:?}",
                gnubg_id(pos, &MatchId::default())
            );
        }
        gammons += usize::from(f[1] > 0.01 || f[3] > 0.01);
        n += 1;
    }
    assert_eq!(n, cases.len());
    assert!(
        gammons >= 50,
        "only {gammons} positions with gammon chances"
    );
    eprintln!(
        "{n} bear-offs with gammon chances ({gammons} above 1%): largest difference from gnubg {worst:.4}, mean {:.5}",
        sum / (3 * n) as f32
    );
}

/// Both sides on their home boards only: `a` for the side on roll, `b` for the other.
fn home_boards(a: &[u8; 6], b: &[u8; 6]) -> Position {
    let (mut me, mut them) = ([0u8; 25], [0u8; 25]);
    me[..6].copy_from_slice(a);
    them[..6].copy_from_slice(b);
    Position::from_sides(&me, &them).unwrap()
}
