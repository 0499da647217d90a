//! Oracle test: our legal plays equal GNU Backgammon's on positions its own generator reaches.
//!
//! `tests/oracle/gnubg_plays.py` plays seeded random games with gnubg_nn (PyPI `gnubg-nn`, the
//! move generator and nets of GNU Backgammon) and prints, for each position met and the roll
//! thrown there, the Position IDs of every position gnubg's legal plays lead to. Here each
//! position is read from its ID, our plays are generated, and the two sets of resulting
//! positions must be equal — zero differences. The run must also contain enough entries from
//! the bar, bear-offs and rolls with no legal play for the comparison to mean something.
//!
//! The interpreter is `$TABLIER_PYTHON`, else `<workspace>/.venv/bin/python` (made by
//! `bash scripts/python-env.sh`); without gnubg_nn the test fails, it never passes silently.
//! `TABLIER_ORACLE_POSITIONS=N` and `TABLIER_ORACLE_SEED=S` change the run.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

mod common;
use common::{env_number, python};

use tablier_backgammon::{Position, Roll};

/// Runs the oracle script and returns its lines.
fn gnubg_lines(count: u64, seed: u64) -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/gnubg_plays.py");
    let out = Command::new(python())
        .arg(script)
        .arg(count.to_string())
        .arg(seed.to_string())
        .output()
        .expect("the oracle script runs");
    assert!(
        out.status.success(),
        "oracle script failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("ASCII output")
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn legal_plays_equal_gnubg_on_20000_random_play_positions() {
    let count = env_number("TABLIER_ORACLE_POSITIONS", 20_000);
    let seed = env_number("TABLIER_ORACLE_SEED", 20_261_122);
    let lines = gnubg_lines(count, seed);
    assert_eq!(lines.len() as u64, count);

    let (mut from_bar, mut bear_offs, mut no_play, mut doubles) = (0, 0, 0, 0);
    let mut differences = Vec::new();
    for line in &lines {
        let mut fields = line.split_whitespace();
        let id = fields.next().expect("a Position ID");
        let a: u8 = fields.next().unwrap().parse().unwrap();
        let b: u8 = fields.next().unwrap().parse().unwrap();
        let theirs: BTreeSet<String> = fields.map(str::to_owned).collect();

        let position = Position::from_position_id(id).expect("gnubg's ID decodes");
        assert_eq!(position.position_id(), id, "Position ID round trip");
        let roll = Roll::new(a, b).unwrap();
        let plays = position.legal_plays(roll);
        let none = plays.len() == 1 && plays[0].hops().is_empty();
        let ours: BTreeSet<String> = if none {
            BTreeSet::new()
        } else {
            let ids: BTreeSet<String> = plays.iter().map(|p| p.result.position_id()).collect();
            assert_eq!(ids.len(), plays.len(), "plays de-duplicated by position");
            ids
        };

        if position.raw(tablier_backgammon::BAR) > 0 {
            from_bar += 1;
        }
        if plays.iter().any(|p| p.hops().iter().any(|h| h.to == 0)) {
            bear_offs += 1;
        }
        if theirs.is_empty() {
            no_play += 1;
        }
        if a == b {
            doubles += 1;
        }
        if ours != theirs {
            differences.push(format!(
                "{id} {a}-{b}: only ours {:?}, only gnubg's {:?}",
                ours.difference(&theirs).collect::<Vec<_>>(),
                theirs.difference(&ours).collect::<Vec<_>>()
            ));
        }
    }
    eprintln!(
        "{count} positions x rolls: {from_bar} from the bar, {bear_offs} with bear-offs, \
         {no_play} with no legal play, {doubles} doubles; {} differences",
        differences.len()
    );
    assert!(
        differences.is_empty(),
        "{} differences, first ones:\n{}",
        differences.len(),
        differences[..differences.len().min(10)].join("\n")
    );
    if count >= 20_000 {
        assert!(from_bar > 500 && bear_offs > 500 && no_play > 200 && doubles > 2000);
    }
}
