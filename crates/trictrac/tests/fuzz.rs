//! Fuzzing that stays: proptest targets for every trictrac parser: the position notation
//! (`1W15-24B15`) and what is computed from a position read (the roll's score and plays, a
//! game set up on it), rolls (`6-5`), the action notation of a game (`W5 B3`, `6-5`,
//! `1-7,1-6`, `8-12-16`, `mark 4`, ...), and game records (JSON lines) replayed.
//!
//! Each target feeds (a) arbitrary text: random bytes read as lossy UTF-8, strings of any
//! characters, and long strings (up to 4 KB) of the format's own characters mixed with awkward
//! Unicode; (b) valid samples with characters replaced, inserted, deleted, duplicated, swapped
//! or bit-flipped (records also with lines deleted, repeated or swapped, and with fields of
//! other values and types); (c) round trips: a parsed value formats back and reads again to
//! the same value. Nothing may panic (proptest reports a panic as a failure), every refusal
//! is an `Err` whose message can be shown, and what is accepted is consistent (an action read
//! is applied, a record replays to the game that wrote it).
//!
//! The default numbers of cases keep the file to a few seconds in the `ci` profile. Run it
//! longer (every target of the file runs that many cases) with:
//!
//! ```text
//! PROPTEST_CASES=1000000 cargo test --profile ci -p tablier-trictrac --test fuzz
//! ```

use proptest::prelude::*;
use proptest::sample::Index;
use tablier_core::{Actor, Game as _, SeededDice, Side};
use tablier_test_support::fuzz::{any_text, config, edits, mutate};
use tablier_trictrac::{
    Board, Edition, JanContext, Marker, Marking, Options, Partie, Roll, RollScore, Trictrac,
};

// ---------------------------------------------------------------------------------------------
// Games to read actions against.

/// Options of a game, with the partie à écrire's number of marqués as a record header could
/// give it (odd, zero, huge).
fn options() -> impl Strategy<Value = Options> {
    (
        any::<bool>(),
        prop_oneof![
            3 => Just(None),
            2 => prop::sample::select(vec![2u32, 4]).prop_map(Some),
            1 => prop::sample::select(vec![0u32, 1, 3, u32::MAX]).prop_map(Some),
        ],
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(ecoles, marques, stakes, first)| Options {
            marking: if ecoles {
                Marking::Ecoles
            } else {
                Marking::Automatic
            },
            partie: marques.map_or(Partie::Ordinaire, |marques| Partie::AEcrire { marques }),
            stakes,
            edition: if first {
                Edition::First
            } else {
                Edition::Second
            },
        })
}

/// A game after random actions: the dice from a seed, the players' actions chosen by index.
#[derive(Clone, Debug)]
struct GameSpot {
    options: Options,
    seed: [u8; 32],
    steps: Vec<Index>,
}

fn game_spot() -> impl Strategy<Value = GameSpot> {
    (
        options(),
        any::<[u8; 32]>(),
        prop::collection::vec(any::<Index>(), 0..150),
    )
        .prop_map(|(options, seed, steps)| GameSpot {
            options,
            seed,
            steps,
        })
}

fn play_on(g: &mut Trictrac, dice: &mut SeededDice, steps: &[Index]) {
    for i in steps {
        let a = match g.actor() {
            Actor::Nobody => break,
            Actor::Chance => g.chance_action(dice).expect("chance acts"),
            Actor::Player(_) => {
                let legal = g.legal_actions();
                assert!(!legal.is_empty(), "a player always has an action");
                legal[i.index(legal.len())].clone()
            }
        };
        g.apply(&a).expect("a legal action");
    }
}

fn game(s: &GameSpot) -> Trictrac {
    let mut g = Trictrac::new(s.options);
    let mut dice = SeededDice::from_seed(s.seed);
    play_on(&mut g, &mut dice, &s.steps);
    g
}

// ---------------------------------------------------------------------------------------------
// Checks.

/// A position read writes back and reads again the same; every roll for either side is
/// scored on it, its legal plays' notation is found again, and a game set up on it plays on.
fn check_board(text: &str, steps: &[Index]) -> Result<(), TestCaseError> {
    let board = match Board::parse(text) {
        Ok(b) => b,
        Err(e) => {
            prop_assert!(!e.to_string().is_empty());
            return Ok(());
        }
    };
    let written = board.to_string();
    prop_assert_eq!(Board::parse(&written), Ok(board), "{}", written);
    prop_assert_eq!(written.parse::<Board>(), Ok(board));
    for side in Side::ALL {
        prop_assert!(board.on_board(side) <= 15);
        for (a, b) in [(6, 5), (3, 3), (2, 1), (6, 6), (1, 1), (5, 4)] {
            let score = RollScore::new(&board, side, Roll::new(a, b), JanContext::default());
            for c in &score.plays.legal {
                let t = c.play.notation();
                let found = score.plays.find(&t);
                prop_assert!(found.is_ok(), "{} not found in {}", t, written);
            }
        }
        let mut g = Trictrac::from_position(Options::default(), board, Marker::new(), side);
        let mut dice = SeededDice::from_seed([side.index() as u8; 32]);
        play_on(&mut g, &mut dice, steps);
        check_game_state(&g)?;
    }
    Ok(())
}

fn check_roll(text: &str) -> Result<(), TestCaseError> {
    match Roll::parse(text) {
        Ok(r) => prop_assert_eq!(Roll::parse(&r.to_string()), Ok(r)),
        Err(e) => prop_assert!(!e.to_string().is_empty()),
    }
    Ok(())
}

/// Every legal action's notation reads back to it.
fn check_game_state(g: &Trictrac) -> Result<(), TestCaseError> {
    for a in g.legal_actions() {
        let t = g.format_action(&a);
        prop_assert_eq!(g.parse_action(&t), Ok(a), "{}", t);
    }
    Ok(())
}

/// Text read as an action: what is read is applied; a refused action leaves the game as it
/// was.
fn check_action_text(g: &Trictrac, text: &str) -> Result<(), TestCaseError> {
    match g.parse_action(text) {
        Ok(a) => {
            prop_assert!(g.legal_actions().contains(&a));
            let mut h = g.clone();
            let applied = h.apply(&a);
            prop_assert!(
                applied.is_ok(),
                "{} read as {:?} but refused: {:?}",
                text,
                a,
                applied
            );
        }
        Err(e) => prop_assert!(!e.to_string().is_empty()),
    }
    Ok(())
}

/// A record replayed: what replays writes the same record again.
fn check_record(text: &str) -> Result<(), TestCaseError> {
    match Trictrac::replay(text) {
        Ok(g) => {
            let again = Trictrac::replay(&g.record());
            prop_assert!(
                again.as_ref() == Ok(&g),
                "{} replayed, its record did not",
                text
            );
            check_game_state(&g)?;
        }
        Err(e) => prop_assert!(e.line >= 1 && !e.to_string().is_empty()),
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Samples and record mutations.

const BOARD_CHARS: &str = "0123456789WBwb- ";
const ROLL_CHARS: &str = "0123456789-, ";
const ACTION_CHARS: &str = "0123456789-, WBgostaymrkcliedneb puissanceoff";
const RECORD_CHARS: &str = "{}[]\":,0123456789-. \nabcdefghijklmnopqrstuvwxyzWB";

fn board_samples() -> Vec<&'static str> {
    vec![
        "1W15-24B15",
        "7W2-8W3-9W3-10W2-11W3-12W2-13B4-14B3-15B3-17B4-20B1",
        "1W2-4W1-6W1-7W3-8W2-9W2-11W2-12W2-13B2-14B2-15B1-17B2-18B2",
        "-",
        "",
        "1w13-4w1-6w1-24b15",
        "12W2-13B2",
        "19W2-20W2-21W2-22W2-23W2-24W2-1B3",
    ]
}

/// One change to a record: a line deleted, repeated or swapped, or a field of a line (or of
/// the header's options) replaced by another value.
#[derive(Clone, Debug)]
enum RecordEdit {
    Delete(Index),
    Repeat(Index, Index),
    Swap(Index, Index),
    Field(Index, Index, Value),
}

#[derive(Clone, Debug)]
enum Value {
    Text(String),
    Number(i128),
    Float(f64),
    Null,
    Bool(bool),
    Array(Vec<i64>),
    Nested(usize),
}

impl Value {
    fn json(&self) -> serde_json::Value {
        match self {
            Value::Text(s) => serde_json::Value::from(s.as_str()),
            Value::Number(n) => serde_json::from_str(&n.to_string()).unwrap_or_default(),
            Value::Float(f) => serde_json::Value::from(*f),
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::from(*b),
            Value::Array(v) => serde_json::Value::from(v.clone()),
            Value::Nested(depth) => {
                let mut v = serde_json::Value::from(0);
                for _ in 0..*depth {
                    v = serde_json::Value::Array(vec![v]);
                }
                v
            }
        }
    }
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => any_text(ACTION_CHARS).prop_map(Value::Text),
        2 => prop_oneof![
            Just(0i128), Just(-1), Just(1), Just(12), Just(u32::MAX as i128),
            Just(u32::MAX as i128 + 1), Just(u64::MAX as i128), Just(i128::MAX),
            any::<i128>(),
        ].prop_map(Value::Number),
        1 => any::<f64>().prop_map(Value::Float),
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => prop::collection::vec(any::<i64>(), 0..4).prop_map(Value::Array),
        1 => (0usize..200).prop_map(Value::Nested),
    ]
}

fn record_edits() -> impl Strategy<Value = Vec<RecordEdit>> {
    let edit = prop_oneof![
        1 => any::<Index>().prop_map(RecordEdit::Delete),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| RecordEdit::Repeat(a, b)),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| RecordEdit::Swap(a, b)),
        4 => (any::<Index>(), any::<Index>(), value()).prop_map(|(a, b, v)| RecordEdit::Field(a, b, v)),
    ];
    prop::collection::vec(edit, 1..4)
}

/// The fields a record's lines have, and those of the header's options.
const FIELDS: [&str; 10] = [
    "by", "action", "points", "holes", "game", "marking", "partie", "stakes", "marques", "edition",
];

fn edit_record(record: &str, edits: &[RecordEdit]) -> String {
    let mut lines: Vec<String> = record.lines().map(String::from).collect();
    for e in edits {
        if lines.is_empty() {
            break;
        }
        let n = lines.len();
        match e {
            RecordEdit::Delete(i) => {
                lines.remove(i.index(n));
            }
            RecordEdit::Repeat(a, b) => {
                let l = lines[b.index(n)].clone();
                lines.insert(a.index(n), l);
            }
            RecordEdit::Swap(a, b) => lines.swap(a.index(n), b.index(n)),
            RecordEdit::Field(i, f, v) => {
                let k = i.index(n);
                let Ok(mut json) = serde_json::from_str::<serde_json::Value>(&lines[k]) else {
                    continue;
                };
                let field = FIELDS[f.index(FIELDS.len())];
                set_field(&mut json, field, v.json());
                lines[k] = json.to_string();
            }
        }
    }
    lines.join("\n")
}

/// Sets `field` wherever it is found (the options are nested in the header), or at the top.
fn set_field(json: &mut serde_json::Value, field: &str, v: serde_json::Value) {
    fn find(json: &mut serde_json::Value, field: &str, v: &serde_json::Value) -> bool {
        match json {
            serde_json::Value::Object(map) => {
                if let Some(slot) = map.get_mut(field) {
                    *slot = v.clone();
                    return true;
                }
                map.values_mut().any(|x| find(x, field, v))
            }
            _ => false,
        }
    }
    if !find(json, field, &v) {
        if let serde_json::Value::Object(map) = json {
            map.insert(field.to_string(), v);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The targets.

proptest! {
    #![proptest_config(config(3000))]

    /// (a) Arbitrary text read as a position and as a roll; (b) mutations of positions;
    /// (c) positions write back to themselves.
    #[test]
    fn board_and_roll_text(
        text in any_text(BOARD_CHARS),
        roll in any_text(ROLL_CHARS),
        pick in any::<Index>(),
        e in edits(BOARD_CHARS),
        steps in prop::collection::vec(any::<Index>(), 0..8),
    ) {
        check_board(&text, &steps)?;
        check_roll(&roll)?;
        check_roll(&text)?;
        let samples = board_samples();
        check_board(&mutate(samples[pick.index(samples.len())], &e), &steps)?;
        check_roll(&mutate("6-5", &e))?;
    }
}

proptest! {
    #![proptest_config(config(1200))]

    /// (a) Arbitrary text read as an action of a random game; (b) mutations of its legal
    /// actions' notation; (c) every legal action's notation reads back to it, and the
    /// game's board writes back to itself.
    #[test]
    fn action_text(
        s in game_spot(),
        text in any_text(ACTION_CHARS),
        pick in any::<Index>(),
        e in edits(ACTION_CHARS),
    ) {
        let g = game(&s);
        check_game_state(&g)?;
        check_action_text(&g, &text)?;
        let legal = g.legal_actions();
        let sample = legal
            .get(pick.index(legal.len().max(1)))
            .map_or_else(|| "1-7,1-6".to_string(), |a| g.format_action(a));
        check_action_text(&g, &mutate(&sample, &e))?;
        let board = g.board().to_string();
        prop_assert_eq!(Board::parse(&board), Ok(*g.board()));
    }

}

proptest! {
    #![proptest_config(config(500))]

    /// Records: (a) arbitrary text; (b) a random game's record with lines and fields changed,
    /// and with characters edited; (c) the record replays to the game that wrote it.
    #[test]
    fn records(
        s in game_spot(),
        text in any_text(RECORD_CHARS),
        re in record_edits(),
        e in edits(RECORD_CHARS),
    ) {
        check_record(&text)?;
        let g = game(&s);
        let record = g.record();
        let replayed = Trictrac::replay(&record);
        prop_assert!(replayed.as_ref() == Ok(&g), "{} does not replay", record);
        check_record(&edit_record(&record, &re))?;
        check_record(&mutate(&record, &e))?;
    }
}

// ---------------------------------------------------------------------------------------------
// Regressions found by the targets above are kept here by name, as a `#[test]` with the
// failing input (none so far).
