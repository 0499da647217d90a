//! Worked examples of the book's section 1 on the jan de retour and bearing off (n°107–116),
//! which the vectors do not cover. Absolute flèches: the opponent's k-th flèche is 24 − k.

use std::collections::BTreeSet;
use tablier_core::Side;
use tablier_test_support::trictrac::points;
use tablier_trictrac::{Board, EventKind, RollScore};

/// White's `roll` on the board `pos`.
fn score(pos: &str, roll: &str) -> RollScore {
    tablier_test_support::trictrac::score(pos, Side::White, roll)
}

fn plays(s: &RollScore) -> BTreeSet<String> {
    s.plays.plays().iter().map(ToString::to_string).collect()
}

const RETOUR: &str = "19W2-20W2-21W2-22W2-23W2-24W2";

fn with(extra: &[(u8, u8)], black: &str) -> String {
    let mut b = Board::parse(&format!("{RETOUR}-{black}")).unwrap();
    for &(abs, n) in extra {
        let c = b.count(Side::White, abs);
        b.set(abs, Side::White, c + n);
    }
    b.to_string()
}

#[test]
fn n107_conserver_par_impuissance_four_cases() {
    let black_grand_jan = "13B5-14B2-15B2-16B2-17B2-18B2";
    // 1. A surplus on Black's 5th (abs 19), a case on White's 8th (abs 9), Black on his 9th:
    //    6-5 — the 6 cannot be played, the 5 only in the jan de retour.
    let pos = with(&[(19, 1), (9, 2)], black_grand_jan);
    let s = score(&pos, "6-5");
    assert_eq!(points(&s, EventKind::Conserver), 4);
    assert_eq!(points(&s, EventKind::NombreNonJoue), 2);
    assert_eq!(plays(&s), BTreeSet::from(["19-24".to_string()]));
    // 2. The case on the coin instead: 6-1 plays only the ace, Black anywhere.
    let pos = with(&[(19, 1), (12, 2)], "1B15");
    let s = score(&pos, "6-1");
    assert_eq!(points(&s, EventKind::Conserver), 4);
    assert_eq!(points(&s, EventKind::NombreNonJoue), 2);
    assert!(s.plays.plays().iter().all(|p| p.dice_used() == 1));
    // 3. Coin and the third surplus on Black's 4th (abs 20), a Black dame on his 9th: 6-3
    //    cannot take the coin's dames over; the 3 goes from abs 20 to abs 23.
    let pos = with(&[(20, 1), (12, 2)], "15B1-1B14");
    let s = score(&pos, "6-3");
    assert_eq!(points(&s, EventKind::Conserver), 4);
    assert_eq!(points(&s, EventKind::NombreNonJoue), 2);
    assert!(plays(&s).contains("20-23"));
    // 4. Black's cases on his 9th and 10th: neither 6-6 nor the 6 of 6-5 can be played.
    let pos = with(&[(19, 1), (9, 2)], "14B2-15B2-1B11");
    let s = score(&pos, "6-6");
    assert_eq!(points(&s, EventKind::Conserver), 6);
    assert_eq!(points(&s, EventKind::NombreNonJoue), 4);
    let s = score(&pos, "6-5");
    assert_eq!(plays(&s), BTreeSet::from(["19-24".to_string()]));
}

#[test]
fn n109_filling_then_bearing_off_by_the_privilege() {
    // Jan de retour less one on Black's 2nd (abs 22); surplus on abs 24, 23, 20, 18: 5-4 fills
    // with the 4 (18 → 22), then, all being home, the 5 bears off from abs 20.
    let pos = "18W1-19W2-20W3-21W2-22W1-23W3-24W3-1B15";
    let s = score(pos, "5-4");
    assert_eq!(points(&s, EventKind::Remplir), 4);
    assert!(plays(&s).contains("18-22,20-off"));
}

#[test]
fn n110_conserving_by_the_privilege_of_the_band() {
    // One surplus on Black's talon, two on his 5th: 6-6 and 6-1 conserve on the band.
    let pos = with(&[(24, 1), (19, 2)], "1B15");
    for roll in ["6-6", "6-1"] {
        let s = score(&pos, roll);
        assert_eq!(s.of(EventKind::Conserver).count(), 1, "{roll}");
    }
    assert!(plays(&score(&pos, "6-6")).contains("19-off,19-off"));
    // The last dame of Black's second table enters with the first 6, the second bears off.
    let pos = with(&[(23, 1), (19, 1), (18, 1)], "1B15");
    let s = score(&pos, "6-6");
    assert_eq!(points(&s, EventKind::Conserver), 6);
    assert!(plays(&s).contains("18-24,19-off"));
    // Less one on Black's 1st (abs 23): 6-5 fills with the 5 and bears off with the 6.
    let pos = "18W1-19W4-20W2-21W3-22W2-23W1-24W2-1B15";
    let s = score(pos, "6-5");
    assert_eq!(points(&s, EventKind::Remplir), 4);
    assert!(plays(&s).contains("18-23,19-off"));
}

#[test]
fn n113_filling_with_one_number() {
    // Jan de retour less one on abs 22, the coin held, surplus on abs 24 and 21: 6-1 fills
    // with the ace; the 6 cannot be played (2 for Black).
    let pos = "12W2-19W2-20W2-21W3-22W1-23W2-24W3-1B15";
    let s = score(pos, "6-1");
    assert_eq!(points(&s, EventKind::Remplir), 4);
    assert_eq!(points(&s, EventKind::NombreNonJoue), 2);
    assert_eq!(plays(&s), BTreeSet::from(["21-22".to_string()]));
}

#[test]
fn n115_the_last_dame_enters_then_the_other_number_bears_off() {
    let pos = "18W1-19W2-20W2-21W2-22W2-23W2-24W2-1B15";
    let s = score(pos, "6-1");
    let p = plays(&s);
    assert!(p.contains("18-19,19-off"));
    // Nothing bears off before the last dame is home.
    assert!(!p
        .iter()
        .any(|x| x.starts_with("19-off") || x.starts_with("24-off")));
}

#[test]
fn n116_excedant_numbers_bear_off_the_farthest_dame() {
    // 6-1 with dames on abs 22 (two) and 23: the 6 is excédant and bears off from abs 22.
    let s = score("22W2-23W1-1B15", "6-1");
    assert_eq!(
        plays(&s),
        BTreeSet::from(["22-off,22-23".to_string(), "22-off,23-24".to_string()])
    );
    // 3-2 with abs 22 and 24: the 3 is sortant from 22; the 2 may bear off from 24 only
    // once it is the farthest dame and cannot be played inside. Bearing off both is the
    // sortie (n°118), a right the player may take: 22-24 with the 2 and 24 off with the 3
    // (keeping one dame) is legal too, and only the sortie marks its 4 points, after the
    // play.
    let s = score("22W1-24W1-1B15", "3-2");
    assert_eq!(
        plays(&s),
        BTreeSet::from(["22-off,24-off".to_string(), "22-24,24-off".to_string()])
    );
    let sortie: BTreeSet<u32> = s
        .plays
        .legal
        .iter()
        .map(|c| s.sortie_points(&c.end))
        .collect();
    assert_eq!(sortie, BTreeSet::from([0, 4]));
    assert_eq!(points(&s, EventKind::Sortie), 0);
    assert_eq!(points(&s, EventKind::NombreNonJoue), 0);
    // A défaillant number is played inside: 2-1 with abs 20 and 21 bears nothing off.
    let s = score("20W1-21W1-1B15", "2-1");
    assert!(s
        .plays
        .legal
        .iter()
        .all(|c| c.end.on_board(Side::White) == 2));
}

#[test]
fn n81_filling_with_one_number_when_the_other_is_impossible() {
    // Fig. 13 with Black's grand jan made and a dame of White's 9th flèche on his 6th: every
    // 6 is blocked; 6-3, 6-2, 6-1 fill with the small number (4 points) and give Black 2.
    let pos = "7W3-8W3-9W3-10W1-11W3-12W2-13B4-14B3-15B2-16B2-17B2-18B2";
    for (roll, play) in [("6-3", "7-10"), ("6-2", "8-10"), ("6-1", "9-10")] {
        let s = score(pos, roll);
        assert_eq!(points(&s, EventKind::Remplir), 4, "{roll}");
        assert_eq!(points(&s, EventKind::NombreNonJoue), 2, "{roll}");
        assert_eq!(plays(&s), BTreeSet::from([play.to_string()]), "{roll}");
    }
}

#[test]
fn n82_remplir_en_passant_scores_nothing_and_does_not_oblige() {
    // Fig. 13 with a dame of the 9th flèche on the 10th: with 4-2 the 2 fills and the 4
    // breaks (RULES.md A1, n°398).
    let pos = "7W2-8W3-9W3-10W1-11W4-12W2-13B4-14B3-15B3-17B4-20B1";
    let s = score(pos, "4-2");
    assert_eq!(points(&s, EventKind::Remplir), 0);
    assert!(s.plays.fills.is_none());
    // Some legal play does fill on the way (8 → 10) before breaking.
    assert!(s.plays.legal.iter().any(|c| matches!(
        &c.play,
        tablier_trictrac::Play::Moves(m) if m.iter().any(|st| st.to == 10 && st.die == 2)
    )));
}

#[test]
fn n83_only_one_number_playable_the_larger() {
    // The 6 (10 → 16) and the 2 (10 → 12) can each be played, not both: the 6 is played and
    // Black marks 2 for the 2.
    let s = score("10W1-12W2-1B11-14B2-18B2", "6-2");
    assert_eq!(plays(&s), BTreeSet::from(["10-16".to_string()]));
    assert_eq!(points(&s, EventKind::NombreNonJoue), 2);
}
