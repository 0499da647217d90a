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
    /// What is wrong with it, in words a player understands.
    pub reason: String,
    /// Which of the three ways it failed: callers that answer a person (the server, a GUI)
    /// can offer the candidates of an ambiguous move instead of the bare reason.
    pub kind: ParseErrorKind,
}

/// How an action's text failed to name a legal action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The text is not written as any action of this game (`32-xx`, `13/`, `mark three`).
    Syntax,
    /// It reads as an action, but none of the legal actions now matches it (or the game is
    /// over).
    NotLegal,
    /// Several legal actions match it: the text must say which.
    Ambiguous {
        /// The matching actions in full notation.
        candidates: Vec<String>,
    },
}

impl ParseActionError {
    /// Text that is not written as an action of the game.
    pub fn syntax(text: impl Into<String>, reason: impl Into<String>) -> Self {
        ParseActionError {
            text: text.into(),
            reason: reason.into(),
            kind: ParseErrorKind::Syntax,
        }
    }

    /// Text that reads as an action that is not legal now.
    pub fn not_legal(text: impl Into<String>, reason: impl Into<String>) -> Self {
        ParseActionError {
            text: text.into(),
            reason: reason.into(),
            kind: ParseErrorKind::NotLegal,
        }
    }

    /// Text that matches several legal actions, `candidates` in full notation.
    pub fn ambiguous(
        text: impl Into<String>,
        reason: impl Into<String>,
        candidates: Vec<String>,
    ) -> Self {
        ParseActionError {
            text: text.into(),
            reason: reason.into(),
            kind: ParseErrorKind::Ambiguous { candidates },
        }
    }
}

/// Why an action given as text was refused: it did not name a legal action, or the rules
/// refused it when applied. Either way the state is unchanged. Its message is the reason
/// alone, in words for the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The text names no legal action (syntax, not legal now, ambiguous).
    #[error("{}", .0.reason)]
    Parse(#[from] ParseActionError),
    /// The rules refused the action.
    #[error("{}", .0.reason)]
    Illegal(#[from] IllegalAction),
}

impl ActionError {
    /// The reason, in words for the player.
    #[must_use]
    pub fn reason(&self) -> &str {
        match self {
            ActionError::Parse(e) => &e.reason,
            ActionError::Illegal(e) => &e.reason,
        }
    }

    /// The legal actions an ambiguous text could mean (empty for any other refusal).
    #[must_use]
    pub fn candidates(&self) -> &[String] {
        match self {
            ActionError::Parse(ParseActionError {
                kind: ParseErrorKind::Ambiguous { candidates },
                ..
            }) => candidates,
            _ => &[],
        }
    }
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
