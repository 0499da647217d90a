//! Offers between the seats: a draw offered and answered, a takeback asked and answered
//! (draughts, as on lidraughts). A declined draw is offered again only after the opponent has
//! moved; each seat may make at most [`MAX_TABLE_ACTIONS`] offers and answers in a game, so
//! that no seat can grow the log without moving. [`Offers`] keeps that state and says what an
//! answer does ([`Effect`]); the referee carries it out.

use tablier_core::Side;

use crate::action::TableAction;

/// The most table actions (offers and answers to offers, not resignations) one seat may make
/// in a game.
pub const MAX_TABLE_ACTIONS: u32 = 100;

/// An offer or an answer that does not stand now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OfferRefusal {
    /// The seat has made [`MAX_TABLE_ACTIONS`] offers and answers already.
    #[error(
        "you have made {MAX_TABLE_ACTIONS} offers and answers in this game, the most a seat may"
    )]
    TooMany,
    /// The seat's draw offer stands already.
    #[error("your draw offer stands already")]
    DrawStands,
    /// The seat's last draw offer was declined and its opponent has not moved since.
    #[error("your draw offer was declined: offer again after your opponent's next move")]
    DrawDeclined,
    /// There is no draw offer of the opponent to answer.
    #[error("no draw is offered to you")]
    NoDrawOffered,
    /// The seat has no move to take back.
    #[error("there is no move of yours to take back")]
    NothingToTakeBack,
    /// The seat's takeback request stands already.
    #[error("you have already asked to take back")]
    TakebackStands,
    /// There is no takeback request of the opponent to answer.
    #[error("no takeback is asked of you")]
    NoTakebackAsked,
    /// The moves to take back do not replay (a damaged game: never seen in play).
    #[error("{0}")]
    Damaged(String),
}

impl OfferRefusal {
    /// A stable name of the refusal, for a client that says it in its own language.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            OfferRefusal::TooMany => "offers-too-many",
            OfferRefusal::DrawStands => "draw-stands",
            OfferRefusal::DrawDeclined => "draw-declined",
            OfferRefusal::NoDrawOffered => "no-draw-offered",
            OfferRefusal::NothingToTakeBack => "nothing-to-take-back",
            OfferRefusal::TakebackStands => "takeback-stands",
            OfferRefusal::NoTakebackAsked => "no-takeback-asked",
            OfferRefusal::Damaged(_) => "damaged",
        }
    }
}

/// What an accepted offer does to the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond the offers themselves.
    Nothing,
    /// The game ends in a draw by agreement.
    Draw,
    /// The last turn of the side given, and all that followed, are taken back.
    TakeBack(Side),
}

/// The offers standing between the seats, and what each seat has used of its cap.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Offers {
    draw: Option<Side>,
    takeback: Option<Side>,
    /// Per side: its last draw offer was declined, and its opponent has not moved since.
    declined: [bool; 2],
    /// Offers and answers made by each side.
    made: [u32; 2],
}

impl Offers {
    /// The side whose draw offer stands.
    #[must_use]
    pub fn draw(&self) -> Option<Side> {
        self.draw
    }

    /// The side whose takeback request stands.
    #[must_use]
    pub fn takeback(&self) -> Option<Side> {
        self.takeback
    }

    /// A move by `side` ends every standing offer, and lets its opponent offer a draw again.
    pub fn after_move(&mut self, side: Side) {
        self.draw = None;
        self.takeback = None;
        self.declined[side.opposite().index()] = false;
    }

    /// Whether `side` has used up its offers and answers.
    ///
    /// # Errors
    /// [`OfferRefusal::TooMany`].
    pub fn check_cap(&self, side: Side) -> Result<(), OfferRefusal> {
        if self.made[side.index()] >= MAX_TABLE_ACTIONS {
            return Err(OfferRefusal::TooMany);
        }
        Ok(())
    }

    /// `side` offers or answers with `action` (one of the draw and takeback actions);
    /// `has_moved` says whether it has a move in force to take back. On success the action
    /// counts against its cap and the [`Effect`] says what the game must do; a refusal
    /// changes nothing.
    ///
    /// ```
    /// use tablier_catalog::referee::offers::{Effect, OfferRefusal, Offers};
    /// use tablier_catalog::TableAction::*;
    /// use tablier_core::Side::{Black, White};
    ///
    /// let mut o = Offers::default();
    /// assert_eq!(o.answer(White, DrawOffer, true), Ok(Effect::Nothing));
    /// assert_eq!(o.answer(Black, DrawDecline, true), Ok(Effect::Nothing));
    /// assert_eq!(o.answer(White, DrawOffer, true), Err(OfferRefusal::DrawDeclined));
    /// o.after_move(Black);
    /// assert_eq!(o.answer(White, DrawOffer, true), Ok(Effect::Nothing));
    /// assert_eq!(o.answer(Black, DrawOffer, true), Ok(Effect::Draw), "offers cross: agreed");
    /// ```
    ///
    /// # Errors
    /// [`OfferRefusal`]: nothing to answer, an offer already standing, a declined draw
    /// offered again before the opponent moved, nothing to take back, the cap reached.
    pub fn answer(
        &mut self,
        side: Side,
        action: TableAction,
        has_moved: bool,
    ) -> Result<Effect, OfferRefusal> {
        self.check_cap(side)?;
        let mut next = self.clone();
        let effect = next.apply(side, action, has_moved)?;
        next.made[side.index()] += 1;
        *self = next;
        Ok(effect)
    }

    fn apply(
        &mut self,
        side: Side,
        action: TableAction,
        has_moved: bool,
    ) -> Result<Effect, OfferRefusal> {
        let opponent = side.opposite();
        match action {
            TableAction::DrawOffer => {
                if self.draw == Some(opponent) {
                    return self.apply(side, TableAction::DrawAccept, has_moved);
                }
                if self.draw == Some(side) {
                    return Err(OfferRefusal::DrawStands);
                }
                if self.declined[side.index()] {
                    return Err(OfferRefusal::DrawDeclined);
                }
                self.draw = Some(side);
            }
            TableAction::DrawAccept => {
                if self.draw != Some(opponent) {
                    return Err(OfferRefusal::NoDrawOffered);
                }
                return Ok(Effect::Draw);
            }
            TableAction::DrawDecline => {
                if self.draw != Some(opponent) {
                    return Err(OfferRefusal::NoDrawOffered);
                }
                self.draw = None;
                self.declined[opponent.index()] = true;
            }
            TableAction::TakebackOffer => {
                if self.takeback == Some(opponent) {
                    return self.apply(side, TableAction::TakebackAccept, has_moved);
                }
                if !has_moved {
                    return Err(OfferRefusal::NothingToTakeBack);
                }
                if self.takeback == Some(side) {
                    return Err(OfferRefusal::TakebackStands);
                }
                self.takeback = Some(side);
            }
            TableAction::TakebackAccept => {
                if self.takeback != Some(opponent) {
                    return Err(OfferRefusal::NoTakebackAsked);
                }
                self.takeback = None;
                self.draw = None;
                return Ok(Effect::TakeBack(opponent));
            }
            TableAction::TakebackDecline => {
                if self.takeback != Some(opponent) {
                    return Err(OfferRefusal::NoTakebackAsked);
                }
                self.takeback = None;
            }
            // Not offers: the referee ends the game for them.
            TableAction::Resign | TableAction::Flag => {}
        }
        Ok(Effect::Nothing)
    }
}
