//! Trictrac in the catalog: the grand trictrac, scored automatically or by the players with
//! *écoles*; the engine's levels, the JSON-lines record, and White's chance of winning the
//! partie for the review.

use tablier_core::{Player, Side};
use tablier_trictrac::game::{Edition, Marking, Options, Trictrac};
use tablier_trictrac::{Board, Marker, Phase};
use tablier_trictrac_engine::player::LevelPlayer;
use tablier_trictrac_engine::search::chance;
use tablier_trictrac_engine::{state_of, Search, Weights};

use crate::export::{Export, ExportInfo};
use crate::spec::{Family, GameSpec, SpecError, TRICTRAC_EDITION};
use crate::table::Listed;

/// The partie of a spec: automatic scoring, or the players marking with écoles; under the
/// edition of the rules the spec names (none: the first, as stored before editions).
pub(crate) fn new_partie(spec: &GameSpec) -> Result<Trictrac, SpecError> {
    let edition = match spec.edition.unwrap_or(1) {
        1 => Edition::First,
        TRICTRAC_EDITION => Edition::Second,
        other => return Err(SpecError::UnknownEdition(other)),
    };
    let options = Options {
        marking: if spec.ecoles.unwrap_or(false) {
            Marking::Ecoles
        } else {
            Marking::Automatic
        },
        edition,
        ..Options::default()
    };
    let Some(text) = spec.start.as_deref() else {
        return Ok(Trictrac::new(options));
    };
    // A board in tablier's notation, White to throw unless `;black` follows; no points yet.
    let (board, roller) = match text.split_once(';') {
        Some((b, who)) => match who.trim().to_ascii_lowercase().as_str() {
            "white" | "w" => (b, Side::White),
            "black" | "b" => (b, Side::Black),
            other => {
                return Err(SpecError::bad_start(
                    text,
                    format!("{other:?} is not a side (white or black)"),
                ))
            }
        },
        None => (text, Side::White),
    };
    let board = Board::parse(board.trim()).map_err(|e| SpecError::bad_start(text, e))?;
    Ok(Trictrac::from_position(
        options,
        board,
        Marker::new(),
        roller,
    ))
}

impl Listed for Trictrac {
    const FAMILY: Family = Family::Trictrac;

    /// Catalog levels 1 to 4 are the trictrac engine's levels 0 to 3 (1 ply with much noise,
    /// 1 ply with a little, 1 ply, 2 plies).
    fn engine(level: u8, seed: u64) -> Box<dyn Player<Self> + Send> {
        Box::new(LevelPlayer::new(level.saturating_sub(1), seed))
    }

    /// Holes (twelve points each) and points of `side` less the opponent's.
    fn heuristic(&self, side: Side) -> f64 {
        let m = self.marker();
        let value = |s: Side| f64::from(m.holes(s)) * 12.0 + f64::from(m.points(s));
        value(side) - value(side.opposite())
    }

    /// White's chance of winning the partie in 12 holes, in percent, before each throw (the
    /// engine's chance model: the score's table and the board's promise);
    /// 100 or 0 once the partie is over.
    fn review_value(&self) -> Option<f64> {
        match self.phase() {
            Phase::Roll => {
                // The evaluation itself (a throw ahead costs 21 times as much, and a partie
                // has hundreds of positions).
                let search = Search::for_partie(Weights::shipped(), 1);
                let v = search.throw_value(&state_of(self), 0);
                let white = if self.roller() == Side::White { v } else { -v };
                Some(100.0 * chance(white))
            }
            Phase::Over => {
                let m = self.marker();
                Some(if m.holes(Side::White) > m.holes(Side::Black) {
                    100.0
                } else {
                    0.0
                })
            }
            _ => None,
        }
    }

    /// The partie's record: a header line and one JSON line per action.
    fn export(&self, _history: &[Self::Action], _info: &ExportInfo) -> Export {
        Export {
            mime: "application/x-ndjson",
            extension: "jsonl",
            text: self.record(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::choose;
    use crate::table::boxed;
    use rand::SeedableRng;
    use tablier_core::{Actor, Budget, SeededDice};

    /// The review's value is White's chance of winning the partie, in percent, before every
    /// throw; none while a player chooses.
    #[test]
    fn the_review_value_is_whites_chance_of_the_partie() {
        let mut t = Trictrac::new(Options::default());
        let mut dice = SeededDice::from_seed([9; 32]);
        let mut seen = 0;
        for step in 0..400 {
            match tablier_core::Game::actor(&t) {
                Actor::Player(_) => {
                    assert_eq!(t.review_value(), None);
                    let a = tablier_trictrac_engine::choose_action(&t, 2, step).unwrap();
                    tablier_core::Game::apply(&mut t, &a).unwrap();
                }
                Actor::Chance => {
                    if t.phase() == Phase::Roll {
                        let v = t.review_value().unwrap();
                        assert!((0.0..=100.0).contains(&v), "{v}");
                        seen += 1;
                    }
                    let a = t.chance_action(&mut dice).unwrap();
                    tablier_core::Game::apply(&mut t, &a).unwrap();
                }
                Actor::Nobody => break,
            }
        }
        assert!(seen > 50);
    }

    /// A stored spec that names no edition (every game stored before editions existed) is
    /// played and restored under the first edition; a new game's spec names the current
    /// one; both restore exactly from their logs, whole parties played by the engine. The spec of the first kind still serialises without the field, so that its
    /// published commitment is unchanged.
    #[test]
    fn each_stored_partie_restores_under_its_own_edition() {
        use crate::referee::Referee;
        use crate::spec::{Family, TableSpec};
        use crate::SeatAction;
        let asked: GameSpec = serde_json::from_str(r#"{"family":"trictrac"}"#).unwrap();
        for (spec, edition) in [
            (asked.clone(), "First"),
            (asked.clone().for_new_game(), "Second"),
        ] {
            assert_eq!(spec.family, Family::Trictrac);
            let json = serde_json::to_string(&spec).unwrap();
            assert_eq!(json.contains("edition"), edition == "Second", "{json}");
            let table = TableSpec {
                game: spec,
                clock: None,
            };
            let seed = [11; 32];
            let mut r = Referee::new(table.clone(), seed, 0).unwrap();
            for n in 0..4000u64 {
                r.draw_chance(n as i64);
                let Actor::Player(side) = r.actor() else {
                    break;
                };
                let text = r.table().engine_choice(2, n, Budget::UNLIMITED).unwrap();
                r.act(side, &SeatAction::Game(text), n as i64).unwrap();
            }
            assert!(r.result().is_some(), "the partie ended");
            assert_eq!(r.table().view()["options"]["edition"], edition);
            let again =
                Referee::restore(table, seed, 0, r.commitment().to_owned(), r.log()).unwrap();
            assert_eq!(again.table().view(), r.table().view());
            assert_eq!(again.log(), r.log());
        }
    }

    /// The trictrac seats answer every phase a player acts in with a legal action.
    #[test]
    fn the_trictrac_seats_act_legally_through_a_partie_start() {
        let mut t = boxed(Trictrac::new(Options::default()));
        let mut dice = SeededDice::from_seed([7; 32]);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..300 {
            match t.actor() {
                Actor::Player(side) => {
                    let level = 1 + (t.legal().len() % 4) as u8;
                    let text = choose(t.as_ref(), side, level, Budget::UNLIMITED, &mut rng)
                        .expect("the engine chooses");
                    assert!(t.legal().contains(&text), "{text}");
                    t.apply(&text).unwrap();
                }
                Actor::Chance => {
                    let roll = t.chance(&mut dice).unwrap();
                    t.apply(&roll).unwrap();
                }
                Actor::Nobody => break,
            }
        }
    }
}
