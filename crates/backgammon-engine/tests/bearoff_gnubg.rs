//! Oracle test: our one-sided bear-off database against GNU Backgammon's (`gnubg_os0.bd`,
//! read through PyPI `gnubg-nn`), on every 37th of the 54,264 positions (1,467 positions,
//! from one checker to fifteen), distribution entry by entry.
//!
//! gnubg stores each probability in 16 bits (0.007716 = 10/1296 is stored as 506/65,535 =
//! 0.007721) and builds each position from its successors' rounded values, so entries drift
//! apart by a few 1e-4 on the longest bear-offs; we allow 1e-3 per entry and 1e-3 on the
//! expected number of rolls (the test prints the largest differences seen).

use std::io::Write;
use std::process::{Command, Stdio};

#[path = "../../backgammon/tests/common/mod.rs"]
mod common;

use tablier_backgammon_engine::bearoff::{all_positions, Bearoff};

#[test]
fn one_sided_bearoff_equals_gnubg_on_1467_positions() {
    let sample: Vec<[u8; 6]> = all_positions()
        .into_iter()
        .skip(1) // the empty position: gnubg has nothing to bear off
        .step_by(37)
        .collect();
    assert!(sample.len() >= 1000);
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/gnubg_bearoff.py");
    let mut child = Command::new(common::python())
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the oracle script starts");
    let mut input = String::new();
    for p in &sample {
        input += &format!("{} {} {} {} {} {}\n", p[0], p[1], p[2], p[3], p[4], p[5]);
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let db = Bearoff::global();
    let mut checked = 0;
    let mut worst = 0.0f64;
    let mut worst_mean = 0.0f64;
    for (line, p) in text.lines().zip(&sample) {
        let (counts, probs) = line.split_once(':').expect("counts : probabilities");
        let counts: Vec<u8> = counts
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(&counts[..], &p[..]);
        let theirs: Vec<f64> = probs
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        let ours = db.distribution(p);
        // gnubg's entry j is "exactly j + 1 rolls"; ours k is "exactly k rolls".
        let mut their_mean = 0.0;
        for (k, &our) in ours.iter().enumerate() {
            let t = if k >= 1 {
                theirs.get(k - 1).copied().unwrap_or(0.0)
            } else {
                0.0
            };
            their_mean += k as f64 * t;
            let d = (f64::from(our) - t).abs();
            worst = worst.max(d);
            assert!(d < 1e-3, "{p:?}: {k} rolls, ours {our} gnubg {t}");
        }
        let our_mean = f64::from(db.expected_rolls(p));
        worst_mean = worst_mean.max((our_mean - their_mean).abs());
        assert!(
            (our_mean - their_mean).abs() < 1e-3,
            "{p:?}: expected rolls ours {our_mean} gnubg {their_mean}"
        );
        checked += 1;
    }
    assert_eq!(checked, sample.len());
    eprintln!("{checked} positions equal to gnubg's one-sided database (largest difference {worst:.2e} per entry, {worst_mean:.2e} rolls on the mean)");
}
