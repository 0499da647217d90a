//! `tablier bench search --positions`: the positions of a file searched in turn with one hash
//! table, their nodes added up; a bad line is refused with its number.

use std::process::Command;

const TABLIER: &str = env!("CARGO_BIN_EXE_tablier");

fn run(text: &str, extra: &[&str]) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("positions.fen");
    std::fs::write(&file, text).unwrap();
    Command::new(TABLIER)
        .args([
            "bench",
            "search",
            "--dame",
            "none",
            "--depth",
            "6",
            "--positions",
        ])
        .arg(&file)
        .args(extra)
        .output()
        .unwrap()
}

const THREE: &str = "# three positions\n\
    W:W31-50:B1-20\n\
    B:W28,31-34,36-50:B1-20\n\
    W:W28,31-34,36-50:B1-19,24\n";

#[test]
fn the_positions_are_searched_and_their_nodes_counted_the_same_each_time() {
    let nodes = |hash: &str| {
        let out = run(THREE, &["--hash", hash]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(text.contains("3 positions"), "{text}");
        let words: Vec<&str> = text.split_whitespace().collect();
        let i = words.iter().position(|w| *w == "nodes").unwrap();
        words[i - 1].parse::<u64>().unwrap()
    };
    let first = nodes("16");
    assert!(first > 1_000, "{first}");
    // The count is the search's, not the clock's: the same run gives the same count.
    assert_eq!(nodes("16"), first);
}

#[test]
fn a_bad_line_is_refused_with_its_number() {
    let out = run("W:W31-50:B1-20\nW:W31-50:Bxyz\n", &[]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(":2:"), "{err}");
    let out = run("# nothing\n", &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no position"));
    let out = run(THREE, &["--hash", "0"]);
    assert!(!out.status.success());
}
