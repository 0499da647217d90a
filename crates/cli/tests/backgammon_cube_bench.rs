//! `tablier bench backgammon-cube`: GNU Backgammon (PyPI gnubg, which nobody here wrote)
//! judges the cube decisions of a small self-play set at 2 and 3 plies; the bench prints gnubg
//! 2-ply's errors, our cube model's on gnubg's probabilities and ours at each look-ahead, keeps
//! the verdicts, and a second run judges nothing again; bgsage (PyPI, its own nets) judges the
//! same set when asked.

use std::process::Command;

const TABLIER: &str = env!("CARGO_BIN_EXE_tablier");

fn bench(judged: &std::path::Path, judge: &str, extra: &[&std::ffi::OsStr]) -> (String, String) {
    let python = tablier_test_support::python::gnubg();
    let out = Command::new(TABLIER)
        .args([
            "bench",
            "backgammon-cube",
            "--positions",
            "12",
            "--seed",
            "5",
        ])
        .args(["--plies", "0,1", "--show", "2", "--python"])
        .arg(&python)
        .arg("--judged")
        .arg(judged)
        .args(["--judge", judge])
        .args(extra)
        .output()
        .expect("tablier runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{stdout}\n{stderr}");
    (stdout, stderr)
}

#[test]
fn gnubg_judges_our_cube_decisions_once() {
    let dir = std::env::temp_dir().join(format!("tablier-cube-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let judged = dir.join("judged.jsonl");
    let _ = std::fs::remove_file(&judged);
    let (out, err) = bench(&judged, "gnubg", &[]);
    assert!(err.contains("12 positions, 0 already judged"), "{err}");
    for who in [
        "gnubg 2-ply",
        "our cube model on gnubg 3-ply probs",
        "tablier 0-ply cubeless, then model",
        "tablier 1-ply cubeless, then model",
        "tablier 1-ply, cube searched",
    ] {
        let line = out
            .lines()
            .find(|l| l.starts_with(who))
            .unwrap_or_else(|| panic!("no line for {who}:\n{out}"));
        assert!(
            line.contains("mEMG over") && line.contains("overall"),
            "{line}"
        );
    }
    let verdicts = std::fs::read_to_string(&judged).unwrap();
    assert_eq!(verdicts.lines().count(), 12);
    for line in verdicts.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let p3 = v["p3"].as_array().unwrap();
        // Double/pass is worth one cube; the others are equities within ±6 cubes (a
        // backgammon on a doubled cube).
        assert_eq!(p3[2].as_f64(), Some(1.0), "{line}");
        for x in p3 {
            assert!(x.as_f64().unwrap().abs() <= 6.0, "{line}");
        }
    }
    // The second run finds every verdict already there.
    let (again, err) = bench(&judged, "gnubg", &[]);
    assert!(err.contains("12 positions, 12 already judged"), "{err}");
    let first_line = |t: &str| {
        t.lines()
            .find(|l| l.starts_with("gnubg 2-ply"))
            .map(str::to_owned)
    };
    assert_eq!(first_line(&out), first_line(&again));
    // Other weights play on the same positions: the shipped nets draw the set, so a run with
    // weights that choose other plays in self-play is still judged already.
    let other = other_weights(&dir);
    let (_, err) = bench(&judged, "gnubg", &["--weights".as_ref(), other.as_os_str()]);
    assert!(err.contains("12 positions, 12 already judged"), "{err}");
    // bgsage (nets of its own) as the judge: gnubg 3-ply is then one of the judged.
    let (sage, err) = bench(&judged, "bgsage", &[]);
    assert!(err.contains("12 positions, 0 already judged"), "{err}");
    assert!(sage.contains("judged by bgsage 3-ply"), "{sage}");
    for who in ["gnubg 3-ply ", "our cube model on bgsage 3-ply probs"] {
        assert!(
            sage.lines().any(|l| l.starts_with(who)),
            "no {who}:\n{sage}"
        );
    }
    let sage_file = judged.with_file_name("judged-bgsage.jsonl");
    assert_eq!(
        std::fs::read_to_string(sage_file).unwrap().lines().count(),
        12
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Weights far from the shipped ones: the shipped nets fitted hard (a large step) to the
/// 1-ply values of the positions of a few games, written in `dir`.
fn other_weights(dir: &std::path::Path) -> std::path::PathBuf {
    let labels = dir.join("labels.txt");
    let weights = dir.join("other.tbg");
    let check = |out: std::process::Output| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let _ = std::fs::remove_file(&labels);
    check(
        Command::new(TABLIER)
            .args(["train", "backgammon-label", "--plies", "1", "--games", "3"])
            .args(["--seed", "9", "--quiet", "--out"])
            .arg(&labels)
            .output()
            .expect("tablier runs"),
    );
    check(
        Command::new(TABLIER)
            .args(["train", "backgammon-fit", "--epochs", "3", "--alpha", "20"])
            .args(["--held-out", "0", "--data"])
            .arg(&labels)
            .arg("--out")
            .arg(&weights)
            .output()
            .expect("tablier runs"),
    );
    weights
}

/// `tablier analyse --judge bgsage`: bgsage (PyPI, its own nets) judges every decision of a
/// match gnubg played against itself; it meets the same decisions as our own analysis, and
/// finds gnubg's play good (a few milli-points per decision).
#[test]
fn bgsage_judges_a_match_record() {
    let mat = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../backgammon/tests/data/gnubg_selfplay_5pt.mat"
    );
    let python = tablier_test_support::python::gnubg();
    let run = |extra: &[&str]| {
        let out = Command::new(TABLIER)
            .args(["analyse", mat, "--python"])
            .arg(&python)
            .args(extra)
            .output()
            .expect("tablier runs");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let totals = |text: &str| -> Vec<(u32, u32, f64)> {
        text.lines()
            .filter(|l| l.contains(" checker plays (loss "))
            .map(|l| {
                let n = |key: &str| -> u32 {
                    let before = &l[..l.find(key).unwrap()];
                    before.split_whitespace().last().unwrap().parse().unwrap()
                };
                let rate: f64 = l
                    .split("error rate ")
                    .nth(1)
                    .unwrap()
                    .split_whitespace()
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                (n(" checker plays"), n(" cube decisions"), rate)
            })
            .collect()
    };
    let (ok, sage, err) = run(&["--judge", "bgsage", "--judge-plies", "0"]);
    assert!(ok, "{sage}\n{err}");
    assert!(sage.contains("judged by bgsage 0-ply"), "{sage}");
    let (ok, ours, err) = run(&["--ply", "0"]);
    assert!(ok, "{ours}\n{err}");
    let (a, b) = (totals(&sage), totals(&ours));
    assert_eq!(a.len(), 2, "{sage}");
    for ((plays, _, rate), (our_plays, _, _)) in a.iter().zip(&b) {
        assert_eq!(plays, our_plays);
        assert!(*plays > 50 && *rate < 15.0, "{sage}");
    }
    let (ok, _, err) = run(&["--judge", "bgsage", "--judge-plies", "4"]);
    assert!(
        !ok && err.contains("--judge-plies goes from 0 to 3"),
        "{err}"
    );
    let out = Command::new(TABLIER)
        .args([
            "analyse",
            mat,
            "--judge",
            "bgsage",
            "--python",
            "/nonexistent/python",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("cannot run /nonexistent/python"),
        "{err}"
    );
}

/// `tablier bench backgammon-checker`: two of our players choose plays on the same positions,
/// gnubg values the positions they reach where they differ (with the cube: three equal
/// equities where the side on roll may not double), and a player named wrongly is refused.
#[test]
fn gnubg_judges_our_checker_plays_side_by_side() {
    let python = tablier_test_support::python::gnubg();
    let dir = std::env::temp_dir().join(format!("tablier-checker-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The plays of the same nets differ in a few of 60 positions: seeds are tried until one
    // of those has the cube on the opponent's side (every check runs on each seed).
    let mut owned = 0;
    for seed in ["3", "5", "7", "9"] {
        owned += checker_bench_run(&python, &dir, seed);
        if owned > 0 {
            break;
        }
    }
    assert!(
        owned > 0,
        "no position where the side on roll may not double"
    );
    // Match positions: gnubg's match equities (another file: other positions).
    let out = Command::new(TABLIER)
        .args([
            "bench",
            "backgammon-checker",
            "--positions",
            "30",
            "--seed",
            "4",
        ])
        .args(["--match-length", "5", "--judge-plies", "0", "--python"])
        .arg(&python)
        .arg("--judged")
        .arg(dir.join("match.jsonl"))
        .output()
        .expect("tablier runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("5-point match positions (scores 2 to 5 away"),
        "{stdout}"
    );
    for who in ["cubeful-search ", "cubeful ", "cubeless "] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(who) && l.contains("loss")),
            "{stdout}"
        );
    }
    let bad = Command::new(TABLIER)
        .args([
            "bench",
            "backgammon-checker",
            "--players",
            "cubeful,sideways",
        ])
        .output()
        .expect("tablier runs");
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("cubeful, cubeful-search or cubeless"), "{err}");
    for (spec, why) in [
        ("cubeful-search/0:0.1", "keeps one play at least"),
        ("cubeful-search/2", "a move filter is KEEP:MARGIN"),
        ("cubeful-search/2:-1", "a margin of 0 or more"),
        ("cubeful-search%8", "a move filter is KEEP:MARGIN"),
        ("cubeful-search#9", "a player's level goes from 0 to"),
        ("cubeful-search#x%8:0.1", "a player's level goes from 0 to"),
        ("gnubg:7", "gnubg plays at 0 to 3 plies"),
        ("gnubg:two", "gnubg plays at 0 to 3 plies"),
    ] {
        let bad = Command::new(TABLIER)
            .args(["bench", "backgammon-checker", "--players", spec])
            .output()
            .expect("tablier runs");
        assert!(!bad.status.success(), "{spec}");
        let err = String::from_utf8_lossy(&bad.stderr);
        assert!(err.contains(why), "{spec}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// One run of `bench backgammon-checker` on 60 positions of `seed`, its output and gnubg's
/// verdicts checked; returns how many judged positions had the cube on the opponent's side.
fn checker_bench_run(python: &std::path::Path, dir: &std::path::Path, seed: &str) -> usize {
    let judged = dir.join(format!("judged-{seed}.jsonl"));
    let _ = std::fs::remove_file(&judged);
    let run = |players: &str| {
        Command::new(TABLIER)
            .args([
                "bench",
                "backgammon-checker",
                "--positions",
                "60",
                "--seed",
                seed,
            ])
            .args(["--players", players, "--judge-plies", "1", "--python"])
            .arg(python)
            .arg("--judged")
            .arg(&judged)
            .output()
            .expect("tablier runs")
    };
    let out = run("cubeful-search,cubeless");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let first = stdout
        .lines()
        .find(|l| l.starts_with("cubeful-search "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        first.contains("behind the first by  +0.00") && first.contains("100.0%"),
        "{first}"
    );
    let second = stdout
        .lines()
        .find(|l| l.starts_with("cubeless "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        second.contains("loss") && second.contains("ms a play"),
        "{second}"
    );
    // gnubg itself as a player (0 plies: quick), beside ours with a wider first filter and
    // at a level of its own (1 ply); gnubg's plays are kept beside the verdicts.
    let out = run("cubeful-search#4%10:0.3,gnubg:0");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("cubeful-search#4%10:0.3 ") && l.contains("loss")),
        "{stdout}"
    );
    let gnubg = stdout
        .lines()
        .find(|l| l.starts_with("gnubg:0 "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        gnubg.contains("loss") && gnubg.contains("gnubg's time not counted"),
        "{gnubg}"
    );
    let plays = std::fs::read_to_string(dir.join("gnubg-plays.jsonl")).unwrap();
    assert!(
        plays.lines().filter(|l| l.contains("\"play0\"")).count() >= 60,
        "{plays}"
    );
    let verdicts = std::fs::read_to_string(&judged).unwrap();
    assert!(verdicts.lines().count() > 0, "{stderr}");
    let mut owned = 0;
    for line in verdicts.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let p1: Vec<f64> = v["p1"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        assert!(p1.iter().all(|x| x.abs() <= 6.0), "{line}");
        if p1[0] == p1[1] && p1[1] == p1[2] {
            owned += 1;
        } else {
            assert_eq!(p1[2], 1.0, "double/pass is one cube: {line}");
        }
    }
    owned
}
