//! The rest of seed 001 (book section II, chapters VII–XI, n°140–216), paragraph by
//! paragraph: every paragraph that states a scoring or marking rule has a test named after
//! it, here or in `paragraphs.rs` / `ecoles.rs`. Paragraphs whose rule the crate documents
//! as not modelled (slips of jetons and fichets, words, dames missing or too many: the
//! program places the jetons and fichets from the points marked and only ever plays legal
//! plays) get a test that shows the situation cannot arise or is handled.
//!
//! | n° | covered by |
//! |----|------------|
//! | 140 | `paragraphs.rs::n140_points_are_even_and_twelve_make_a_hole` |
//! | 141 | `n141_the_jeton_marks_two_to_ten_and_advances_by_twos` |
//! | 142 | `n142_the_fichet_marks_holes_won_and_holes_given` |
//! | 143 | `paragraphs.rs::n143_double_hole_uninterrupted_simple_interrupted` |
//! | 144 | `paragraphs.rs::n144_second_scorer_also_en_bredouille` |
//! | 145 | `n145_the_second_jeton_cannot_be_forgotten` (not modelled: the program places the jetons) |
//! | 146 | `paragraphs.rs::n146_only_the_twelve_that_make_the_hole_count` |
//! | 147 | `paragraphs.rs::n147_rentrer_en_bredouille` |
//! | 148 | `paragraphs.rs::n148_n209_hole_erases_opponents_points_reste_kept` |
//! | 149 | `paragraphs.rs::n149_n158_gains_marked_before_playing_given_after` |
//! | 150 | `paragraphs.rs::n150_n176_je_ne_marque_pas` |
//! | 151 | no scoring/marking rule: announces the conventions of n°152–153 |
//! | 152 | `paragraphs.rs::n152_values_of_points_won` |
//! | 153 | `paragraphs.rs::n153_values_of_points_given` |
//! | 154 | `paragraphs.rs::n154_summary_faux_in_a_first_table_is_four` |
//! | 155 | `paragraphs.rs::n155_n157_going_away_relevé_and_nothing_for_the_opponent` |
//! | 156 | `paragraphs.rs::n156_n185_no_going_on_points_given_by_the_opponent` |
//! | 157 | `paragraphs.rs::n155_n157_going_away_relevé_and_nothing_for_the_opponent` |
//! | 158 | `paragraphs.rs::n149_n158_gains_marked_before_playing_given_after` |
//! | 159 | `n159_going_saves_the_holes_given_a_faux_staying_gives_them` (advice; its facts tested) |
//! | 160 | no scoring/marking rule: advice (a rash *tenue* can lose holes) |
//! | 161 | `n161_holes_marked_and_points_erased_first_the_reste_follows_the_decision` |
//! | 162 | `paragraphs.rs::n162_the_partie_ends_at_twelve_holes` |
//! | 163 | `paragraphs.rs::n163_going_or_staying_at_the_sortie` |
//! | 164 | `paragraphs.rs::n164_n165_n166_ecoles_par_moins_and_par_trop` |
//! | 165 | `paragraphs.rs::n164_n165_n166_ecoles_par_moins_and_par_trop` |
//! | 166 | `paragraphs.rs::n164_n165_n166_ecoles_par_moins_and_par_trop` |
//! | 167 | `ecoles.rs::n167_an_over_marking_not_claimed_before_the_claimant_throws_is_kept`, `ecoles.rs::n167_an_under_marking_may_be_completed_until_a_dame_is_touched` |
//! | 168 | no scoring/marking rule: advice (avoid écoles, watch the opponent's, look for the five jans) |
//! | 169 | `paragraphs.rs::n169_no_ecole_when_one_goes` |
//! | 170 | `ecoles.rs::n170_n193_going_without_the_right_the_opponent_makes_him_stay` |
//! | 171 | `n171_the_roller_marks_before_playing_the_other_before_throwing` |
//! | 172 | `n172_only_the_marks_count_the_marker_shows_what_is_marked` (words not modelled) |
//! | 173 | `ecoles.rs::n173_marking_three_holes_for_one_and_going_he_is_made_to_stay`, `ecoles.rs::n173_under_marking_the_holes_then_going_only_loses_them`, `paragraphs.rs::n173_too_many_points_marked_are_corrected_and_claimable` |
//! | 174 | `n174_no_action_takes_back_ones_own_holes` (not modelled) |
//! | 175 | `n175_the_sortie_keeps_both_players_points` (not modelled: points are never démarqués) |
//! | 176 | `ecoles.rs::n176_*` (three tests), `paragraphs.rs::n150_n176_je_ne_marque_pas` |
//! | 177 | `ecoles.rs::n177_the_wrongly_warned_player_who_marks_the_hole_only_has_it_erased` |
//! | 178 | `n178_the_fichet_moves_only_from_the_points_marked` (not modelled) |
//! | 179 | `ecoles.rs::n179_n184_forgetting_a_hole_won_without_moving_the_jeton` |
//! | 180 | `ecoles.rs::n180_going_on_a_wrong_hole_the_opponent_lets_stand` |
//! | 181 | `n181_points_cannot_be_erased_where_there_is_no_over_marking` (not modelled) |
//! | 182 | `paragraphs.rs::n167_n182_an_ecole_not_claimed_in_time_is_lost_without_penalty` |
//! | 183 | `ecoles.rs::n183_fausse_ecole_the_claimed_points_go_to_the_other` |
//! | 184 | `paragraphs.rs::n184_a_hole_too_many_is_an_ecole_of_twelve`, `ecoles.rs::n179_n184_forgetting_a_hole_won_without_moving_the_jeton` |
//! | 185 | `ecoles.rs::n185_obliging_the_opponent_to_mark_a_hole_before_he_throws` |
//! | 186 | `ecoles.rs::n186_obliging_the_roller_to_mark_the_points_he_omitted` |
//! | 187 | `paragraphs.rs::n187_an_ecole_is_marked_whole`, `ecoles.rs::n187_an_over_marking_may_be_erased_without_taking_it` |
//! | 188 | `ecoles.rs::n188_n189_the_rollers_ecole_is_claimed_after_his_play` |
//! | 189 | `ecoles.rs::n188_n189_the_rollers_ecole_is_claimed_after_his_play` |
//! | 190 | `n190_the_hole_is_marked_from_the_bredouille_before_the_jetons_move` (not modelled) |
//! | 191 | `n191_a_double_hole_is_marked_double_by_the_points` (not modelled) |
//! | 192 | `paragraphs.rs::n192_must_fill_when_possible` |
//! | 193 | `paragraphs.rs::n193_grand_jan_forced_to_break`, `ecoles.rs::n170_n193_going_without_the_right_the_opponent_makes_him_stay` |
//! | 194 | `ecoles.rs::n194_augmentation_d_ecole` |
//! | 195 | `n195_new_points_are_added_to_the_points_already_marked` (not modelled) |
//! | 196 | `paragraphs.rs::n196_conserving_by_the_privilege_of_the_band_is_obligatory` |
//! | 197 | `paragraphs.rs::n197_conserver_par_impuissance`, `ecoles.rs::n197_ecole_impossible_when_no_dame_can_be_touched` |
//! | 198 | no scoring/marking rule: go back to the principles when a case is not foreseen |
//! | 199 | `paragraphs.rs::n199_the_coin_taken_directly_when_possible` |
//! | 200 | `paragraphs.rs::n200_ecole_points_are_acquired_before_the_next_rolls_points`, `ecoles.rs::n200_an_ecole_claimed_after_the_throw_comes_before_the_new_points` |
//! | 201 | no scoring/marking rule: a dame played well stands when a second is played wrongly (our plays are legal) |
//! | 202 | no scoring/marking rule: exhortation to observe the rules strictly |
//! | 203 | no scoring/marking rule: a die cocked, on the band or out of the board makes the throw void |
//! | 204 | no scoring/marking rule: a tilted die and its test |
//! | 205 | no scoring/marking rule: a spinning die |
//! | 206 | no scoring/marking rule: pick up the dice only after the play, throw only after the opponent's play |
//! | 207 | `paragraphs.rs::n207_n208_points_won_before_points_given` |
//! | 208 | `paragraphs.rs::n207_n208_points_won_before_points_given` |
//! | 209 | `paragraphs.rs::n148_n209_hole_erases_opponents_points_reste_kept` |
//! | 210 | no scoring/marking rule: a dame put on another must be played (dame touchée, dame jouée) |
//! | 211 | no scoring/marking rule: a dame put down on a wrong flèche is at the opponent's discretion |
//! | 212 | no scoring/marking rule: a dame let go after one number cannot play the other instead |
//! | 213 | `paragraphs.rs::n213_no_dame_in_a_table_the_opponent_can_still_fill` |
//! | 214 | `n214_no_dame_goes_missing_in_a_game` (not modelled: fourteen dames, with its going and à faux consequences) |
//! | 215 | `n215_a_sixteenth_dame_is_refused` (not modelled: the partie annulled) |
//! | 216 | `n216_the_number_that_passes_to_the_retour_must_be_played` (fausse case: only its marking rule, two points for a number not played) |

use tablier_core::{Actor, Game, SeededDice, Side};
use tablier_test_support::trictrac::{act, bear_off, game, play_any, refused, score};
use tablier_trictrac::marker::Marker;
use tablier_trictrac::{Action, Board, EventKind, Marking, Options, Phase, Roll, Trictrac};

/// Fig. 18 (n°138): Black's 6-6 wins 14 à vrai and gives White 18 à faux and 4 for the two
/// sixes he cannot play.
const FIG18: &str = "2W1-3W1-4W1-5W1-6W1-7W1-8W1-9W2-10W2-11W2-12W2-13B2-14B2-16B2-17B2-18B1";
/// White's 2-1 on this board gains 12 (abs 6 hit three ways) and gives 4 (abs 20 à faux).
const ECOLE_POS: &str = "1W8-3W1-4W2-5W2-17W2-6B1-18B2-19B2-20B1-24B9";
/// White's 6-2 hits Black's lone dame on abs 4 one way: 4 points, nothing given.
const FOUR_POS: &str = "1W14-2W1-4B1-24B14";
/// White's 2-1 hits abs 10 à vrai (2 for him) and abs 17 à faux (2 for Black).
const TWO_TWO_POS: &str = "1W13-9W1-14W1-10B1-15B2-16B2-17B1-24B9";
/// Black's 2-1 hits White's lone dame on abs 3 à faux: 4 for White, nothing for Black.
const FAUX_POS: &str = "1W10-3W1-4W2-5W2-6B1-24B14";

#[test]
fn positions_score_as_the_tests_assume() {
    let s = score(FIG18, Side::Black, "6-6");
    assert_eq!((s.gains(), s.given()), (14, 22));
    let s = score(ECOLE_POS, Side::White, "2-1");
    assert_eq!((s.gains(), s.given()), (12, 4));
    let s = score(FOUR_POS, Side::White, "6-2");
    assert_eq!((s.gains(), s.given()), (4, 0));
    let s = score(TWO_TWO_POS, Side::White, "2-1");
    assert_eq!((s.gains(), s.given()), (2, 2));
    let s = score(FAUX_POS, Side::Black, "2-1");
    assert_eq!((s.gains(), s.given()), (0, 4));
}

#[test]
fn n141_the_jeton_marks_two_to_ten_and_advances_by_twos() {
    // "Il suffit d'en savoir marquer 2, 4, 6, 8, 10": the jeton advances as points come, and
    // at twelve the hole is taken, the jeton showing only the reste.
    let mut m = Marker::new();
    let mut shown = Vec::new();
    for k in [2, 4, 2, 2, 4, 6, 2] {
        m.mark(Side::White, k);
        shown.push(m.points(Side::White));
    }
    assert_eq!(shown, [2, 6, 8, 10, 2, 8, 10]);
    // (Twelve uninterrupted: the hole is double, n°143.)
    assert_eq!(m.holes(Side::White), 2);
    // A place between the marks does not exist: odd points cannot be marked.
    let mut g = game(FOUR_POS, Marker::new(), Side::White, Marking::Ecoles);
    act(&mut g, "6-2");
    let reason = refused(&mut g, Action::Mark(3));
    assert!(reason.contains("by twos"), "{reason}");
    act(&mut g, "mark 4");
    assert_eq!(g.marker().points, [4, 0]);
}

#[test]
fn n142_the_fichet_marks_holes_won_and_holes_given() {
    // A hole given: White has 3 holes and 10 points; Black's 2-1 hits him à faux for 4.
    let mut m = Marker::with_points((10, false), (0, false));
    m.holes = [3, 5];
    let mut g = game(FAUX_POS, m, Side::Black, Marking::Automatic);
    act(&mut g, "2-1");
    play_any(&mut g);
    assert_eq!(g.marker().holes, [4, 5]);
    assert_eq!(g.marker().points, [2, 0]);
    // A hole won: White has 4 holes and 8 points; his 6-2 wins 4.
    let mut m = Marker::with_points((8, false), (0, false));
    m.holes = [4, 5];
    let mut g = game(FOUR_POS, m, Side::White, Marking::Automatic);
    act(&mut g, "6-2");
    assert_eq!(g.marker().holes, [5, 5]);
    assert_eq!(g.marker().points, [0, 0]);
}

#[test]
fn n145_the_second_jeton_cannot_be_forgotten() {
    // Écoles mode: each player marks only his points; the bredouille (the second jeton) is
    // the program's. White's 2-1 wins 2 and gives Black 2: Black, the second to score, is in
    // bredouille without anything to do, and White is débredouillé.
    let mut g = game(TWO_TWO_POS, Marker::new(), Side::White, Marking::Ecoles);
    act(&mut g, "2-1");
    act(&mut g, "mark 2");
    play_any(&mut g);
    assert_eq!(g.phase(), Phase::MarkGiven);
    act(&mut g, "mark 2");
    assert_eq!(g.marker().points, [2, 2]);
    assert_eq!(g.marker().bredouille, [false, true]);
    // Ten more for Black uninterrupted: the double hole.
    let mut m = *g.marker();
    assert_eq!(m.mark(Side::Black, 10), 2);
    // "Il doit ôter un des deux jetons si le premier prend de nouveau des points": done too.
    let mut m = *g.marker();
    m.mark(Side::White, 2);
    assert_eq!(m.bredouille, [false, false]);
    assert_eq!(m.mark(Side::Black, 10), 1);
}

#[test]
fn n159_going_saves_the_holes_given_a_faux_staying_gives_them() {
    // "Un très grand avantage à s'en aller ... si on lui donne deux trous ou plus, en le
    // battant à faux", and the goer has the primauté. Fig. 18, Black's 6-6.
    let mut stay = game(FIG18, Marker::new(), Side::Black, Marking::Automatic);
    act(&mut stay, "6-6");
    let mut go = stay.clone();
    act(&mut stay, "stay");
    play_any(&mut stay);
    assert_eq!(stay.marker().holes, [2, 2]);
    assert_eq!(stay.roller(), Side::White);
    act(&mut go, "go");
    assert_eq!(go.marker().holes, [0, 2]);
    assert_eq!((go.actor(), go.roller()), (Actor::Chance, Side::Black));
}

#[test]
fn n161_holes_marked_and_points_erased_first_the_reste_follows_the_decision() {
    // Fig. 18: White has 6; Black's 6-6 wins 14, in bredouille: the double hole is marked and
    // White's 6 erased at once; the 2 de reste are kept if he stays, put back if he goes.
    let m = Marker::with_points((6, false), (0, false));
    let mut g = game(FIG18, m, Side::Black, Marking::Automatic);
    act(&mut g, "6-6");
    assert_eq!(g.phase(), Phase::Decide);
    assert_eq!(g.marker().holes, [0, 2]);
    assert_eq!(g.marker().points(Side::White), 0);
    let mut go = g.clone();
    act(&mut go, "go");
    assert_eq!(go.marker().points, [0, 0]);
    assert_eq!(go.marker().holes, [0, 2]);
    act(&mut g, "stay");
    assert_eq!(g.marker().points, [0, 2]);
    assert_eq!(g.phase(), Phase::Play);
}

#[test]
fn n171_the_roller_marks_before_playing_the_other_before_throwing() {
    let mut g = game(TWO_TWO_POS, Marker::new(), Side::White, Marking::Ecoles);
    act(&mut g, "2-1");
    // The roller may not touch a dame before marking.
    assert_eq!(g.phase(), Phase::MarkGains);
    assert!(!g
        .legal_actions()
        .iter()
        .any(|a| matches!(a, Action::Play(_))));
    let play = g.roll_score().unwrap().plays.plays()[0].clone();
    refused(&mut g, Action::Play(play));
    act(&mut g, "mark 2");
    play_any(&mut g);
    // The other marks what was given before he may throw.
    assert_eq!(g.phase(), Phase::MarkGiven);
    refused(&mut g, Action::Roll(Roll::new(3, 1)));
    // Throwing without marking the 2 given: he is put à l'école for them.
    act(&mut g, "mark 0");
    let e = g.ecoles()[0];
    assert_eq!((e.by, e.points, e.trop), (Side::Black, 2, false));
    assert!(g.legal_actions().contains(&Action::Oblige));
}

#[test]
fn n172_only_the_marks_count_the_marker_shows_what_is_marked() {
    // "Je gagne huit points" and six marked: only the marks are actions, and the marker
    // shows exactly what was marked; the difference from the 4 due is the école.
    let g0 = {
        let mut g = game(FOUR_POS, Marker::new(), Side::White, Marking::Ecoles);
        act(&mut g, "6-2");
        g
    };
    let marks: Vec<u32> = g0
        .legal_actions()
        .iter()
        .filter_map(|a| match a {
            Action::Mark(k) => Some(*k),
            _ => None,
        })
        .collect();
    assert_eq!(marks, (0..=16).step_by(2).collect::<Vec<_>>());
    for k in marks {
        let mut g = g0.clone();
        g.apply(&Action::Mark(k)).unwrap();
        let mut m = Marker::new();
        m.mark(Side::White, k);
        assert_eq!(*g.marker(), m, "mark {k}");
        match k.cmp(&4) {
            std::cmp::Ordering::Equal => assert!(g.ecoles().is_empty()),
            o => {
                let e = g.ecoles()[0];
                assert_eq!(
                    (e.by, e.points, e.trop),
                    (Side::White, k.abs_diff(4), o.is_gt()),
                    "mark {k}"
                );
            }
        }
    }
}

#[test]
fn n174_no_action_takes_back_ones_own_holes() {
    // White's 2-1 wins 12: two holes. Nothing he or Black may do in the turn (going,
    // staying, playing, marking, claiming) moves his fichet back: holes cannot be démarqués.
    let mut g = game(ECOLE_POS, Marker::new(), Side::White, Marking::Ecoles);
    act(&mut g, "2-1");
    act(&mut g, "mark 12");
    assert_eq!(g.marker().holes(Side::White), 2);
    let mut frontier = vec![g];
    let mut seen = 0;
    while let Some(g) = frontier.pop() {
        if g.phase() == Phase::Roll || g.actor() == Actor::Chance {
            continue;
        }
        for a in g.legal_actions() {
            let mut next = g.clone();
            next.apply(&a).unwrap();
            seen += 1;
            assert!(next.marker().holes(Side::White) >= 2, "{a:?}");
            if next.marker().holes(Side::White) > 0 && seen < 2000 {
                frontier.push(next);
            }
        }
    }
    assert!(seen > 10);
}

#[test]
fn n175_the_sortie_keeps_both_players_points() {
    // White has 6, Black 4; White's 2-1 bears off his last two dames (4 for the sortie). The
    // dames go back to the talons; no points are démarqués: White has 10, Black keeps his 4.
    // (The 4 are marked once the dames are off.)
    let pos = "23W1-24W1-1B15";
    let m = Marker::with_points((6, false), (4, false));
    let mut g = game(pos, m, Side::White, Marking::Automatic);
    act(&mut g, "2-1");
    assert_eq!(g.marker().points, [6, 4]);
    bear_off(&mut g);
    assert_eq!(*g.board(), Board::start());
    assert_eq!(g.marker().points, [10, 4]);
    assert_eq!(g.marker().holes, [0, 0]);
}

#[test]
fn n178_the_fichet_moves_only_from_the_points_marked() {
    // White has 10, débredouillé; his 6-2 wins 4. Each marking moves the fichet exactly as
    // its points make holes: no action moves a fichet by itself.
    let m = Marker::with_points((10, false), (0, false));
    let g0 = {
        let mut g = game(FOUR_POS, m, Side::White, Marking::Ecoles);
        act(&mut g, "6-2");
        g
    };
    // 16: ten and two a simple hole, the next twelve consecutive a double one (n°147).
    for (k, holes, points) in [(0, 0, 10), (2, 1, 0), (4, 1, 2), (16, 3, 2)] {
        let mut g = g0.clone();
        g.apply(&Action::Mark(k)).unwrap();
        assert_eq!(
            (
                g.marker().holes(Side::White),
                g.marker().points(Side::White)
            ),
            (holes, points),
            "mark {k}"
        );
    }
}

#[test]
fn n181_points_cannot_be_erased_where_there_is_no_over_marking() {
    // White marks his 4 rightly: Black, believing in an école, cannot erase them.
    let mut g = game(FOUR_POS, Marker::new(), Side::White, Marking::Ecoles);
    act(&mut g, "6-2");
    act(&mut g, "mark 4");
    play_any(&mut g);
    assert_eq!(g.phase(), Phase::MarkGiven);
    refused(&mut g, Action::Erase);
    refused(&mut g, Action::Claim);
    act(&mut g, "mark 0");
    assert_eq!(g.marker().points, [4, 0]);
    assert_eq!(g.actor(), Actor::Chance);
    // Over-marked by 2, the 2 can be erased without being taken.
    let mut g = game(FOUR_POS, Marker::new(), Side::White, Marking::Ecoles);
    act(&mut g, "6-2");
    act(&mut g, "mark 6");
    play_any(&mut g);
    act(&mut g, "erase");
    assert_eq!(g.marker().points, [4, 0]);
}

#[test]
fn n190_the_hole_is_marked_from_the_bredouille_before_the_jetons_move() {
    // White has points; Black receives 4 by White's dice: he is the second to score, in
    // bredouille (he cannot forget it). His own roll then gives him 8: the hole is double,
    // and only then White's points are erased.
    let mut m = Marker::new();
    m.mark(Side::White, 4);
    m.mark(Side::Black, 4);
    assert_eq!(m.bredouille, [false, true]);
    assert_eq!(m.mark(Side::Black, 8), 2);
    assert_eq!(m.points, [0, 0]);
    assert_eq!(m.holes, [0, 2]);
    // Interrupted by White in between, it is simple.
    let mut m = Marker::new();
    m.mark(Side::White, 4);
    m.mark(Side::Black, 4);
    m.mark(Side::White, 2);
    assert_eq!(m.mark(Side::Black, 8), 1);
    assert_eq!(m.points, [0, 0]);
}

#[test]
fn n191_a_double_hole_is_marked_double_by_the_points() {
    // White's 2-1 wins 12 uninterrupted: marking the 12 points marks the double hole; there
    // is no simple marking of it to rectify, and going keeps both holes.
    let mut g = game(ECOLE_POS, Marker::new(), Side::White, Marking::Ecoles);
    act(&mut g, "2-1");
    act(&mut g, "mark 12");
    assert_eq!(g.marker().holes, [2, 0]);
    assert!(g.ecoles().is_empty());
    act(&mut g, "go");
    assert_eq!(g.marker().holes, [2, 0]);
    assert_eq!(g.marker().points, [0, 0]);
}

#[test]
fn n195_new_points_are_added_to_the_points_already_marked() {
    // "On a huit ou dix points, on amène un coup qui en donne quatre": the 4 marked go on top
    // of the 8 (no second jeton to take from the band): a hole, double in bredouille.
    let m = Marker::with_points((8, true), (0, false));
    let mut g = game(FOUR_POS, m, Side::White, Marking::Ecoles);
    act(&mut g, "6-2");
    act(&mut g, "mark 4");
    assert_eq!(g.marker().holes, [2, 0]);
    assert_eq!(g.marker().points, [0, 0]);
    // 2nd ¶: White 8 in bredouille, Black 4; Black gains 4: White's bredouille is taken off
    // and Black's points are one jeton at 8.
    let mut m = Marker::with_points((8, true), (4, false));
    assert_eq!(m.mark(Side::Black, 4), 0);
    assert_eq!(m.points, [8, 8]);
    assert_eq!(m.bredouille, [false, false]);
}

#[test]
fn n214_no_dame_goes_missing_in_a_game() {
    // A player with fourteen dames cannot arise: in a whole game, dames leave the board only
    // by bearing off from the jan de retour, and every relevé puts fifteen on each talon.
    let mut dice = SeededDice::from_seed([214; 32]);
    let mut g = Trictrac::new(Options::default());
    let mut releves = 0;
    for _ in 0..20_000 {
        let a = match g.actor() {
            Actor::Nobody => break,
            Actor::Chance => g.chance_action(&mut dice).unwrap(),
            Actor::Player(_) => g.legal_actions()[0].clone(),
        };
        g.apply(&a).unwrap();
        let b = g.board();
        for side in Side::ALL {
            if b.off(side) > 0 {
                let retour = if side == Side::White { 19..=24 } else { 1..=6 };
                for abs in 1..=24u8 {
                    if !retour.contains(&abs) {
                        assert_eq!(
                            b.count(side, abs),
                            0,
                            "{side:?} off with dames at {abs}: {b}"
                        );
                    }
                }
            }
        }
        if *b == Board::start() {
            releves += 1;
        }
    }
    assert!(g.outcome().is_some(), "the game ends");
    assert!(releves > 1);
}

#[test]
fn n215_a_sixteenth_dame_is_refused() {
    assert!(Board::parse("1W16-24B15").is_err());
    assert!(Board::parse("1W15-23B1-24B15").is_err());
    assert_eq!(Board::parse("1W15-24B15").unwrap(), Board::start());
}

#[test]
fn n216_the_number_that_passes_to_the_retour_must_be_played() {
    // White's 6-1: the ace alone could be played inside (7→8, ...), after which the six could
    // not; only the dame passing to the retour plays both (11→12→18), so both are played
    // and Black marks nothing for a number not played.
    let pos = "7W3-8W3-9W3-10W3-11W3-13B2-14B2-15B2-16B2-17B2-2B1-3B1-4B1-5B1-6B1";
    let s = score(pos, Side::White, "6-1");
    assert!(s.plays.find("7-8").is_err());
    assert!(!s.plays.legal.is_empty());
    for c in &s.plays.legal {
        assert_eq!(c.play.dice_used(), 2, "{}", c.play);
        assert_eq!(c.end.count(Side::White, 18), 1, "{}", c.play);
    }
    assert_eq!(s.of(EventKind::NombreNonJoue).count(), 0);
    assert_eq!(s.given(), 0);
    // When the six truly cannot be played (abs 18 held by Black), the opponent marks two
    // points for it.
    let pos = "7W3-8W3-9W3-10W3-11W3-13B2-14B2-15B2-16B2-17B2-18B2-4B1-5B1-6B1";
    let s = score(pos, Side::White, "6-1");
    let e = s.of(EventKind::NombreNonJoue).next().unwrap();
    assert_eq!((e.to, e.ways, e.points), (Side::Black, 1, 2));
}
