//! The chance figures the engine uses agree with the book (J.L. 1852): the arithmetic of
//! numbers (tables C–F, n°259–312), the throws that fill (n°53–104), that keep a plein
//! (n°370), that hit à vrai and à faux (n°129–138, n°332, n°393). Data copied from the
//! project's reference (`tests/data/`; tables C to F are kept once, in
//! `crates/test-support/data/`).

use serde_json::Value;
use tablier_core::Side;
use tablier_test_support::trictrac;
use tablier_trictrac::{Board, JanContext, Roll, Table};
use tablier_trictrac_engine::chances::{reaching, roll_outcomes, throw_chances, total_ways};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn tables_c_d_e_one_way_or_more() {
    let rows = trictrac::tables_c_d_e();
    for (set, want) in &rows {
        assert_eq!(reaching(set, 1), *want, "numbers {set:?}");
    }
    // 66 pairs (table C), 220 triples (D), 495 quadruples (E).
    assert_eq!(rows.len(), 781);
}

#[test]
fn table_f_by_sums() {
    let rows = trictrac::table_f();
    for row in &rows {
        let set = &row.numbers;
        assert_eq!(set.iter().map(|&n| u32::from(n)).sum::<u32>(), row.sum);
        let got = [
            reaching(set, 1),
            reaching(set, 2),
            reaching(set, 3),
            total_ways(set),
        ];
        let want = [row.at_least[0], row.at_least[1], row.at_least[2], row.total];
        assert_eq!(got, want, "numbers {set:?}");
    }
    assert_eq!(rows.len(), 793);
}

fn vectors() -> Value {
    serde_json::from_str(&data("book_chances.json")).unwrap()
}

fn board(text: &str) -> Board {
    text.parse().unwrap()
}

#[test]
fn filling_throws_n53_to_n104() {
    let v = vectors();
    let cases = v["filling"].as_array().unwrap();
    assert_eq!(cases.len(), 13);
    for case in cases {
        let b = board(case["position"].as_str().unwrap());
        let t = match case["table"].as_str().unwrap() {
            "petit" => 0,
            "grand" => 1,
            _ => 2,
        };
        let got = throw_chances(&b, Side::White, JanContext::default()).fill[t];
        assert_eq!(
            u64::from(got),
            case["model_chances"].as_u64().unwrap(),
            "{}",
            case["section"]
        );
        // Roll by roll, the same rolls as the book's list.
        let mut rolls: Vec<String> = roll_outcomes(&b, Side::White, JanContext::default())
            .iter()
            .filter(|o| o.fills == Some(Table::ALL[t]))
            .map(|o| o.roll.to_string())
            .collect();
        let mut want: Vec<String> = case["model_filling_rolls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["roll"].as_str().unwrap().to_string())
            .collect();
        rolls.sort();
        want.sort();
        assert_eq!(rolls, want, "{}", case["section"]);
    }
}

const BLACK_GRAND_JAN: &str = "13B5-14B2-15B2-16B2-17B2-18B2";

fn grand_jan_with(surplus: &[u8]) -> Board {
    let mut counts = [0u8; 25];
    counts[7..=12].fill(2);
    for &s in surplus {
        counts[usize::from(s)] += 1;
    }
    let white: Vec<String> = (1..=24)
        .filter(|&a| counts[a] > 0)
        .map(|a| format!("{a}W{}", counts[a]))
        .collect();
    board(&format!("{}-{BLACK_GRAND_JAN}", white.join("-")))
}

fn list(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

#[test]
fn conserving_throws_n370() {
    let v = vectors();
    let case = &v["conservation_single"][0];
    assert_eq!(case["section"], "n370");
    let got: Vec<u32> = (0..12u8)
        .map(|n| {
            throw_chances(
                &grand_jan_with(&[12, 12, 12 - n]),
                Side::White,
                JanContext::default(),
            )
            .conserve
        })
        .collect();
    assert_eq!(got, list(&case["book"]));
}

#[test]
fn false_hit_throws_n332_n393() {
    let v = vectors();
    let case = &v["false_hit_series"][0];
    // Both grand jans made; White's lone dame on his talon, then his flèches 1 to 5: Black
    // hits it à faux by 1, 3, 6, 10, 15, 21 throws.
    let got: Vec<u32> = (1..=6u8)
        .map(|k| {
            let mut b = grand_jan_with(&[12, 12]);
            b.set(k, Side::White, 1);
            let c = throw_chances(&b, Side::Black, JanContext::default());
            assert_eq!(c.hit, 0, "no dame can be hit à vrai");
            c.hit_false
        })
        .collect();
    assert_eq!(got, list(&case["book"]));
}

#[test]
fn hits_n129_to_n138() {
    let v = vectors();
    for case in v["hits"].as_array().unwrap() {
        let b = board(case["position"].as_str().unwrap());
        let who = if case["roller"] == "W" {
            Side::White
        } else {
            Side::Black
        };
        let roll = Roll::parse(case["roll"].as_str().unwrap()).unwrap();
        let o = roll_outcomes(&b, who, JanContext::default())
            .into_iter()
            .find(|o| o.roll == roll)
            .unwrap();
        let m = &case["model"];
        assert_eq!(
            o.hits,
            m["true_points"].as_u64().unwrap() > 0,
            "{} {}",
            case["section"],
            roll
        );
        assert_eq!(
            o.hits_false,
            m["false_points_to_opponent"].as_u64().unwrap() > 0,
            "{} {}",
            case["section"],
            roll
        );
        assert!(o.gains >= m["true_points"].as_u64().unwrap() as u32);
        assert!(o.given >= m["false_points_to_opponent"].as_u64().unwrap() as u32);
    }
}
