//! The [`Player`] trait: what every engine offers, whatever the game.

use std::time::Duration;

use crate::Game;

/// What one decision may cost a player.
///
/// Engines play at a level of their own (a depth, a number of plies, a noise); the budget only
/// caps that, for a player who has a clock to respect.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// The longest the decision may take, wall-clock (`None`: the player's own pace).
    pub time: Option<Duration>,
}

impl Budget {
    /// No limit beyond the player's own level.
    pub const UNLIMITED: Budget = Budget { time: None };

    /// At most `time` for the decision.
    #[must_use]
    pub const fn at_most(time: Duration) -> Budget {
        Budget { time: Some(time) }
    }

    /// `time` capped by this budget's limit, if it has one.
    #[must_use]
    pub fn cap(&self, time: Duration) -> Duration {
        self.time.map_or(time, |t| t.min(time))
    }
}

/// How a player sees a position: its value, the line it expects and the actions it weighed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Explanation {
    /// The value for the side to act, in [`Explanation::unit`] (higher is better for it).
    pub value: f64,
    /// What the value counts: `men` (draughts), `equity` (backgammon, points per game),
    /// `holes` (trictrac).
    pub unit: &'static str,
    /// The continuation the player expects, actions in the game's notation, starting with the
    /// action it would take (empty where the dice decide what follows).
    pub line: Vec<String>,
    /// The actions it weighed, in notation, each with its value in the same unit, best first.
    pub candidates: Vec<(String, f64)>,
}

/// A player of the game `G`: an engine at some level, or anything else that chooses actions.
///
/// The caller asks only when a player is to act ([`crate::Actor::Player`]); a player answers
/// `None` when it has nothing to choose (it is not a player's turn, or no action is legal).
///
/// ```
/// use tablier_core::{Actor, Budget, Game, Player};
///
/// /// The first legal action, every time.
/// struct First;
/// impl<G: Game> Player<G> for First {
///     fn choose(&mut self, game: &G, _budget: Budget) -> Option<G::Action> {
///         matches!(game.actor(), Actor::Player(_))
///             .then(|| game.legal_actions().into_iter().next())
///             .flatten()
///     }
/// }
/// ```
pub trait Player<G: Game> {
    /// The action to take now for the side that is to act, thinking within `budget`.
    fn choose(&mut self, game: &G, budget: Budget) -> Option<G::Action>;

    /// What the player thinks of the position for the side to act (its value, its expected
    /// line, the values of the actions it weighed), where it can say; `None` by default.
    fn explain(&mut self, game: &G, budget: Budget) -> Option<Explanation> {
        let _ = (game, budget);
        None
    }
}
