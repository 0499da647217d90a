//! `tablier train trictrac-stay`: a short run plays go decisions out and writes its
//! samples, a fit from a samples file writes a stay model that the engine reads and that a
//! duel player uses, and bad input is refused with the reason.

use std::path::PathBuf;
use std::process::Output;

use tablier_test_support::process::{output_text as text, run};
use tablier_trictrac_engine::rester::{StayModel, STAY_INPUTS};

fn tablier(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_tablier"), args)
}

#[test]
fn plays_decisions_out_fits_and_duels() {
    let d = std::env::temp_dir().join(format!("tablier-tt-stay-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let s = |p: PathBuf| p.to_str().unwrap().to_owned();
    let (samples, model) = (s(d.join("samples.txt")), s(d.join("stay.txt")));
    // One partie's decisions are too few to fit, but they are played out and kept.
    let o = tablier(&[
        "train",
        "trictrac-stay",
        "--parties",
        "1",
        "--pairs",
        "1",
        "--horizon",
        "2",
        "--threads",
        "2",
        "--quiet",
        "--samples",
        &samples,
        "--out",
        &model,
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("too few"), "{}", text(&o));
    let kept = std::fs::read_to_string(&samples).unwrap();
    let lines: Vec<&str> = kept.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!lines.is_empty());
    for l in &lines {
        assert_eq!(l.split_whitespace().count(), STAY_INPUTS + 1, "{l}");
    }
    // The same decisions many times over: enough to fit.
    let many = format!("{}\n", lines.repeat(80 / lines.len() + 1).join("\n"));
    std::fs::write(&samples, many).unwrap();
    let fit = || {
        tablier(&[
            "train",
            "trictrac-stay",
            "--from-samples",
            &samples,
            "--out",
            &model,
        ])
    };
    let o = fit();
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("go decisions played out"), "{}", text(&o));
    let fitted = StayModel::parse(&std::fs::read_to_string(&model).unwrap()).unwrap();
    assert_ne!(fitted, StayModel::zero());
    // A duel player searching with it.
    let o = tablier(&[
        "trictrac",
        "duel",
        "--a",
        &format!("stay:{model}"),
        "--b",
        "greedy",
        "--parties",
        "2",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    // Bad samples and bad models are refused, naming the file.
    std::fs::write(&samples, "1 2 3\n").unwrap();
    let o = fit();
    assert!(!o.status.success());
    assert!(text(&o).contains("samples.txt, line 1"), "{}", text(&o));
    let o = tablier(&["trictrac", "duel", "--a", &format!("stay:{samples}")]);
    assert!(!o.status.success());
    assert!(text(&o).contains("samples.txt"), "{}", text(&o));
    std::fs::remove_dir_all(&d).ok();
}
