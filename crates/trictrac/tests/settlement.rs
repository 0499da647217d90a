//! The settlement of a partie à écrire (book n°227–237): postillons, the jetons des
//! marqués, fiches, the queue. Each test is named after its paragraph and uses its example.

use tablier_core::Side;
use tablier_trictrac::marker::{fiches, postillon_price, settle};

#[test]
fn n227_postillons_28_for_the_first_8_for_each_other() {
    assert_eq!(postillon_price(0), 0);
    assert_eq!(postillon_price(1), 28);
    assert_eq!(postillon_price(2), 36);
    assert_eq!(postillon_price(3), 44);
    // Ten marqués: the postillons are the marqués lost beyond five.
    let s = settle([&[1; 7], &[1; 3]], 10, 0, 0);
    assert_eq!(s.postillons, [2, 0]);
    // Four marqués: beyond two.
    let s = settle([&[1; 3], &[1; 1]], 4, 0, 0);
    assert_eq!(s.postillons, [1, 0]);
}

#[test]
fn n230_n233_tens_are_fiches_five_jetons_make_one() {
    assert_eq!(fiches(4), 0);
    assert_eq!(fiches(5), 1);
    assert_eq!(fiches(12), 1);
    assert_eq!(fiches(15), 2);
    assert_eq!(fiches(17), 2);
    assert_eq!(fiches(56), 6);
    assert_eq!(fiches(57), 6);
}

#[test]
fn n234_one_may_win_with_more_marques_lost() {
    // Ten marqués: one loses 3, 5, 6, 4, 7, 4, 3 (two postillons), the other 27, 15, 38.
    let s = settle([&[3, 5, 6, 4, 7, 4, 3], &[27, 15, 38]], 10, 0, 0);
    assert_eq!(s.owed, [68, 80]);
    assert_eq!(
        s.winner,
        Some(Side::White),
        "celui qui est postillonné gagne néanmoins"
    );
    assert_eq!(
        (s.jetons, s.fiches),
        (12, 1),
        "la perte est douze, une fiche"
    );
    // With the jetons des marqués (n°228): two fiches — "la queue des jetons augmente le
    // gain d'une fiche".
    for k in [1, 2] {
        let s = settle([&[3, 5, 6, 4, 7, 4, 3], &[27, 15, 38]], 10, k, 0);
        assert_eq!(
            (s.winner, s.fiches),
            (Some(Side::White), 2),
            "{k} jetons per marqué"
        );
    }
}

#[test]
fn n235_the_two_methods() {
    // Six marqués: one loses 19 and 69; the other 51, 14, 5, 7 and has a postillon.
    let s = settle([&[19, 69], &[51, 14, 5, 7]], 6, 0, 0);
    assert_eq!(s.owed, [88, 105]);
    assert_eq!(s.postillons, [0, 1]);
    assert_eq!((s.winner, s.jetons, s.fiches), (Some(Side::White), 17, 2));
    // One jeton per marqué: two to take off, 15, two fiches.
    let s = settle([&[19, 69], &[51, 14, 5, 7]], 6, 1, 0);
    assert_eq!((s.marque_jetons, s.jetons, s.fiches), (-2, 15, 2));
    // Two per marqué: four to take off, 13, one fiche — "la queue des jetons diminue d'une
    // fiche le gain".
    let s = settle([&[19, 69], &[51, 14, 5, 7]], 6, 2, 0);
    assert_eq!((s.marque_jetons, s.jetons, s.fiches), (-4, 13, 1));
}

#[test]
fn n236_n229_winning_instead_of_losing_and_the_queue() {
    let ours: &[i64] = &[19, 69, 15];
    let theirs: &[i64] = &[51, 14, 5, 7, 3];
    // Paper: 103 against 108 with the postillon; he loses five, one fiche; with a queue of
    // one fiche, two.
    let s = settle([ours, theirs], 8, 0, 1);
    assert_eq!(s.owed, [103, 108]);
    assert_eq!((s.winner, s.jetons, s.fiches), (Some(Side::White), 5, 2));
    // One jeton per marqué: he loses only two jetons, and the queue.
    let s = settle([ours, theirs], 8, 1, 1);
    assert_eq!((s.winner, s.jetons, s.fiches), (Some(Side::White), 2, 1));
    // Two per marqué: he wins a jeton, and therefore the queue.
    let s = settle([ours, theirs], 8, 2, 1);
    assert_eq!((s.winner, s.jetons, s.fiches), (Some(Side::Black), 1, 1));
    // The last marqué 14 instead of 15: two per marqué, neither gain nor loss; by paper he
    // loses six jetons: two fiches with the queue.
    let ours: &[i64] = &[19, 69, 14];
    let s = settle([ours, theirs], 8, 2, 1);
    assert_eq!((s.winner, s.jetons, s.fiches), (None, 0, 0));
    let s = settle([ours, theirs], 8, 0, 1);
    assert_eq!((s.winner, s.jetons, s.fiches), (Some(Side::White), 6, 2));
}

#[test]
fn n237_a_hole_makes_a_fiche() {
    // "On a pour marqués" are the marqués one lost (n°235: "on doit…").
    let ours: &[i64] = &[51, 14, 5, 7];
    // By paper: 77 against 134, 57, six fiches; the eighth marqué 12 instead of 13 still
    // six fiches.
    let s = settle([ours, &[19, 69, 33, 13]], 8, 0, 0);
    assert_eq!((s.winner, s.jetons, s.fiches), (Some(Side::White), 57, 6));
    let s = settle([ours, &[19, 69, 33, 12]], 8, 0, 0);
    assert_eq!((s.jetons, s.fiches), (56, 6));
    // With two jetons per marqué he loses seven fiches, or six if the last marqué is 12.
    let s = settle([ours, &[19, 69, 33, 13]], 8, 2, 0);
    assert_eq!((s.winner, s.fiches), (Some(Side::White), 7));
    let s = settle([ours, &[19, 69, 33, 12]], 8, 2, 0);
    assert_eq!(s.fiches, 6);
}
