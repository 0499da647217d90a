//! Draughts in the catalog: every variant of [`tablier_draughts`], the old French rules
//! included; the engine's levels, PDN records, and the engine's score for the review.

use tablier_core::{Game as _, Outcome, Player, Side};
use tablier_draughts::french::{FrenchGame, TableOptions};
use tablier_draughts::game::Game;
use tablier_draughts::{Geometry, Position, Variant};
use tablier_draughts_engine::player::LevelPlayer;
use tablier_draughts_engine::{Engine, Limits};

use crate::export::{termination, Export, ExportInfo};
use crate::spec::{Family, SpecError, DRAUGHTS_VARIANTS};
use crate::table::{boxed, Listed, Table};

/// The draughts engine's level for a catalog level: 1 to 4 spread over the engine's range
/// (depth 3 with much noise, depth 6, 0.2 s a move, and full strength at 3 s a move).
fn engine_level(level: u8) -> u8 {
    level
        .saturating_mul(2)
        .min(tablier_draughts_engine::MAX_LEVEL)
}

/// The table of a draughts variant (absent: international) at its start, or at the position
/// of the FEN `start`.
pub(crate) fn new_table(
    variant: Option<&str>,
    start: Option<&str>,
) -> Result<Box<dyn Table>, SpecError> {
    let name = variant.unwrap_or("international");
    let v: &'static Variant = Variant::by_name(name)
        .filter(|v| DRAUGHTS_VARIANTS.contains(&v.name))
        .ok_or_else(|| SpecError::UnknownVariant { name: name.into() })?;
    if v.name == "french-old" {
        let game = match start {
            Some(fen) => FrenchGame::from_position(
                tablier_draughts::fen::parse::<tablier_draughts::G10>(v, fen)
                    .map_err(|e| SpecError::bad_start(fen, e))?,
                TableOptions::default(),
            ),
            None => FrenchGame::<tablier_draughts::G10>::start(TableOptions::default())
                .map_err(|e| SpecError::Start(e.to_string()))?,
        };
        return Ok(boxed(game));
    }
    Ok(
        tablier_draughts::with_board!(v.board, G => boxed(match start {
            Some(fen) => Game::<G>::from_position(
                tablier_draughts::fen::parse::<G>(v, fen).map_err(|e| SpecError::bad_start(fen, e))?,
            ),
            None => Game::<G>::start(v).map_err(|e| SpecError::Start(e.to_string()))?,
        })),
    )
}

/// Men and kings (a king counts three) of `side` less the opponent's.
fn material<G: Geometry>(p: &Position<G>, side: Side) -> f64 {
    p.pieces()
        .into_iter()
        .map(|(_, p)| {
            let v = if p.king { 3.0 } else { 1.0 };
            if p.side == side {
                v
            } else {
                -v
            }
        })
        .sum()
}

/// A position's heuristic: decided games at once, material otherwise.
fn heuristic<G: Geometry>(p: &Position<G>, over: Option<Outcome>, side: Side) -> f64 {
    match over {
        Some(Outcome::Win { winner, .. }) => {
            if winner == side {
                1e6
            } else {
                -1e6
            }
        }
        Some(Outcome::Draw) => 0.0,
        None => material(p, side),
    }
}

/// The engine's score of `pos` for White, in men, searched to depth 6 with a small table
/// (±20 for a won game).
fn review<G: Geometry>(pos: &Position<G>, over: Option<Outcome>) -> f64 {
    match over {
        Some(Outcome::Win { winner, .. }) => {
            return if winner == Side::White { 20.0 } else { -20.0 }
        }
        Some(Outcome::Draw) => return 0.0,
        None => {}
    }
    let mut engine = Engine::<G>::new(pos.variant(), 1);
    let r = engine.search(pos, &[], &Limits::depth(6), &mut |_| {});
    let men = (f64::from(r.score) / 100.0).clamp(-20.0, 20.0);
    if pos.side_to_move() == Side::White {
        men
    } else {
        -men
    }
}

/// The PDN tags of `info` that it has: event, date, players.
fn header(info: &ExportInfo) -> Vec<(&str, &str)> {
    [
        ("Event", info.event.as_str()),
        ("Date", info.date.as_str()),
        ("White", info.players[0].as_str()),
        ("Black", info.players[1].as_str()),
    ]
    .into_iter()
    .filter(|(_, v)| !v.is_empty())
    .collect()
}

/// The game as PDN; a game the table ended (a resignation, a flag, an agreed draw) gets its
/// real result, in the variant's style, and a `Termination` tag that says how.
fn pdn(
    mut game: tablier_draughts::pdn::PdnGame,
    info: &ExportInfo,
    international_style: bool,
) -> Export {
    if let Some((r, words)) = info
        .result
        .as_ref()
        .and_then(|r| termination(r).map(|w| (r, w)))
    {
        let token = match (r.winner, international_style) {
            (None, true) => "1-1",
            (None, false) => "1/2-1/2",
            (Some(Side::White), true) => "2-0",
            (Some(Side::Black), true) => "0-2",
            (Some(Side::White), false) => "1-0",
            (Some(Side::Black), false) => "0-1",
        };
        game.tags
            .retain(|(n, _)| n != "Result" && n != "Termination");
        game.tags.push(("Result".into(), token.into()));
        game.tags.push(("Termination".into(), words.into()));
        game.result = Some(token.into());
    }
    Export {
        mime: "application/x-pdn",
        extension: "pdn",
        text: tablier_draughts::pdn::write_pdn(&game),
    }
}

impl<G: Geometry> Listed for Game<G> {
    const FAMILY: Family = Family::Draughts;

    fn engine(level: u8, seed: u64) -> Box<dyn Player<Self> + Send> {
        Box::new(LevelPlayer::new(engine_level(level), seed))
    }

    fn heuristic(&self, side: Side) -> f64 {
        heuristic(self.position(), self.outcome(), side)
    }

    fn review_value(&self) -> Option<f64> {
        Some(review(self.position(), self.outcome()))
    }

    fn export(&self, _history: &[Self::Action], info: &ExportInfo) -> Export {
        let international_style =
            matches!(self.start_position().variant().pdn_game_type, "20" | "27");
        pdn(
            tablier_draughts::replay::to_pdn(self, &header(info)),
            info,
            international_style,
        )
    }
}

impl<G: Geometry> Listed for FrenchGame<G> {
    const FAMILY: Family = Family::Draughts;

    fn engine(level: u8, seed: u64) -> Box<dyn Player<Self> + Send> {
        Box::new(LevelPlayer::new(engine_level(level), seed))
    }

    fn heuristic(&self, side: Side) -> f64 {
        heuristic(self.position(), self.outcome(), side)
    }

    fn review_value(&self) -> Option<f64> {
        // Between turns only (not while a huff is pending).
        matches!(
            self.actor(),
            tablier_core::Actor::Player(_) | tablier_core::Actor::Nobody
        )
        .then(|| review(self.position(), self.outcome()))
    }

    fn export(&self, _history: &[Self::Action], info: &ExportInfo) -> Export {
        // The old French rules are written with the 10x10 board's result style.
        pdn(
            tablier_draughts::french::to_pdn(self, &header(info)),
            info,
            true,
        )
    }
}
