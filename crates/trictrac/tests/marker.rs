//! The `scoring` (points, holes, bredouille sequences) and `marques` (partie à écrire)
//! vectors of the book.

use serde_json::Value;
use tablier_core::Side;
use tablier_trictrac::marker::{marque_value, Marker};

fn vectors() -> Value {
    serde_json::from_str(include_str!("data/test_vectors.json")).unwrap()
}

fn who(v: &Value) -> Side {
    if v.as_str() == Some("B") {
        Side::Black
    } else {
        Side::White
    }
}

/// The marker each sequence starts from, as its description states it (points, and whether
/// the run is still uninterrupted).
fn start(section: &str, sequence: &str) -> Marker {
    match section {
        // "W has 8 (not en bredouille), B has 8 en bredouille".
        "n147" => Marker::with_points((8, false), (8, true)),
        // "W 8 (not en bredouille), B 10 en bredouille".
        "n331" => Marker::with_points((8, false), (10, true)),
        // "both 10": each has been interrupted by the other.
        "n207" => Marker::with_points((10, false), (10, false)),
        // "W has 10" / "W has 10 (not en bredouille)".
        "n163" | "n173" => Marker::with_points((10, false), (0, false)),
        // "W 10, B 4".
        "n183" => Marker::with_points((10, false), (4, true)),
        _ => {
            assert!(sequence.starts_with("W+"), "{section}: starts from zero");
            Marker::new()
        }
    }
}

#[test]
fn scoring_sequences_n144_to_n207() {
    let all = vectors();
    let cases = all["scoring"].as_array().unwrap();
    assert_eq!(cases.len(), 11);
    for case in cases {
        let section = case["section"].as_str().unwrap();
        let key = section.split_whitespace().next().unwrap();
        let seq = case["sequence"].as_str().unwrap();
        let mut m = start(key, seq);
        for step in case["model"].as_array().unwrap() {
            let side = who(&step["who"]);
            let holes = m.mark(side, step["gain"].as_u64().unwrap() as u32);
            let label = format!("{section}: {seq}: {step}");
            assert_eq!(u64::from(holes), step["holes"].as_u64().unwrap(), "{label}");
            assert_eq!(
                u64::from(m.points(Side::White)),
                step["W_pts"].as_u64().unwrap(),
                "{label}"
            );
            assert_eq!(
                u64::from(m.points(Side::Black)),
                step["B_pts"].as_u64().unwrap(),
                "{label}"
            );
        }
    }
}

#[test]
fn marques_n222_to_n225() {
    let all = vectors();
    let cases = all["marques"].as_array().unwrap();
    assert_eq!(cases.len(), 7);
    for case in cases {
        let hw = case["winner_holes"].as_u64().unwrap() as u32;
        let hl = case["loser_holes"].as_u64().unwrap() as u32;
        let kind = case["kind"].as_str().unwrap();
        let pavillon = if case["section"] == "n225" {
            // n°225: White takes 2 holes, Black 5, White 16 more: nobody re-enters the
            // pavillon once both have interrupted each other.
            let mut m = Marker::new();
            for (side, holes) in [(Side::White, 2), (Side::Black, 5), (Side::White, 16)] {
                for _ in 0..holes {
                    m.mark(side, 12);
                    m.erase_points();
                }
            }
            m.pavillon.holder == Some(Side::White)
        } else {
            kind.starts_with("petite") || kind.starts_with("grande")
        };
        let v = marque_value(hw, hl, pavillon, 0);
        assert_eq!(v, case["model"].as_i64().unwrap(), "{case}");
        assert_eq!(v, case["book"].as_i64().unwrap(), "{case}");
    }
}
