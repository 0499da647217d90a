//! The exports of games the table ended: a resignation, a flag, an agreed draw. The PDN's
//! result is the real one (not `*`), in the variant's style, with a `Termination` tag; the
//! file reads back with our PDN reader and replays; the header has the players and the date;
//! the file name has the game id and the date.

use tablier_catalog::{Referee, SeatAction, TableSpec};
use tablier_core::{Actor, Side};
use tablier_draughts::pdn::parse_game;

/// 2026-11-25 12:00 UTC.
const CREATED_MS: i64 = 1_795_608_000_000;

fn game(json: &str) -> Referee {
    let spec: TableSpec = serde_json::from_str(json).unwrap();
    Referee::new(spec, [3; 32], CREATED_MS).unwrap()
}

/// Plays the first legal action `n` times (chance drawn when due).
fn play(g: &mut Referee, n: usize) {
    let mut t = CREATED_MS;
    for _ in 0..n {
        t += 1_000;
        g.draw_chance(t);
        let Actor::Player(side) = g.actor() else {
            return;
        };
        let first = g.table().legal()[0].clone();
        g.act(side, &SeatAction::Game(first), t).unwrap();
    }
}

fn players() -> [String; 2] {
    ["Anonymous".into(), "tablier level 3".into()]
}

#[test]
fn a_resigned_international_game_exports_its_real_result() {
    let mut g = game(r#"{"family": "draughts", "variant": "international"}"#);
    play(&mut g, 6);
    g.act(
        Side::White,
        &SeatAction::parse("!resign").unwrap(),
        CREATED_MS + 60_000,
    )
    .unwrap();
    let file = g.export(players());
    assert_eq!(file.extension, "pdn");
    let pdn = parse_game(&file.text).unwrap();
    assert_eq!(pdn.tag("Result"), Some("0-2"), "{}", file.text);
    assert_eq!(pdn.result.as_deref(), Some("0-2"));
    assert_eq!(pdn.tag("Termination"), Some("resignation"));
    assert_eq!(pdn.tag("White"), Some("Anonymous"));
    assert_eq!(pdn.tag("Black"), Some("tablier level 3"));
    assert_eq!(pdn.tag("Date"), Some("2026.11.25"));
    let replayed =
        tablier_draughts::replay::replay(&pdn, 0, &tablier_draughts::variant::INTERNATIONAL)
            .unwrap();
    assert_eq!(replayed.plies, 6);
    assert_eq!(
        g.export_file_name("abc123", file.extension),
        "tablier-abc123-2026-11-25.pdn"
    );
}

#[test]
fn english_results_keep_their_style_and_agreed_draws_are_draws() {
    let mut g = game(r#"{"family": "draughts", "variant": "english"}"#);
    play(&mut g, 4);
    let under_way = g.export(players());
    assert_eq!(
        parse_game(&under_way.text).unwrap().tag("Result"),
        Some("*")
    );
    g.act(
        Side::White,
        &SeatAction::parse("!draw-offer").unwrap(),
        CREATED_MS + 9_000,
    )
    .unwrap();
    g.act(
        Side::Black,
        &SeatAction::parse("!draw-accept").unwrap(),
        CREATED_MS + 9_500,
    )
    .unwrap();
    let pdn = parse_game(&g.export(players()).text).unwrap();
    assert_eq!(pdn.tag("Result"), Some("1/2-1/2"));
    assert_eq!(pdn.tag("Termination"), Some("draw agreed"));
}

#[test]
fn the_old_french_rules_export_a_resignation_too() {
    let mut g = game(r#"{"family": "draughts", "variant": "french-old"}"#);
    play(&mut g, 3);
    let Actor::Player(side) = g.actor() else {
        panic!("a player is to move");
    };
    g.act(
        side,
        &SeatAction::parse("!resign").unwrap(),
        CREATED_MS + 5_000,
    )
    .unwrap();
    let pdn = parse_game(&g.export(players()).text).unwrap();
    let want = if side == Side::White { "0-2" } else { "2-0" };
    assert_eq!(pdn.tag("Result"), Some(want));
    assert_eq!(pdn.tag("Termination"), Some("resignation"));
}
