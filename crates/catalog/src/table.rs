//! Every game behind one object-safe face, [`Table`]: a caller (the server, a tool) drives any
//! game with actions in the game's own notation and never names a rule. What each game adds
//! to its rules (its engine levels, its file format, its review value) makes it a [`Listed`]
//! game, one module per family; [`crate::games::new_table`] makes the table of a spec.

use std::sync::OnceLock;

use serde_json::Value;
use tablier_core::{ActionError, Actor, Budget, Dice, Game, Outcome, Player, Side};

use crate::export::{Export, ExportInfo};
use crate::spec::Family;

/// A game as the catalog lists it: its rules ([`Game`]) and what the catalog adds to them.
/// Adding a game to tablier means implementing this for its state type and naming it in
/// [`crate::games::new_table`]; nothing else changes.
pub trait Listed: Game + Send + Sync + 'static {
    /// The family it belongs to.
    const FAMILY: Family;

    /// The engine at catalog level `level` (1 to [`crate::levels::MAX_LEVEL`], from much noise
    /// to full strength), its random choices drawn from `seed`.
    fn engine(level: u8, seed: u64) -> Box<dyn Player<Self> + Send>;

    /// A rough value of the position for `side` (higher is better; about a man or a few pips
    /// per unit): what an engine seat weighs when offered a draw.
    fn heuristic(&self, side: Side) -> f64;

    /// The engine's judgement of the position for the review graph, from White's side, in
    /// the family's [`Family::review_unit`]; `None` where the family judges no position (in
    /// the middle of a turn, or dice in hand).
    fn review_value(&self) -> Option<f64>;

    /// The game written in its family's file format, given every action applied since the
    /// start (`history`, chance included) and what the header says beyond the moves.
    fn export(&self, history: &[Self::Action], info: &ExportInfo) -> Export;
}

/// A game seen through actions in notation: what the server and the tools hold.
pub trait Table: Send + Sync {
    /// The family of the game.
    fn family(&self) -> Family;
    /// Who acts now.
    fn actor(&self) -> Actor;
    /// The legal actions of the actor, in notation (computed once per position).
    fn legal(&self) -> &[String];
    /// Reads and applies an action; returns it as the game writes it.
    ///
    /// # Errors
    /// [`ActionError`] when the text names no legal action now (with the candidates of an
    /// ambiguous one) or the rules refuse it; the game is then unchanged.
    fn apply(&mut self, text: &str) -> Result<String, ActionError>;
    /// The chance action due now, drawn from `dice`, in notation (not applied).
    fn chance(&self, dice: &mut dyn Dice) -> Option<String>;
    /// The result once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The game's own serialisable view (position, legal actions with their paths).
    fn view(&self) -> Value;
    /// A copy, to try an action on.
    fn boxed_clone(&self) -> Box<dyn Table>;
    /// A rough value of the position for `side` (see [`Listed::heuristic`]).
    fn heuristic(&self, side: Side) -> f64;
    /// The action of the engine at catalog `level` for the side to act, in notation, thinking
    /// within `budget`; `None` when no player is to act.
    fn engine_choice(&self, level: u8, seed: u64, budget: Budget) -> Option<String>;
    /// The engine's judgement of the position for the review graph (see
    /// [`Listed::review_value`]).
    fn review_value(&self) -> Option<f64>;
    /// The game so far in its family's file format, with `info` in its header.
    fn export(&self, info: &ExportInfo) -> Export;
}

/// A game of the catalog with its history and its legal actions written out once.
struct GameTable<G: Game> {
    game: G,
    /// Every action applied since the start (the exports read it).
    history: Vec<G::Action>,
    /// The legal actions of this position, computed on first use.
    legal: OnceLock<Legal<G::Action>>,
}

/// The legal actions of a position and their notation, in the same order.
#[derive(Clone)]
struct Legal<A> {
    actions: Vec<A>,
    texts: Vec<String>,
}

impl<G: Listed> GameTable<G>
where
    G::Action: Send + Sync,
{
    fn new(game: G) -> Self {
        GameTable {
            game,
            history: Vec::new(),
            legal: OnceLock::new(),
        }
    }

    /// The legal actions of a player's turn (none when chance or nobody acts: the dice are
    /// drawn, never chosen).
    fn legal_now(&self) -> &Legal<G::Action> {
        self.legal.get_or_init(|| {
            let actions = match self.game.actor() {
                Actor::Player(_) => self.game.legal_actions(),
                _ => Vec::new(),
            };
            let texts = actions.iter().map(|a| self.game.format_action(a)).collect();
            Legal { actions, texts }
        })
    }
}

impl<G: Listed> Clone for GameTable<G>
where
    G::Action: Send + Sync,
{
    fn clone(&self) -> Self {
        GameTable {
            game: self.game.clone(),
            history: self.history.clone(),
            legal: self.legal.clone(),
        }
    }
}

/// The legal actions of a position are generated and written out once, then shared by the
/// state sent to every client, the engines' simple levels and the reading of an action
/// written as the game writes it.
impl<G: Listed> Table for GameTable<G>
where
    G::Action: Send + Sync,
{
    fn family(&self) -> Family {
        G::FAMILY
    }

    fn actor(&self) -> Actor {
        self.game.actor()
    }

    fn legal(&self) -> &[String] {
        &self.legal_now().texts
    }

    fn apply(&mut self, text: &str) -> Result<String, ActionError> {
        // A text written as the game writes it is found among the legal actions without
        // being read again; any other spelling is read against the position.
        let legal = self.legal_now();
        let action = match legal.texts.iter().position(|t| t == text) {
            Some(i) => legal.actions[i].clone(),
            None => self.game.parse_action(text)?,
        };
        let written = self.game.format_action(&action);
        self.game.apply(&action)?;
        self.history.push(action);
        self.legal = OnceLock::new();
        Ok(written)
    }

    fn chance(&self, dice: &mut dyn Dice) -> Option<String> {
        self.game
            .chance_action(dice)
            .map(|a| self.game.format_action(&a))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn view(&self) -> Value {
        serde_json::to_value(self.game.view()).unwrap_or(Value::Null)
    }

    fn boxed_clone(&self) -> Box<dyn Table> {
        Box::new(self.clone())
    }

    fn heuristic(&self, side: Side) -> f64 {
        self.game.heuristic(side)
    }

    fn engine_choice(&self, level: u8, seed: u64, budget: Budget) -> Option<String> {
        if !matches!(self.game.actor(), Actor::Player(_)) {
            return None;
        }
        let mut engine = G::engine(level, seed);
        let action = engine.choose(&self.game, budget)?;
        Some(self.game.format_action(&action))
    }

    fn review_value(&self) -> Option<f64> {
        self.game.review_value()
    }

    fn export(&self, info: &ExportInfo) -> Export {
        self.game.export(&self.history, info)
    }
}

/// The table of a game of the catalog, at the state `game` is in.
pub fn boxed<G: Listed>(game: G) -> Box<dyn Table>
where
    G::Action: Send + Sync,
{
    Box::new(GameTable::new(game))
}
