//! Oracle test: plays are written as GNU Backgammon writes them, and gnubg's texts read back.
//!
//! `tests/oracle/gnubg_notation.py` prints, for positions of seeded random games, every legal
//! play with gnubg's own text for it (`gnubg.movetupletostring`). For each, our play with the
//! same resulting position must be written with the same text, and reading gnubg's text must
//! give that play. The interpreter is found as in `movegen_gnubg.rs`.

use std::path::Path;
use std::process::Command;

mod common;
use common::python;

use tablier_backgammon::{notation, Position, Roll};

#[test]
fn plays_are_written_and_read_as_gnubg_writes_them() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/gnubg_notation.py");
    let out = Command::new(python())
        .arg(script)
        .args(["3000", "11"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the oracle script runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let (mut checked, mut written_differently, mut unread) = (0, Vec::new(), Vec::new());
    for line in text.lines() {
        let mut f = line.splitn(5, ' ');
        let (id, a, b, result, theirs) = (
            f.next().unwrap(),
            f.next().unwrap().parse().unwrap(),
            f.next().unwrap().parse().unwrap(),
            f.next().unwrap(),
            f.next().unwrap_or(""),
        );
        let position = Position::from_position_id(id).unwrap();
        let roll = Roll::new(a, b).unwrap();
        let play = position
            .legal_plays(roll)
            .into_iter()
            .find(|p| p.result.position_id() == result)
            .expect("gnubg's play is one of ours (see movegen_gnubg)");
        let ours = notation::format_play(&play);
        if ours != theirs {
            written_differently.push(format!("{id} {a}-{b}: ours {ours:?}, gnubg {theirs:?}"));
        }
        match notation::parse_play(&position, roll, theirs) {
            Ok(p) if p.result == play.result => {}
            other => unread.push(format!("{id} {a}-{b} {theirs:?}: {other:?}")),
        }
        checked += 1;
    }
    eprintln!(
        "{checked} plays: {} written differently, {} not read back",
        written_differently.len(),
        unread.len()
    );
    assert!(checked > 40_000);
    assert!(
        unread.is_empty(),
        "{}",
        unread[..unread.len().min(10)].join("\n")
    );
    assert!(
        written_differently.is_empty(),
        "{}",
        written_differently[..written_differently.len().min(15)].join("\n")
    );
}
