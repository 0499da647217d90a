//! `tablier draughts tables`: the endgame tables are solved once, kept in the cache directory
//! and read back from it (a damaged file is solved again), positions are looked up, and bad
//! input is refused with the reason.

use std::process::{Command, Output};

use tablier_test_support::process::output_text as text;

fn tables(cache: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tablier"))
        .args(["draughts", "tables", "--quiet"])
        .args(args)
        .env("TABLIER_CACHE", cache)
        .output()
        .unwrap()
}

#[test]
fn tables_are_kept_and_read_back() {
    let cache = std::env::temp_dir().join(format!("tablier-egtb-{}", std::process::id()));
    let file = cache.join("egtb-international-3.tbdw");
    std::fs::remove_dir_all(&cache).ok();
    // Solved and kept: a king in the corner of the long diagonal, to move against the other
    // corner's king, must step onto the diagonal and is taken.
    let o = tables(&cache, &["--pieces", "3", "--fen", "W:WK46:BK5"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("W:WK46:BK5: Loss"), "{}", text(&o));
    assert!(text(&o).contains("1630290 positions"), "{}", text(&o));
    let kept = std::fs::read(&file).unwrap();
    // Read back: the same answers, the file untouched.
    let o = tables(&cache, &["--pieces", "3", "--fen", "W:WK28:B23"]);
    assert!(text(&o).contains("W:WK28:B23: Win"), "{}", text(&o));
    assert!(!text(&o).contains("solving"), "{}", text(&o));
    assert_eq!(std::fs::read(&file).unwrap(), kept);
    // A damaged file is said so and solved again.
    std::fs::write(&file, &kept[..kept.len() / 2]).unwrap();
    let o = tables(&cache, &["--pieces", "3", "--fen", "B:WK46,K50:BK3"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("cut short; solving again"),
        "{}",
        text(&o)
    );
    assert!(text(&o).contains("B:WK46,K50:BK3: Draw"), "{}", text(&o));
    assert_eq!(std::fs::read(&file).unwrap(), kept);
    // Bad input: a position with more pieces than the tables, a bad FEN, a size out of range.
    let o = tables(&cache, &["--pieces", "3", "--fen", "W:W31,32:B1,2"]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("4 pieces: the tables hold positions of at most 3"),
        "{}",
        text(&o)
    );
    let o = tables(&cache, &["--pieces", "3", "--fen", "W:WK46:BK5x"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("bad FEN"), "{}", text(&o));
    let o = tables(&cache, &["--pieces", "5"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("from 2 to 4 pieces"), "{}", text(&o));
    std::fs::remove_dir_all(&cache).ok();
}
