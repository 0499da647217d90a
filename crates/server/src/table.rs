//! Every game behind one object-safe face: the server knows no rule, only the [`Game`] trait,
//! with actions exchanged in each game's own notation.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tablier_core::{Actor, Dice, Game, Outcome, Side};

/// The three families of games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// Draughts, every variant.
    Draughts,
    /// Backgammon: money games and matches.
    Backgammon,
    /// Grand trictrac.
    Trictrac,
}

/// What a new game is: its family, variant and options, as a client asks for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSpec {
    /// The family.
    pub family: Family,
    /// The draughts variant (`international`, `brazilian`, `canadian`, `english`, ...).
    #[serde(default)]
    pub variant: Option<String>,
    /// Backgammon: points to win the match (0 or absent: a money game).
    #[serde(default)]
    pub match_length: Option<u32>,
    /// Backgammon money games: the Jacoby rule (default on).
    #[serde(default)]
    pub jacoby: Option<bool>,
    /// Backgammon money games: beavers (default off).
    #[serde(default)]
    pub beavers: Option<bool>,
    /// Backgammon: the cube is used (default on).
    #[serde(default)]
    pub cube: Option<bool>,
    /// Trictrac: players mark their own points and claim écoles (default off: automatic).
    #[serde(default)]
    pub ecoles: Option<bool>,
}

/// A game seen by the server: actions in and out as text.
pub trait Table: Send + Sync {
    /// Who acts now.
    fn actor(&self) -> Actor;
    /// The legal actions of the actor, in notation.
    fn legal(&self) -> Vec<String>;
    /// Reads and applies an action; returns it as the game writes it.
    ///
    /// # Errors
    /// Why the text is not a legal action now; the game is then unchanged.
    fn apply(&mut self, text: &str) -> Result<String, String>;
    /// The chance action due now, drawn from `dice`, in notation (not applied).
    fn chance(&self, dice: &mut dyn Dice) -> Option<String>;
    /// The result once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The game's own serialisable view (position, legal actions with their paths).
    fn view(&self) -> Value;
    /// A copy, to try an action on.
    fn boxed_clone(&self) -> Box<dyn Table>;
    /// A rough value of the position for `side` (higher is better): the simple engine's guide.
    fn heuristic(&self, side: Side) -> f64;
    /// The strong engine's action for `side` at `level`, where the game has one, thinking
    /// no longer than `budget` when a clock runs.
    fn engine_choice(
        &self,
        side: Side,
        level: u8,
        seed: u64,
        budget: Option<std::time::Duration>,
    ) -> Option<String>;
    /// The engine's judgement of the position for the review graph, from White's side, in
    /// the family's [`review_unit`]; `None` where the family judges no position here (in
    /// the middle of a turn, or dice in hand).
    fn review_value(&self) -> Option<f64>;
    /// The game in its family's file format: (MIME type, file name extension, text).
    fn export(&self) -> (&'static str, &'static str, String);
}

/// A game written in its family's record format.
pub trait Export {
    /// (MIME type, extension, text).
    fn export(&self) -> (&'static str, &'static str, String);
}

impl<G: tablier_draughts::Geometry> Export for tablier_draughts::game::Game<G> {
    fn export(&self) -> (&'static str, &'static str, String) {
        let pdn = tablier_draughts::replay::to_pdn(self, &[("Event", "tablier")]);
        (
            "application/x-pdn",
            "pdn",
            tablier_draughts::pdn::write_pdn(&pdn),
        )
    }
}

impl<G: tablier_draughts::Geometry> Export for tablier_draughts::french::FrenchGame<G> {
    fn export(&self) -> (&'static str, &'static str, String) {
        let pdn = tablier_draughts::french::to_pdn(self, &[("Event", "tablier")]);
        (
            "application/x-pdn",
            "pdn",
            tablier_draughts::pdn::write_pdn(&pdn),
        )
    }
}

impl Export for tablier_backgammon::game::Match {
    fn export(&self) -> (&'static str, &'static str, String) {
        // The match file is written from the server's log (see `export.rs`); here the
        // position alone, as a GNUbgID.
        (
            "text/plain",
            "txt",
            tablier_backgammon::record::gnubg_id(self),
        )
    }
}

impl Export for tablier_trictrac::game::Trictrac {
    fn export(&self) -> (&'static str, &'static str, String) {
        ("application/x-ndjson", "jsonl", self.record())
    }
}

/// A rough evaluation, for the simple engine players, and the strong engine where a game
/// has one.
pub trait Evaluate {
    /// Higher is better for `side`.
    fn evaluate(&self, side: Side) -> f64;

    /// The strong engine's action for `side` at server `level` (1 to
    /// [`crate::engine::MAX_LEVEL`]), in notation; `None` where the game has no strong
    /// engine yet (the simple engine plays) or `side` is not to act. `seed` drives the
    /// weaker levels' random choices; `budget`, when a clock runs, caps the thinking time
    /// (only the draughts levels that think for a set time need it: the others answer in
    /// well under a second).
    fn strong_choice(
        &self,
        side: Side,
        level: u8,
        seed: u64,
        budget: Option<std::time::Duration>,
    ) -> Option<String> {
        let _ = (side, level, seed, budget);
        None
    }

    /// The engine's judgement for the review page, from White's side (see
    /// [`Table::review_value`]).
    fn review_value(&self) -> Option<f64> {
        None
    }
}

/// What the review graph measures: draughts in men (the engine's score at depth 6),
/// backgammon in White's chance to win the game in percent (0-ply, cubeless), trictrac in
/// holes (White's expected margin at the end of the partie, by the trained evaluation).
#[must_use]
pub fn review_unit(family: Family) -> &'static str {
    match family {
        Family::Draughts => "men",
        Family::Backgammon => "% to win",
        Family::Trictrac => "holes",
    }
}

/// The draughts engine's score of `pos` for White, in men, searched to depth 6 (±20 for a
/// won game).
fn draughts_review<G: tablier_draughts::Geometry>(
    pos: &tablier_draughts::Position<G>,
    over: Option<Outcome>,
) -> f64 {
    match over {
        Some(Outcome::Win { winner, .. }) => {
            return if winner == Side::White { 20.0 } else { -20.0 }
        }
        Some(Outcome::Draw) => return 0.0,
        None => {}
    }
    let mut engine = tablier_draughts_engine::Engine::<G>::new(pos.variant(), 1);
    let r = engine.search(
        pos,
        &[],
        &tablier_draughts_engine::Limits::depth(6),
        &mut |_| {},
    );
    let men = (f64::from(r.score) / 100.0).clamp(-20.0, 20.0);
    if pos.side_to_move() == Side::White {
        men
    } else {
        -men
    }
}

/// The draughts engine's level for a server level: 1 to 4 spread over the engine's range
/// (depth 3 with much noise, depth 6, 0.2 s a move, and full strength at 3 s a move).
fn draughts_level(level: u8) -> u8 {
    (level.saturating_mul(2)).min(tablier_draughts_engine::MAX_LEVEL)
}

impl<G: tablier_draughts::Geometry> Evaluate for tablier_draughts::game::Game<G> {
    fn evaluate(&self, side: Side) -> f64 {
        match self.outcome() {
            Some(Outcome::Win { winner, .. }) => return if winner == side { 1e6 } else { -1e6 },
            Some(Outcome::Draw) => return 0.0,
            None => {}
        }
        material(self.position(), side)
    }

    fn strong_choice(
        &self,
        side: Side,
        level: u8,
        seed: u64,
        budget: Option<std::time::Duration>,
    ) -> Option<String> {
        use rand::SeedableRng;
        if self.actor() != Actor::Player(side) {
            return None;
        }
        let pos = self.position();
        let mut engine = tablier_draughts_engine::Engine::<G>::new(pos.variant(), 16);
        let hist = self.positions_since_irreversible();
        let hist = &hist[..hist.len().saturating_sub(1)];
        let level = draughts_level(level);
        let spec = tablier_draughts_engine::level_spec(level);
        let m = match budget {
            Some(b) if spec.move_time_ms > 0 => {
                let t = b.min(std::time::Duration::from_millis(spec.move_time_ms));
                let limits = tablier_draughts_engine::Limits::move_time(t);
                engine.search(pos, hist, &limits, &mut |_| {}).best?
            }
            _ => {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                engine.play_level(pos, hist, level, &mut rng)?
            }
        };
        Some(self.format_action(&m))
    }

    fn review_value(&self) -> Option<f64> {
        Some(draughts_review(self.position(), self.outcome()))
    }
}

impl<G: tablier_draughts::Geometry> Evaluate for tablier_draughts::french::FrenchGame<G> {
    fn evaluate(&self, side: Side) -> f64 {
        match self.outcome() {
            Some(Outcome::Win { winner, .. }) => return if winner == side { 1e6 } else { -1e6 },
            Some(Outcome::Draw) => return 0.0,
            None => {}
        }
        material(self.position(), side)
    }

    fn strong_choice(
        &self,
        side: Side,
        level: u8,
        _seed: u64,
        budget: Option<std::time::Duration>,
    ) -> Option<String> {
        if self.actor() != Actor::Player(side) {
            return None;
        }
        let spec = tablier_draughts_engine::level_spec(draughts_level(level));
        let limits = if spec.move_time_ms > 0 {
            let t = std::time::Duration::from_millis(spec.move_time_ms);
            tablier_draughts_engine::Limits::move_time(budget.map_or(t, |b| b.min(t)))
        } else {
            tablier_draughts_engine::Limits::depth(spec.depth)
        };
        let variant = self.position().variant();
        let mut engine = tablier_draughts_engine::Engine::<G>::new(variant, 16);
        let a = tablier_draughts_engine::french::choose(&mut engine, self, &limits)?;
        Some(self.format_action(&a))
    }

    fn review_value(&self) -> Option<f64> {
        // Between turns only (not while a huff is pending).
        matches!(self.actor(), Actor::Player(_) | Actor::Nobody)
            .then(|| draughts_review(self.position(), self.outcome()))
    }
}

fn material<G: tablier_draughts::Geometry>(p: &tablier_draughts::Position<G>, side: Side) -> f64 {
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

impl Evaluate for tablier_backgammon::game::Match {
    fn evaluate(&self, side: Side) -> f64 {
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

    fn strong_choice(
        &self,
        side: Side,
        level: u8,
        seed: u64,
        _budget: Option<std::time::Duration>,
    ) -> Option<String> {
        use rand::SeedableRng;
        use tablier_backgammon_engine::{eval, player::Player};
        if self.actor() != Actor::Player(side) {
            return None;
        }
        let player = Player::at_level(backgammon_level(level));
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut scratch = eval::Scratch::default();
        let a = player.choose(eval::Evaluator::shipped(), self, &mut rng, &mut scratch)?;
        Some(self.format_action(&a))
    }

    fn review_value(&self) -> Option<f64> {
        use tablier_backgammon::game::Phase;
        use tablier_backgammon_engine::eval;
        if !matches!(self.phase(), Phase::BeforeRoll | Phase::Rolling) {
            return None;
        }
        let mut scratch = eval::Scratch::default();
        let p = eval::Evaluator::shipped().probs(&self.position(), &mut scratch);
        let win = f64::from(p[0]) * 100.0;
        Some(if self.turn() == Side::White {
            win
        } else {
            100.0 - win
        })
    }
}

impl Evaluate for tablier_trictrac::game::Trictrac {
    fn evaluate(&self, side: Side) -> f64 {
        let m = self.marker();
        let value = |s: Side| f64::from(m.holes(s)) * 12.0 + f64::from(m.points(s));
        value(side) - value(side.opposite())
    }

    /// Server levels 1 to 4 are the trictrac engine's levels 0 to 3 (1 ply with much noise,
    /// 1 ply with a little, 1 ply, 2 plies).
    fn strong_choice(
        &self,
        side: Side,
        level: u8,
        seed: u64,
        _budget: Option<std::time::Duration>,
    ) -> Option<String> {
        if self.actor() != Actor::Player(side) {
            return None;
        }
        let level = level
            .saturating_sub(1)
            .min(tablier_trictrac_engine::MAX_LEVEL);
        let a = tablier_trictrac_engine::choose_action(self, level, seed).ok()?;
        Some(self.format_action(&a))
    }

    fn review_value(&self) -> Option<f64> {
        use tablier_trictrac::Phase;
        match self.phase() {
            Phase::Roll => {
                let state = tablier_trictrac_engine::state_of(self);
                // The trained evaluation itself (a throw ahead costs 21 times as much, and a
                // partie has hundreds of positions).
                let search = tablier_trictrac_engine::Search::new(
                    tablier_trictrac_engine::Weights::shipped(),
                    1,
                );
                let v = search.throw_value(&state, 0);
                Some(if self.roller() == Side::White { v } else { -v })
            }
            Phase::Over => {
                let m = self.marker();
                Some(f64::from(m.holes(Side::White)) - f64::from(m.holes(Side::Black)))
            }
            _ => None,
        }
    }
}

/// The backgammon engine's level for a server level: 1 to 4 are the engine's levels 1
/// (0-ply with noise), 3 (0-ply), 4 (1-ply) and 5 (2-ply, its strongest).
fn backgammon_level(level: u8) -> u8 {
    match level {
        0 | 1 => 1,
        2 => 3,
        3 => 4,
        _ => tablier_backgammon_engine::MAX_LEVEL,
    }
}

struct GameTable<G>(G);

impl<G> Table for GameTable<G>
where
    G: Game + Evaluate + Export + Send + Sync + 'static,
{
    fn heuristic(&self, side: Side) -> f64 {
        self.0.evaluate(side)
    }

    fn engine_choice(
        &self,
        side: Side,
        level: u8,
        seed: u64,
        budget: Option<std::time::Duration>,
    ) -> Option<String> {
        self.0.strong_choice(side, level, seed, budget)
    }

    fn review_value(&self) -> Option<f64> {
        self.0.review_value()
    }

    fn export(&self) -> (&'static str, &'static str, String) {
        self.0.export()
    }

    fn actor(&self) -> Actor {
        self.0.actor()
    }

    fn legal(&self) -> Vec<String> {
        self.0
            .legal_actions()
            .iter()
            .map(|a| self.0.format_action(a))
            .collect()
    }

    fn apply(&mut self, text: &str) -> Result<String, String> {
        let action = self.0.parse_action(text).map_err(|e| e.reason)?;
        let written = self.0.format_action(&action);
        self.0.apply(&action).map_err(|e| e.reason)?;
        Ok(written)
    }

    fn chance(&self, dice: &mut dyn Dice) -> Option<String> {
        self.0.chance_action(dice).map(|a| self.0.format_action(&a))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn view(&self) -> Value {
        serde_json::to_value(self.0.view()).unwrap_or(Value::Null)
    }

    fn boxed_clone(&self) -> Box<dyn Table> {
        Box::new(GameTable(self.0.clone()))
    }
}

/// The draughts variants the server offers (`french-old`: the old French rules, with
/// huffing, on the 10x10 board).
pub const DRAUGHTS_VARIANTS: [&str; 5] = [
    "international",
    "brazilian",
    "canadian",
    "english",
    "french-old",
];

/// A new game of `spec`, at its start.
///
/// # Errors
/// A reason when the spec names no game tablier plays.
pub fn new_table(spec: &GameSpec) -> Result<Box<dyn Table>, String> {
    match spec.family {
        Family::Draughts => {
            let name = spec.variant.as_deref().unwrap_or("international");
            let v = tablier_draughts::Variant::by_name(name)
                .filter(|v| DRAUGHTS_VARIANTS.contains(&v.name))
                .ok_or_else(|| {
                    format!(
                        "unknown draughts variant {name:?} (one of {})",
                        DRAUGHTS_VARIANTS.join(", ")
                    )
                })?;
            if v.name == "french-old" {
                let game = tablier_draughts::french::FrenchGame::<tablier_draughts::G10>::start(
                    tablier_draughts::french::TableOptions::default(),
                )
                .map_err(|e| e.to_string())?;
                return Ok(Box::new(GameTable(game)));
            }
            let table: Box<dyn Table> = tablier_draughts::with_board!(v.board, G => Box::new(
                GameTable(tablier_draughts::game::Game::<G>::start(v).map_err(|e| e.to_string())?)
            ));
            Ok(table)
        }
        Family::Backgammon => {
            use tablier_backgammon::game::{Match, Options};
            let length = spec.match_length.unwrap_or(0);
            if length > 64 {
                return Err("a match is at most 64 points".into());
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
            Ok(Box::new(GameTable(Match::new(o))))
        }
        Family::Trictrac => {
            use tablier_trictrac::game::{Marking, Options, Trictrac};
            let options = Options {
                marking: if spec.ecoles.unwrap_or(false) {
                    Marking::Ecoles
                } else {
                    Marking::Automatic
                },
                ..Options::default()
            };
            Ok(Box::new(GameTable(Trictrac::new(options))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tablier_backgammon::game::{Match, Options, Phase};
    use tablier_backgammon::Position;

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
        for level in 2..=crate::engine::MAX_LEVEL {
            assert_eq!(
                m.strong_choice(Side::White, level, 1, None).as_deref(),
                Some("double"),
                "level {level}"
            );
        }
        // Not the other side's turn to decide.
        assert_eq!(m.strong_choice(Side::Black, 2, 1, None), None);
        let mut doubled = m.clone();
        doubled
            .apply(&doubled.parse_action("double").unwrap())
            .unwrap();
        let answer = doubled.strong_choice(Side::Black, 2, 1, None).unwrap();
        assert!(answer == "take" || answer == "drop", "{answer}");
    }

    /// The trictrac seats answer every phase a player acts in with a legal action.
    #[test]
    fn the_trictrac_seats_act_legally_through_a_partie_start() {
        use tablier_core::SeededDice;
        use tablier_trictrac::game::{Options, Trictrac};
        let mut g = Trictrac::new(Options::default());
        let mut dice = SeededDice::from_seed([7; 32]);
        for _ in 0..300 {
            match g.actor() {
                Actor::Player(side) => {
                    let text =
                        g.strong_choice(side, 1 + (g.legal_actions().len() % 4) as u8, 3, None);
                    let text = text.expect("the engine chooses");
                    let a = g.parse_action(&text).unwrap();
                    assert!(g.legal_actions().contains(&a), "{text}");
                    g.apply(&a).unwrap();
                }
                Actor::Chance => {
                    let a = g.chance_action(&mut dice).unwrap();
                    g.apply(&a).unwrap();
                }
                Actor::Nobody => break,
            }
        }
    }
}
