//! What a seat may do, read once at the edge: an action of the game, in its notation, or an
//! action at the table (resigning, offering and answering a draw or a takeback), written with
//! a leading `!` in the log and on the wire.

use std::fmt;

/// An action about the game rather than in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableAction {
    /// The seat gives the game up (the dice games resign through their own actions too,
    /// which say how much is given).
    Resign,
    /// The seat offers a draw (draughts).
    DrawOffer,
    /// The seat accepts the draw its opponent offered.
    DrawAccept,
    /// The seat declines the draw its opponent offered.
    DrawDecline,
    /// The seat asks to take back its last move (draughts).
    TakebackOffer,
    /// The seat grants its opponent's takeback.
    TakebackAccept,
    /// The seat refuses its opponent's takeback.
    TakebackDecline,
    /// The seat's clock ran out: written by the clock alone, never by a player.
    Flag,
}

impl TableAction {
    /// Every table action, in the order of the protocol's documentation.
    pub const ALL: [TableAction; 8] = [
        TableAction::Resign,
        TableAction::DrawOffer,
        TableAction::DrawAccept,
        TableAction::DrawDecline,
        TableAction::TakebackOffer,
        TableAction::TakebackAccept,
        TableAction::TakebackDecline,
        TableAction::Flag,
    ];

    /// The name after the `!`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            TableAction::Resign => "resign",
            TableAction::DrawOffer => "draw-offer",
            TableAction::DrawAccept => "draw-accept",
            TableAction::DrawDecline => "draw-decline",
            TableAction::TakebackOffer => "takeback-offer",
            TableAction::TakebackAccept => "takeback-accept",
            TableAction::TakebackDecline => "takeback-decline",
            TableAction::Flag => "flag",
        }
    }

    /// Whether it counts against a seat's cap of offers and answers (resigning and the
    /// clock's flag end the game and are not counted).
    #[must_use]
    pub fn is_offer_or_answer(self) -> bool {
        !matches!(self, TableAction::Resign | TableAction::Flag)
    }
}

impl fmt::Display for TableAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "!{}", self.name())
    }
}

/// What a seat sends: an action of the game or a table action.
///
/// ```
/// use tablier_catalog::{SeatAction, TableAction};
///
/// assert_eq!(SeatAction::parse("!draw-offer"), Ok(SeatAction::Table(TableAction::DrawOffer)));
/// assert_eq!(SeatAction::parse("32-28"), Ok(SeatAction::Game("32-28".into())));
/// assert_eq!(
///     SeatAction::parse("!dance").unwrap_err().to_string(),
///     "unknown table action !dance"
/// );
/// assert_eq!(SeatAction::Table(TableAction::Resign).to_string(), "!resign");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatAction {
    /// An action of the game, in its notation (`32-28`, `13/7 8/7`, `go`, `double`).
    Game(String),
    /// An action at the table.
    Table(TableAction),
}

/// The longest action text a seat may send, in bytes.
pub const MAX_ACTION_LEN: usize = 200;

/// A seat's action text that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeatActionError {
    /// Longer than [`MAX_ACTION_LEN`] bytes.
    #[error("that action is too long")]
    TooLong,
    /// `!` followed by no known table action.
    #[error("unknown table action !{0}")]
    UnknownTableAction(String),
}

impl SeatActionError {
    /// A stable name of the refusal, for a client that says it in its own language.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            SeatActionError::TooLong => "action-too-long",
            SeatActionError::UnknownTableAction(_) => "unknown-table-action",
        }
    }
}

impl SeatAction {
    /// Reads what a seat sends: `!name` is a table action, anything else an action of the
    /// game (read later against the position).
    ///
    /// # Errors
    /// [`SeatActionError`] for a text longer than [`MAX_ACTION_LEN`] or an unknown table
    /// action.
    pub fn parse(text: &str) -> Result<SeatAction, SeatActionError> {
        if text.len() > MAX_ACTION_LEN {
            return Err(SeatActionError::TooLong);
        }
        SeatAction::from_log(text)
    }

    /// Reads an action of a game's log, whatever its length (a record is checked action by
    /// action, and a refusal says which).
    ///
    /// # Errors
    /// [`SeatActionError::UnknownTableAction`].
    pub fn from_log(text: &str) -> Result<SeatAction, SeatActionError> {
        match text.strip_prefix('!') {
            None => Ok(SeatAction::Game(text.to_owned())),
            Some(name) => TableAction::ALL
                .into_iter()
                .find(|a| a.name() == name)
                .map(SeatAction::Table)
                .ok_or_else(|| SeatActionError::UnknownTableAction(name.to_owned())),
        }
    }
}

impl fmt::Display for SeatAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatAction::Game(t) => f.write_str(t),
            SeatAction::Table(a) => a.fmt(f),
        }
    }
}
