//! Oracle test: our legal moves equal those of pydraughts 0.6.7 (a program nobody here wrote)
//! on positions it produces itself, for international, Brazilian and English draughts.
//!
//! `tests/oracle/pydraughts_moves.py` plays seeded random games with pydraughts and makes
//! random placements of men and kings, and prints for each position its FEN (as pydraughts
//! reads it) and pydraughts' legal moves, de-duplicated by (from, to, set of captured squares)
//! and converted to FMJD square numbers. The script's docstring records pydraughts'
//! conventions (variant names, colour order in FEN, Brazilian numbering from the bottom).
//! Here every FEN is read with our `fen::parse` (Brazilian FENs come in algebraic squares, so
//! the board's orientation is checked independently of the script's number mapping) and the
//! two move sets must be equal.
//!
//! The interpreter is `$TABLIER_PYTHON`, else `<workspace>/.venv/bin/python`, created by
//! `bash scripts/python-env.sh`. Without a working pydraughts the test fails; it never passes
//! silently. `TABLIER_ORACLE_POSITIONS=N` changes the number of positions per variant and
//! `TABLIER_ORACLE_SEED=S` the seed, for longer searches by hand.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value;
use tablier_draughts::{fen, Geometry, Position, Variant, G10, G8};
use tablier_test_support::python::{env_number, pydraughts as python};

/// Seed of the Python script's `random.Random` (combined with the variant's name there).
const SEED: u64 = 20_240_917;

/// One move as both sides compare it: from, to, captured squares in increasing order.
type Key = (u8, u8, Vec<u8>);

fn positions_wanted(default: usize) -> usize {
    std::env::var("TABLIER_ORACLE_POSITIONS")
        .ok()
        .map(|v| {
            v.parse()
                .expect("TABLIER_ORACLE_POSITIONS must be a number")
        })
        .unwrap_or(default)
}

/// Runs the script and returns its lines, parsed.
fn pydraughts_positions(variant: &str, count: usize) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/pydraughts_moves.py");
    let out = Command::new(python())
        .arg(&script)
        .args(["--variant", variant, "--count", &count.to_string()])
        .args([
            "--seed",
            &env_number("TABLIER_ORACLE_SEED", SEED).to_string(),
        ])
        .output()
        .expect("run the pydraughts script");
    assert!(
        out.status.success(),
        "{} failed: {}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad line {l:?}: {e}")))
        .collect();
    assert_eq!(lines.len(), count, "the script printed too few positions");
    lines
}

fn their_moves(line: &Value) -> BTreeSet<Key> {
    let square = |v: &Value| u8::try_from(v.as_u64().expect("square number")).expect("small");
    line["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            let mut caps: Vec<u8> = m[2]
                .as_array()
                .expect("captures")
                .iter()
                .map(square)
                .collect();
            caps.sort_unstable();
            (square(&m[0]), square(&m[1]), caps)
        })
        .collect()
}

fn show(moves: &BTreeSet<Key>) -> String {
    let items: Vec<String> = moves
        .iter()
        .map(|(f, t, c)| {
            if c.is_empty() {
                format!("{f}-{t}")
            } else {
                format!("{f}x{t}{c:?}")
            }
        })
        .collect();
    format!("[{}]", items.join(" "))
}

/// What the compared positions contained, so that the test cannot silently degrade.
#[derive(Debug, Default)]
struct Stats {
    positions: usize,
    from_games: usize,
    with_captures: usize,
    with_multi_captures: usize,
    with_kings: usize,
    with_king_captures: usize,
    with_promotions: usize,
    with_capture_promotions: usize,
    without_moves: usize,
    most_captured: usize,
    moves: usize,
}

fn compare<G: Geometry>(name: &str, count: usize) -> Stats {
    let variant: &'static Variant = Variant::by_name(name).expect("known variant");
    let mut stats = Stats::default();
    let mut failures = Vec::new();
    for line in pydraughts_positions(name, count) {
        assert_eq!(line["variant"], name);
        let text = line["fen"].as_str().expect("fen");
        let pos: Position<G> = fen::parse(variant, text)
            .unwrap_or_else(|e| panic!("{name}: our FEN reader rejects pydraughts' {text:?}: {e}"));
        let legal = pos.legal_moves();
        let ours: BTreeSet<Key> = legal
            .iter()
            .map(|m| (m.from(), m.to(), m.captured_squares()))
            .collect();
        assert_eq!(ours.len(), legal.len(), "{name}: duplicate moves in {text}");
        let theirs = their_moves(&line);
        if ours != theirs {
            failures.push(format!(
                "{name} {text}\n  only ours:       {}\n  only pydraughts: {}\n  ours:       {}\n  pydraughts: {}",
                show(&ours.difference(&theirs).cloned().collect()),
                show(&theirs.difference(&ours).cloned().collect()),
                show(&ours),
                show(&theirs),
            ));
        }
        stats.positions += 1;
        stats.from_games += usize::from(line["source"] == "game");
        stats.moves += legal.len();
        stats.without_moves += usize::from(legal.is_empty());
        stats.with_kings += usize::from(pos.pieces().iter().any(|(_, p)| p.king));
        stats.with_captures += usize::from(legal.iter().any(|m| m.is_capture()));
        stats.with_multi_captures += usize::from(legal.iter().any(|m| m.capture_count() >= 2));
        stats.with_king_captures +=
            usize::from(legal.iter().any(|m| {
                m.is_capture() && pos.piece_at(u32::from(m.from())).is_some_and(|p| p.king)
            }));
        stats.with_promotions += usize::from(legal.iter().any(|m| pos.is_promotion(m)));
        stats.with_capture_promotions +=
            usize::from(legal.iter().any(|m| m.is_capture() && pos.is_promotion(m)));
        stats.most_captured = stats.most_captured.max(
            legal
                .iter()
                .map(|m| m.capture_count() as usize)
                .max()
                .unwrap_or(0),
        );
    }
    println!("{name}: {stats:?}");
    assert!(
        failures.is_empty(),
        "{name}: {} of {} positions differ from pydraughts:\n{}",
        failures.len(),
        stats.positions,
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    stats
}

/// Lower bounds on what the sample must contain, as shares of the positions (the measured
/// shares, with the default seed, are at least twice these).
fn assert_coverage(name: &str, s: &Stats, multi: f64, most_captured: usize) {
    let share = |n: usize| n as f64 / s.positions as f64;
    let checks = [
        ("positions from games", share(s.from_games), 0.5),
        ("positions with a capture", share(s.with_captures), 0.2),
        (
            "positions with a multi-capture",
            share(s.with_multi_captures),
            multi,
        ),
        ("positions with kings", share(s.with_kings), 0.25),
        (
            "positions with a king capture",
            share(s.with_king_captures),
            0.1,
        ),
        ("positions with a promotion", share(s.with_promotions), 0.02),
        (
            "positions with a capture that promotes",
            share(s.with_capture_promotions),
            0.002,
        ),
    ];
    for (what, got, want) in checks {
        assert!(
            got >= want,
            "{name}: {what}: {got:.3} of the positions, want at least {want}; {s:?}"
        );
    }
    assert!(
        s.without_moves > 0,
        "{name}: no position without moves; {s:?}"
    );
    assert!(
        s.most_captured >= most_captured,
        "{name}: no capture of {most_captured} or more pieces; {s:?}"
    );
}

#[test]
fn international_moves_equal_pydraughts() {
    let s = compare::<G10>("international", positions_wanted(1500));
    assert_coverage("international", &s, 0.1, 5);
}

#[test]
fn brazilian_moves_equal_pydraughts() {
    let s = compare::<G8>("brazilian", positions_wanted(2000));
    assert_coverage("brazilian", &s, 0.07, 4);
}

#[test]
fn english_moves_equal_pydraughts() {
    let s = compare::<G8>("english", positions_wanted(2000));
    assert_coverage("english", &s, 0.03, 3);
}
