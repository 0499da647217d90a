//! The [`Game`] trait: one shape for every game, modelled on OpenSpiel's state interface.

use crate::{Dice, Side};
use serde::{Deserialize, Serialize};

/// Who must act next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Actor {
    /// A player chooses one of the legal actions.
    Player(Side),
    /// Chance acts: the dice are to be rolled.
    Chance,
    /// The game is over.
    Nobody,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// `winner` won `points` (1 in draughts; cube × single/gammon/backgammon in backgammon;
    /// holes in trictrac).
    Win {
        /// The side that won.
        winner: Side,
        /// What the win is worth.
        points: u32,
    },
    /// Nobody won.
    Draw,
}

/// An action that the rules do not allow now. The state it was tried on is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal action: {reason}")]
pub struct IllegalAction {
    /// Why the action was refused, in words a player understands.
    pub reason: String,
}

impl IllegalAction {
    /// An error with the given reason.
    pub fn new(reason: impl Into<String>) -> Self {
        IllegalAction {
            reason: reason.into(),
        }
    }
}

/// Text that does not name a legal action of the position it was read against.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read action {text:?}: {reason}")]
pub struct ParseActionError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it (unknown syntax, no such legal action, ambiguous: with the candidates).
    pub reason: String,
}

/// A game state that the server, the engines and the tools drive without knowing its rules.
///
/// The state itself implements the trait: `actor`, `legal_actions`, `apply` and `outcome` read
/// or change `self`.
pub trait Game: Clone {
    /// One action of the game: a move, a dice outcome, a cube decision, a mark, ...
    type Action: Clone + PartialEq + std::fmt::Debug;
    /// A serialisable picture of the state for clients that hold no rules.
    type View: Serialize;

    /// Who acts now.
    fn actor(&self) -> Actor;

    /// Every action the actor may take now (empty when the game is over).
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// Applies an action.
    ///
    /// # Errors
    /// [`IllegalAction`] if the action is not legal now; the state is then exactly as before.
    fn apply(&mut self, action: &Self::Action) -> Result<(), IllegalAction>;

    /// The result, once the game is over (`None` while it goes on).
    fn outcome(&self) -> Option<Outcome>;

    /// The action in the game's own notation, resolved against this state.
    fn format_action(&self, action: &Self::Action) -> String;

    /// Reads an action in the game's notation against this state.
    ///
    /// # Errors
    /// [`ParseActionError`] when the text is malformed, names no legal action, or is
    /// ambiguous (the error then names the candidates).
    fn parse_action(&self, text: &str) -> Result<Self::Action, ParseActionError>;

    /// The serialisable view of the state and its legal actions.
    fn view(&self) -> Self::View;

    /// The chance action the state waits for (dice to roll), drawn from `dice`; `None` when
    /// the actor is not [`Actor::Chance`]. Games without chance keep this default.
    fn chance_action(&self, dice: &mut dyn Dice) -> Option<Self::Action> {
        let _ = dice;
        None
    }
}
