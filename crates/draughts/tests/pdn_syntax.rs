//! PDN syntax layer against the PDN 3.0 test corpus (`tests/data/pdn-corpus`, from the
//! PDN 3.0 standard's `games/` directory), plus property tests: the reader never panics and
//! the writer's output reads back to the same game.
//!
//! The corpus's `fail/` files are rejected by the standard's strict reading grammar. Some of
//! them break only that strict grammar in ways this liberal reader is asked to accept (no
//! result before the next tag section, `- -` placeholders, `1. 0-2` empty games); those
//! pass here, and the reasons are written beside each file in `fail_files`.

use std::fs;
use std::path::PathBuf;

use proptest::prelude::*;
use tablier_draughts::pdn::{
    parse_game, parse_pdn, parse_pdn_bytes, write_pdn, Element, PdnErrorKind, PdnGame, MAX_TAGS,
    MAX_VARIATION_DEPTH,
};

fn corpus_dir(which: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pdn-corpus")
        .join(which)
}

/// The files of a corpus directory, sorted by name, as (name, bytes).
fn corpus(which: &str) -> Vec<(String, Vec<u8>)> {
    let dir = corpus_dir(which);
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("directory entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (name, bytes)
        })
        .collect();
    files.sort();
    files
}

fn read(which: &str, name: &str) -> Vec<PdnGame> {
    let bytes = fs::read(corpus_dir(which).join(name)).expect("corpus file");
    parse_pdn_bytes(&bytes)
        .into_iter()
        .map(|game| game.unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect()
}

/// The tags in a fixed order: the writer puts the roster tags first.
fn sorted(tags: &[(String, String)]) -> Vec<(String, String)> {
    let mut tags = tags.to_vec();
    tags.sort();
    tags
}

/// Checks that `game` survives writing and reading: same tags, result, main line and
/// elements (comments, NAGs, variations, setups...), and that writing again gives the
/// same text. Returns the written text.
fn check_round_trip(game: &PdnGame, context: &str) -> String {
    let written = write_pdn(game);
    let again = parse_game(&written).unwrap_or_else(|e| panic!("{context}: {e}\n{written}"));
    assert_eq!(
        sorted(&again.tags),
        sorted(&game.tags),
        "{context}: tags\n{written}"
    );
    assert_eq!(again.result, game.result, "{context}: result\n{written}");
    assert!(
        again.main_line().eq(game.main_line()),
        "{context}: main line\n{written}"
    );
    assert_eq!(
        tablier_draughts::pdn::without_move_numbers(&again.body),
        tablier_draughts::pdn::without_move_numbers(&game.body),
        "{context}: movetext\n{written}"
    );
    assert_eq!(
        write_pdn(&again),
        written,
        "{context}: writing is not stable"
    );
    written
}

/// Games per file of `succeed/`, all read without a syntax error.
const SUCCEED_GAMES: &[(&str, usize)] = &[
    ("090417ronde12.pdn", 7),
    ("Campionato Assoluto 2005.pdn", 53),
    ("Cat.B1.pdn", 37),
    ("Cat.D1.pdn", 19),
    ("DUTCH96H.pdn", 13),
    ("OCA_2.0.pdn", 43),
    ("PROF2.pdn", 16),
    ("PWCP 2a.pdn", 59),
    ("PWCP_2.pdn", 51),
    ("Principles of Strategy.pdn", 16),
    ("Tricks traps and shots.pdn", 91),
    ("alphanumeric.pdn", 1),
    ("beginner.pdn", 58),
    ("borderclassics.pdn", 183),
    ("bridges.pdn", 267),
    ("candidate95.pdn", 8),
    ("fen.pdn", 3),
    ("gameterminator.pdn", 1),
    ("gem.pdn", 162),
    ("goulds.pdn", 262),
    ("inferno.pdn", 68),
    ("kurnik.pdn", 4),
    ("linecomment.pdn", 1),
    ("lpc.pdn", 100),
    ("movestrength.pdn", 1),
    ("mrcd2000kval.pdn", 40),
    ("mrcd2006.pdn", 44),
    ("mrcd2007.pdn", 102),
    ("nk ronde 01.pdn", 7),
    ("nk ronde 02.pdn", 7),
    ("nk2003-amsterdam.pdn", 33),
    ("rk ronde 12.pdn", 7),
    ("schildpad.pdn", 34),
    ("string.pdn", 1),
    ("unicode.pdn", 1),
    ("ussr1947.pdn", 153),
    ("variation.pdn", 1),
    ("windragon.pdn", 1),
    ("wk2003.pdn", 23),
];

#[test]
fn succeed_files_parse_without_syntax_errors() {
    let files = corpus("succeed");
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    let expected: Vec<&str> = SUCCEED_GAMES.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, expected, "succeed/ holds other files than expected");

    let mut failures = Vec::new();
    for ((name, bytes), (_, expected_games)) in files.iter().zip(SUCCEED_GAMES) {
        let games = parse_pdn_bytes(bytes);
        let moves: usize = games
            .iter()
            .flatten()
            .map(|game| game.main_line().count())
            .sum();
        println!(
            "succeed/{name}: {} games, {moves} main-line moves",
            games.len()
        );
        for error in games.iter().filter_map(|game| game.as_ref().err()) {
            failures.push(format!("{name}: {error}"));
        }
        if games.len() != *expected_games {
            failures.push(format!(
                "{name}: {} games, expected {expected_games}",
                games.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn succeed_files_round_trip() {
    for (name, bytes) in corpus("succeed") {
        let games: Vec<PdnGame> = parse_pdn_bytes(&bytes)
            .into_iter()
            .map(|game| game.unwrap_or_else(|e| panic!("{name}: {e}")))
            .collect();
        // Game by game.
        let written: Vec<String> = games
            .iter()
            .enumerate()
            .map(|(i, game)| check_round_trip(game, &format!("{name}, game {}", i + 1)))
            .collect();
        // The whole file: the games must come apart again.
        let file = written.join("\n");
        let again: Vec<PdnGame> = parse_pdn(&file)
            .into_iter()
            .map(|game| game.unwrap_or_else(|e| panic!("{name} rewritten: {e}")))
            .collect();
        assert_eq!(again.len(), games.len(), "{name}: games after rewriting");
        for (i, (a, b)) in again.iter().zip(&games).enumerate() {
            assert_eq!(sorted(&a.tags), sorted(&b.tags), "{name}, game {}", i + 1);
            assert_eq!(a.result, b.result, "{name}, game {}", i + 1);
            assert_eq!(
                tablier_draughts::pdn::without_move_numbers(&a.body),
                tablier_draughts::pdn::without_move_numbers(&b.body),
                "{name}, game {}",
                i + 1
            );
        }
    }
}

#[test]
fn succeed_files_details() {
    // Features the small files of succeed/ are there to show.
    let g = &read("succeed", "alphanumeric.pdn")[0];
    assert_eq!(g.main_line().next().unwrap().to_string(), "a3-b4");

    let g = &read("succeed", "movestrength.pdn")[0];
    let strengths: Vec<_> = g
        .body
        .iter()
        .filter_map(|e| match e {
            Element::Move { strength, .. } => Some(strength.as_deref()),
            _ => None,
        })
        .collect();
    assert_eq!(strengths, [Some("!?"), Some("(!?!!!)"), None]);
    assert_eq!(g.result.as_deref(), Some("*"));

    let g = &read("succeed", "string.pdn")[0];
    assert_eq!(
        g.tag("White"),
        Some("This is a string with an escaped character \"")
    );

    let g = &read("succeed", "unicode.pdn")[0];
    assert_eq!(g.tag("Black"), Some("高文龙"));

    let g = &read("succeed", "linecomment.pdn")[0];
    assert_eq!(
        g.body[0],
        Element::Comment("Board game: International Draughts 10x10".to_string())
    );
    assert_eq!(g.tag("Date"), Some("2012.02.01"));

    let g = &read("succeed", "gameterminator.pdn")[0];
    assert_eq!(g.result.as_deref(), Some("1/2-1/2"));

    let g = &read("succeed", "variation.pdn")[0];
    let main: Vec<String> = g.main_line().map(|m| m.to_string()).collect();
    assert_eq!(main, ["32-28", "19-23", "28x19", "14x23"]);
    assert!(matches!(&g.body[2], Element::Variation(v) if v.len() == 4));

    let fens: Vec<_> = read("succeed", "fen.pdn")
        .iter()
        .map(|g| g.tag("FEN").unwrap().to_string())
        .collect();
    assert_eq!(
        fens,
        [
            "?:W29,13,11:B22,4,2",
            "W:W31,29,K15:B14,13,12,9",
            "W:W31-50:B1-20"
        ]
    );

    // `1- 6`, `47x 9`: spaces inside moves.
    let g = &read("succeed", "DUTCH96H.pdn")[0];
    let main: Vec<String> = g.main_line().map(|m| m.to_string()).collect();
    assert_eq!(main[33], "1-6");
    assert_eq!(main[103], "47x9");

    // `:` captures in algebraic notation.
    let g = &read("succeed", "ussr1947.pdn")[0];
    assert!(g.main_line().any(|m| m.capture));
}

/// What the syntax layer reports for a file of `fail/`.
enum Expect {
    /// A syntax error in this game (1-based), on this line.
    Error {
        game: usize,
        line: usize,
        kind: PdnErrorKind,
    },
    /// No syntax error, and this many games: what is wrong is for the replay against the
    /// rules to find, or is something this liberal reader is asked to accept.
    Passes { games: usize },
}

#[test]
fn fail_files() {
    use Expect::*;
    let expectations: &[(&str, Expect)] = &[
        // Game 5 (line 226: Bubbi - Veronesi, "non disponibile") is `1. 34-29 19-23` with no
        // result, and the next tag section follows at once. The strict grammar wants a
        // separator between games; this reader starts a new game at the tag section. The
        // syntax is otherwise sound.
        (
            "40Camp.DamaInternazionaleAssoluto.pdn",
            Passes { games: 45 },
        ),
        // Line 405: `3. 8-3 . 1-0`, a lone '.' that is no PDN token. (Line 296 also has
        // `1. ... 7-12`, which the reading grammar accepts.)
        (
            "Cat.A1.pdn",
            Error {
                game: 30,
                line: 405,
                kind: PdnErrorKind::UnexpectedChar('.'),
            },
        ),
        // Game 45 (line 579) ends with a move number and no move, `6.`, and no result; the
        // next tag section starts the next game. The file then ends with a stray
        // `36x27 1-0` after the last game, read as game 46 with no tags: syntactically a
        // game, which the replay must reject (36x27 is no move from the initial position).
        ("Cat.C1.pdn", Passes { games: 46 }),
        // Game 36 (line 595) is `1. - - 2. - - ... 25. - -`: every move unknown. Read as
        // placeholders (`Element::Ellipsis`) as asked; the strict grammar has no `-` move.
        // The replay cannot play unknown moves.
        ("abatsiev.pdn", Passes { games: 56 }),
        // Results `4-6` and `1-9` (a "Delfts" result format, without a ResultFormat tag),
        // and move numbers with leading zeros (`01.`). The strict grammar reads `4-6` as a
        // move and then finds no separator before the next game; this reader takes a token
        // equal to the game's own Result tag as its result.
        ("delfts.pdn", Passes { games: 2 }),
        // Three forfeited games written `1. 0-2` or `1. 2-0` (lines 198, 326 and 583): a
        // move number with no move, which the strict grammar rejects and this reader
        // accepts as an empty game, as asked (`1. 2-0`). (Czech draughts, 8x8, algebraic.)
        ("mrdrcd07.pdn", Passes { games: 72 }),
        // The same: `1. 1-0` at line 499 (with `[PlyCount "0"]`).
        ("mrdrcd08.pdn", Passes { games: 40 }),
        // `{ nested { comment } }`: comments cannot be nested.
        (
            "nested_comment.pdn",
            Error {
                game: 1,
                line: 1,
                kind: PdnErrorKind::NestedComment,
            },
        ),
    ];
    let files = corpus("fail");
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    let expected_names: Vec<&str> = expectations.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        names, expected_names,
        "fail/ holds other files than expected"
    );

    for ((name, bytes), (_, expect)) in files.iter().zip(expectations) {
        let games = parse_pdn_bytes(bytes);
        let errors: Vec<_> = games.iter().filter_map(|g| g.as_ref().err()).collect();
        println!(
            "fail/{name}: {} games, {} syntax errors",
            games.len(),
            errors.len()
        );
        for error in &errors {
            println!("    {error}");
        }
        match expect {
            Error { game, line, kind } => {
                assert_eq!(errors.len(), 1, "{name}: {errors:?}");
                let error = errors[0];
                assert_eq!(
                    (error.game, error.line, &error.kind),
                    (*game, *line, kind),
                    "{name}"
                );
            }
            Passes { games: count } => {
                assert!(errors.is_empty(), "{name}: {errors:?}");
                assert_eq!(games.len(), *count, "{name}");
            }
        }
    }

    // The details behind the comments above.
    let games = read("fail", "40Camp.DamaInternazionaleAssoluto.pdn");
    let unfinished: Vec<_> = games.iter().filter(|g| g.result.is_none()).collect();
    assert_eq!(unfinished.len(), 1);
    assert_eq!(
        unfinished[0].tag("White"),
        Some("Bubbi Raoul (non disponibile)")
    );

    let games = read("fail", "Cat.C1.pdn");
    assert!(games[45].tags.is_empty());
    assert_eq!(games[45].main_line().next().unwrap().to_string(), "36x27");
    let unfinished: Vec<_> = games.iter().filter(|g| g.result.is_none()).collect();
    assert_eq!(unfinished.len(), 1);
    assert_eq!(unfinished[0].tag("Site"), Some("Turbodambase , n.74580"));

    let games = read("fail", "abatsiev.pdn");
    let g = &games[35];
    assert_eq!(g.main_line().count(), 0);
    assert_eq!(
        g.body
            .iter()
            .filter(|e| matches!(e, Element::Ellipsis { .. }))
            .count(),
        50
    );

    let games = read("fail", "delfts.pdn");
    let results: Vec<_> = games.iter().map(|g| g.result.as_deref()).collect();
    assert_eq!(results, [Some("4-6"), Some("1-9")]);

    for (name, empty) in [("mrdrcd07.pdn", 3), ("mrdrcd08.pdn", 1)] {
        let games = read("fail", name);
        let count = games
            .iter()
            .filter(|g| g.body.is_empty() && g.result.is_some())
            .count();
        assert_eq!(count, empty, "{name}");
    }
}

#[test]
fn fail_files_round_trip_where_they_parse() {
    for (name, bytes) in corpus("fail") {
        for (i, game) in parse_pdn_bytes(&bytes).iter().enumerate() {
            if let Ok(game) = game {
                check_round_trip(game, &format!("fail/{name}, game {}", i + 1));
            }
        }
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    for open in ["(", "( 32-28 ", "1. 32-28 (", "{} ("] {
        let text = open.repeat(50_000);
        let games = parse_pdn(&text);
        assert_eq!(games.len(), 1);
        assert_eq!(
            games[0].as_ref().unwrap_err().kind,
            PdnErrorKind::TooDeep,
            "{open:?}"
        );
    }
    let ok = "(".repeat(MAX_VARIATION_DEPTH) + &")".repeat(MAX_VARIATION_DEPTH);
    assert!(parse_game(&ok).is_ok());
    let closed = "(".repeat(10_000) + &")".repeat(10_000);
    assert_eq!(parse_game(&closed).unwrap_err().kind, PdnErrorKind::TooDeep);
}

/// A game with `n` distinct tags (`[T0 "v0"]`...) and one move.
fn game_with_tags(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("[T{i} \"v{i}\"]\n"));
    }
    text.push_str("\n1. 32-28 *\n");
    text
}

#[test]
fn a_game_with_too_many_tags_is_refused() {
    let text = game_with_tags(MAX_TAGS + 1);
    let e = parse_game(&text).map(|g| g.tags.len()).unwrap_err();
    assert_eq!(e.kind, PdnErrorKind::TooManyTags);
    // Reported where the first tag beyond the limit stands.
    assert_eq!((e.game, e.line, e.column), (1, MAX_TAGS + 1, 1));
    assert!(e.to_string().contains("more than 1000 tags"), "{e}");
    // The games after it are still read.
    let more = format!("{text}\n[Event \"next\"]\n1. 33-28 *\n");
    let games = parse_pdn(&more);
    assert_eq!(games.len(), 2);
    assert!(games[0].is_err());
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("next"));
}

#[test]
fn a_game_with_many_distinct_tags_is_read_whole() {
    let game = parse_game(&game_with_tags(900)).unwrap();
    assert_eq!(game.tags.len(), 900);
    assert_eq!(game.tag("T899"), Some("v899"));
    assert_eq!(game.main_line().count(), 1);
    // Exactly the limit is still allowed.
    assert_eq!(
        parse_game(&game_with_tags(MAX_TAGS)).unwrap().tags.len(),
        MAX_TAGS
    );
    // A repeated name still starts the next game, however many tags came before it.
    let text = format!("{}[T5 \"again\"]\n1. 33-28 *\n", game_with_tags(900));
    let games = parse_pdn(&text);
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].as_ref().unwrap().tag("T5"), Some("again"));
}

#[test]
fn columns_stay_right_after_many_games_on_one_line() {
    // Many games on one line (read in linear time: the column of each game's start is
    // counted from the last one, not from the start of the line); an error at the end of
    // the line is reported at its column, counted in characters.
    let games = "1. 32-28 {é} * ".repeat(20_000);
    let text = format!("{games}1. 32-28 }}");
    let read = parse_pdn(&text);
    assert_eq!(read.len(), 20_001);
    let e = read[20_000].as_ref().unwrap_err();
    assert_eq!(e.kind, PdnErrorKind::UnmatchedBrace);
    assert_eq!((e.game, e.line), (20_001, 1));
    assert_eq!(e.column, 15 * 20_000 + 10);
    // And on the next line the count starts again.
    let text = format!("{games}\n  }}");
    let e = parse_pdn(&text).pop().unwrap().unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
}

/// Fragments of PDN, good and bad, from which the property tests build texts.
const PIECES: &[&str] = &[
    " ",
    " ",
    "\n",
    "\r\n",
    "1.",
    "12.",
    "12...",
    "1. ",
    "32-28",
    "19-23",
    "28x19",
    "x",
    ":",
    "-",
    "--",
    "...",
    "a3",
    "b4",
    "a3b4",
    "c3-d4",
    "e5:g7",
    "1- 6",
    "47x 9",
    "06-11",
    "!",
    "?!",
    "(!)",
    "{",
    "}",
    "{a comment}",
    "(",
    ")",
    "$",
    "$7",
    "%",
    "% line\n",
    "/",
    "/FEN \"W:W31-50:B1-20\"/",
    "\"",
    "\\",
    "[",
    "]",
    "[Event \"e\"]\n",
    "[Result \"4-6\"]\n",
    "[Result \"2-0\"]",
    "[White \"a \\\" b\"]",
    "[Site ",
    "1-0",
    "0-1",
    "2-0",
    "1/2-1/2",
    "1-1",
    "*",
    "4-6",
    "½-½",
    "\u{feff}",
    "é",
    "0",
    "99999",
    ".",
    "…",
];

fn pdn_like_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(PIECES), 0..60)
        .prop_map(|pieces| pieces.concat())
}

/// Cases per property: `PROPTEST_CASES` when set (to fuzz longer, e.g.
/// `PROPTEST_CASES=1000000`), else `default`, a few seconds' worth in CI.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The texts of the `succeed/` corpus, read once, as the mutation fuzz's seeds.
fn seeds() -> &'static [String] {
    static SEEDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    SEEDS.get_or_init(|| {
        corpus("succeed")
            .into_iter()
            .map(|(_, bytes)| tablier_draughts::pdn::decode_pdn_bytes(&bytes).into_owned())
            .collect()
    })
}

/// One edit of a seed text, at a place given as a fraction of its length.
#[derive(Debug, Clone)]
enum Edit {
    /// Replaces the character there with a fragment.
    Replace(f64, &'static str),
    /// Inserts a fragment there.
    Insert(f64, &'static str),
    /// Removes up to this many characters from there.
    Remove(f64, usize),
    /// Repeats the characters from there (up to this many) this many times.
    Repeat(f64, usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let place = 0.0..1.0f64;
    let piece = proptest::sample::select(PIECES);
    prop_oneof![
        (place.clone(), piece.clone()).prop_map(|(at, p)| Edit::Replace(at, p)),
        (place.clone(), piece).prop_map(|(at, p)| Edit::Insert(at, p)),
        (place.clone(), 1..40usize).prop_map(|(at, n)| Edit::Remove(at, n)),
        (place, 1..20usize, 2..200usize).prop_map(|(at, n, k)| Edit::Repeat(at, n, k)),
    ]
}

/// A window of a seed text (up to 3000 characters from a place) with edits applied.
fn mutate(seed: &str, start: f64, edits: &[Edit]) -> String {
    let chars: Vec<char> = seed.chars().collect();
    let from = ((chars.len() as f64) * start) as usize;
    let mut text: Vec<char> = chars[from.min(chars.len())..]
        .iter()
        .take(3000)
        .copied()
        .collect();
    for e in edits {
        let at = |f: f64, len: usize| ((len as f64) * f) as usize;
        match *e {
            Edit::Replace(f, piece) => {
                let i = at(f, text.len());
                if i < text.len() {
                    text.splice(i..=i, piece.chars());
                }
            }
            Edit::Insert(f, piece) => {
                let i = at(f, text.len() + 1).min(text.len());
                text.splice(i..i, piece.chars());
            }
            Edit::Remove(f, n) => {
                let i = at(f, text.len()).min(text.len());
                let end = (i + n).min(text.len());
                text.drain(i..end);
            }
            Edit::Repeat(f, n, k) => {
                let i = at(f, text.len()).min(text.len());
                let end = (i + n).min(text.len());
                let part: Vec<char> = text[i..end].to_vec();
                for _ in 1..k {
                    text.splice(end..end, part.iter().copied());
                }
            }
        }
    }
    text.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(2000)))]

    /// Real records with random edits (fragments replaced, inserted, removed, repeated):
    /// the reader never panics, numbers its games and places its errors, and every game it
    /// reads is written so that it reads back to the same game (same moves).
    #[test]
    fn mutated_records_never_panic_and_round_trip(
        seed in 0..1000usize,
        start in 0.0..1.0f64,
        edits in proptest::collection::vec(edit(), 0..8),
    ) {
        let seeds = seeds();
        let text = mutate(&seeds[seed % seeds.len()], start, &edits);
        let games = parse_pdn(&text);
        for (i, game) in games.iter().enumerate() {
            match game {
                Ok(game) => {
                    check_round_trip(game, &format!("{text:?}, game {}", i + 1));
                }
                Err(e) => {
                    prop_assert_eq!(e.game, i + 1);
                    prop_assert!(e.line >= 1 && e.column >= 1);
                }
            }
        }
        let _ = parse_game(&text);
        // The same text as bytes, cut anywhere (a broken UTF-8 tail reads as Latin-1).
        let bytes = text.as_bytes();
        let _ = parse_pdn_bytes(&bytes[..bytes.len() / 2]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(2000)))]

    #[test]
    fn never_panics_on_strings(text in any::<String>()) {
        let games = parse_pdn(&text);
        for (i, game) in games.iter().enumerate() {
            if let Err(e) = game {
                prop_assert_eq!(e.game, i + 1);
                prop_assert!(e.line >= 1 && e.column >= 1);
            }
        }
        let _ = parse_game(&text);
    }

    #[test]
    fn never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = parse_pdn_bytes(&bytes);
    }

    #[test]
    fn never_panics_on_pdn_alphabet(text in "[\\[\\]{}()0-9x:\\-. !?$%/*\"a-lA-Z\n\r\t\\\\…½]{0,300}") {
        let _ = parse_pdn(&text);
    }

    /// Whatever the reader accepts, the writer writes so that it reads back the same.
    #[test]
    fn what_is_read_round_trips(text in pdn_like_text()) {
        for (i, game) in parse_pdn(&text).iter().enumerate() {
            if let Ok(game) = game {
                check_round_trip(game, &format!("{text:?}, game {}", i + 1));
            }
        }
    }
}
