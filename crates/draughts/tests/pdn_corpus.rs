//! The PDN corpus (reference/draughts/pdn-corpus): the legal games of `succeed/` replay to
//! their end; the few that are not legal are rejected with the game, the move number and the
//! reason; nothing panics on `fail/`.

use std::path::Path;
use tablier_draughts::{pdn, replay, INTERNATIONAL};

fn replay_dir(dir: &str) -> (usize, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pdn-corpus")
        .join(dir);
    let mut files: Vec<_> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let (mut ok, mut rejected) = (0, Vec::new());
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        for (i, g) in pdn::parse_pdn_bytes(&bytes).into_iter().enumerate() {
            let name = f.file_name().unwrap().to_string_lossy().to_string();
            match g {
                Err(e) => rejected.push(format!("{name}: {e}")),
                Ok(g) => match replay::replay(&g, i + 1, &INTERNATIONAL) {
                    Ok(_) => ok += 1,
                    Err(e) => rejected.push(format!("{name}: {e}")),
                },
            }
        }
    }
    (ok, rejected)
}

/// Whether a rejection is of a game in a variant tablier does not play (Italian, Czech,
/// Russian records without a GameType tag: their first move fits no variant).
fn foreign(r: &str) -> bool {
    r.contains("is not a variant tablier plays")
        || (r.contains(": move 1. ") && r.contains("no legal move"))
}

#[test]
fn succeed_games_replay_and_the_illegal_ones_are_named() {
    let (ok, rejected) = replay_dir("succeed");
    let (foreign_games, illegal): (Vec<String>, Vec<String>) =
        rejected.into_iter().partition(|r| foreign(r));
    for r in &illegal {
        println!("rejected: {r}");
    }
    println!(
        "{ok} games replayed, {} rejected, {} in variants tablier does not play",
        illegal.len(),
        foreign_games.len()
    );
    // Every rejection names a game and says why; move errors name the move number.
    for r in illegal.iter().chain(&foreign_games) {
        assert!(r.contains("game "), "{r}");
    }
    assert!(ok >= 1700, "{ok}");
    let mut named: Vec<String> = illegal
        .iter()
        .map(|r| r.split(" (").next().unwrap().to_string())
        .collect();
    named.sort();
    assert_eq!(named, EXPECTED_REJECTED, "{illegal:#?}");
}

/// The games of `succeed/` that are not legal as recorded, each checked by hand: FEN tags with
/// a man on its own promotion row (beginner 10, goulds 93, lpc 73) or an empty board
/// (`W::.`, bridges 14) or an unknown side to move (`?`, fen 1); a move left unrecorded
/// (Cat.D1 12, windragon 1 at move 77); short captures that two legal moves share
/// (schildpad 3 and 7).
const EXPECTED_REJECTED: [&str; 9] = [
    "Cat.D1.pdn: game 12",
    "beginner.pdn: game 10",
    "bridges.pdn: game 14",
    "fen.pdn: game 1",
    "goulds.pdn: game 93",
    "lpc.pdn: game 73",
    "schildpad.pdn: game 3",
    "schildpad.pdn: game 7",
    "windragon.pdn: game 1",
];

#[test]
fn fail_files_never_panic() {
    let (ok, rejected) = replay_dir("fail");
    println!("fail/: {ok} games replayed, {} rejected", rejected.len());
    assert!(!rejected.is_empty());
}

#[test]
fn played_games_write_as_pdn_and_replay_identically() {
    use tablier_draughts::{game::Game, ENGLISH, G8};
    // Replay every legal game of one file, write it back, read it, replay it again.
    let bytes = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pdn-corpus/succeed/DUTCH96H.pdn"),
    )
    .unwrap();
    let mut n = 0;
    for (i, g) in pdn::parse_pdn_bytes(&bytes).into_iter().enumerate() {
        let g = g.unwrap();
        let r = replay::replay(&g, i + 1, &INTERNATIONAL).unwrap();
        let text = pdn::write_pdn(&g);
        let again = pdn::parse_game(&text).unwrap();
        assert_eq!(replay::replay(&again, i + 1, &INTERNATIONAL).unwrap(), r);
        n += 1;
    }
    assert_eq!(n, 13);
    // A game played here: English, black first, exported with GameType 21 and read back.
    let mut game = Game::<G8>::start(&ENGLISH).unwrap();
    for _ in 0..30 {
        let Some(m) = game.legal_moves().first().copied() else {
            break;
        };
        game.play(&m).unwrap();
    }
    let record = replay::to_pdn(&game, &[("White", "A"), ("Black", "B")]);
    let text = pdn::write_pdn(&record);
    assert!(text.contains("[GameType \"21\"]"), "{text}");
    let back = pdn::parse_game(&text).unwrap();
    let r = replay::replay(&back, 1, &INTERNATIONAL).unwrap();
    assert_eq!(r.variant, "english");
    assert_eq!(r.plies, game.moves().len());
    assert_eq!(r.final_fen, tablier_draughts::fen::write(game.position()));
}
