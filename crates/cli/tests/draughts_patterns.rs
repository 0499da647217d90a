//! `tablier train draughts --patterns` and `tablier match --patterns`: the binary learns
//! pattern tables from a few shallow self-play games, saves and reloads the games, and the
//! match runner plays with the tables it wrote; bad files are refused with a clear message.

use std::path::PathBuf;
use std::process::Output;

use tablier_test_support::process::{output_text as text, run};

use tablier_draughts_engine::patterns::PatternWeights;

/// A directory of the test's own (the tests run in parallel).
fn dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tablier-patterns-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn tablier(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_tablier"), args)
}

#[test]
fn learns_saves_reloads_and_plays_with_pattern_tables() {
    let d = dir("learn");
    let (tables, games, again) = (d.join("t.bin"), d.join("g.txt"), d.join("t2.bin"));
    let s = |p: &PathBuf| p.to_str().unwrap().to_owned();
    let o = tablier(&[
        "train",
        "draughts",
        "--patterns",
        "--games",
        "40",
        "--depth",
        "2",
        "--threads",
        "2",
        "--epochs",
        "2",
        "--quiet",
        "--out",
        &s(&tables),
        "--save-games",
        &s(&games),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("40 games"), "{}", text(&o));
    let t = PatternWeights::from_bytes(&std::fs::read(&tables).unwrap()).unwrap();
    assert_eq!(t.windows(), 28);
    // The tables kept are those of the pass with the best held-out loss (zeros when no pass
    // beats the weights alone), and the report says how many entries they set.
    assert!(
        text(&o).contains(&format!("({} of 183708 entries set", t.non_zero())),
        "{}",
        text(&o)
    );
    // One line per game: the result, then FEN positions.
    let saved = std::fs::read_to_string(&games).unwrap();
    assert_eq!(saved.lines().count(), 40);
    assert!(saved
        .lines()
        .all(|l| l.contains(";W:") || l.contains(";B:")));

    // The saved games alone give the same positions back; from them, two-phase tables
    // (opening and endgame).
    let reload = |extra: &[&str], out: &PathBuf| {
        let mut args = vec![
            "train",
            "draughts",
            "--patterns",
            "--games",
            "0",
            "--epochs",
            "1",
            "--quiet",
            "--load-games",
        ];
        let (g, o) = (s(&games), s(out));
        args.push(&g);
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", &o]);
        tablier(&args)
    };
    let o = reload(&["--phased"], &again);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("40 games"), "{}", text(&o));
    assert!(text(&o).contains("of 367416 entries set"), "{}", text(&o));
    let t2 = PatternWeights::from_bytes(&std::fs::read(&again).unwrap()).unwrap();
    assert_eq!((t2.windows(), t2.phases()), (28, 2));
    // The positions were saved with their search scores, and the tables can aim at a blend of
    // score and result; a share outside 0..=1 is refused.
    assert!(saved.contains('='), "no score saved");
    let o = reload(&["--score-weight", "0.5"], &d.join("blend.bin"));
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("aiming at 0.50 x the search's score + 0.50 x the result"),
        "{}",
        text(&o)
    );
    assert!(
        text(&o).contains("held-out log loss against the results alone"),
        "{}",
        text(&o)
    );
    let o = reload(&["--score-weight", "2"], &d.join("bad.bin"));
    assert!(!o.status.success());
    assert!(text(&o).contains("not between 0 and 1"), "{}", text(&o));
    assert!(!d.join("bad.bin").exists());
    // New tables checked in games against older ones rather than against none.
    let o = reload(
        &[
            "--check-pairs",
            "1",
            "--check-depth",
            "1",
            "--check-patterns",
            &s(&tables),
        ],
        &d.join("checked.bin"),
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("new tables vs --check-patterns, 2 games at depth 1"),
        "{}",
        text(&o)
    );
    // Tables of one phase and of two are not averaged together.
    let o = tablier(&[
        "train",
        "draughts",
        "--patterns",
        "--average",
        &s(&tables),
        &s(&again),
        "--out",
        &s(&d.join("avg.bin")),
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("different sizes"), "{}", text(&o));

    // The match runner plays with the tables against the same engine without them.
    let o = tablier(&[
        "match",
        "--opponent",
        "tablier",
        "--patterns",
        &s(&tables),
        "--opponent-patterns",
        "none",
        "--games",
        "2",
        "--depth",
        "2",
        "--tables",
        "0",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("2 games"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_files_are_refused_with_the_reason() {
    let d = dir("bad");
    let bad = d.join("bad.bin");
    std::fs::write(&bad, b"not tables").unwrap();
    let o = tablier(&[
        "match",
        "--opponent",
        "tablier",
        "--patterns",
        bad.to_str().unwrap(),
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("TPAT1 or TPAT2"), "{}", text(&o));

    let games = d.join("g.txt");
    std::fs::write(&games, "0.5;W:W31:B19\nnonsense\n").unwrap();
    let o = tablier(&[
        "train",
        "draughts",
        "--patterns",
        "--games",
        "0",
        "--quiet",
        "--load-games",
        games.to_str().unwrap(),
        "--out",
        d.join("t.bin").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("line 2: not a saved game"),
        "{}",
        text(&o)
    );
    assert!(!d.join("t.bin").exists());
    let _ = std::fs::remove_dir_all(&d);
}
