//! Replaying PDN games against the rules: every move resolved against its position, the first
//! illegal or ambiguous one reported with the game, the move number and the reason.
//!
//! # Example
//! ```
//! use tablier_draughts::{pdn, replay, INTERNATIONAL};
//!
//! let games = pdn::parse_pdn("[White \"A\"]\n[Black \"B\"]\n1. 32-28 19-23 2. 28x19 14x23 *");
//! let g = games[0].as_ref().unwrap();
//! let r = replay::replay(g, 1, &INTERNATIONAL).unwrap();
//! assert_eq!(r.plies, 4);
//! let bad = pdn::parse_pdn("1. 32-28 19-23 2. 31-27 *");
//! assert!(replay::replay(bad[0].as_ref().unwrap(), 1, &INTERNATIONAL).is_err());
//! ```

use crate::game::{Ending, Game};
use crate::geometry::Geometry;
use crate::notation::{self, MoveText};
use crate::pdn::{Element, PdnGame, PdnSquare};
use crate::position::Position;
use crate::variant::Variant;
use crate::{fen, with_board};

/// A game that replayed to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// The variant it was played under.
    pub variant: &'static str,
    /// Number of moves (plies) played.
    pub plies: usize,
    /// The final position as FEN.
    pub final_fen: String,
    /// Whether the rules had ended the game before its last recorded move (a draw rule, as
    /// in online games that play on after a repetition).
    pub played_past_end: bool,
    /// How the game stands at the end by the rules.
    pub ending: Option<Ending>,
    /// The position the game started from, as FEN (the `FEN` tag's, or the variant's start).
    pub start_fen: String,
    /// The moves the rules accepted, in order, as the record writes them (for the old French
    /// rules, the actions of [`crate::french::FrenchGame::record_text`], huffs included);
    /// moves recorded after the rules had ended the game are left out.
    pub moves: Vec<String>,
}

/// Why a game could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game} ({players}): {what}")]
pub struct ReplayError {
    /// 1-based index of the game in its file.
    pub game: usize,
    /// `White - Black` from the tags.
    pub players: String,
    /// What went wrong, with the move number where there is one.
    pub what: String,
}

fn players(g: &PdnGame) -> String {
    format!(
        "{} - {}",
        g.tag("White").unwrap_or("?"),
        g.tag("Black").unwrap_or("?")
    )
}

/// Replays the main line of `g` (game number `index` of its file). The variant comes from the
/// `GameType` tag, else `default`. Games of the old French rules (`GameType` 42) are replayed
/// with [`crate::french::replay_pdn`]; they are never guessed for a game without `GameType`.
///
/// # Errors
/// [`ReplayError`] for an unknown game type, a bad FEN, or an illegal, ambiguous or unknown
/// move.
pub fn replay(
    g: &PdnGame,
    index: usize,
    default: &'static Variant,
) -> Result<Replayed, ReplayError> {
    let err = |what: String| ReplayError {
        game: index,
        players: players(g),
        what,
    };
    let variant = match g.tag("GameType") {
        Some(t) => Variant::by_pdn_game_type(t)
            .ok_or_else(|| err(format!("GameType {t:?} is not a variant tablier plays")))?,
        None if crate::french::is_french(default) => return replay_french(g).map_err(err),
        None => {
            // Without a GameType, files in the wild hold 8x8 games as often as 10x10 ones:
            // the default variant first, then each other variant; the default's error if
            // none fits.
            let first = with_board!(default.board, G => replay_on::<G>(g, default));
            if first.is_ok() {
                return first.map_err(err);
            }
            // The old French rules accept nearly any move: never guessed.
            let others = crate::VARIANTS
                .iter()
                .copied()
                .filter(|v| *v != default && !crate::french::is_french(v));
            for v in others {
                if let Ok(r) = with_board!(v.board, G => replay_on::<G>(g, v)) {
                    return Ok(r);
                }
            }
            return first.map_err(err);
        }
    };
    if crate::french::is_french(variant) {
        return replay_french(g).map_err(err);
    }
    with_board!(variant.board, G => replay_on::<G>(g, variant).map_err(err))
}

/// A French record (huffs and forces as comments), replayed with [`crate::french`].
fn replay_french(g: &PdnGame) -> Result<Replayed, String> {
    let game = crate::french::replay_pdn(g)?;
    let plies = game
        .record()
        .iter()
        .filter(|(a, _)| matches!(a, crate::french::Action::Move(_)))
        .count();
    Ok(Replayed {
        variant: crate::FRENCH_OLD.name,
        plies,
        final_fen: fen::write(game.position()),
        played_past_end: false,
        ending: game.ending(),
        start_fen: fen::write(game.start_position()),
        moves: game.record_text(),
    })
}

fn square<G: Geometry>(s: PdnSquare) -> Result<u32, String> {
    match s {
        PdnSquare::Num(n) => Ok(u32::from(n)),
        PdnSquare::Alg { file, rank } => {
            let rank = u32::from(rank);
            if rank == 0 || rank > G::N {
                return Err(format!("square {s} is not on the board"));
            }
            G::square_at(G::N - rank, u32::from(file))
                .ok_or_else(|| format!("square {s} is not a playing square"))
        }
    }
}

fn replay_on<G: Geometry>(g: &PdnGame, variant: &'static Variant) -> Result<Replayed, String> {
    let start: Position<G> = match g.tag("FEN") {
        Some(f) => fen::parse(variant, f).map_err(|e| format!("bad FEN tag {f:?}: {e}"))?,
        None => Position::start(variant).map_err(|e| e.to_string())?,
    };
    let mut game = Game::from_position(start);
    let mut pos = start;
    let mut start_fen = fen::write(&start);
    let mut moves = Vec::new();
    let mut plies = 0;
    let mut past_end = false;
    for el in &g.body {
        match el {
            Element::Setup(f) => {
                pos = fen::parse(variant, f).map_err(|e| format!("bad setup {f:?}: {e}"))?;
                game = Game::from_position(pos);
                start_fen = fen::write(&pos);
                moves.clear();
            }
            Element::Ellipsis { .. } => {
                return Err(format!(
                    "move {} is not recorded (placeholder)",
                    plies / 2 + 1
                ))
            }
            Element::Move { mv, .. } => {
                let number = format!(
                    "{}{}",
                    plies / 2 + 1,
                    if pos.side_to_move() == variant.first {
                        "."
                    } else {
                        "..."
                    }
                );
                let squares = mv
                    .squares
                    .iter()
                    .map(|s| square::<G>(*s))
                    .collect::<Result<Vec<u32>, String>>()
                    .map_err(|e| format!("move {number} {mv}: {e}"))?;
                let mt = MoveText {
                    squares,
                    capture: mv.capture,
                };
                let text = mv.to_string();
                let m = notation::resolve(&pos, &mt, &text)
                    .map_err(|e| format!("move {number} {text}: {e}"))?;
                pos.play_unchecked(&m);
                if game.ending().is_some() {
                    past_end = true;
                } else {
                    game.play(&m).map_err(|e| format!("move {number}: {e}"))?;
                    moves.push(text);
                }
                plies += 1;
            }
            _ => {}
        }
    }
    Ok(Replayed {
        variant: variant.name,
        plies,
        final_fen: fen::write(&pos),
        played_past_end: past_end,
        ending: game.ending(),
        start_fen,
        moves,
    })
}

/// A played game as a PDN record: the given tags, then `GameType` (and `FEN` when the game
/// did not start from the variant's start), the moves in notation with move numbers, and the
/// result in the variant's result style (`2-0`/`1-1` for the international result type).
#[must_use]
pub fn to_pdn<G: Geometry>(game: &Game<G>, tags: &[(&str, &str)]) -> PdnGame {
    let start = *game.start_position();
    let v = start.variant();
    let mut all: Vec<(String, String)> = tags
        .iter()
        .map(|(k, val)| ((*k).to_string(), (*val).to_string()))
        .collect();
    all.push(("GameType".into(), v.pdn_game_type.into()));
    if Position::<G>::start(v).ok() != Some(start) {
        all.push(("FEN".into(), fen::write(&start)));
    }
    let international_style = matches!(v.pdn_game_type, "20" | "27");
    let result = match game.ending() {
        None => "*",
        Some(Ending::Draw(_)) if international_style => "1-1",
        Some(Ending::Draw(_)) => "1/2-1/2",
        Some(Ending::NoMove { winner }) => match (winner, international_style) {
            (tablier_core::Side::White, true) => "2-0",
            (tablier_core::Side::Black, true) => "0-2",
            (tablier_core::Side::White, false) => "1-0",
            (tablier_core::Side::Black, false) => "0-1",
        },
    };
    all.push(("Result".into(), result.into()));
    let mut pos = start;
    let mut body = Vec::new();
    for (i, m) in game.moves().iter().enumerate() {
        let text = notation::format(&pos, m);
        let mv: crate::pdn::PdnMove = text.parse().expect("our notation is PDN syntax");
        let number = if i == 0 || pos.side_to_move() == v.first {
            Some((
                u32::try_from(i / 2 + 1).unwrap_or(u32::MAX),
                pos.side_to_move() != v.first,
            ))
        } else {
            None
        };
        body.push(Element::Move {
            number,
            mv,
            strength: None,
        });
        pos.play_unchecked(m);
    }
    PdnGame {
        tags: all,
        body,
        result: Some(result.to_string()),
    }
}
