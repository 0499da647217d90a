//! `tablier train trictrac`: a short run on two threads with bootstrapped targets, started
//! from the shipped weights, writes a version 2 weights file and a checkpoint that a longer
//! run goes on from; a bad `--from` file is refused before anything is played.

use std::path::PathBuf;
use std::process::Output;

use tablier_test_support::process::{output_text as text, run};

use tablier_trictrac_engine::selfplay::Checkpoint;
use tablier_trictrac_engine::Weights;

fn tablier(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_tablier"), args)
}

#[test]
fn trains_on_threads_from_given_weights_and_resumes() {
    let d = std::env::temp_dir().join(format!("tablier-tt-train-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let s = |p: PathBuf| p.to_str().unwrap().to_owned();
    let (out, ck) = (s(d.join("w.txt")), s(d.join("t.ckpt")));
    let shipped = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../trictrac-engine/weights/trictrac-eval.txt"
    );
    let run = |games: &str, extra: &[&str]| {
        let mut args = vec![
            "train",
            "trictrac",
            "--seed",
            "3",
            "--games",
            games,
            "--generation",
            "1",
            "--threads",
            "2",
            "--horizon",
            "6",
            "--quiet",
            "--out",
            &out,
            "--checkpoint",
            &ck,
        ];
        args.extend_from_slice(extra);
        tablier(&args)
    };
    let o = run("2", &["--from", shipped]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("2 self-play parties"), "{}", text(&o));
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.starts_with("tablier-trictrac-eval 2\n"));
    let w = Weights::parse(&written).unwrap();
    assert_ne!(w, Weights::shipped());
    let first = Checkpoint::parse(&std::fs::read_to_string(&ck).unwrap()).unwrap();
    assert_eq!((first.seed, first.games), (3, 2));
    assert_eq!(first.weights, w);
    // A longer run goes on from the checkpoint.
    let o = run("3", &["--resume"]);
    assert!(o.status.success(), "{}", text(&o));
    let again = Checkpoint::parse(&std::fs::read_to_string(&ck).unwrap()).unwrap();
    assert_eq!(again.games, 3);
    assert!(again.regression.samples > first.regression.samples);
    // A `--from` that is not a weights file: refused, nothing played.
    let bad = s(d.join("bad.txt"));
    std::fs::write(&bad, "not weights\n").unwrap();
    let o = run("2", &["--from", &bad]);
    assert!(!o.status.success());
    assert!(text(&o).contains("bad.txt"), "{}", text(&o));
    let o = run("2", &["--from", &s(d.join("missing.txt"))]);
    assert!(!o.status.success());
    assert!(text(&o).contains("missing.txt"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&d);
}
