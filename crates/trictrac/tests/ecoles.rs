//! Écoles (RULES.md §9, book n°164–201): one test per paragraph modelled, named after it,
//! with the book's example where it gives one.

use tablier_core::{Actor, Game, Side};
use tablier_test_support::trictrac::{act, play_any, refused, score};
use tablier_trictrac::marker::Marker;
use tablier_trictrac::{Action, Board, Marking, Phase, Trictrac};

/// A partie in the écoles mode from `pos`.
fn game(pos: &str, marker: Marker, roller: Side) -> Trictrac {
    tablier_test_support::trictrac::game(pos, marker, roller, Marking::Ecoles)
}

/// White's 2-1 on this board gains 12 (abs 6 hit three ways) and gives 4 (abs 20 à faux).
const ECOLE_POS: &str = "1W8-3W1-4W2-5W2-17W2-6B1-18B2-19B2-20B1-24B9";
/// White's 6-2 hits Black's lone dame on abs 4 one way: 4 points, nothing given.
const FOUR_POS: &str = "1W14-2W1-4B1-24B14";
/// White's 2-1 hits abs 10 à vrai (2 for him) and abs 17 à faux (2 for Black) (n°207).
const TWO_TWO_POS: &str = "1W13-9W1-14W1-10B1-15B2-16B2-17B1-24B9";
/// White's 3-2 hits Black's lone dames on abs 4 and 5 à vrai, one way each: 8 points.
const TWO_HITS_POS: &str = "2W1-7W5-8W5-9W4-4B1-5B1-24B13";
/// Fig. 19 (n°193): White's 6-6 must break his grand jan and gives 6 à faux.
const FIG19: &str = "6W1-7W3-8W2-9W2-10W2-11W3-12W2-13B2-14B2-16B2-17B3-18B3-19B2-20B1";

#[test]
fn positions_score_as_the_tests_assume() {
    let s = score(ECOLE_POS, Side::White, "2-1");
    assert_eq!((s.gains(), s.given()), (12, 4));
    let s = score(FOUR_POS, Side::White, "6-2");
    assert_eq!((s.gains(), s.given()), (4, 0));
    let s = score(TWO_TWO_POS, Side::White, "2-1");
    assert_eq!((s.gains(), s.given()), (2, 2));
    let s = score(TWO_HITS_POS, Side::White, "3-2");
    assert_eq!((s.gains(), s.given()), (8, 0), "{:?}", s.events);
    let s = score(FIG19, Side::White, "6-6");
    assert_eq!((s.gains(), s.given()), (0, 6));
}

#[test]
fn n167_an_over_marking_not_claimed_before_the_claimant_throws_is_kept() {
    let mut g = game(ECOLE_POS, Marker::new(), Side::White);
    act(&mut g, "2-1");
    act(&mut g, "mark 14");
    assert_eq!(
        (
            g.marker().holes(Side::White),
            g.marker().points(Side::White)
        ),
        (2, 2)
    );
    act(&mut g, "stay");
    play_any(&mut g);
    // Black marks his 4 without claiming: "le premier joueur garde les points et les trous
    // qu'il a marqués de trop".
    act(&mut g, "mark 4");
    assert_eq!(g.actor(), Actor::Chance);
    assert_eq!(g.marker().holes(Side::White), 2);
    assert_eq!(g.marker().points, [2, 4]);
    assert!(g.ecoles().is_empty());
}

#[test]
fn n167_an_under_marking_may_be_completed_until_a_dame_is_touched() {
    // White wins 12 and marks only 8: before touching a dame he may still advance his jeton.
    let mut g = game(ECOLE_POS, Marker::new(), Side::White);
    act(&mut g, "2-1");
    act(&mut g, "mark 8");
    assert_eq!(g.phase(), Phase::Play);
    assert!(g.legal_actions().contains(&Action::Mark(4)));
    assert!(!g.legal_actions().contains(&Action::Mark(6)));
    act(&mut g, "mark 4");
    // The 12 are complete: a double hole, and the choice to go or stay.
    assert_eq!(g.marker().holes(Side::White), 2);
    assert_eq!(g.phase(), Phase::Decide);
    assert!(g.ecoles().is_empty());
    // Once he has played, it is too late: the école is made.
    let mut g = game(ECOLE_POS, Marker::new(), Side::White);
    act(&mut g, "2-1");
    act(&mut g, "mark 8");
    play_any(&mut g);
    assert_eq!(g.actor(), Actor::Player(Side::Black));
    assert!(g.ecoles()[0].open);
}

#[test]
fn n170_n193_going_without_the_right_the_opponent_makes_him_stay() {
    // Fig. 19: White has 6 points; believing his 6-6 conserves, he marks 6 for it, a double
    // hole, and goes. But he must break, and gives 6 à faux.
    let mut g = game(
        FIG19,
        Marker::with_points((6, true), (0, false)),
        Side::White,
    );
    act(&mut g, "6-6");
    act(&mut g, "mark 6");
    assert_eq!(g.marker().holes(Side::White), 2);
    act(&mut g, "go");
    // The opponent decides: let him go (n°180), or make him stay.
    assert_eq!(g.phase(), Phase::ContestGo);
    assert_eq!(g.actor(), Actor::Player(Side::Black));
    assert!(g.legal_actions().contains(&Action::Decline));
    assert!(g.legal_actions().contains(&Action::Erase));
    // "L'adversaire fait démarquer les deux trous, envoie à l'école de six points…"
    act(&mut g, "claim");
    assert_eq!(g.marker().holes, [0, 0]);
    assert_eq!(g.marker().points, [6, 6]);
    // … and has the roll played to White's disadvantage: Black chooses White's play.
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.actor(), Actor::Player(Side::Black));
    act(&mut g, "9-15-21");
    // "Gagnant six points comme battu à faux et six points pour l'école, marque un trou
    // double."
    act(&mut g, "mark 6");
    assert_eq!(g.marker().holes, [0, 2]);
    assert_eq!(g.marker().points, [0, 0]);
}

#[test]
fn n173_marking_three_holes_for_one_and_going_he_is_made_to_stay() {
    // White has 10 and his roll gives 12; he marks 14, three holes, and goes. Black makes
    // him stay: back to one hole and 10 points, and Black marks the école of 2.
    let mut g = game(
        ECOLE_POS,
        Marker::with_points((10, false), (0, false)),
        Side::White,
    );
    act(&mut g, "2-1");
    act(&mut g, "mark 14");
    assert_eq!(g.marker().holes(Side::White), 3);
    act(&mut g, "go");
    act(&mut g, "claim");
    assert_eq!(g.marker().holes, [1, 0]);
    assert_eq!(g.marker().points, [10, 2]);
    assert_eq!(
        (g.phase(), g.actor()),
        (Phase::Play, Actor::Player(Side::Black))
    );
}

#[test]
fn n173_under_marking_the_holes_then_going_only_loses_them() {
    // Three holes due (10 + 26 would be): with 10 and a gain of 12, one hole is due; White
    // marks only the 2 that make it and goes: no contest, the rest is simply lost.
    let mut g = game(
        ECOLE_POS,
        Marker::with_points((10, false), (0, false)),
        Side::White,
    );
    act(&mut g, "2-1");
    act(&mut g, "mark 2");
    act(&mut g, "go");
    assert_eq!(g.phase(), Phase::Roll);
    assert_eq!(g.marker().holes, [1, 0]);
    assert_eq!(*g.board(), Board::start());
}

#[test]
fn n176_je_ne_marque_pas_counts_as_marking_and_takes_the_bredouille() {
    // Black has 10 points uninterrupted. White's 2-1 wins 2 and gives 2: Black's hole.
    // White warns that he does not mark: Black's hole is simple.
    let mut g = game(
        TWO_TWO_POS,
        Marker::with_points((0, false), (10, true)),
        Side::White,
    );
    act(&mut g, "2-1");
    act(&mut g, "warn 2");
    assert_eq!(g.marker().points, [0, 10]);
    play_any(&mut g);
    act(&mut g, "mark 2");
    assert_eq!(g.marker().holes, [0, 1]);
    // Had White simply omitted his 2, Black's hole would be double (and the omission an
    // école).
    let mut g = game(
        TWO_TWO_POS,
        Marker::with_points((0, false), (10, true)),
        Side::White,
    );
    act(&mut g, "2-1");
    act(&mut g, "mark 0");
    play_any(&mut g);
    act(&mut g, "mark 2");
    assert_eq!(g.marker().holes, [0, 2]);
}

#[test]
fn n176_a_warning_that_gives_no_hole_loses_the_points_and_leaves_the_bredouille() {
    let mut g = game(
        TWO_TWO_POS,
        Marker::with_points((0, false), (4, true)),
        Side::White,
    );
    act(&mut g, "2-1");
    act(&mut g, "warn 2");
    play_any(&mut g);
    act(&mut g, "mark 2");
    assert_eq!(g.marker().points, [0, 6]);
    assert_eq!(g.marker().bredouille, [false, true]);
    assert!(g.ecoles().is_empty(), "no école: he warned of what he won");
}

#[test]
fn n176_the_warner_who_wins_the_hole_himself_is_put_a_l_ecole() {
    // The book's case: White has 4 points, Black 8; White's 3-2 hits two dames à vrai (8
    // points, White's hole), but White believes one is hit à faux and warns that he does not
    // mark (standing for the 4 he believes he wins). Black marks 4 points of école, which give
    // him the hole — simple, because of the warning.
    let mut g = game(
        TWO_HITS_POS,
        Marker::with_points((4, false), (8, true)),
        Side::White,
    );
    act(&mut g, "3-2");
    act(&mut g, "warn 4");
    play_any(&mut g);
    assert_eq!(g.ecoles()[0].points, 4);
    act(&mut g, "claim");
    assert_eq!(g.marker().holes, [0, 1]);
    assert_eq!(g.marker().points, [0, 0]);
}

#[test]
fn n177_the_wrongly_warned_player_who_marks_the_hole_only_has_it_erased() {
    // White warns (wrongly: Black has 4 and receives 2); Black marks a hole anyway (12). After
    // Black's throw White may erase it, not claim it: "on ne peut profiter d'une erreur qu'on
    // a occasionnée".
    let mut g = game(
        TWO_TWO_POS,
        Marker::with_points((0, false), (4, true)),
        Side::White,
    );
    act(&mut g, "2-1");
    act(&mut g, "warn 2");
    play_any(&mut g);
    act(&mut g, "mark 8");
    // (Simple: a marking that makes a hole counts the warning as White's marking.)
    assert_eq!(g.marker().holes(Side::Black), 1);
    act(&mut g, "6-5");
    assert_eq!(g.phase(), Phase::ClaimWindow);
    assert_eq!(g.legal_actions(), vec![Action::Erase, Action::Decline]);
    let reason = refused(&mut g, Action::Claim);
    assert!(reason.contains("no école to claim"), "{reason}");
    act(&mut g, "erase");
    assert_eq!(g.marker().holes(Side::Black), 0);
    assert_eq!(g.marker().points, [0, 6]);
    // "Si l'adversaire a la bredouille des jetons, il la conserve malgré l'avertissement."
    assert_eq!(g.marker().bredouille, [false, true]);
    assert_eq!(g.phase(), Phase::MarkGains);
}

#[test]
fn n179_n184_forgetting_a_hole_won_without_moving_the_jeton() {
    // White has no points and wins exactly 12 ("trou sans bouger"); he marks nothing. Black
    // takes the école of that hole: 12 points, a double hole for him.
    let mut g = game(ECOLE_POS, Marker::new(), Side::White);
    act(&mut g, "2-1");
    act(&mut g, "mark 0");
    play_any(&mut g);
    assert_eq!(g.ecoles()[0].points, 12);
    act(&mut g, "claim");
    assert_eq!(g.marker().holes, [0, 2]);
}

#[test]
fn n180_going_on_a_wrong_hole_the_opponent_lets_stand() {
    // Fig. 19 again: Black, sharing the error, lets White go; the holes are acquired.
    let mut g = game(
        FIG19,
        Marker::with_points((6, true), (0, false)),
        Side::White,
    );
    act(&mut g, "6-6");
    act(&mut g, "mark 6");
    act(&mut g, "go");
    act(&mut g, "decline");
    assert_eq!(g.marker().holes, [2, 0]);
    assert_eq!(g.marker().points, [0, 0]);
    assert_eq!(*g.board(), Board::start());
    assert_eq!((g.phase(), g.roller()), (Phase::Roll, Side::White));
}

#[test]
fn n183_fausse_ecole_the_claimed_points_go_to_the_other() {
    // 1°: White has cases in his second table, both coins empty; his 5-4 wins nothing and he
    // marks nothing. Black, believing White beats his coin, puts him à l'école of 4: White
    // erases those points and marks them for himself.
    let pos = "1W9-7W2-8W2-9W2-24B15";
    let s = score(pos, Side::White, "5-4");
    assert_eq!((s.gains(), s.given()), (0, 0));
    let mut g = game(pos, Marker::new(), Side::White);
    act(&mut g, "5-4");
    act(&mut g, "mark 0");
    play_any(&mut g);
    // No école: "claim" is not offered; a claim of 4 on Black's own judgement is.
    assert!(!g.legal_actions().contains(&Action::Claim));
    act(&mut g, "ecole 4");
    assert_eq!(g.marker().points, [0, 4]);
    act(&mut g, "mark 0");
    // White's answer, before Black throws.
    assert_eq!(
        (g.phase(), g.actor()),
        (Phase::AfterGiven, Actor::Player(Side::White))
    );
    act(&mut g, "claim");
    assert_eq!(g.marker().points, [4, 0]);
    act(&mut g, "decline");
    assert_eq!((g.actor(), g.roller()), (Actor::Chance, Side::Black));

    // 2°: Black has 4, White 10; White's roll gives him 4: he marks the hole and 2 de reste.
    // Black, not seeing the 4, claims an école of 4. White shows the error: he keeps his
    // hole with 2 points, and adds 4.
    let mut g = game(
        FOUR_POS,
        Marker::with_points((10, false), (4, false)),
        Side::White,
    );
    act(&mut g, "6-2");
    act(&mut g, "mark 4");
    assert_eq!(g.marker().holes(Side::White), 1);
    act(&mut g, "stay");
    play_any(&mut g);
    act(&mut g, "ecole 4");
    act(&mut g, "mark 0");
    act(&mut g, "claim");
    assert_eq!(g.marker().holes, [1, 0]);
    assert_eq!(g.marker().points, [6, 0]);
}

#[test]
fn n185_obliging_the_opponent_to_mark_a_hole_before_he_throws() {
    // White has 8 and a bad game; Black's 2-1 hits White's lone dame à faux, giving him 4:
    // White omits them to keep the chance of going with a hole of his own. Black obliges him
    // to mark them before he throws: White has his hole, from Black's dice, and cannot go.
    let pos = "1W10-3W1-4W2-5W2-6B1-24B14";
    let s = score(pos, Side::Black, "2-1");
    assert_eq!(s.given(), 4);
    let mut g = game(
        pos,
        Marker::with_points((8, false), (0, false)),
        Side::Black,
    );
    act(&mut g, "2-1");
    act(&mut g, &format!("mark {}", s.gains()));
    play_any(&mut g);
    act(&mut g, "mark 0");
    assert_eq!(
        (g.phase(), g.actor()),
        (Phase::AfterGiven, Actor::Player(Side::Black))
    );
    assert!(g.legal_actions().contains(&Action::Oblige));
    act(&mut g, "oblige");
    assert_eq!(g.marker().holes(Side::White), 1);
    act(&mut g, "decline");
    act(&mut g, "6-5");
    assert_ne!(g.phase(), Phase::Decide);
    // After White's throw it is too late to oblige him; the école itself may be claimed.
    let mut g = game(
        pos,
        Marker::with_points((8, false), (0, false)),
        Side::Black,
    );
    act(&mut g, "2-1");
    act(&mut g, &format!("mark {}", s.gains()));
    play_any(&mut g);
    act(&mut g, "mark 0");
    act(&mut g, "decline");
    act(&mut g, "6-5");
    assert_eq!(g.phase(), Phase::ClaimWindow);
    let reason = refused(&mut g, Action::Oblige);
    assert!(reason.contains("n°185"), "{reason}");
    act(&mut g, "claim");
    assert_eq!(g.marker().points(Side::Black), 4);
}

#[test]
fn n186_obliging_the_roller_to_mark_the_points_he_omitted() {
    // White wins 12 and marks 8; after his play Black, rather than taking the 4, obliges him
    // to mark them (a hole from which he cannot go: the roll is played).
    let mut g = game(ECOLE_POS, Marker::new(), Side::White);
    act(&mut g, "2-1");
    act(&mut g, "mark 8");
    play_any(&mut g);
    act(&mut g, "oblige");
    assert_eq!(g.marker().holes, [2, 0]);
    assert_eq!(g.phase(), Phase::MarkGiven);
    assert!(g.ecoles().is_empty());
}

#[test]
fn n187_an_over_marking_may_be_erased_without_taking_it() {
    let mut g = game(ECOLE_POS, Marker::new(), Side::White);
    act(&mut g, "2-1");
    act(&mut g, "mark 16");
    assert_eq!(g.marker().points(Side::White), 4);
    act(&mut g, "stay");
    play_any(&mut g);
    act(&mut g, "erase");
    assert_eq!(g.marker().holes, [2, 0]);
    assert_eq!(g.marker().points, [0, 0]);
    // A claim of less than the école takes it whole (n°187).
    let mut g = game(ECOLE_POS, Marker::new(), Side::White);
    act(&mut g, "2-1");
    act(&mut g, "mark 6");
    play_any(&mut g);
    act(&mut g, "ecole 2");
    assert_eq!(g.marker().points(Side::Black), 6);
}

#[test]
fn n188_n189_the_rollers_ecole_is_claimed_after_his_play() {
    // Before White has played, Black has no action: nothing can be claimed.
    let mut g = game(ECOLE_POS, Marker::new(), Side::White);
    act(&mut g, "2-1");
    act(&mut g, "mark 14");
    act(&mut g, "stay");
    assert_eq!(g.actor(), Actor::Player(Side::White));
    let reason = refused(&mut g, Action::Claim);
    assert!(reason.contains("no école to claim"), "{reason}");
    let reason = refused(&mut g, Action::Mark(3));
    assert!(reason.contains("twos"), "{reason}");
    play_any(&mut g);
    assert!(g.legal_actions().contains(&Action::Claim));
}

#[test]
fn n194_augmentation_d_ecole() {
    // White wins 12 and marks 8; Black rightly takes the école of 4. White, believing Black
    // wrong, takes it back for himself (4 points he has not): Black, explaining the error,
    // adds those 4 to the first école.
    let mut g = game(ECOLE_POS, Marker::new(), Side::White);
    act(&mut g, "2-1");
    act(&mut g, "mark 8");
    play_any(&mut g);
    act(&mut g, "claim");
    act(&mut g, "mark 4");
    assert_eq!(g.marker().points, [8, 8]);
    // White's window before Black throws: he contests the claim.
    assert_eq!(g.phase(), Phase::AfterGiven);
    act(&mut g, "ecole 4");
    assert_eq!(g.marker().holes(Side::White), 1);
    act(&mut g, "decline");
    // Black throws, and before marking his own points takes the augmentation.
    act(&mut g, "6-5");
    assert_eq!(
        (g.phase(), g.actor()),
        (Phase::MarkGains, Actor::Player(Side::Black))
    );
    act(&mut g, "claim");
    // Black's 4 + 4 + 4 were never interrupted (White's false 4 are erased): a double hole.
    assert_eq!(g.marker().holes, [0, 2]);
    assert_eq!(g.marker().points, [0, 0]);
}

#[test]
fn n197_ecole_impossible_when_no_dame_can_be_touched() {
    // Fig. 20: White's 6-6 gains 12 (conserve 6, hit 6) but cannot be played. He marks only
    // 6: as he touches no dame, the école is never made; Black can only mark his 16.
    let fig20 = "7W2-8W2-9W3-10W3-11W3-12W2-13B2-14B2-15B2-16B2-17B2-19B1-20B1-21B2-24B1";
    let mut g = game(fig20, Marker::new(), Side::White);
    act(&mut g, "6-6");
    act(&mut g, "mark 6");
    act(&mut g, "pass");
    assert!(!g.legal_actions().contains(&Action::Claim));
    assert!(!g.legal_actions().contains(&Action::Oblige));
    act(&mut g, "mark 16");
    assert_eq!(g.marker().holes(Side::Black), 2);
    // The école was never made: White may let it be…
    assert_eq!(
        (g.phase(), g.actor()),
        (Phase::AfterGiven, Actor::Player(Side::White))
    );
    let mut let_be = g.clone();
    act(&mut let_be, "decline");
    assert!(let_be.ecoles().is_empty());
    assert_eq!(let_be.marker().holes, [0, 2]);
    // … or, recognising the error before throwing again, "faire effacer les deux trous de
    // l'adversaire, d'en marquer deux, et de s'en aller comme sa position l'exige".
    act(&mut g, "mark 6");
    assert_eq!(g.marker().holes(Side::White), 2);
    assert_eq!(g.phase(), Phase::Decide);
    act(&mut g, "go");
    assert_eq!(g.marker().holes, [2, 0]);
    assert_eq!(g.marker().points, [0, 0]);
    assert_eq!(*g.board(), Board::start());
    assert_eq!((g.phase(), g.roller()), (Phase::Roll, Side::White));
}

#[test]
fn n200_an_ecole_claimed_after_the_throw_comes_before_the_new_points() {
    // Covered with the book's example in paragraphs.rs; here the timing: the claim window
    // opens at the faulty player's throw, before he marks.
    let pos = "1W10-3W1-4W2-5W2-6B1-24B14";
    let mut g = game(
        pos,
        Marker::with_points((8, false), (0, false)),
        Side::Black,
    );
    act(&mut g, "2-1");
    let gains = g.roll_score().unwrap().gains();
    act(&mut g, &format!("mark {gains}"));
    play_any(&mut g);
    act(&mut g, "mark 0");
    act(&mut g, "decline");
    act(&mut g, "6-5");
    assert_eq!(
        (g.phase(), g.actor()),
        (Phase::ClaimWindow, Actor::Player(Side::Black))
    );
    act(&mut g, "decline");
    assert_eq!(g.phase(), Phase::MarkGains);
    assert!(g.ecoles().is_empty(), "no école d'école, n°182");
}
