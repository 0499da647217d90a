//! One test per rule sentence of seed 004 (the backgammon leaflet: "Game play", "Hitting and
//! entering", "Bearing it off", "End of the game", and the doubling cube of its Portuguese and
//! Spanish "Competição"), named after the sentence, plus the match rules the seed leaves out
//! (Crawford, Jacoby, beavers, the cube limit, resignations) and refusals of bad input.
//!
//! Positions are written as lists of `(point, checkers)` for each side, each side counting from
//! its own home board (1 to 6), 25 being its bar; the first list is the side on roll.

use tablier_backgammon::game::{Action, Match, Options, Phase, WinKind};
use tablier_backgammon::{notation, Play, Position, Roll};
use tablier_core::{Actor, Game, Side};

fn pos(mover: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
    let side = |list: &[(usize, u8)]| {
        let mut a = [0u8; 25];
        for &(p, n) in list {
            a[p - 1] += n;
        }
        a
    };
    Position::from_sides(&side(mover), &side(opponent)).expect("a valid test position")
}

fn roll(a: u8, b: u8) -> Roll {
    Roll::new(a, b).unwrap()
}

/// The plays of a roll as gnubg writes them, sorted.
fn plays(p: &Position, a: u8, b: u8) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_plays(roll(a, b))
        .iter()
        .map(notation::format_play)
        .collect();
    v.sort();
    v
}

fn play(m: &mut Match, text: &str) {
    let a = m.parse_action(text).unwrap_or_else(|e| panic!("{e}"));
    m.apply(&a).unwrap();
}

/// A match in the middle of a game, `turn` to act in `phase`.
fn at(options: Options, position: Position, turn: Side, phase: Phase) -> Match {
    Match::from_parts(options, [0, 0], false, position, turn, 1, None, phase).unwrap()
}

// --- Game play ---

#[test]
fn each_player_throws_a_single_die_and_the_higher_plays_both_numbers() {
    let mut m = Match::new(Options::money());
    assert_eq!(m.actor(), Actor::Chance);
    m.apply(&Action::OpeningRoll { white: 2, black: 6 })
        .unwrap();
    assert_eq!(m.turn(), Side::Black);
    assert_eq!(m.phase(), Phase::Moving { roll: roll(6, 2) });
    assert_eq!(
        roll(2, 6),
        roll(6, 2),
        "a roll is the two numbers, whatever their order"
    );
    assert_eq!(m.actor(), Actor::Player(Side::Black));
}

#[test]
fn equal_opening_numbers_are_thrown_again() {
    let mut m = Match::new(Options::money());
    m.apply(&Action::OpeningRoll { white: 4, black: 4 })
        .unwrap();
    assert_eq!(m.phase(), Phase::Opening);
    assert_eq!(m.actor(), Actor::Chance);
    m.apply(&Action::OpeningRoll { white: 5, black: 1 })
        .unwrap();
    assert_eq!(m.turn(), Side::White);
}

#[test]
fn after_the_first_roll_players_throw_two_dice_and_alternate() {
    let mut m = Match::new(Options::money());
    m.apply(&Action::OpeningRoll { white: 3, black: 1 })
        .unwrap();
    play(&mut m, "8/5 6/5");
    assert_eq!(m.turn(), Side::Black);
    assert_eq!(m.phase(), Phase::BeforeRoll);
    m.apply(&Action::Roll).unwrap();
    assert_eq!(m.actor(), Actor::Chance);
    assert_eq!(m.legal_actions().len(), 36);
    m.apply(&Action::Dice(roll(6, 6))).unwrap();
    assert_eq!(m.phase(), Phase::Moving { roll: roll(6, 6) });
    play(&mut m, "24/18(2) 13/7(2)");
    assert_eq!(m.turn(), Side::White);
}

#[test]
fn checkers_always_move_forward_to_a_lower_numbered_point() {
    for (a, b) in [(6, 5), (3, 1), (2, 2)] {
        for p in Position::start().legal_plays(roll(a, b)) {
            assert!(p.hops().iter().all(|h| h.to < h.from), "{p:?}");
        }
    }
}

#[test]
fn a_checker_may_be_moved_only_to_an_open_point() {
    // The opponent holds our 5-point (his 20) with two checkers, our 4-point with one.
    let p = pos(&[(8, 1)], &[(20, 2), (21, 1), (1, 12)]);
    let v = plays(&p, 3, 3);
    // 8/5 is closed: a 3 cannot be played at all.
    assert_eq!(v, vec![String::new()]);
    // 4 is open (a blot): 8/4* with the 4 then on with the 1, or 8/7/3 (gnubg lists the same two).
    assert_eq!(plays(&p, 4, 1), vec!["8/3".to_owned(), "8/4*/3".to_owned()]);
}

#[test]
fn the_two_numbers_are_separate_moves_for_one_or_two_checkers() {
    // 5-3 with checkers on 13 and 6: one checker five and another three (both ways round), or
    // one checker eight (gnubg lists the same three).
    let v = plays(&pos(&[(13, 1), (6, 1)], &[(1, 15)]), 5, 3);
    assert_eq!(
        v,
        vec![
            "13/10 6/1".to_owned(),
            "13/5".to_owned(),
            "13/8 6/3".to_owned()
        ]
    );
}

#[test]
fn one_checker_moving_both_numbers_needs_an_open_intermediate_point() {
    // From 13 with 5-3: 13/8 (5 first) is closed and 13/10 (3 first) is closed too.
    let closed_both = pos(&[(13, 1), (1, 14)], &[(17, 2), (15, 2), (3, 11)]);
    assert!(!plays(&closed_both, 5, 3).contains(&"13/5".to_owned()));
    // Open 13/10 (the 3 first): 13/5 is legal again.
    let open_one = pos(&[(13, 1), (1, 14)], &[(17, 2), (3, 13)]);
    assert!(plays(&open_one, 5, 3).contains(&"13/5".to_owned()));
}

#[test]
fn doubles_are_played_four_times() {
    let v = Position::start().legal_plays(roll(6, 6));
    assert!(v.iter().all(|p| p.hops().len() == 4));
    assert!(plays(&Position::start(), 6, 6).contains(&"24/18(2) 13/7(2)".to_owned()));
}

#[test]
fn both_numbers_must_be_used_if_legally_possible() {
    // 6-1: a lone 6 (8/2) would leave the 1 playable, so it is not a complete play.
    let p = pos(&[(8, 1), (7, 1)], &[(1, 15)]);
    let v = p.legal_plays(roll(6, 1));
    assert!(v.iter().all(|p| p.hops().len() == 2), "{v:?}");
}

#[test]
fn when_only_one_number_can_be_played_that_number_must_be_played() {
    // Only the 1 can be played: the 6 from 8 lands on 2 (closed), from 7 on 1 (closed); after
    // 8/7 the 6 is still closed.
    let p = pos(&[(8, 1)], &[(24, 2), (23, 2), (19, 11)]);
    let v = plays(&p, 6, 1);
    assert_eq!(v, vec!["8/7".to_owned()]);
}

#[test]
fn must_play_larger_die_when_only_one_fits() {
    // A single checker on 13: the 6 (13/7) or the 2 (13/11), but not both (7/5 and 11/5 are
    // closed). The larger must be played.
    let p = pos(&[(13, 1), (1, 14)], &[(20, 2), (5, 13)]);
    assert_eq!(plays(&p, 6, 2), vec!["13/7".to_owned()]);
}

#[test]
fn when_neither_number_can_be_used_the_player_loses_his_turn() {
    // On the bar against a closed board.
    let p = pos(
        &[(25, 1), (6, 14)],
        &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (13, 3)],
    );
    let v = p.legal_plays(roll(5, 3));
    assert_eq!(v.len(), 1);
    assert!(v[0].hops().is_empty());
    // In a match the empty play passes the turn.
    let mut m = at(
        Options::money(),
        p,
        Side::White,
        Phase::Moving { roll: roll(5, 3) },
    );
    play(&mut m, "-");
    assert_eq!(m.turn(), Side::Black);
}

#[test]
fn doubles_when_all_four_cannot_be_played_play_as_many_as_possible() {
    // The opponent holds our 3- and 1-points. Checkers on 18 and 9: 18/13/8 and 9/4, then no
    // fourth five (8/3 and 6/1 are closed, and 4/off waits for the 8 to come home).
    let p = pos(&[(18, 1), (9, 1), (6, 13)], &[(22, 2), (24, 2), (1, 11)]);
    let v = p.legal_plays(roll(5, 5));
    let texts: Vec<String> = v.iter().map(notation::format_play).collect();
    assert!(v.iter().all(|p| p.hops().len() == 3), "{texts:?}");
    assert!(texts.contains(&"18/8 9/4".to_owned()), "{texts:?}");
    // Without the checker on 9, only two fives can be played.
    let p = pos(&[(18, 1), (6, 14)], &[(22, 2), (24, 2), (1, 11)]);
    assert_eq!(plays(&p, 5, 5), vec!["18/8".to_owned()]);
}

// --- Hitting and entering ---

#[test]
fn a_blot_landed_on_is_hit_and_placed_on_the_bar() {
    let p = pos(&[(13, 2), (6, 5)], &[(16, 1), (1, 14)]); // his 16 = our 9
    let hit = p
        .legal_plays(roll(4, 1))
        .into_iter()
        .find(|pl| notation::format_play(pl) == "13/9* 6/5")
        .expect("the hit is legal");
    assert!(hit.hops()[0].hit);
    assert_eq!(hit.result.opponent_checkers(25), 1, "on the bar");
    assert_eq!(hit.result.opponent_checkers(16), 0);
}

#[test]
fn a_checker_on_the_bar_enters_first_and_nothing_else_moves_before() {
    let p = pos(&[(25, 1), (13, 14)], &[(1, 15)]);
    for pl in p.legal_plays(roll(6, 4)) {
        assert_eq!(pl.hops()[0].from, 25, "{pl:?}");
    }
    let two_on_bar = pos(&[(25, 2), (13, 13)], &[(1, 15)]);
    assert_eq!(plays(&two_on_bar, 6, 4), vec!["bar/21 bar/19".to_owned()]);
}

#[test]
fn a_checker_enters_on_an_open_point_of_either_number_in_the_opposing_home_board() {
    // Rolls 4 and 6: entering on the opponent's 4 or 6 point (our 21 or 19), if open.
    let p = pos(&[(25, 1), (1, 14)], &[(4, 2), (3, 13)]);
    // His 4-point is closed: the checker enters with the 6 (on his 6-point, our 19) and plays
    // the 4 on (the checkers on our 1-point cannot move: not all are home).
    assert_eq!(plays(&p, 6, 4), vec!["bar/15".to_owned()]);
    // Both open: it may enter with either number.
    let p = pos(&[(25, 1), (1, 14)], &[(3, 15)]);
    assert_eq!(
        plays(&p, 6, 4),
        vec!["bar/15".to_owned()],
        "entering with the 4 then the 6, or the 6 then the 4, reach the same point"
    );
    let v = plays(&pos(&[(25, 1), (13, 14)], &[(3, 15)]), 6, 4);
    assert!(v.contains(&"bar/21 13/7".to_owned()) && v.contains(&"bar/19 13/9".to_owned()));
}

#[test]
fn if_neither_entry_point_is_open_the_turn_is_lost() {
    let p = pos(&[(25, 1), (1, 14)], &[(4, 2), (6, 2), (2, 11)]);
    assert_eq!(plays(&p, 6, 4), vec![String::new()]);
}

#[test]
fn enter_as_many_as_possible_then_forfeit_the_rest() {
    // Two on the bar, only his 3-point open among 3 and 5: with 3-3 both enter and then two
    // more threes are played; with 5-3 one enters and the 5 is lost.
    let p = pos(&[(25, 2), (8, 13)], &[(5, 2), (1, 13)]);
    let v = p.legal_plays(roll(5, 3));
    assert_eq!(v.len(), 1);
    assert_eq!(notation::format_play(&v[0]), "bar/22");
}

#[test]
fn after_the_last_checker_enters_unused_numbers_must_be_played_by_any_checker() {
    let p = pos(&[(25, 1), (13, 14)], &[(1, 15)]);
    let v = plays(&p, 6, 4);
    // The entered checker or another one plays the second number.
    assert!(v.contains(&"bar/15".to_owned()), "{v:?}");
    assert!(v.contains(&"bar/21 13/7".to_owned()), "{v:?}");
    assert!(v.iter().all(|s| s.split(' ').count() <= 2 && !s.is_empty()));
}

// --- Bearing off ---

#[test]
fn bearing_off_starts_only_with_all_fifteen_checkers_home() {
    let p = pos(&[(7, 1), (6, 14)], &[(1, 15)]);
    // 6/off is possible only once 7/6 (or 7/1) has brought the last checker home: no play
    // bears off with the 6 and leaves the 7 (as gnubg lists them).
    assert_eq!(
        plays(&p, 6, 1),
        vec!["7/1 6/5".to_owned(), "7/off".to_owned()]
    );
    assert_eq!(plays(&p, 6, 6), vec!["7/1 6/off(3)".to_owned()]);
}

#[test]
fn a_checker_is_borne_off_from_the_point_of_the_number_rolled() {
    let v = plays(&pos(&[(6, 2), (5, 2), (2, 1)], &[(1, 15)]), 6, 5);
    assert!(v.contains(&"6/off 5/off".to_owned()), "{v:?}");
}

#[test]
fn with_no_checker_on_that_point_a_move_must_use_a_higher_point() {
    // 4-1, nothing on 4, checkers on 6 and 3: the 4 must move 6/2; 3/off with the 4 is not
    // allowed while the 6 is occupied (gnubg lists the same two plays).
    let v = plays(&pos(&[(6, 1), (3, 1)], &[(1, 15)]), 4, 1);
    assert_eq!(v, vec!["6/1".to_owned(), "6/2 3/2".to_owned()]);
}

#[test]
fn with_no_checker_higher_the_highest_checker_is_borne_off() {
    let v = plays(&pos(&[(3, 1), (2, 1)], &[(1, 15)]), 6, 5);
    assert_eq!(v, vec!["3/off 2/off".to_owned()]);
}

#[test]
fn no_obligation_to_bear_off_when_another_legal_move_exists() {
    // 5-1 with checkers on 6, 6 and 5: bearing off 5/off is allowed but 6/5 6/1 and
    // 6/1 5/4 are legal too (gnubg lists these three).
    let v = plays(&pos(&[(6, 2), (5, 1)], &[(1, 15)]), 5, 1);
    assert_eq!(
        v,
        vec![
            "6/1 5/4".to_owned(),
            "6/5 6/1".to_owned(),
            "6/off".to_owned()
        ]
    );
}

#[test]
fn a_checker_hit_during_the_bear_off_must_come_home_before_bearing_off_resumes() {
    let p = pos(&[(25, 1), (3, 14)], &[(1, 15)]);
    let v = plays(&p, 6, 3);
    // Enter with the 6 on his 6-point (our 19) and move on 3: no bear-off this turn.
    assert!(v.iter().all(|s| !s.contains("off")), "{v:?}");
}

#[test]
fn the_first_player_to_bear_off_all_fifteen_checkers_wins() {
    let p = pos(&[(1, 1)], &[(6, 14), (23, 1)]);
    let mut m = at(
        Options::money(),
        p,
        Side::Black,
        Phase::Moving { roll: roll(2, 1) },
    );
    play(&mut m, "1/off");
    assert_eq!(m.phase(), Phase::Over);
    assert_eq!(m.results()[0].winner, Side::Black);
}

// --- End of the game ---

fn finish(p: Position, cube_turned: bool) -> tablier_backgammon::game::GameResult {
    let mut options = Options::money();
    options.jacoby = false;
    let cube = if cube_turned { 2 } else { 1 };
    let owner = cube_turned.then_some(Side::Black);
    let mut m = Match::from_parts(
        options,
        [0, 0],
        false,
        p,
        Side::White,
        cube,
        owner,
        Phase::Moving { roll: roll(6, 5) },
    )
    .unwrap();
    let a = m.legal_actions()[0];
    m.apply(&a).unwrap();
    m.results()[0]
}

#[test]
fn a_loser_who_bore_off_a_checker_loses_the_value_of_the_cube() {
    let r = finish(pos(&[(1, 1)], &[(6, 13)]), true);
    assert_eq!((r.kind, r.points), (WinKind::Single, 2));
}

#[test]
fn a_loser_who_bore_off_none_is_gammoned_and_loses_twice_the_cube() {
    let r = finish(pos(&[(1, 1)], &[(6, 15)]), true);
    assert_eq!((r.kind, r.points), (WinKind::Gammon, 4));
}

#[test]
fn a_loser_with_none_off_and_a_checker_on_the_bar_is_backgammoned() {
    let r = finish(pos(&[(1, 1)], &[(6, 14), (25, 1)]), false);
    assert_eq!((r.kind, r.points), (WinKind::Backgammon, 3));
}

#[test]
fn a_loser_with_none_off_and_a_checker_in_the_winners_home_board_is_backgammoned() {
    // His 19 is the winner's 6-point.
    let r = finish(pos(&[(1, 1)], &[(6, 14), (19, 1)]), true);
    assert_eq!((r.kind, r.points), (WinKind::Backgammon, 6));
    // His 18 (the winner's 7) is outside the winner's home board: a gammon only.
    let r = finish(pos(&[(1, 1)], &[(6, 14), (18, 1)]), true);
    assert_eq!(r.kind, WinKind::Gammon);
}

// --- The doubling cube (Competição / Competencia) ---

fn before_roll(options: Options) -> Match {
    let mut m = Match::new(options);
    m.apply(&Action::OpeningRoll { white: 3, black: 1 })
        .unwrap();
    play(&mut m, "8/5 6/5");
    m
}

#[test]
fn the_doubled_side_accepts_or_loses_the_game_at_the_stakes_before_the_double() {
    let mut m = before_roll(Options::money());
    m.apply(&Action::Double).unwrap();
    assert_eq!(m.actor(), Actor::Player(Side::White));
    let mut dropped = m.clone();
    dropped.apply(&Action::Drop).unwrap();
    let r = dropped.results()[0];
    assert_eq!((r.winner, r.points, r.dropped), (Side::Black, 1, true));
    m.apply(&Action::Take).unwrap();
    assert_eq!(m.cube(), (2, Some(Side::White)));
    // The doubler rolls at once.
    assert_eq!((m.actor(), m.turn()), (Actor::Chance, Side::Black));
}

#[test]
fn the_same_player_cannot_double_again_before_the_other_has_redoubled() {
    let mut m = before_roll(Options::money());
    m.apply(&Action::Double).unwrap(); // black doubles
    m.apply(&Action::Take).unwrap(); // white owns the 2-cube
    m.apply(&Action::Dice(roll(6, 5))).unwrap();
    play(&mut m, "24/13");
    // White's turn: he may redouble.
    assert!(m.legal_actions().contains(&Action::Double));
    m.apply(&Action::Roll).unwrap();
    m.apply(&Action::Dice(roll(2, 1))).unwrap();
    play(&mut m, "13/11 6/5");
    // Black, the first doubler, is on turn again and may not double before white has.
    assert_eq!(m.turn(), Side::Black);
    assert!(!m.legal_actions().contains(&Action::Double));
    assert!(m.apply(&Action::Double).is_err());
}

#[test]
fn only_the_owner_of_the_cube_may_double() {
    let mut m = before_roll(Options::money());
    m.apply(&Action::Double).unwrap();
    m.apply(&Action::Take).unwrap(); // white owns the 2-cube
    m.apply(&Action::Dice(roll(6, 5))).unwrap();
    play(&mut m, "24/13");
    m.apply(&Action::Roll).unwrap(); // white rolls
    m.apply(&Action::Dice(roll(2, 1))).unwrap();
    let a = m.legal_actions()[0];
    m.apply(&a).unwrap();
    // Black is on turn but does not own the cube.
    assert_eq!(m.turn(), Side::Black);
    let before = m.clone();
    let e = m.apply(&Action::Double).unwrap_err();
    assert!(e.reason.contains("owner"), "{e}");
    assert_eq!(m, before);
}

#[test]
fn the_stakes_double_each_time_to_16_32_64() {
    let mut m = before_roll(Options::money());
    let mut expected = 1;
    for _ in 0..6 {
        m.apply(&Action::Double).unwrap();
        m.apply(&Action::Take).unwrap();
        expected *= 2;
        assert_eq!(m.cube().0, expected);
        let (_, owner) = m.cube();
        m.apply(&Action::Dice(roll(2, 1))).unwrap();
        let a = m.legal_actions()[0];
        m.apply(&a).unwrap();
        assert_eq!(Some(m.turn()), owner);
    }
    assert_eq!(m.cube().0, 64);
}

#[test]
fn a_cube_limit_stops_doubling() {
    let mut o = Options::money();
    o.cube_limit = 2;
    let mut m = before_roll(o);
    m.apply(&Action::Double).unwrap();
    m.apply(&Action::Take).unwrap();
    m.apply(&Action::Dice(roll(2, 1))).unwrap();
    let a = m.legal_actions()[0];
    m.apply(&a).unwrap();
    assert!(!m.legal_actions().contains(&Action::Double));
}

#[test]
fn jacoby_rule_gammons_count_single_with_a_centred_cube() {
    let p = pos(&[(1, 1)], &[(6, 15)]);
    let mut m = at(
        Options::money(),
        p,
        Side::White,
        Phase::Moving { roll: roll(6, 5) },
    );
    let a = m.legal_actions()[0];
    m.apply(&a).unwrap();
    let r = m.results()[0];
    assert_eq!((r.kind, r.points), (WinKind::Gammon, 1));
}

#[test]
fn beavers_take_and_redouble_keeping_the_cube() {
    let mut o = Options::money();
    o.beavers = true;
    let mut m = before_roll(o);
    m.apply(&Action::Double).unwrap();
    assert!(m.legal_actions().contains(&Action::Beaver));
    m.apply(&Action::Beaver).unwrap();
    assert_eq!(m.cube(), (4, Some(Side::White)));
    // No beavers in match play.
    let mut m = before_roll(Options::match_to(7));
    m.apply(&Action::Double).unwrap();
    assert!(m.apply(&Action::Beaver).is_err());
}

#[test]
fn resignations_are_offered_then_accepted_or_refused() {
    let mut m = before_roll(Options::match_to(7));
    m.apply(&Action::Resign(WinKind::Gammon)).unwrap();
    assert_eq!(m.actor(), Actor::Player(Side::White));
    let mut refused = m.clone();
    refused.apply(&Action::Reject).unwrap();
    assert_eq!(refused.phase(), Phase::BeforeRoll);
    m.apply(&Action::Accept).unwrap();
    assert_eq!(m.score(), [2, 0]);
    assert_eq!(m.phase(), Phase::Opening);
}

// --- Matches ---

#[test]
fn match_points_count_only_what_is_needed_to_finish() {
    let p = pos(&[(1, 1)], &[(6, 15)]);
    let mut m = Match::from_parts(
        Options::match_to(5),
        [4, 3],
        false,
        p,
        Side::White,
        1,
        None,
        Phase::Moving { roll: roll(6, 5) },
    )
    .unwrap();
    let a = m.legal_actions()[0];
    m.apply(&a).unwrap();
    let r = m.results()[0];
    assert_eq!((r.points, r.credited), (2, 1));
    assert_eq!(m.score(), [5, 3]);
    assert_eq!(m.phase(), Phase::Over);
}

#[test]
fn the_crawford_game_has_no_doubling_and_post_crawford_games_do() {
    let mut m = Match::new(Options::match_to(3));
    // White wins a gammon: 2 points, one short of 3.
    m.apply(&Action::OpeningRoll { white: 3, black: 1 })
        .unwrap();
    m.apply(&Action::Resign(WinKind::Gammon)).unwrap();
    m.apply(&Action::Accept).unwrap();
    assert_eq!(m.score(), [0, 2]);
    assert!(m.is_crawford_game());
    m.apply(&Action::OpeningRoll { white: 3, black: 1 })
        .unwrap();
    play(&mut m, "8/5 6/5");
    assert!(!m.legal_actions().contains(&Action::Double));
    assert!(m.apply(&Action::Double).is_err());
    // White wins the Crawford game: the next one is post-Crawford, doubling allowed.
    m.apply(&Action::Resign(WinKind::Single)).unwrap();
    m.apply(&Action::Accept).unwrap();
    assert_eq!(m.score(), [1, 2]);
    assert!(!m.is_crawford_game());
    m.apply(&Action::OpeningRoll { white: 3, black: 1 })
        .unwrap();
    play(&mut m, "8/5 6/5");
    assert!(m.legal_actions().contains(&Action::Double));
}

// --- Bad input ---

#[test]
fn an_illegal_play_is_refused_and_changes_nothing() {
    let mut m = Match::new(Options::money());
    m.apply(&Action::OpeningRoll { white: 3, black: 1 })
        .unwrap();
    let before = m.clone();
    assert!(m.parse_action("24/18").is_err());
    assert!(m.parse_action("8/5 6/6").is_err());
    assert!(m.parse_action("banana").is_err());
    // A play of another position, sent as an action.
    let foreign: Play = pos(&[(24, 15)], &[(2, 15)]).legal_plays(roll(3, 1))[0];
    assert!(m.apply(&Action::Play(foreign)).is_err());
    assert_eq!(m, before);
}

#[test]
fn out_of_turn_cube_actions_are_refused_and_change_nothing() {
    let mut m = Match::new(Options::money());
    m.apply(&Action::OpeningRoll { white: 3, black: 1 })
        .unwrap();
    let before = m.clone();
    for a in [
        Action::Double,
        Action::Take,
        Action::Drop,
        Action::Beaver,
        Action::Accept,
    ] {
        let e = m.apply(&a).unwrap_err();
        assert!(!e.reason.is_empty());
        assert_eq!(m, before);
    }
    play(&mut m, "8/5 6/5");
    let before = m.clone();
    assert!(m
        .apply(&Action::Take)
        .unwrap_err()
        .reason
        .contains("roll or double"));
    assert!(m.apply(&Action::Dice(roll(3, 3))).is_err());
    assert_eq!(m, before);
}
