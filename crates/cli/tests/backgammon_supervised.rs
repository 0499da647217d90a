//! `tablier train backgammon-label` and `backgammon-fit`: a short run labels positions of its
//! own games into a file that a second run appends to, a fit from that file writes weights
//! that the engine reads and that fit the labels better than the weights they started from,
//! and bad input is refused with the reason, leaving no weights behind.

use std::process::Output;

use tablier_backgammon_engine::eval::Evaluator;
use tablier_backgammon_engine::supervised::{loss, parse_line};
use tablier_test_support::process::{output_text as text, run};

fn tablier(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_tablier"), args)
}

/// `train backgammon-label` of every position of `games` self-play games from `seed`, on one
/// thread (so that the lines come in the games' order), into `file`, with `extra` arguments.
fn label_games(games: &str, seed: &str, file: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "train",
        "backgammon-label",
        "--games",
        games,
        "--sample",
        "1",
        "--threads",
        "1",
        "--seed",
        seed,
        "--quiet",
        "--out",
        file,
    ];
    args.extend_from_slice(extra);
    tablier(&args)
}

/// The labelled positions of `file` (none if it does not exist).
fn read_samples(file: &str) -> Vec<tablier_backgammon_engine::supervised::Sample> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(|l| parse_line(l).unwrap())
        .collect()
}

#[test]
fn labels_append_and_a_fit_gets_closer_to_them() {
    let d = std::env::temp_dir().join(format!("tablier-bg-sup-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let path = |name: &str| d.join(name).to_str().unwrap().to_owned();
    let (labels, weights) = (path("labels.txt"), path("fit.tbg"));
    let label = |seed: &str| {
        tablier(&[
            "train",
            "backgammon-label",
            "--games",
            "6",
            "--plies",
            "1",
            "--sample",
            "1",
            "--threads",
            "2",
            "--seed",
            seed,
            "--quiet",
            "--out",
            &labels,
        ])
    };
    let o = label("1");
    assert!(o.status.success(), "{}", text(&o));
    let first = std::fs::read_to_string(&labels).unwrap().lines().count();
    assert!(first > 100, "{first} labels from six games");
    let o = label("2");
    assert!(o.status.success(), "{}", text(&o));
    let all = std::fs::read_to_string(&labels).unwrap();
    let samples: Vec<_> = all.lines().map(|l| parse_line(l).unwrap()).collect();
    assert!(samples.len() > first, "the second run appends");

    let o = tablier(&[
        "train",
        "backgammon-fit",
        "--data",
        &labels,
        "--epochs",
        "4",
        "--alpha",
        "0.02",
        "--held-out",
        "0",
        "--out",
        &weights,
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("epoch 4, fitted"), "{}", text(&o));
    let fitted = Evaluator::from_bytes(&std::fs::read(&weights).unwrap()).unwrap();
    let (before, after) = (
        loss(Evaluator::shipped(), &samples),
        loss(&fitted, &samples),
    );
    assert!(
        after.cross_entropy < before.cross_entropy,
        "{before:?} -> {after:?}"
    );

    // A malformed line: the file and line are named, no weights are written.
    let bad = path("bad.txt");
    let out2 = path("never.tbg");
    std::fs::write(
        &bad,
        format!(
            "{}\n4HPwATDgc/ABMA 0.5 0.2 2.0 0.1 0.0\n",
            all.lines().next().unwrap()
        ),
    )
    .unwrap();
    let o = tablier(&["train", "backgammon-fit", "--data", &bad, "--out", &out2]);
    assert!(!o.status.success());
    assert!(text(&o).contains("bad.txt:2"), "{}", text(&o));
    assert!(text(&o).contains("not between 0 and 1"), "{}", text(&o));
    assert!(!std::path::Path::new(&out2).exists());
    // Too few positions, and a depth the labeller refuses.
    std::fs::write(&bad, all.lines().take(5).collect::<Vec<_>>().join("\n")).unwrap();
    let o = tablier(&["train", "backgammon-fit", "--data", &bad, "--out", &out2]);
    assert!(text(&o).contains("too few"), "{}", text(&o));
    let o = tablier(&["train", "backgammon-label", "--plies", "4", "--out", &bad]);
    assert!(text(&o).contains("--plies is 0 to 3"), "{}", text(&o));
    assert!(!std::path::Path::new(&out2).exists());
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn rollout_labels_of_the_positions_asked_for() {
    use tablier_backgammon_engine::eval::{classify, Class, Scratch};
    let d = std::env::temp_dir().join(format!("tablier-bg-roll-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let out = d.join("gap.txt").to_str().unwrap().to_owned();
    let run_label = |extra: &[&str]| {
        let mut args = vec![
            "train",
            "backgammon-label",
            "--games",
            "2",
            "--sample",
            "1",
            "--min-pip-gap",
            "40",
            "--threads",
            "2",
            "--seed",
            "5",
            "--quiet",
            "--out",
            &out,
        ];
        args.extend_from_slice(extra);
        tablier(&args)
    };
    // The nets' own values first (--plies 0), then rollouts of the same positions.
    let o = run_label(&["--plies", "0"]);
    assert!(o.status.success(), "{}", text(&o));
    let own = std::fs::read_to_string(&out).unwrap();
    let n = own.lines().count();
    assert!(n > 0, "no position with a 40-pip gap in two games");
    let o = run_label(&["--rollout", "12"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("by rollouts of 12 games"), "{}", text(&o));
    let all = std::fs::read_to_string(&out).unwrap();
    let samples: Vec<_> = all.lines().map(|l| parse_line(l).unwrap()).collect();
    assert_eq!(samples.len(), 2 * n, "the same positions, labelled twice");
    // Each game's lines are written when it ends: with two threads the games' order varies.
    let key = |p: &tablier_backgammon::Position| format!("{:?}", p.to_sides());
    let rolled: std::collections::HashMap<_, _> =
        samples[n..].iter().map(|b| (key(&b.pos), b)).collect();
    let mut s = Scratch::default();
    let mut differ = 0;
    for a in &samples[..n] {
        let b = rolled[&key(&a.pos)];
        let (x, y) = a.pos.pip_count();
        assert!(classify(&a.pos) == Class::Contact && x.abs_diff(y) >= 40);
        // --plies 0 writes what the nets say; a rollout writes chances it measured.
        let net = Evaluator::shipped().probs(&a.pos, &mut s);
        assert!(a.target.iter().zip(&net).all(|(t, v)| (t - v).abs() < 1e-5));
        assert!(b.target.iter().all(|t| (0.0..=1.0).contains(t)));
        differ += usize::from(a.target != b.target);
    }
    assert!(differ > 0);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn a_winning_window_keeps_the_positions_of_the_doubling_window() {
    let d = std::env::temp_dir().join(format!("tablier-bg-window-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let out = d.join("window.txt").to_str().unwrap().to_owned();
    // The same four games, labelled at 0 plies into `file`, with `extra` arguments.
    let label = |file: &str, extra: &[&str]| {
        let mut args = vec![
            "train",
            "backgammon-label",
            "--games",
            "4",
            "--sample",
            "1",
            "--plies",
            "0",
            "--threads",
            "2",
            "--seed",
            "7",
            "--quiet",
            "--out",
            file,
        ];
        args.extend_from_slice(extra);
        tablier(&args)
    };
    let window = |lo: &str, hi: &str| label(&out, &["--min-win", lo, "--max-win", hi]);
    let o = window("0.62", "0.92");
    assert!(o.status.success(), "{}", text(&o));
    let kept: Vec<_> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| parse_line(l).unwrap())
        .collect();
    assert!(kept.len() > 5, "{} positions in the window", kept.len());
    use tablier_backgammon_engine::eval::{classify, Class};
    for s in &kept {
        // --plies 0 writes the nets' own chances: the side on roll's win is the first.
        assert!(
            (0.62 - 1e-4..=0.92 + 1e-4).contains(&s.target[0]),
            "{:?}",
            s.target
        );
        assert_eq!(classify(&s.pos), Class::Contact);
    }
    // Every position of the same games, for comparison: the window is a small part of them.
    let all = d.join("all.txt").to_str().unwrap().to_owned();
    let o = label(&all, &[]);
    assert!(o.status.success(), "{}", text(&o));
    let every = std::fs::read_to_string(&all).unwrap().lines().count();
    assert!(kept.len() < every / 2, "{} of {every}", kept.len());
    // A window upside down is refused and writes nothing.
    let o = window("0.9", "0.8");
    assert!(!o.status.success());
    assert!(text(&o).contains("--min-win and --max-win"), "{}", text(&o));
    let after = std::fs::read_to_string(&out).unwrap().lines().count();
    assert_eq!(after, kept.len());
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn truncated_rollouts_of_contact_positions() {
    use tablier_backgammon_engine::eval::{classify, Class};
    let d = tempfile::Builder::new()
        .prefix("tablier-bg-trunc-")
        .tempdir()
        .unwrap();
    let path = |name: &str| d.path().join(name).to_str().unwrap().to_owned();
    // The same three games labelled into `file` with `extra` arguments.
    let label = |file: &str, extra: &[&str]| label_games("3", "11", file, extra);
    let read = |file: &str| read_samples(file);
    // A trial cut after one ply, luck-adjusted, is worth the average over the 21 rolls of
    // each roll's best play at 0-ply whatever the roll thrown: the 1-ply value, exactly.
    let o = label(
        &path("t1.txt"),
        &["--contact", "--rollout", "3", "--truncate", "1"],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("by rollouts of 3 games truncated at 1 plies"),
        "{}",
        text(&o)
    );
    let o = label(&path("p1.txt"), &["--contact", "--plies", "1"]);
    assert!(o.status.success(), "{}", text(&o));
    let (cut, searched) = (read(&path("t1.txt")), read(&path("p1.txt")));
    assert!(cut.len() > 10, "{} contact positions", cut.len());
    assert_eq!(cut.len(), searched.len());
    for (a, b) in cut.iter().zip(&searched) {
        assert_eq!(a.pos, b.pos);
        assert_eq!(classify(&a.pos), Class::Contact);
        for (x, y) in a.target.iter().zip(&b.target) {
            assert!(
                (x - y).abs() < 2e-4,
                "{:?} against {:?}",
                a.target,
                b.target
            );
        }
    }
    // Cut later, the trials differ and so do the labels.
    let o = label(
        &path("t4.txt"),
        &["--contact", "--rollout", "3", "--truncate", "4"],
    );
    assert!(o.status.success(), "{}", text(&o));
    let later = read(&path("t4.txt"));
    assert_eq!(later.len(), cut.len());
    assert!(later.iter().zip(&cut).any(|(a, b)| a.target != b.target));
    // Without --contact the races come too.
    let o = label(&path("all.txt"), &["--plies", "0"]);
    assert!(o.status.success(), "{}", text(&o));
    let every = read(&path("all.txt"));
    assert!(every.len() > cut.len(), "{} of {}", cut.len(), every.len());
    assert!(every.iter().any(|s| classify(&s.pos) != Class::Contact));
    // --truncate alone is refused and writes nothing.
    let o = label(&path("bad.txt"), &["--truncate", "4"]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("--truncate is for rollouts"),
        "{}",
        text(&o)
    );
    assert!(!d.path().join("bad.txt").exists());
}

#[test]
fn endings_with_checkers_off_and_contact_rolled_out_with_searched_plays() {
    use tablier_backgammon_engine::eval::{classify, Class};
    let d = std::env::temp_dir().join(format!("tablier-bg-off-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let path = |name: &str| d.join(name).to_str().unwrap().to_owned();
    // The same 30 games labelled into `file` with `extra` arguments.
    let label = |file: &str, extra: &[&str]| label_games("30", "13", file, extra);
    let read = |file: &str| read_samples(file);
    let o = label(&path("own.txt"), &["--plies", "0", "--min-off", "4"]);
    assert!(o.status.success(), "{}", text(&o));
    let own = read(&path("own.txt"));
    assert!(
        !own.is_empty(),
        "no contact with 4 checkers off in 30 games"
    );
    for s in &own {
        assert_eq!(classify(&s.pos), Class::Contact);
        assert!(s.pos.mover_off().max(s.pos.opponent_off()) >= 4);
    }
    // Every position of the same games: those endings are few of them.
    let o = label(&path("all.txt"), &["--plies", "0"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(own.len() * 4 < read(&path("all.txt")).len());
    // The same positions rolled out with each play searched 1 ply.
    let o = label(
        &path("rolled.txt"),
        &["--min-off", "4", "--rollout", "2", "--rollout-plies", "1"],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("by rollouts of 2 games, plays searched 1 ply"),
        "{}",
        text(&o)
    );
    let rolled = read(&path("rolled.txt"));
    assert_eq!(rolled.len(), own.len());
    for (a, b) in own.iter().zip(&rolled) {
        assert_eq!(a.pos, b.pos);
        assert!(b.target.iter().all(|t| (0.0..=1.0).contains(t)));
    }
    // A searched policy without rollouts, or too deep, is refused and writes nothing.
    for bad in [
        &["--rollout-plies", "1"][..],
        &["--rollout", "2", "--rollout-plies", "3"],
    ] {
        let o = label(&path("bad.txt"), bad);
        assert!(!o.status.success());
        assert!(text(&o).contains("--rollout-plies"), "{}", text(&o));
        assert!(read(&path("bad.txt")).is_empty());
    }
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn crashed_positions_are_labelled_alone_and_fit_only_the_crashed_net() {
    use tablier_backgammon_engine::eval::{net_of, NET_CONTACT, NET_CRASHED, NET_RACE};
    let d = std::env::temp_dir().join(format!("tablier-bg-crashed-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let path = |name: &str| d.join(name).to_str().unwrap().to_owned();
    let o = label_games("40", "21", &path("k.txt"), &["--plies", "1", "--crashed"]);
    assert!(o.status.success(), "{}", text(&o));
    let crashed = read_samples(&path("k.txt"));
    assert!(
        crashed.len() >= 20,
        "{} crashed positions in 40 games",
        crashed.len()
    );
    assert!(crashed.iter().all(|s| net_of(&s.pos) == Some(NET_CRASHED)));
    // Every position of the same games: the crashed ones are a few of them.
    let o = label_games("40", "21", &path("all.txt"), &["--plies", "0"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(crashed.len() * 5 < read_samples(&path("all.txt")).len());
    // A fit to them moves the crashed net and nothing else.
    let o = tablier(&[
        "train",
        "backgammon-fit",
        "--data",
        &path("k.txt"),
        "--epochs",
        "3",
        "--alpha",
        "0.05",
        "--held-out",
        "0",
        "--out",
        &path("k.tbg"),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let fitted = Evaluator::from_bytes(&std::fs::read(path("k.tbg")).unwrap()).unwrap();
    let shipped = Evaluator::shipped();
    assert_eq!(fitted.nets[NET_CONTACT], shipped.nets[NET_CONTACT]);
    assert_eq!(fitted.nets[NET_RACE], shipped.nets[NET_RACE]);
    assert_ne!(fitted.nets[NET_CRASHED], shipped.nets[NET_CRASHED]);
    assert!(loss(&fitted, &crashed).cross_entropy < loss(shipped, &crashed).cross_entropy);
    std::fs::remove_dir_all(&d).ok();
}
