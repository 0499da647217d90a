//! The partie à écrire from the command line: `tablier trictrac hint --ecrire` decides going
//! or staying by the marqué's table in jetons, and `tablier trictrac duel --ecrire` plays
//! marqués.

use std::process::Output;

use tablier_test_support::process::{output_text as text, run};

fn tablier(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_tablier"), args)
}

/// n°159's position (White conserves his grand jan with the 2-1 for 4 points, a double hole
/// with his 8 points in bredouille): 7 holes against 9 after it.
const CONSERVES: &[&str] = &[
    "trictrac",
    "hint",
    "--position",
    "1W1-7W2-8W2-9W2-10W2-11W2-12W4-13B5-14B2-15B2-16B2-17B2-18B2",
    "--roll",
    "2-1",
    "--points",
    "8,0",
];

fn hint(extra: &[&str]) -> serde_json::Value {
    let mut args = CONSERVES.to_vec();
    args.extend_from_slice(extra);
    args.push("--json");
    let o = tablier(&args);
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn hint_decides_by_the_marque_when_going_would_end_it() {
    // Behind, going would lose the marqué (9 + 2 − 7 = 4 jetons): stay (n°388).
    let r = hint(&["--ecrire", "--holes", "5,9", "--pavillon", "lost"]);
    assert_eq!(r["holes_won"], 2);
    assert_eq!(r["marque"]["go_jetons"], -4.0);
    assert!(r["decision"].as_str().unwrap().starts_with("stay"), "{r}");
    // With the pavillon at 10 holes against none: the grande bredouille (n°386), staying.
    let r = hint(&["--ecrire", "--holes", "8,0", "--pavillon", "white"]);
    assert_eq!(r["marque"]["go_jetons"], 24.0);
    assert!(r["marque"]["stay_jetons"].as_f64().unwrap() > 24.0, "{r}");
    // Going that does not end the marqué (nobody at 6 holes) is the margin's choice.
    let r = hint(&["--ecrire", "--holes", "1,2", "--pavillon", "lost"]);
    assert!(r["marque"].is_null(), "{r}");
    // A partie in 12 holes has no marqué.
    assert!(hint(&["--holes", "5,9"])["marque"].is_null());
}

#[test]
fn hint_refuses_a_pavillon_that_cannot_be() {
    for (extra, why) in [
        (
            &["--ecrire", "--pavillon", "purple"][..],
            "white, black, lost or none",
        ),
        (
            &["--ecrire", "--holes", "0,3", "--pavillon", "white"][..],
            "white has no holes",
        ),
        (&["--pavillon", "white", "--holes", "3,0"][..], "(--ecrire)"),
    ] {
        let mut args = CONSERVES.to_vec();
        args.extend_from_slice(extra);
        let o = tablier(&args);
        assert!(!o.status.success());
        assert!(text(&o).contains(why), "{}", text(&o));
    }
}

/// `tablier trictrac duel --ecrire` between the table and the margin on two dice sequences,
/// with `extra` arguments: its JSON report.
fn duel(extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "trictrac",
        "duel",
        "--ecrire",
        "--a",
        "ecrire",
        "--b",
        "margin",
        "--parties",
        "2",
        "--seed",
        "3",
        "--quiet",
        "--json",
    ];
    args.extend_from_slice(extra);
    let o = tablier(&args);
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn duel_plays_marques_in_jetons() {
    let r = duel(&[]);
    assert_eq!(
        (r["game"].as_str(), r["unit"].as_str()),
        (Some("marqué"), Some("jetons"))
    );
    assert_eq!(r["parties"], 2);
    let won = r["a_won"].as_u64().unwrap() + r["b_won"].as_u64().unwrap();
    assert!(won <= 2);
}

#[test]
fn duel_plays_whole_parties_a_ecrire_by_their_settlement() {
    let r = duel(&["--marques", "2"]);
    assert_eq!(r["game"], "partie à écrire");
    assert_eq!(r["unit"], "jetons");
    for bad in [&["--marques", "3", "--ecrire"][..], &["--marques", "2"][..]] {
        let mut args = vec!["trictrac", "duel", "--parties", "2"];
        args.extend_from_slice(bad);
        let o = tablier(&args);
        assert!(!o.status.success());
        assert!(
            text(&o).contains("--marques is an even number"),
            "{}",
            text(&o)
        );
    }
}
