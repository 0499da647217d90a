//! S'en aller or rester: the book's examples (J.L. 1852, n°159, n°163, n°331, and the
//! strategy section n°385–392), decided by the engine from the value of both choices with
//! the shipped weights.
//!
//! The strategy section: n°385 is the general maxim (stay when there is more to win than
//! to lose), which is what the engine computes. n°386, n°388 and n°389 are about the partie
//! à écrire (the pavillon, the marqué, the grande bredouille), where going with 6 holes
//! ends the marqué: the marqué's table decides there
//! ([`tablier_trictrac_engine::ecrire`]), tested at the end of this file. n°391 gives no
//! position. n°390 (stay though giving 2 holes when the
//! position repays it) is the case of n°331 below. n°387 (the partie in 12 holes) is tested
//! below in two positions of the engine's self-play where the score turns the decision: far
//! behind the levels hazard a tenue they leave at an even score, at 11 holes they leave one
//! they keep at an even score, as the book counsels; both confirmed by playing the partie to
//! its end both ways. n°392 gives no position.

use tablier_core::Side;
use tablier_trictrac::{Board, Marker, Roll};
use tablier_trictrac_engine::rester::StayModel;
use tablier_trictrac_engine::sim::AfterPlay;
use tablier_trictrac_engine::tenue::TenuePlayouts;
use tablier_trictrac_engine::{Objective, Search, State, TurnAnalysis, Weights};

/// The levels' search at `plies`: the chance of winning the partie, staying corrected at 1
/// ply ([`tablier_trictrac_engine::rester`]).
fn levels(plies: u8) -> Search {
    Search {
        stay: (plies == 1).then(|| StayModel::shipped().clone()),
        tenue: Some(TenuePlayouts::LEVELS),
        ..Search::for_partie(Weights::shipped(), plies)
    }
}

/// The analysis of `roll` thrown by `who` on `position` with `marker` before the roll, by
/// the levels' search.
fn decide(position: &str, marker: Marker, who: Side, roll: &str, plies: u8) -> (TurnAnalysis, u32) {
    let board: Board = position.parse().unwrap();
    let mut s = State::from_position(board, marker, who);
    let (score, holes) = s.begin_roll(Roll::parse(roll).unwrap());
    assert!(!s.over);
    let a = levels(plies).analyse(&s, &score, holes);
    eprintln!(
        "{position} {roll}: holes won {holes}, go {:.3}, stay {:.3}",
        a.go.unwrap_or(f64::NAN),
        a.stay()
    );
    (a, holes)
}

/// The analysis of going or staying after `who` bears off his last dames with `roll` on
/// `position` (the sortie marked after the play, n°118), and the holes the sortie made.
fn decide_sortie(position: &str, marker: Marker, who: Side, roll: &str) -> (TurnAnalysis, u32) {
    let board: Board = position.parse().unwrap();
    let mut s = State::from_position(board, marker, who);
    let (score, before) = s.begin_roll(Roll::parse(roll).unwrap());
    assert_eq!(before, 0, "no hole before the play");
    let off = score
        .plays
        .legal
        .iter()
        .find(|c| c.end.on_board(who) == 0)
        .expect("a play that bears off the last dames");
    let AfterPlay::Sortie { holes } = s.play(&score, &off.end) else {
        panic!("a sortie")
    };
    assert!(!s.over);
    let a = levels(1).analyse_sortie(&s, &score);
    eprintln!(
        "{position} {roll} (sortie): holes won {holes}, go {:.3}, stay {:.3}",
        a.go.unwrap_or(f64::NAN),
        a.stay()
    );
    (a, holes)
}

fn marker(white: (u32, bool), black: (u32, bool), holes: [u32; 2]) -> Marker {
    let mut m = Marker::with_points(white, black);
    m.holes = holes;
    m
}

/// n°331 (fig. 36), and the rule of n°390 ("rester, donnant deux trous"): White has 8 points (not in bredouille), Black 10 in bredouille. White's
/// 6-6 wins 26 points à vrai: 3 holes and 10 de reste; staying, he gives Black 2 holes for
/// the two dames hit à faux. The book stays: "il ne manque plus qu'une dame au plein, et
/// l'adversaire a mauvais jeu".
#[test]
fn n331_stays_despite_two_holes_given() {
    let (a, holes) = decide(
        "1W2-2W1-3W2-6W1-7W1-8W2-10W2-11W2-12W2-13B2-15B3-17B3-18B1-19B1-20B1-21B1-22B1-23B1-24B1",
        marker((8, false), (10, true), [2, 2]),
        Side::White,
        "6-6",
        1,
    );
    assert_eq!(holes, 3);
    assert!(!a.goes(), "go {:?} stay {}", a.go, a.stay());
}

/// n°159: "un très grand avantage à s'en aller ... si on lui donne deux trous ou plus, en le
/// battant à faux". Fig. 18 (n°138) with Black's other dames on his talon: Black's 6-6 wins
/// 14 à vrai (a double hole, both at 0 points) and gives White 18 à faux, a double hole if
/// Black stays. Going, White marks nothing.
#[test]
fn n159_goes_rather_than_give_two_holes() {
    let (a, holes) = decide(
        "2W1-3W1-4W1-5W1-6W1-7W1-8W1-9W2-10W2-11W2-12W2-13B2-14B2-16B2-17B2-18B1-24B6",
        marker((0, false), (0, false), [4, 4]),
        Side::Black,
        "6-6",
        1,
    );
    assert_eq!(holes, 2);
    assert!(a.goes(), "go {:?} stay {}", a.go, a.stay());
}

/// n°159: "il y a aussi très souvent de l'avantage à rester ... s'il reste ... huit points,
/// avec la certitude de compléter un trou au premier coup, en conservant; si l'on ne donne
/// pas de points à l'adversaire, et s'il n'en peut prendre assez pour avoir un trou au coup
/// suivant". White holds his grand jan with two surplus on the coin and one on the talon
/// (36 throws of 36 keep it, n°370); he has just marked his hole and has 8 de reste; Black,
/// at 0 points, holds his grand jan too (4 or 6 points a throw at most by conserving).
#[test]
fn n159_stays_with_eight_de_reste_and_a_sure_conservation() {
    // The hole is already on the marker: White's 8 points de reste in bredouille.
    let board: Board = "1W1-7W2-8W2-9W2-10W2-11W2-12W4-13B5-14B2-15B2-16B2-17B2-18B2"
        .parse()
        .unwrap();
    let m = marker((8, true), (0, false), [5, 3]);
    let s = State::from_position(board, m, Side::White);
    let score = s.score(Roll::new(2, 1));
    let a = levels(1).analyse(&s, &score, 1);
    eprintln!("n159 stay: go {:?} stay {}", a.go, a.stay());
    assert!(!a.goes(), "go {:?} stay {}", a.go, a.stay());
}

/// n°163: White bears off his last two dames with 10 points (the sortie marked once they
/// are off, and the choice made then). With 6-6 (6 points for the sortie) he must stay: 4 de reste and the sum 12 to play from the talon; with 3-2 (4
/// points) he must go.
#[test]
fn n163_sortie_six_six_stays() {
    let (a, holes) = decide_sortie(
        "22W1-23W1-13B5-14B2-15B2-16B2-17B2-18B2",
        marker((10, true), (0, false), [3, 3]),
        Side::White,
        "6-6",
    );
    assert!(holes > 0);
    assert!(!a.goes(), "go {:?} stay {}", a.go, a.stay());
}

/// n°163 with 3-2 (4 points for the sortie: a hole and 2 de reste): the book, after
/// Guiton, goes; the engine stays, and here is why, in its numbers (shipped weights).
///
/// Going or staying, White throws first in the new relevé (he has the primauté either way,
/// n°118, n°155). Staying, that first throw is the 3-2 itself (jouer pour tout, n°118, A10)
/// and he keeps 2 points de reste in bredouille; going, he throws anew with no points. So
/// the choice is "2 points in bredouille and the 3-2 from the talons" against "0 points
/// and a random first throw". The test measures both parts: the 3-2 from the talons is
/// worth about an average first throw (within 0.25 hole), and 2 points in bredouille are
/// worth more than nothing; hence staying is better, and the book's advice costs White the
/// difference printed by the test. (Guiton's reason given by the book — "un examen
/// réfléchi de ce que peut lui faire espérer ou craindre le coup" — gives no figure; at the
/// partie à écrire the pavillon could change it, not in a partie in 12 holes.)
#[test]
fn n163_sortie_three_two_engine_stays_and_says_why() {
    let (a, holes) = decide_sortie(
        "22W1-23W1-13B5-14B2-15B2-16B2-17B2-18B2",
        marker((10, true), (0, false), [3, 3]),
        Side::White,
        "3-2",
    );
    assert_eq!(holes, 2);
    let (go, stay) = (a.go.unwrap(), a.stay());
    let search = Search::new(Weights::shipped(), 1);
    let start = |points: u32| {
        let mut m = marker((points, points > 0), (0, false), [5, 3]);
        m.bredouille = [points > 0, false];
        State::from_position(Board::start(), m, Side::White)
    };
    // A relevé with White to throw, no points: the value of going (before the margin).
    let average = search.throw_value(&start(0), 1);
    let three_two = search.roll_value(&start(0), Roll::new(3, 2), 0);
    let three_two_with_two = search.roll_value(&start(2), Roll::new(3, 2), 0);
    eprintln!(
        "n163 3-2: go {go:.3}, stay {stay:.3}; from the talons: any first throw {average:.3}, \
         3-2 {three_two:.3}, 3-2 with 2 points de reste {three_two_with_two:.3}"
    );
    assert!((three_two - average).abs() < 0.25);
    assert!(three_two_with_two > three_two);
    assert!(stay > go, "the engine stays: go {go} stay {stay}");
}

/// The value of staying less the value of going after `roll`, with `objective`, 1 ply, the
/// staying corrected as the levels correct it.
fn stay_minus_go(board: &str, m: Marker, roll: &str, objective: Objective) -> f64 {
    let b: Board = board.parse().unwrap();
    let mut s = State::from_position(b, m, Side::White);
    let (score, won) = s.begin_roll(Roll::parse(roll).unwrap());
    assert_eq!(won, 1, "{roll} takes one hole");
    let search = Search {
        objective,
        ..levels(1)
    };
    let a = search.analyse(&s, &score, won);
    a.stay() - a.go.unwrap()
}

/// The analysis of Black's 2-1 in n°387's gamble (below) with `holes` (White's, Black's)
/// before the throw.
fn gamble(holes: [u32; 2], search: &Search) -> TurnAnalysis {
    let board: Board =
        "4W1-5W1-6W1-7W2-8W2-9W2-10W2-11W2-12W2-13B2-14B2-15B2-16B2-17B2-18B2-20B1-21B1-24B1"
            .parse()
            .unwrap();
    let mut s = State::from_position(board, marker((10, false), (8, false), holes), Side::Black);
    let (score, won) = s.begin_roll(Roll::new(2, 1));
    assert_eq!(won, 1, "2-1 by holding: 4 points, a hole");
    search.analyse(&s, &score, won)
}

/// n°387, "partie en douze trous", first half: "si l'adversaire en a 11 et si l'on a 2 ou 3
/// trous, on doit hasarder une tenue qui présente des dangers, si elle offre en même temps un
/// certain nombre de chances qui peuvent faire espérer le gain de la partie", a tenue "qui,
/// dans tout autre cas, serait jugée téméraire". A tenue that is a gamble (a position of the
/// engine's self-play): both players hold their grand jan, each with three dames left to
/// play without breaking (White on 4, 5, 6; Black on 20, 21, 24); Black, with 8 points,
/// throws 2-1 and holds: 4 points, a hole; White had 10.
///
/// At 5 holes each the levels go (staying is worth 0.38 hole of margin less). With 1 or 2
/// holes against White's 11 they stay: the chance model alone would still go (it sees the
/// tenue's average holes, not their spread), but near the end the levels play the tenue
/// out ([`tablier_trictrac_engine::tenue`]), and there the losses beyond one hole cost
/// nothing more while a run of holes is the only road to the partie. Played out to the
/// end with the same dice both ways, the levels' 1-ply search deciding afterwards
/// (`n387_scan` exploration, 300 pairs at 2 against 11), staying won 37 parties and going
/// 23: the book's counsel, and the engine's.
#[test]
fn n387_far_behind_the_levels_hazard_the_tenue() {
    let stay_minus_go = |a: TurnAnalysis| a.stay() - a.go.unwrap();
    let even = stay_minus_go(gamble([5, 5], &levels(1)));
    let margin = Search {
        objective: Objective::Margin,
        ..levels(1)
    };
    let even_margin = stay_minus_go(gamble([5, 5], &margin));
    let behind = [[11, 2], [11, 1]].map(|h| stay_minus_go(gamble(h, &levels(1))));
    let unplayed = Search {
        tenue: None,
        ..levels(1)
    };
    let model_only = stay_minus_go(gamble([11, 2], &unplayed));
    eprintln!(
        "n387 gamble, stay − go: at 5 v 5 {even:.3} (2·chance − 1), {even_margin:.3} (holes); \
         Black at 2 and 1 against 11, the tenue played out: {behind:.3?}; at 2 against 11 \
         without the play-outs {model_only:.3}"
    );
    assert!(
        even < 0.0 && even_margin < 0.0,
        "at an even score the levels go"
    );
    for d in behind {
        assert!(d > 0.05, "far behind they hazard the tenue ({behind:?})");
    }
    assert!(model_only < 0.0, "the model alone goes ({model_only})");
}

/// n°387, second half: "si, au contraire, on a 11 trous, on doit mettre dans la tenue la
/// plus grande circonspection; on ne doit pas exposer un si grand avantage aux hasards d'un
/// coup qui, quoique improbable, peut, dans un instant, changer un gain presque certain en
/// une perte indubitable". A position of the engine's self-play: White (8 points; Black 8)
/// throws 5-5, a hole; no plein on either side, White's dames spread with four on his
/// talon. At 5 holes each level 2 keeps the tenue (by half a hole of margin, by a little in
/// chance); at 10 or 9 holes against 2, the hole bringing him to 11 or 10, it goes: played
/// out, the tenue's dangers outweigh the holes it promises. Played out to the end with the
/// same dice both ways (`go_or_stay_playout ... 8,8 10,2 5-5 300 white levels`), going won
/// 279 parties of 300 and staying 257: circumspection, as the book says.
///
/// Level 3 (2 plies) already goes at 5 against 5 here.
#[test]
fn n387_at_eleven_holes_circumspection() {
    let at = |holes: [u32; 2], search: &Search| {
        let board: Board = "1W4-2W1-3W1-5W1-6W1-7W2-8W3-12W2-13B2-14B2-16B2-18B2-22B1-23B2-24B4"
            .parse()
            .unwrap();
        let mut s = State::from_position(board, marker((8, false), (8, false), holes), Side::White);
        let (score, won) = s.begin_roll(Roll::new(5, 5));
        assert_eq!(won, 1);
        let a = search.analyse(&s, &score, won);
        a.stay() - a.go.unwrap()
    };
    let margin = Search {
        objective: Objective::Margin,
        ..levels(1)
    };
    let (even, even_margin) = (at([5, 5], &levels(1)), at([5, 5], &margin));
    let ahead = [[10, 2], [9, 2]].map(|h| at(h, &levels(1)));
    eprintln!(
        "n387 (second half) stay − go: at 5 v 5 {even:.3} (2·chance − 1), {even_margin:.3} \
         (holes); at 10 and 9 against 2, the tenue played out: {ahead:.3?}"
    );
    assert!(
        even > 0.0 && even_margin > 0.0,
        "at an even score level 2 stays"
    );
    for d in ahead {
        assert!(d < 0.0, "ahead it goes ({ahead:?})");
    }
}

/// Fig. 36 (n°331's position, White 8 points, Black 10 in bredouille), White's 5-3 takes a
/// hole that brings him to 11 against 2: a tenue the book's circumspection would leave, but
/// "il ne manque plus qu'une dame au plein" and Black, with 2 holes, needs ten more. The
/// levels keep it, played out as near the end they are; played out to the end with the same
/// dice both ways (`go_or_stay_playout ... 8,10 10,2 5-3 300`, the margin engine playing),
/// staying won 291 parties of 300 and going 274: here the book's counsel is a rule of thumb
/// that the position does not bear out.
#[test]
fn fig36_at_eleven_holes_the_tenue_is_kept() {
    let board =
        "1W2-2W1-3W2-6W1-7W1-8W2-10W2-11W2-12W2-13B2-15B3-17B3-18B1-19B1-20B1-21B1-22B1-23B1-24B1";
    let ahead = stay_minus_go(
        board,
        marker((8, false), (10, true), [10, 2]),
        "5-3",
        Objective::Partie,
    );
    eprintln!("fig. 36 at 11 v 2, stay − go: {ahead:.3}");
    assert!(ahead > 0.0, "it stays ({ahead})");
}

/// n°331's tenue is kept at 2 holes against 2 (test above), but with Black at 11 the two
/// holes given à faux by staying win him the partie, and the engine goes.
#[test]
fn n331_with_the_opponent_at_eleven_goes() {
    let (a, won) = decide(
        "1W2-2W1-3W2-6W1-7W1-8W2-10W2-11W2-12W2-13B2-15B3-17B3-18B1-19B1-20B1-21B1-22B1-23B1-24B1",
        marker((8, false), (10, true), [2, 11]),
        Side::White,
        "6-6",
        1,
    );
    assert_eq!(won, 3);
    assert!(a.goes(), "go {:?} stay {}", a.go, a.stay());
}

/// The partie à écrire: going or staying by the marqué's table after a hole, with `holes`
/// (White's, Black's) on the marker, the pavillon's `holder` (`passed`: he holds it as second
/// taker; no holder: nobody can hold it any more), White the roller and no points given.
/// Returns whether White goes, with the value of going and of staying in jetons.
fn ecrire(holes: [u32; 2], holder: Option<Side>, passed: bool) -> (bool, f64, f64) {
    use tablier_trictrac_engine::ecrire::{end_value, MarqueTable};
    let mut m = Marker::new();
    m.holes = holes;
    m.pavillon.holder = holder;
    m.pavillon.passed = passed;
    m.pavillon.lost = holder.is_none();
    let t = MarqueTable::shipped(0, 0.0);
    let go = end_value(&m, Side::White, 0).expect("going ends the marqué");
    let stay = t.stay_value(&m, Side::White, 0);
    let goes = t.goes(&m, Side::White, 0).unwrap();
    eprintln!("à écrire {holes:?} pavillon {holder:?} passed {passed}: go {go:.2} stay {stay:.2}");
    assert_eq!(goes, go > stay);
    (goes, go, stay)
}

/// n°385 and n°222: ahead with no pavillon (8 holes against 5), going banks the marqué,
/// 8 + 2 − 5 = 5 jetons: "s'en aller lorsqu'en restant il y a plus à perdre qu'à gagner".
#[test]
fn n385_ahead_without_the_pavillon_goes() {
    let (goes, go, _) = ecrire([8, 5], None, true);
    assert_eq!(go, 5.0);
    assert!(goes);
}

/// n°388, first half: "celui qui prend un trou, mais qui en s'en allant serait marqué, doit
/// rester, si en restant il entrevoit quelque espoir ... d'atteindre l'adversaire". At 7
/// holes against 9 going would lose the marqué (9 + 2 − 7 = 4 jetons): the table stays.
#[test]
fn n388_behind_stays_rather_than_be_marked() {
    let (goes, go, stay) = ecrire([7, 9], None, true);
    assert_eq!(go, -4.0);
    assert!(!goes && stay > go);
}

/// n°388, second half: "si néanmoins cette tenue était tellement périlleuse qu'elle dût
/// entraîner à une enfilade ... la prudence exige qu'on s'en aille". At 6 holes against 10,
/// Black holding the pavillon (he took it from White): going loses 2 × (10 + 2) − 6 = 18
/// jetons; staying lets him run to the grande bredouille (4 × (12 + 2) − 6 = 50 at 12
/// holes): the table goes.
#[test]
fn n388_goes_rather_than_risk_the_grande_bredouille() {
    let (goes, go, stay) = ecrire([6, 10], Some(Side::Black), true);
    assert_eq!(go, -18.0);
    assert!(goes, "go {go} stay {stay}");
    // Without the pavillon the same score stays (only 6 + ... holes at stake, not the ×4).
    assert!(!ecrire([6, 10], None, true).0);
}

/// n°389: "ayant le pavillon, on s'en va, si l'adversaire a le même nombre de trous, il y a
/// refait ... on se détermine souvent à faire une tenue incertaine". At 7 holes each, White
/// holding the pavillon stays; without it, going (a refait, 0) is as good as anything.
#[test]
fn n389_equal_holes_with_the_pavillon_stays() {
    let (goes, go, _) = ecrire([7, 7], Some(Side::White), true);
    assert_eq!(go, 0.0);
    assert!(!goes);
    assert!(ecrire([7, 7], None, true).0);
}

/// n°386: "on parvient à 9 ou 10 trous en bredouille ... on reçoit au moins 56 jetons":
/// with the pavillon against no hole, going banks 2 × (h + 2) (22 or 24 jetons), the
/// grande bredouille pays 4 × (12 + 2) = 56. With an average board the table stays at 10
/// holes and goes at 9; the book's example stays at 9 too because its board keeps the
/// pavillon by 22 throws of 36, better than the average throw the table assumes.
#[test]
fn n386_stays_for_the_grande_bredouille() {
    let (goes, go, stay) = ecrire([10, 0], Some(Side::White), false);
    assert_eq!(go, 24.0);
    assert!(!goes && stay > go);
    let (goes9, go9, _) = ecrire([9, 0], Some(Side::White), false);
    assert_eq!(go9, 22.0);
    assert!(goes9);
}

/// The engine in a real partie à écrire (the rules crate's game): White, 2 holes behind,
/// wins a hole that would end the marqué if he went; every level stays (n°388), and says so
/// in jetons, the postillons at stake counted. n°159's position: White holds his grand jan (his 2-1 conserves it for 4
/// points, giving none) with 8 points in bredouille: a double hole, 7 against 9.
#[test]
fn the_engine_stays_in_the_partie_a_ecrire_when_going_loses_the_marque() {
    use tablier_core::{Budget, Game, Player};
    use tablier_trictrac::{Action, Options, Partie, Phase, Trictrac};
    use tablier_trictrac_engine::{choose_action, player::LevelPlayer};
    let board: Board = "1W1-7W2-8W2-9W2-10W2-11W2-12W4-13B5-14B2-15B2-16B2-17B2-18B2"
        .parse()
        .unwrap();
    let mut m = marker((8, true), (0, false), [5, 9]);
    m.pavillon.lost = true;
    m.pavillon.passed = true;
    let options = Options {
        partie: Partie::AEcrire { marques: 2 },
        ..Options::default()
    };
    let mut g = Trictrac::from_position(options, board, m, Side::White);
    g.apply(&g.parse_action("2-1").unwrap()).unwrap();
    assert_eq!(g.phase(), Phase::Decide);
    assert_eq!(g.marker().holes, [7, 9]);
    assert_eq!(g.roll_score().unwrap().given(), 0);
    for level in 0..=3 {
        assert_eq!(
            choose_action(&g, level, 1),
            Ok(Action::Stay),
            "level {level}"
        );
    }
    let e = LevelPlayer::new(2, 1)
        .explain(&g, Budget::UNLIMITED)
        .unwrap();
    assert_eq!(e.unit, "jetons");
    assert_eq!(e.line, ["stay"]);
    // Going concedes the marqué, 9 + 2 − 7 = 4 jetons, and half the postillons at stake:
    // in a partie of two marqués, losing both costs a postillon of 28 (n°227).
    let go = e.candidates.iter().find(|c| c.0 == "go").unwrap().1;
    assert_eq!(go, -4.0 - 14.0);
    // Going ends the marqué: Black wins it.
    g.apply(&Action::Go).unwrap();
    assert_eq!(g.marques().len(), 1);
    assert_eq!(g.marques()[0].winner, Side::Black);
}
