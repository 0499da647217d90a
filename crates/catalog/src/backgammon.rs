//! Backgammon in the catalog: money games and matches with the options of a [`GameSpec`];
//! the engine's levels, `.mat` match files, and White's chance to win for the review.

use tablier_backgammon::game::{Match, Options, Phase};
use tablier_backgammon_engine::eval::{Evaluator, Scratch};
use tablier_backgammon_engine::player::MatchPlayer;
use tablier_core::{Player, Side};

use crate::export::{termination, Export, ExportInfo};
use crate::spec::{Family, GameSpec, SpecError, MAX_MATCH_LENGTH};
use crate::table::Listed;

/// The rules' options of a backgammon spec: a match to `match_length` points (0 or absent: a
/// money game, with the Jacoby rule unless turned off and beavers if asked for), the cube
/// unless turned off.
///
/// # Errors
/// [`SpecError::MatchTooLong`] beyond [`MAX_MATCH_LENGTH`] points.
pub fn options(spec: &GameSpec) -> Result<Options, SpecError> {
    let length = spec.match_length.unwrap_or(0);
    if length > MAX_MATCH_LENGTH {
        return Err(SpecError::MatchTooLong);
    }
    let mut o = if length == 0 {
        Options::money()
    } else {
        Options::match_to(length)
    };
    if length == 0 {
        o.jacoby = spec.jacoby.unwrap_or(true);
        o.beavers = spec.beavers.unwrap_or(false);
    }
    o.cube = spec.cube.unwrap_or(true);
    Ok(o)
}

/// The match of a spec, before its opening roll.
pub(crate) fn new_match(spec: &GameSpec) -> Result<Match, SpecError> {
    let options = options(spec)?;
    let Some(text) = spec.start.as_deref() else {
        return Ok(Match::new(options));
    };
    // An XGID: its match length, score, cube, turn and dice are the game's.
    let xgid =
        tablier_backgammon::xgid::Xgid::parse(text).map_err(|e| SpecError::bad_start(text, e))?;
    let (position, id) = xgid.to_gnubg().map_err(|e| SpecError::bad_start(text, e))?;
    let m = tablier_backgammon::record::from_match_id(position, &id, options)
        .map_err(|e| SpecError::bad_start(text, e))?;
    if u32::from(id.match_length) > MAX_MATCH_LENGTH {
        return Err(SpecError::MatchTooLong);
    }
    if m.phase() == tablier_backgammon::game::Phase::Over {
        return Err(SpecError::bad_start(text, "the game is over there"));
    }
    Ok(m)
}

/// The backgammon engine's level for a catalog level: 1 to 4 are the engine's levels 1
/// (0-ply with noise), 3 (0-ply), 4 (1-ply) and 6 (3-ply, its strongest: about half a second
/// a play here, kept to the clock's budget when a clock runs).
fn engine_level(level: u8) -> u8 {
    match level {
        0 | 1 => 1,
        2 => 3,
        3 => 4,
        _ => tablier_backgammon_engine::MAX_LEVEL,
    }
}

impl Listed for Match {
    const FAMILY: Family = Family::Backgammon;

    fn engine(level: u8, seed: u64) -> Box<dyn Player<Self> + Send> {
        Box::new(MatchPlayer::at_level(engine_level(level), seed))
    }

    /// Points of the score (50 a point), pips, blots within reach and made points.
    fn heuristic(&self, side: Side) -> f64 {
        let score = self.score();
        let mut v =
            50.0 * (f64::from(score[side.index()]) - f64::from(score[side.opposite().index()]));
        let p = if self.turn() == side {
            self.position()
        } else {
            self.position().flip()
        };
        let (mine, theirs) = p.pip_count();
        v += (f64::from(theirs) - f64::from(mine)) / 4.0;
        // Blots within reach of the opponent are a risk, made points a strength.
        for point in 1..=24 {
            match p.raw(point) {
                1 => v -= 1.0 + f64::from(25 - point as u8) / 24.0,
                n if n >= 2 => v += if point <= 6 { 1.5 } else { 0.5 },
                _ => {}
            }
        }
        v
    }

    /// White's cubeless chance to win the game, in percent, at 0-ply, before each roll.
    fn review_value(&self) -> Option<f64> {
        if !matches!(self.phase(), Phase::BeforeRoll | Phase::Rolling) {
            return None;
        }
        let mut scratch = Scratch::default();
        let p = Evaluator::shipped().probs(&self.position(), &mut scratch);
        let win = f64::from(p[0]) * 100.0;
        Some(if self.turn() == Side::White {
            win
        } else {
            100.0 - win
        })
    }

    /// The `.mat` match file of every action so far (gnubg's layout), with gnubg's header
    /// lines (event, date, players) and, for a game the table ended by a flag, a note of it
    /// (the .mat layout has no entry for it); if the actions do not make a match file (which
    /// the rules' own checks rule out), the position as a GNUbgID.
    fn export(&self, history: &[Self::Action], info: &ExportInfo) -> Export {
        // gnubg reads a .mat name up to the blank before its colon: no blanks in names.
        let [white, black] = [(0, "white"), (1, "black")]
            .map(|(i, default)| non_empty(&info.players[i], default).replace(' ', "_"));
        let names = [white.as_str(), black.as_str()];
        match tablier_backgammon::record::to_mat(*self.options(), names, history) {
            Ok(mut file) => {
                let mut tags = Vec::new();
                if !info.event.is_empty() {
                    tags.push(format!("[Event \"{}\"]", info.event));
                }
                if !info.date.is_empty() {
                    tags.push(format!("[EventDate \"{}\"]", info.date));
                }
                tags.push(format!("[Player 1 \"{}\"]", names[0]));
                tags.push(format!("[Player 2 \"{}\"]", names[1]));
                if let Some(words) = info.result.as_ref().and_then(termination) {
                    tags.push(format!("[Termination \"{words}\"]"));
                }
                file.tags = tags;
                Export {
                    mime: "text/plain; charset=utf-8",
                    extension: "mat",
                    text: file.to_string(),
                }
            }
            Err(_) => Export {
                mime: "text/plain; charset=utf-8",
                extension: "txt",
                text: tablier_backgammon::record::gnubg_id(self),
            },
        }
    }
}

/// `name`, or `default` when it is empty.
fn non_empty<'a>(name: &'a str, default: &'a str) -> &'a str {
    if name.is_empty() {
        default
    } else {
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::levels::{choose, MAX_LEVEL};
    use crate::table::boxed;
    use rand::SeedableRng;
    use tablier_backgammon::Position;
    use tablier_core::{Budget, Game};

    /// A race the side on roll wins nine times in ten with no gammon either way: the
    /// backgammon engine's seats double (the simple engine judged pips, never the cube), and
    /// take-or-drop is answered by the engine too.
    #[test]
    fn the_backgammon_seats_double_a_won_race() {
        let mover = [
            3, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ];
        let opponent = [
            0, 0, 0, 5, 5, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        ];
        let pos = Position::from_sides(&mover, &opponent).unwrap();
        let m = Match::from_parts(
            Options::money(),
            [0, 0],
            false,
            pos,
            Side::White,
            1,
            None,
            Phase::BeforeRoll,
        )
        .unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let table = boxed(m.clone());
        for level in 2..=MAX_LEVEL {
            assert_eq!(
                choose(
                    table.as_ref(),
                    Side::White,
                    level,
                    Budget::UNLIMITED,
                    &mut rng
                )
                .as_deref(),
                Some("double"),
                "level {level}"
            );
        }
        // Not the other side's turn to decide.
        assert_eq!(
            choose(table.as_ref(), Side::Black, 2, Budget::UNLIMITED, &mut rng),
            None
        );
        let mut doubled = m.clone();
        doubled
            .apply(&doubled.parse_action("double").unwrap())
            .unwrap();
        let answer = choose(
            boxed(doubled).as_ref(),
            Side::Black,
            2,
            Budget::UNLIMITED,
            &mut rng,
        )
        .unwrap();
        assert!(answer == "take" || answer == "drop", "{answer}");
    }

    /// The export of a played match is its `.mat` file, which the rules read back.
    #[test]
    fn a_match_exports_as_a_mat_file_that_replays() {
        let spec = GameSpec {
            family: Family::Backgammon,
            variant: None,
            match_length: Some(3),
            jacoby: None,
            beavers: None,
            cube: None,
            ecoles: None,
            edition: None,
            start: None,
        };
        let mut t = crate::new_table(&spec).unwrap();
        let mut dice = tablier_core::SeededDice::from_seed([4; 32]);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        loop {
            let text = match t.actor() {
                tablier_core::Actor::Player(side) => {
                    choose(t.as_ref(), side, 0, Budget::UNLIMITED, &mut rng).unwrap()
                }
                tablier_core::Actor::Chance => t.chance(&mut dice).unwrap(),
                tablier_core::Actor::Nobody => break,
            };
            t.apply(&text).unwrap();
        }
        let file = t.export(&crate::ExportInfo {
            players: ["tablier level 2".into(), "Anonymous".into()],
            date: "2026.11.25".into(),
            event: "tablier".into(),
            result: None,
        });
        assert_eq!(file.extension, "mat");
        let read = tablier_backgammon::mat::MatchFile::parse(&file.text).unwrap();
        assert_eq!(read.match_length, 3);
        assert_eq!(
            read.tags,
            [
                "[Event \"tablier\"]",
                "[EventDate \"2026.11.25\"]",
                "[Player 1 \"tablier_level_2\"]",
                "[Player 2 \"Anonymous\"]"
            ]
        );
        assert_eq!(read.games[0].players, ["tablier_level_2", "Anonymous"]);
        tablier_backgammon::record::replay_mat(&read, options(&spec).unwrap()).unwrap();
    }
}
