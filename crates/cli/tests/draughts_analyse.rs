//! `tablier analyse game.pdn`: the binary on small PDN files, depth-limited to stay fast.

use std::path::PathBuf;

use tablier_draughts::pdn;

/// A game from a set-up position where white's second move, 29-23, gives away two men
/// (19x37 takes 23 and 32), then an ordinary opening.
const GAMES: &str = r#"[Event "Analysis test"]
[White "A"]
[Black "B"]
[GameType "20"]
[FEN "W:W29,32,38,43,47:B3,8,12,19"]
[Result "*"]

1. 43-39 12-17 2. 29-23 19x37 3. 38-33 *

[Event "Second"]
[White "C"]
[Black "D"]
[Result "*"]

1. 32-28 19-23 2. 28x19 14x23 *
"#;

/// `text` written to `name` in a fresh folder, removed when the returned `TempDir` is dropped.
fn temp(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("tablier-analyse-")
        .tempdir()
        .unwrap();
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    (dir, p)
}

/// Runs the binary with `args`.
fn tablier(args: &[&str]) -> std::process::Output {
    tablier_test_support::process::run(env!("CARGO_BIN_EXE_tablier"), args)
}

fn moves(g: &pdn::PdnGame) -> Vec<String> {
    g.main_line().map(ToString::to_string).collect()
}

#[test]
fn marks_the_blunder_and_writes_pdn_that_reads_back() {
    let (_dir, input) = temp("blunder.pdn", GAMES);
    let out = tablier(&[
        "analyse",
        input.to_str().unwrap(),
        "--depth",
        "4",
        "--quiet",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "stderr: {stderr}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("29-23??"), "{text}");
    assert!(!text.contains("43-39?"), "{text}");
    assert!(text.contains("{eval "), "{text}");
    assert!(text.contains("best "), "{text}");
    let before: Vec<_> = pdn::parse_pdn(GAMES)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let after: Vec<_> = pdn::parse_pdn(&text)
        .into_iter()
        .map(|g| g.expect("the output is PDN"))
        .collect();
    assert_eq!(after.len(), 2);
    for (a, b) in before.iter().zip(&after) {
        assert_eq!(moves(a), moves(b));
        assert_eq!(a.tag("FEN"), b.tag("FEN"));
        let comments = b
            .body
            .iter()
            .filter(|e| matches!(e, pdn::Element::Comment(c) if c.starts_with("eval ")))
            .count();
        assert_eq!(comments, moves(a).len(), "one comment per move");
    }
}

#[test]
fn a_bad_game_is_named_and_the_others_are_still_analysed() {
    let text = format!("{GAMES}\n[Event \"Third\"]\n\n1. 32-28 19-23 2. 31-27 *\n");
    let (_dir, input) = temp("bad-move.pdn", &text);
    let output = input.with_extension("out.pdn");
    let out = tablier(&[
        "analyse",
        input.to_str().unwrap(),
        "--depth",
        "2",
        "--quiet",
        "-o",
        output.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("game 3"), "{stderr}");
    assert!(stderr.contains("move 2."), "{stderr}");
    let written = std::fs::read_to_string(&output).unwrap();
    assert_eq!(pdn::parse_pdn(&written).len(), 2, "{written}");
}

#[test]
fn a_malformed_file_gives_a_clear_error() {
    let (_dir, input) = temp("malformed.pdn", "[Event \"x\"]\n\n1. 32-28 {never closed\n");
    let out = tablier(&[
        "analyse",
        input.to_str().unwrap(),
        "--depth",
        "2",
        "--quiet",
    ]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("game 1"), "{stderr}");
    assert!(stderr.contains("comment"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    let missing = tablier(&["analyse", "/nonexistent/game.pdn"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read"));
}
