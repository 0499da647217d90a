//! `.mat` files that Debian's gnubg 1.07 wrote from matches it played against itself
//! (`tests/data/gnubg_selfplay_*.mat`, made once by `tests/oracle/gnubg_selfplay_mat.py`: a 5-,
//! a 7- and a 9-point match and a money session, 0-ply, cube in use) are read line by line, and
//! writing the record back gives the same text byte for byte.

use std::path::Path;

use tablier_backgammon::mat::{MatAction, MatchFile};

fn files() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("tests/data")
        .filter_map(|e| {
            let p = e.ok()?.path();
            let name = p.file_name()?.to_str()?.to_string();
            (name.starts_with("gnubg_selfplay_") && name.ends_with(".mat"))
                .then(|| (name, std::fs::read_to_string(&p).expect("read")))
        })
        .collect();
    out.sort();
    assert!(out.len() >= 4, "the gnubg-written .mat files are missing");
    out
}

#[test]
fn gnubg_files_read_and_write_back_byte_for_byte() {
    for (name, text) in files() {
        let file = MatchFile::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            file.to_string(),
            text,
            "{name} is not written back identically"
        );
        // The scores run on from game to game, the players alternate, every game has a result.
        let mut score = [0u32; 2];
        let (mut rolls, mut cube_actions, mut hits, mut bar, mut off, mut no_move) =
            (0, 0, 0, 0, 0, 0);
        for (i, g) in file.games.iter().enumerate() {
            assert_eq!(g.number as usize, i + 1, "{name}");
            assert_eq!(g.players, ["gnubg".to_string(), "root".to_string()]);
            assert_eq!(g.scores, score, "{name} game {}", g.number);
            for w in g.turns.windows(2) {
                assert_ne!(w[0].player, w[1].player, "{name} game {}", g.number);
            }
            let result = g
                .result
                .unwrap_or_else(|| panic!("{name} game {}", g.number));
            score[result.winner] += result.points;
            for t in &g.turns {
                match &t.action {
                    MatAction::Roll { hops, .. } => {
                        rolls += 1;
                        assert!(hops.len() <= 4);
                        no_move += usize::from(hops.is_empty());
                        hits += hops.iter().filter(|h| h.hit).count();
                        bar += hops.iter().filter(|h| h.from == 25).count();
                        off += hops.iter().filter(|h| h.to == 0).count();
                    }
                    _ => cube_actions += 1,
                }
            }
        }
        if file.match_length > 0 {
            assert!(
                score.iter().any(|&s| s >= file.match_length),
                "{name}: {score:?}"
            );
        }
        eprintln!(
            "{name}: {} games, {rolls} rolls ({no_move} without a move), {cube_actions} cube \
             actions, {hits} hits, {bar} bar entries, {off} checkers off, final score {score:?}",
            file.games.len()
        );
        assert!(rolls > 50 && off > 0);
    }
}
