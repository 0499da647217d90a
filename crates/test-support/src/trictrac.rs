//! What the trictrac test suites share (feature `trictrac`): the book's arithmetic tables of
//! numbers (tables C to F, kept once in this crate's `data/`), and small builders of
//! positions, scores and games used by the paragraph-by-paragraph tests of the rules crate.

use tablier_core::{Game, Side};
use tablier_trictrac::marker::Marker;
use tablier_trictrac::{
    Action, Board, EventKind, JanContext, Marking, Options, Partie, Roll, RollScore, Trictrac,
};

/// The numbers of a row, written as the tables write them (`"2 5 6"`).
fn numbers(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|n| n.parse().expect("a number from 1 to 6"))
        .collect()
}

/// A count of the tables.
fn count(text: &str) -> u32 {
    text.trim().parse().expect("a count")
}

/// Tables C, D and E of the book (n°271–279): for every set of two, three and four numbers,
/// in how many of the 36 throws at least one of them can be played. 781 rows: 66 pairs, 220
/// triples, 495 quadruples.
#[must_use]
pub fn tables_c_d_e() -> Vec<(Vec<u8>, u32)> {
    include_str!("../data/tables_C_D_E_generated.csv")
        .lines()
        .skip(1)
        .map(|line| {
            let (set, chances) = line.split_once(',').expect("two columns");
            (numbers(set), count(chances))
        })
        .collect()
}

/// A row of table F of the book (n°280–312).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableFRow {
    /// The sum of the numbers.
    pub sum: u32,
    /// The numbers (1 to 6) of the set.
    pub numbers: Vec<u8>,
    /// In how many of the 36 throws at least one, two, three of them can be played.
    pub at_least: [u32; 3],
    /// The ways of playing them all told.
    pub total: u32,
}

/// Table F of the book: 793 rows.
#[must_use]
pub fn table_f() -> Vec<TableFRow> {
    include_str!("../data/table_F_generated.csv")
        .lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            TableFRow {
                sum: count(f[0]),
                numbers: numbers(f[1]),
                at_least: [count(f[2]), count(f[3]), count(f[4])],
                total: count(f[5]),
            }
        })
        .collect()
}

/// The score of `who`'s `roll` on the board `pos` (its jans, points and plays).
#[must_use]
pub fn score(pos: &str, who: Side, roll: &str) -> RollScore {
    RollScore::new(
        &Board::parse(pos).expect("a board"),
        who,
        Roll::parse(roll).expect("a roll"),
        JanContext::default(),
    )
}

/// The points a score gives for one kind of jan.
#[must_use]
pub fn points(s: &RollScore, kind: EventKind) -> u32 {
    s.of(kind).map(|e| e.points).sum()
}

/// A partie ordinaire from the board `pos` with `marker`, `roller` to throw, scored as
/// `marking` says.
#[must_use]
pub fn game(pos: &str, marker: Marker, roller: Side, marking: Marking) -> Trictrac {
    Trictrac::from_position(
        Options {
            marking,
            partie: Partie::Ordinaire,
            stakes: false,
            ..Options::default()
        },
        Board::parse(pos).expect("a board"),
        marker,
        roller,
    )
}

/// Reads and applies an action that must be legal (the test fails with the phase otherwise).
pub fn act(g: &mut Trictrac, text: &str) {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e} in {:?}", g.phase()));
    g.apply(&a).unwrap();
}

/// An action that must be refused, leaving the game unchanged; returns the reason.
pub fn refused(g: &mut Trictrac, action: Action) -> String {
    let before = g.clone();
    let err = g.apply(&action).unwrap_err();
    assert!(*g == before, "a refused action changed the game");
    assert!(!g.legal_actions().contains(&action));
    err.to_string()
}

/// Plays the first legal play.
pub fn play_any(g: &mut Trictrac) {
    let a = g
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::Play(_)))
        .expect("a play");
    g.apply(&a).unwrap();
}

/// Plays the legal play of the current roll that bears off the roller's last dame.
///
/// # Panics
/// When no legal play bears it off.
pub fn bear_off(g: &mut Trictrac) {
    let who = g.roller();
    let play = g
        .roll_score()
        .expect("a roll to play")
        .plays
        .legal
        .iter()
        .find(|c| c.end.on_board(who) == 0)
        .expect("a play that bears off the last dame")
        .play
        .notation();
    act(g, &play);
}
