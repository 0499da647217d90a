//! The review's judgement of moves: each move a player chose is compared with every legal
//! move of the position before it; the best is named when the move played is worth less,
//! with the loss and its mark (`?`, `??`).

use tablier_catalog::{review, Referee, Review, SeatAction, TableSpec};
use tablier_core::Actor;

/// 2026-11-25 12:00 UTC.
const CREATED_MS: i64 = 1_795_608_000_000;

fn game(json: &str) -> Referee {
    let spec: TableSpec = serde_json::from_str(json).unwrap();
    Referee::new(spec, [5; 32], CREATED_MS).unwrap()
}

/// The legal actions after `m` is applied to `g`'s table.
fn after(g: &Referee, m: &str) -> Vec<String> {
    let mut t = g.table().boxed_clone();
    t.apply(m).unwrap();
    t.legal().to_vec()
}

fn captures(moves: &[String]) -> bool {
    moves.iter().any(|m| m.contains('x'))
}

/// Whether the quiet move `m` leaves a man to be taken for nothing: the opponent must
/// capture, and after each of his captures the mover has none.
fn hangs(g: &Referee, m: &str) -> bool {
    if m.contains('x') {
        return false;
    }
    let answers = after(g, m);
    if !captures(&answers) {
        return false;
    }
    let mut t = g.table().boxed_clone();
    t.apply(m).unwrap();
    answers.iter().all(|c| {
        let mut u = t.boxed_clone();
        u.apply(c).unwrap();
        !captures(u.legal())
    })
}

/// Every judged move of a review is consistent: a loss not below zero, the mark by the
/// thresholds, a best move that was legal and is not the move played.
fn check(r: &Review, g: &Referee) -> usize {
    let tables = g.review_tables().unwrap();
    let mut judged = 0;
    for (i, p) in r.positions.iter().enumerate() {
        let Some(loss) = p.loss else {
            assert!(p.best.is_none() && p.mark.is_none(), "{i}");
            continue;
        };
        judged += 1;
        assert!(loss >= 0.0, "{i}: {loss}");
        let mark = if loss >= r.marks[1] {
            Some("??")
        } else if loss >= r.marks[0] {
            Some("?")
        } else {
            None
        };
        assert_eq!(p.mark.as_deref(), mark, "{i}: {loss}");
        if let Some(best) = &p.best {
            assert!(loss > 0.0, "{i}");
            assert_ne!(Some(best), p.action.as_ref(), "{i}");
            assert!(tables[i - 1].1.legal().contains(best), "{i}: {best}");
        }
    }
    judged
}

/// English draughts: each side plays its first legal move until one of them can leave a
/// man to be taken for nothing (found by the rules alone, not the engine) while another
/// move keeps it; it plays that move. The review marks it and names another move.
#[test]
fn a_man_given_away_is_marked_and_a_better_move_named() {
    let mut g = game(r#"{"family": "draughts", "variant": "english"}"#);
    let mut t = CREATED_MS;
    let mut blunder = None;
    for ply in 0..60 {
        let Actor::Player(side) = g.actor() else {
            break;
        };
        let legal = g.table().legal().to_vec();
        let safe = legal.iter().any(|m| !captures(&after(&g, m)));
        let hanging = legal.iter().find(|m| hangs(&g, m)).filter(|_| safe);
        let m = hanging.unwrap_or(&legal[0]).clone();
        if hanging.is_some() {
            blunder = Some((ply + 1, m.clone()));
        }
        t += 1_000;
        g.act(side, &SeatAction::Game(m), t).unwrap();
        if blunder.is_some() {
            break;
        }
    }
    let (at, m) = blunder.expect("a man given away in 60 plies");
    let r = review(&g).unwrap();
    assert_eq!(r.unit, "men");
    let tables = g.review_tables().unwrap();
    let choices = (1..tables.len())
        .filter(|&i| tables[i - 1].1.legal().len() > 1)
        .count();
    assert_eq!(
        check(&r, &g),
        choices,
        "every move chosen among several is judged"
    );
    let p = &r.positions[at];
    assert_eq!(p.action.as_deref(), Some(m.as_str()));
    assert!(
        p.mark.is_some(),
        "{m} gives a man away: loss {:?} best {:?}",
        p.loss,
        p.best
    );
    assert!(p.loss.unwrap() >= 0.5, "{:?}", p.loss);
    eprintln!(
        "ply {at}: {m} {} loses {:.2} men, best {:?}",
        p.mark.as_deref().unwrap_or(""),
        p.loss.unwrap(),
        p.best
    );
    assert_ne!(p.best.as_deref(), Some(m.as_str()));
}

/// Backgammon and trictrac: the first legal play every time (chance drawn as it falls).
/// The checker plays and the trictrac plays are judged, consistently, and playing the first
/// play listed is not always best.
#[test]
fn dice_games_judge_their_plays() {
    for (spec, unit) in [
        (r#"{"family": "backgammon", "cube": false}"#, "% to win"),
        (r#"{"family": "trictrac"}"#, "% partie"),
    ] {
        let mut g = game(spec);
        let mut t = CREATED_MS;
        for _ in 0..120 {
            t += 1_000;
            g.draw_chance(t);
            let Actor::Player(side) = g.actor() else {
                break;
            };
            let first = g.table().legal()[0].clone();
            g.act(side, &SeatAction::Game(first), t).unwrap();
        }
        let r = review(&g).unwrap();
        assert_eq!(r.unit, unit);
        let judged = check(&r, &g);
        assert!(judged >= 10, "{spec}: {judged} judged");
        let worse = r.positions.iter().filter(|p| p.best.is_some()).count();
        assert!(
            worse > 0,
            "{spec}: the first play is never worse than the best?"
        );
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["marks"].as_array().unwrap().len(), 2);
    }
}
