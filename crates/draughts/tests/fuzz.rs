//! Fuzzing that stays: proptest targets for the draughts parsers other than PDN files (which
//! have their own): FEN for every variant, move text resolved against a position (`32-28`,
//! `28x19`, `28x37x46`, and algebraic `c3-d4` through the PDN move syntax and
//! [`replay::replay`]), and the old French rules' action notation (`s12`, `e31-26/22`, ...).
//!
//! Each target feeds (a) arbitrary text: random bytes read as lossy UTF-8, strings of any
//! characters, and long strings (up to 4 KB) of the format's own characters mixed with awkward
//! Unicode; (b) valid samples with characters replaced, inserted, deleted, duplicated, swapped
//! or bit-flipped; (c) round trips: a parsed value formats back and reads again to the same
//! value. Nothing may panic (proptest reports a panic as a failure), every refusal is an `Err`
//! whose message can be shown, and what is accepted is consistent (a move read from text is a
//! legal move, an action refused leaves the game as it was).
//!
//! The default numbers of cases keep the file to a few seconds in the `ci` profile. Run it
//! longer (every target of the file runs that many cases) with:
//!
//! ```text
//! PROPTEST_CASES=1000000 cargo test --profile ci -p tablier-draughts --test fuzz
//! ```

use proptest::prelude::*;
use proptest::sample::Index;
use tablier_core::{Game as _, Side};
use tablier_draughts::french::{self, BoardEntry, FrenchGame, TableOptions};
use tablier_draughts::game::Game;
use tablier_draughts::notation::{self, MoveText};
use tablier_draughts::pdn::{Element, PdnGame, PdnMove};
use tablier_draughts::replay::{self, ReplayError, Replayed};
use tablier_draughts::{
    fen, with_board, Geometry, Piece, Position, Variant, FRENCH_OLD, G10, G12, G8, VARIANTS,
};
use tablier_test_support::fuzz::{any_text, config, edits, mutate};

// ---------------------------------------------------------------------------------------------
// Positions to read moves against.

/// FENs of the project's data files (international 10x10).
fn data_fens() -> Vec<&'static str> {
    [
        include_str!("data/positions.txt"),
        include_str!("data/rules_positions.txt"),
    ]
    .iter()
    .flat_map(|t| t.lines())
    .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    .filter_map(|l| l.split('|').nth(1))
    .collect()
}

#[derive(Clone, Debug)]
enum Setup {
    Start,
    /// A FEN of the data files (10x10 variants; the start elsewhere).
    Data(Index),
    /// Pieces dropped on random squares (`(square, white, king)`; misplaced men are skipped).
    Pieces(bool, Vec<(Index, bool, bool)>),
}

/// A position: a variant, a setup, then random legal moves.
#[derive(Clone, Debug)]
struct Spot {
    variant: usize,
    setup: Setup,
    plies: Vec<Index>,
}

fn spot() -> impl Strategy<Value = Spot> {
    let setup = prop_oneof![
        1 => Just(Setup::Start),
        1 => any::<Index>().prop_map(Setup::Data),
        2 => (
            any::<bool>(),
            prop::collection::vec((any::<Index>(), any::<bool>(), prop::bool::weighted(0.3)), 0..24),
        )
            .prop_map(|(black, pieces)| Setup::Pieces(black, pieces)),
    ];
    (
        0..VARIANTS.len(),
        setup,
        prop::collection::vec(any::<Index>(), 0..30),
    )
        .prop_map(|(variant, setup, plies)| Spot {
            variant,
            setup,
            plies,
        })
}

fn build<G: Geometry>(v: &'static Variant, spot: &Spot) -> Position<G> {
    let start = Position::<G>::start(v).expect("each variant on its own board");
    let mut p = match &spot.setup {
        Setup::Start => start,
        Setup::Data(i) if G::N == 10 => {
            let fens = data_fens();
            fen::parse(v, fens[i.index(fens.len())]).unwrap_or(start)
        }
        Setup::Data(_) => start,
        Setup::Pieces(black, pieces) => {
            let side = if *black { Side::Black } else { Side::White };
            let mut p = Position::<G>::empty(v, side).expect("own board");
            for (i, white, king) in pieces {
                let square = u32::try_from(i.index(G::SQUARES as usize)).unwrap() + 1;
                let side = if *white { Side::White } else { Side::Black };
                let _ = p.put(square, Piece { side, king: *king });
            }
            p
        }
    };
    for i in &spot.plies {
        let legal = p.legal_moves();
        if legal.is_empty() {
            break;
        }
        p.play_unchecked(&legal[i.index(legal.len())]);
    }
    p
}

/// A square in algebraic notation (`a1` is white's bottom left corner).
fn algebraic<G: Geometry>(s: u8) -> String {
    let (row, col) = G::row_col(u32::from(s));
    format!(
        "{}{}",
        char::from(b'a' + u8::try_from(col).unwrap()),
        G::N - row
    )
}

/// Replays one move written in PDN move syntax (numeric or algebraic) from `p`, as a record
/// with `GameType` and `FEN` tags; `None` when the text is not PDN move syntax.
fn replay_one<G: Geometry>(p: &Position<G>, text: &str) -> Option<Result<Replayed, ReplayError>> {
    let mv: PdnMove = text.parse().ok()?;
    let g = PdnGame {
        tags: vec![
            ("GameType".into(), p.variant().pdn_game_type.into()),
            ("FEN".into(), fen::write(p)),
        ],
        body: vec![Element::Move {
            number: None,
            mv,
            strength: None,
        }],
        result: None,
    };
    Some(replay::replay(&g, 1, p.variant()))
}

fn after<G: Geometry>(p: &Position<G>, m: &tablier_draughts::Move<G>) -> Position<G> {
    let mut q = *p;
    q.play_unchecked(m);
    q
}

// ---------------------------------------------------------------------------------------------
// Checks.

/// Reads `text` as FEN of `v` on every board: no panic; on the variant's own board a position
/// that is read writes back (with and without ranges) to the same position.
fn check_fen_all_boards(v: &'static Variant, text: &str) -> Result<(), TestCaseError> {
    check_fen::<G8>(v, text)?;
    check_fen::<G10>(v, text)?;
    check_fen::<G12>(v, text)
}

fn check_fen<G: Geometry>(v: &'static Variant, text: &str) -> Result<(), TestCaseError> {
    match fen::parse::<G>(v, text) {
        Err(e) => prop_assert!(!e.to_string().is_empty()),
        Ok(p) => {
            prop_assert_eq!(v.board.side(), G::N, "a FEN read on another board");
            let written = fen::write(&p);
            prop_assert_eq!(fen::parse::<G>(v, &written), Ok(p), "{}", written);
            let plain = fen::write_plain(&p);
            prop_assert_eq!(fen::parse::<G>(v, &plain), Ok(p), "{}", plain);
        }
    }
    Ok(())
}

/// Every legal move's notation (short, full path, algebraic) reads back to that move.
fn check_round_trips<G: Geometry>(p: &Position<G>) -> Result<(), TestCaseError> {
    let french = french::is_french(p.variant());
    for m in &p.legal_moves() {
        let short = notation::format(p, m);
        prop_assert_eq!(
            notation::parse(p, &short),
            Ok(*m),
            "{} in {}",
            &short,
            fen::write(p)
        );
        let full = notation::format_full(p, m);
        prop_assert_eq!(
            notation::parse(p, &full),
            Ok(*m),
            "{} in {}",
            &full,
            fen::write(p)
        );
        if !french {
            let path = if m.is_capture() {
                notation::capture_path(p, m)
            } else {
                vec![m.from(), m.to()]
            };
            let sep = if m.is_capture() { "x" } else { "-" };
            let alg: Vec<String> = path.iter().map(|&s| algebraic::<G>(s)).collect();
            let alg = alg.join(sep);
            let replayed = replay_one(p, &alg).expect("algebraic PDN move syntax");
            prop_assert_eq!(
                replayed.map(|r| r.final_fen),
                Ok(fen::write(&after(p, m))),
                "{} in {}",
                &alg,
                fen::write(p)
            );
        }
    }
    Ok(())
}

/// Reads `text` as a move of `p` every way the crate offers: a move read is legal, a refusal
/// is an error, the game is unchanged by what it refuses.
fn check_move_text<G: Geometry>(p: &Position<G>, text: &str) -> Result<(), TestCaseError> {
    let legal = p.legal_moves();
    match notation::parse(p, text) {
        Ok(m) => prop_assert!(legal.contains(&m), "{} read as an illegal move", text),
        Err(e) => prop_assert!(!e.to_string().is_empty()),
    }
    if let Ok(mt) = MoveText::parse(text) {
        prop_assert!(mt.squares.len() >= 2);
    }
    if let Some(Ok(r)) = replay_one(p, text) {
        prop_assert_eq!(r.plies, 1);
        let successors: Vec<String> = legal.iter().map(|m| fen::write(&after(p, m))).collect();
        prop_assert!(successors.contains(&r.final_fen), "{} replayed", text);
    }
    if french::is_french(p.variant()) {
        if let Ok(p10) = fen::parse::<G10>(&FRENCH_OLD, &fen::write(p)) {
            for options in all_table_options() {
                check_french_text(&FrenchGame::from_position(p10, options), text)?;
            }
        }
    } else {
        let g = Game::from_position(*p);
        match g.parse_action(text) {
            Ok(m) => {
                let mut h = g.clone();
                prop_assert!(h.apply(&m).is_ok(), "{} read but refused", text);
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
    Ok(())
}

fn all_table_options() -> [TableOptions; 4] {
    [(false, false), (false, true), (true, false), (true, true)].map(|(touch_move, arbitrated)| {
        TableOptions {
            touch_move,
            arbitrated,
        }
    })
}

/// Reads `text` as an action of a French game: what is read is applied or refused, and a
/// refusal leaves the game as it was.
fn check_french_text(g: &FrenchGame<G10>, text: &str) -> Result<(), TestCaseError> {
    match g.parse_action_text(text) {
        Ok(a) => {
            let mut h = g.clone();
            if h.apply_action(&a).is_err() {
                prop_assert_eq!(&h, g, "{} refused but the game changed", text);
            }
        }
        Err(e) => prop_assert!(!e.to_string().is_empty()),
    }
    Ok(())
}

/// What happened on an arbitrated board: `(from, to, removed, lift)` — a lift of the piece on
/// `from` when `lift`, else a board entry.
type Accident = (u8, u8, Vec<u8>, bool);

/// A French game after random actions: listed ones, and in arbitrated games random board
/// entries and lifts (false moves among them).
#[derive(Clone, Debug)]
struct FrenchSpot {
    spot: Spot,
    options: (bool, bool),
    steps: Vec<(Index, Option<Accident>)>,
}

fn french_spot() -> impl Strategy<Value = FrenchSpot> {
    (
        spot(),
        (any::<bool>(), any::<bool>()),
        prop::collection::vec(
            (
                any::<Index>(),
                prop::option::weighted(
                    0.2,
                    (
                        0u8..=51,
                        0u8..=51,
                        prop::collection::vec(0u8..=51, 0..3),
                        any::<bool>(),
                    ),
                ),
            ),
            0..16,
        ),
    )
        .prop_map(|(mut spot, options, steps)| {
            spot.variant = VARIANTS.iter().position(|v| french::is_french(v)).unwrap();
            FrenchSpot {
                spot,
                options,
                steps,
            }
        })
}

fn french_game(fs: &FrenchSpot) -> FrenchGame<G10> {
    let p = build::<G10>(&FRENCH_OLD, &fs.spot);
    let options = TableOptions {
        touch_move: fs.options.0,
        arbitrated: fs.options.1,
    };
    let mut g = FrenchGame::from_position(p, options);
    for (i, accident) in &fs.steps {
        if g.ending().is_some() {
            break;
        }
        let a = match accident {
            Some((from, _, _, true)) => french::Action::Lift(*from),
            Some((from, to, removed, false)) => french::Action::Entry(BoardEntry {
                from: *from,
                to: *to,
                removed: removed.clone(),
            }),
            None => {
                let legal = g.legal_actions();
                if legal.is_empty() {
                    break;
                }
                legal[i.index(legal.len())].clone()
            }
        };
        let before = g.clone();
        if g.apply_action(&a).is_err() {
            assert_eq!(g, before, "{a:?} refused but the game changed");
        }
    }
    g
}

// ---------------------------------------------------------------------------------------------
// The targets.

const FEN_CHARS: &str = "WBKwbkHF0123456789-,:.\" abcdefghijkl";
const MOVE_CHARS: &str = "0123456789-xX: ";
const ALG_CHARS: &str = "abcdefghijklm0123456789-x: ";
const FRENCH_CHARS: &str = "sftjle0123456789-x/, redresse";

/// Valid FENs to mutate: every start position, the data files' positions, and hand-picked
/// forms (kings, ranges, algebraic squares, move counters, a trailing dot, quotes).
fn fen_samples() -> Vec<String> {
    let mut v: Vec<String> = VARIANTS
        .iter()
        .map(|v| with_board!(v.board, G => fen::write(&Position::<G>::start(v).unwrap())))
        .collect();
    v.extend(data_fens().into_iter().map(String::from));
    v.extend(
        [
            "W:WK28:B",
            "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29:H0:F2.",
            "W:Wa1,c1:Bh8",
            "\"W:W31-50:B1-20\"",
            "B:B:W",
            "w:wk1-5:b46,k47",
            "W:W43-72:B1-30",
        ]
        .map(String::from),
    );
    v
}

proptest! {
    #![proptest_config(config(6000))]

    /// (a) Arbitrary text is read as FEN of every variant, on every board.
    #[test]
    fn fen_arbitrary_text(v in 0..VARIANTS.len(), text in any_text(FEN_CHARS)) {
        check_fen_all_boards(VARIANTS[v], &text)?;
    }
}

proptest! {
    #![proptest_config(config(30000))]

    /// (b) Mutations of valid FENs.
    #[test]
    fn fen_mutations(v in 0..VARIANTS.len(), sample in any::<Index>(), e in edits(FEN_CHARS)) {
        let samples = fen_samples();
        let text = mutate(&samples[sample.index(samples.len())], &e);
        check_fen_all_boards(VARIANTS[v], &text)?;
    }
}

proptest! {
    #![proptest_config(config(10000))]

    /// (c) Positions write to FEN and read back; their moves' notation reads back to them.
    #[test]
    fn fen_and_move_round_trips(s in spot()) {
        let v = VARIANTS[s.variant];
        with_board!(v.board, G => {
            let p = build::<G>(v, &s);
            let written = fen::write(&p);
            prop_assert_eq!(fen::parse::<G>(v, &written), Ok(p), "{}", written);
            check_round_trips(&p)
        })?;
    }
}

proptest! {
    #![proptest_config(config(3000))]

    /// (a) Arbitrary text read as a move of a position.
    #[test]
    fn move_text_arbitrary(
        s in spot(),
        text in prop_oneof![any_text(MOVE_CHARS), any_text(ALG_CHARS)],
    ) {
        let v = VARIANTS[s.variant];
        with_board!(v.board, G => check_move_text(&build::<G>(v, &s), &text))?;
    }
}

proptest! {
    #![proptest_config(config(30000))]

    /// (b) Mutations of a legal move's notation (short, full path, algebraic).
    #[test]
    fn move_text_mutations(
        s in spot(),
        pick in any::<Index>(),
        form in 0..3usize,
        e in edits(ALG_CHARS),
    ) {
        let v = VARIANTS[s.variant];
        with_board!(v.board, G => {
            let p = build::<G>(v, &s);
            let legal = p.legal_moves();
            let text = match legal.get(pick.index(legal.len().max(1))) {
                None => "32-28".to_string(),
                Some(m) => match form {
                    0 => notation::format(&p, m),
                    1 => notation::format_full(&p, m),
                    _ => format!("{}-{}", algebraic::<G>(m.from()), algebraic::<G>(m.to())),
                },
            };
            check_move_text(&p, &mutate(&text, &e))
        })?;
    }
}

proptest! {
    #![proptest_config(config(3000))]

    /// French actions: every listed action's notation reads back to it; arbitrary text and
    /// mutations of listed actions are read, applied or refused without changing the game.
    #[test]
    fn french_actions(
        fs in french_spot(),
        text in any_text(FRENCH_CHARS),
        pick in any::<Index>(),
        e in edits(FRENCH_CHARS),
    ) {
        let g = french_game(&fs);
        let legal = g.legal_actions();
        for a in &legal {
            let t = g.format_action_text(a);
            prop_assert_eq!(g.parse_action_text(&t), Ok(a.clone()), "{}", &t);
        }
        check_french_text(&g, &text)?;
        let sample = legal
            .get(pick.index(legal.len().max(1)))
            .map_or_else(|| "e31-27/22,23".to_string(), |a| g.format_action_text(a));
        check_french_text(&g, &mutate(&sample, &e))?;
    }
}

// ---------------------------------------------------------------------------------------------
// Regressions found by the targets above are kept here by name, as a `#[test]` with the
// failing input (none so far).
