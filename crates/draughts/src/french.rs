//! The old French rules of draughts (before 1912): *souffler* (huffing), the strongest side,
//! touch-move, false moves in an arbitrated game, and the old draw rule — variant
//! [`FRENCH_OLD`] on 10x10, played with [`FrenchGame`].
//!
//! Every rule below rests on a sentence of seed 000 (quoted in French); where the seed leaves a
//! choice open, the reading tablier chose is stated with the sentence it rests on.
//!
//! # Capture is not compulsory; the opponent huffs
//!
//! Any quiet move and any capture is a legal move, also a capture stopped on any square where
//! the piece lands after taking at least one piece ([`Position::legal_moves`] under
//! [`CaptureRule::Huffing`](crate::CaptureRule::Huffing)). A move is a **fault** when it takes
//! fewer pieces than the strongest side allows: "Celui qui a à prendre de plusieurs côtés doit
//! prendre du côté le plus fort, sinon il est soufflable. On appelle le côté le plus fort le
//! côté où il y a le plus à prendre. Une dame ne compte, en cas de prise, que pour un pion."
//! Two captures of the same size are both the strongest side (nothing in the seed prefers one).
//!
//! **Which pieces are huffable.** "Souffler, c'est enlever le pion ou la dame qui n'a pas pris
//! tout ce qu'il avait à prendre": the pieces that *had* something to take on the strongest
//! side are the pieces that could have made a capture of the largest size. Each of them, where
//! it stands after the fault (the piece that moved, at its new square), is huffable. When
//! several pieces could have made the largest capture, the opponent chooses which one to
//! huff, and huffs one only (the sentence says "le pion ou la dame", one piece). A piece that
//! took fewer pieces but could not have taken more is not huffable: it took all *it* had to
//! take.
//!
//! **The opponent's three options**, as actions ("Il peut donc, à son gré, ou enlever le pion
//! qui n'a pas pris tout ce qu'il devait prendre et jouer, ou ne pas l'enlever et jouer, ou
//! enfin forcer le joueur à prendre avec son pion tout ce qu'il avait à prendre"):
//! * [`Action::Huff`]: the piece is removed and the huffer then plays his move as usual, from
//!   the new position ("après avoir soufflé, on doit jouer son coup comme à l'ordinaire ...
//!   Souffler n'est pas jouer");
//! * letting it stand is playing an [`Action::Move`] without huffing ("ne pas l'enlever et
//!   jouer");
//! * [`Action::Force`]: the offender's move is taken back and he must play, with the named
//!   huffable piece, one of its captures of the largest size (he chooses which, if several).
//!
//! A fault left standing is not remembered: each move is judged in the position it was played
//! from. So a capture left untaken over several moves is a new fault at each of them, and the
//! opponent may huff at the next move although he let the first one go ("si le joueur
//! soufflable jouait plusieurs coups sans s'apercevoir qu'il a à prendre, l'autre joueur peut
//! toujours le souffler au coup suivant, quoiqu'il ait oublié de le faire la première fois").
//!
//! # Touch-move (table option [`TableOptions::touch_move`])
//!
//! "Dame touchée, dame jouée. On entend par cet axiome qu'il faut jouer la pièce qu'on a
//! touchée. Tant qu'on tient le pion ou la dame ... on peut les poser ailleurs." In strict mode
//! a player may first [`Action::Touch`] a piece (the UI sends it when a piece is selected):
//! * touching one of his own pieces that can move binds him to move that piece (to any of its
//!   legal squares), and loses the right to huff or force this turn ("Si le joueur qui avait
//!   à souffler a touché un de ses pions avant d'avoir soufflé, il ne peut plus revenir sur le
//!   coup");
//! * touching a huffable piece of the opponent binds him to huff it ("si la pièce soufflable a
//!   été touchée par le joueur qui a le droit de souffler, ce joueur est obligé de jouer ...
//!   en touchant le pion soufflable, il a touché un pion qui lui appartient");
//! * touching a piece that cannot move binds nothing ("Il n'y a pas de faute à jouer un pion
//!   qui n'est pas jouable"); such a touch is accepted and changes nothing.
//!
//! [`Action::Adjust`] is *j'adoube* ("lorsqu'il touche un ou plusieurs pions pour les arranger,
//! dire: J'adoube"): the piece is touched without binding. On a screen a touch without
//! *j'adoube* binds at once: tablier reads "l'adversaire pourrait lui faire jouer un des pions
//! qu'il aurait touchés" as the opponent always asking for it.
//!
//! # False moves (table option [`TableOptions::arbitrated`])
//!
//! In an arbitrated game the moves of a real board are entered one by one as
//! [`Action::Entry`] (piece moved from, to, and the pieces taken off) and [`Action::Lift`]
//! ("Toute faute est faute, de quelque nature qu'elle soit"):
//! * an entry that is a legal move is that move;
//! * a capture's piece placed on its right square with some captured pieces left on the board
//!   is played with those pieces left on ("Si on n'enlève point tous les pions ou dames qu'on
//!   avait à prendre, quand même on aurait figuré qu'on aurait à les prendre, on est tenu de
//!   les laisser sur le damier"); it takes fewer pieces than it could, so it is huffable as
//!   any such move;
//! * any other entry by a piece that could move is a **false move** ("place son pion ou sa
//!   dame sur une case autre que celle sur laquelle ils devaient être placés"): it is played
//!   as entered and recorded; the opponent may [`Action::Correct`] it (the move is taken back
//!   and the offender must play a legal move, with the same piece since he touched it) or let
//!   it stand by playing ("l'adversaire fait redresser l'erreur, ou la laisse subsister s'il
//!   juge qu'elle lui soit avantageuse");
//! * a lifted own piece stays off ("si un joueur lève son propre pion ou sa dame, il ne peut
//!   les replacer"), and the player still has his move to make;
//! * moving a piece that cannot move, or one of the opponent's pieces, is no fault and
//!   changes nothing ("Il n'y a pas de faute à jouer un pion qui n'est pas jouable; il n'y a
//!   pas non plus de faute à jouer un pion ou une dame de son adversaire").
//!
//! Entries and lifts are accidents, not choices: [`FrenchGame::legal_actions`] does not list
//! them; [`FrenchGame::apply_action`] (the `Game` trait's `apply`) accepts them in arbitrated mode.
//!
//! # The old draw rule
//!
//! "Lorsque deux joueurs égaux en force restent, l'un avec une dame damée, et l'autre avec une
//! dame damée et deux pions, deux dames et un pion, et même trois dames, la partie ne se joue
//! plus, et l'on en recommence une autre, à moins que le joueur qui a la supériorité n'ait
//! gagné forcément sur le coup."
//!
//! The material is one lone king against three pieces including at least one king; "et même
//! trois dames" closes a list from the weakest to the strongest, so tablier applies the rule a
//! fortiori to one king against one or two pieces with a king. **"Sur le coup"** is read as
//! *with his next move*: once the material holds, the stronger side makes one move (if the
//! lone king is to move first, it plays its move, then the stronger side makes one); if that
//! move wins — the lone king is taken or cannot move — the game is won, otherwise it is drawn
//! ([`DrawReason::OldFrenchRule`]). "Égaux en force" (players of equal skill) cannot be
//! judged by a program: the rule always applies.
//!
//! Threefold repetition of a position after a move is also a draw: this is **not** in seed
//! 000; tablier adds it so that every game ends.
//!
//! # Notation
//!
//! | action | written | example |
//! |---|---|---|
//! | move | as in [`crate::notation`] | `32-28`, `28x19`, `28x17x8` |
//! | huff | `s` + square of the huffed piece | `s28` |
//! | force | `f` + square (now) of the huffable piece | `f28` |
//! | touch / *j'adoube* | `t` / `j` + square | `t33`, `j33` |
//! | have a false move corrected | `redresse` | `redresse` |
//! | entry from a real board | `e` + from`-`to [ `/` removed squares ] | `e32-27`, `e28-17/22,23` |
//! | lifted own piece | `l` + square | `l33` |
//!
//! In PDN ([`to_pdn`], [`replay_pdn`]) moves are PDN moves; the other actions are written as
//! comments holding exactly their token (`{s28}`), so that a record is still PDN. A move that
//! replaces a taken-back move (after a force or a correction) carries the move number of the
//! move it replaces. The `GameType` is `42,W,10,10,N2,0` (no PDN game type exists for these
//! rules; 42 is reserved and used by no program); results are written `2-0`, `0-2`, `1-1`.
//!
//! # Perft
//!
//! [`perft`] counts the leaves of the tree of actions of the default table (no touch-move, not
//! arbitrated), `depth` actions deep: a move, a huff, and a force are one action each; the
//! forced capture after a force is the offender's action. No draw rule is applied (as in every
//! published perft); a side with no pieces or no action has no children. Where no capture is
//! possible anywhere in the tree, the counts are the international ones.
//!
//! # Example
//! ```
//! use tablier_core::Game as _;
//! use tablier_draughts::french::{Action, FrenchGame, TableOptions};
//! use tablier_draughts::{fen, G10, FRENCH_OLD};
//!
//! // White can take 23 with 28 but plays 33-29: black may huff 28.
//! let p = fen::parse::<G10>(&FRENCH_OLD, "W:W28,33:B23,5").unwrap();
//! let mut g = FrenchGame::from_position(p, TableOptions::default());
//! let m = g.parse_action("33-29").unwrap();
//! g.apply(&m).unwrap();
//! assert!(g.legal_actions().contains(&Action::Huff(28)));
//! assert!(g.legal_actions().contains(&Action::Force(28)));
//! g.apply(&Action::Huff(28)).unwrap();
//! assert!(g.position().piece_at(28).is_none());
//! // Souffler n'est pas jouer: black still has his move.
//! assert_eq!(g.position().side_to_move(), tablier_core::Side::Black);
//! ```

use crate::bits::Bits as _;
use crate::fen;
use crate::game::{DrawReason, Ending};
use crate::geometry::Geometry;
use crate::notation;
use crate::pdn::{self, Element, PdnGame};
use crate::position::{Move, Position, PositionError};
use crate::variant::{Variant, FRENCH_OLD};
use serde::Serialize;
use tablier_core::{Actor, IllegalAction, Outcome, ParseActionError, Side};

/// How the table is run: options chosen when the game is created.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct TableOptions {
    /// Strict touch-move: [`Action::Touch`] binds (dame touchée, dame jouée).
    pub touch_move: bool,
    /// A game played on a real board and entered move by move: [`Action::Entry`] and
    /// [`Action::Lift`] are accepted, false moves are recorded and may be corrected.
    pub arbitrated: bool,
}

/// What was done on a real board in one go, as the arbiter enters it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct BoardEntry {
    /// Square the piece was taken from.
    pub from: u8,
    /// Square it was put on.
    pub to: u8,
    /// Squares of the opponent's pieces taken off the board.
    pub removed: Vec<u8>,
}

/// One action of a game under the old French rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action<G: Geometry> {
    /// A move (a quiet move or a capture, complete or not). Played while the opponent's piece
    /// is huffable, it lets that piece stand.
    Move(Move<G>),
    /// Remove (huff) the opponent's piece on this square; the huffer then plays his move.
    Huff(u8),
    /// Make the opponent take his last move back and take, with the piece now on this square,
    /// as much as it had to take.
    Force(u8),
    /// Touch a piece (strict touch-move): own piece, it must be moved; huffable piece, it must
    /// be huffed.
    Touch(u8),
    /// *J'adoube*: adjust one's own piece without being bound to move it.
    Adjust(u8),
    /// Have the opponent's false move corrected (arbitrated games).
    Correct,
    /// What was done on the real board (arbitrated games).
    Entry(BoardEntry),
    /// One's own piece was lifted off the board; it stays off (arbitrated games).
    Lift(u8),
}

/// A huffable piece: where it stands now, and where it stood before the faulty move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Huffable {
    /// Its square now.
    pub now: u8,
    /// Its square before the faulty move.
    pub before: u8,
}

/// What the last move of the opponent left open for the player to act.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pending<G: Geometry> {
    huffable: Vec<Huffable>,
    /// The position before the faulty move.
    prev: Position<G>,
    /// The start square of the last move if it was a false move (arbitrated games).
    false_move: Option<u8>,
}

/// What a touch bound the player to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Touched {
    /// His own piece on this square: it must be moved.
    Own(u8),
    /// The huffable piece on this square: it must be huffed.
    Huffable(u8),
}

/// A game under the old French rules (variant [`FRENCH_OLD`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrenchGame<G: Geometry> {
    options: TableOptions,
    start: Position<G>,
    position: Position<G>,
    record: Vec<(Action<G>, String)>,
    pending: Option<Pending<G>>,
    /// After a force: the offender must take as much as possible with the piece on this square.
    forced: Option<u8>,
    /// After a corrected false move: the offender must move the piece on this square.
    must_play: Option<u8>,
    touched: Option<Touched>,
    /// Positions after each move, for repetition.
    history: Vec<Position<G>>,
    ending: Option<Ending>,
    faults: usize,
}

/// The largest number of pieces the side to move can take (0 if none).
fn largest<G: Geometry>(p: &Position<G>) -> (u32, Vec<Move<G>>) {
    let l = p.largest_captures();
    (l.first().map_or(0, Move::capture_count), l)
}

/// Whether the old draw rule's material holds with `strong` as the stronger side: the other
/// side has one king and nothing else, `strong` has three pieces or fewer with a king.
#[must_use]
pub fn old_rule_material<G: Geometry>(p: &Position<G>, strong: Side) -> bool {
    let (m, k) = p.count(strong);
    p.count(strong.opposite()) == (0, 1) && k >= 1 && m + k <= 3
}

/// Removes whatever piece stands on `s`.
fn remove<G: Geometry>(p: &mut Position<G>, s: u8) {
    let mut q = Position::<G>::empty(p.variant(), p.side_to_move()).expect("same board");
    for (sq, piece) in p.pieces() {
        if sq != u32::from(s) {
            q.put(sq, piece).expect("was a position");
        }
    }
    *p = q;
}

impl<G: Geometry> FrenchGame<G> {
    /// A game from the start position of [`FRENCH_OLD`].
    ///
    /// # Errors
    /// [`PositionError::WrongBoard`] unless `G` is the 10x10 board.
    pub fn start(options: TableOptions) -> Result<Self, PositionError> {
        Ok(Self::from_position(Position::start(&FRENCH_OLD)?, options))
    }

    /// A game from any position (its variant should be [`FRENCH_OLD`]).
    #[must_use]
    pub fn from_position(position: Position<G>, options: TableOptions) -> Self {
        let mut g = FrenchGame {
            options,
            start: position,
            position,
            record: Vec::new(),
            pending: None,
            forced: None,
            must_play: None,
            touched: None,
            history: vec![position],
            ending: None,
            faults: 0,
        };
        g.ending = g.find_ending(false);
        g
    }

    /// The table options.
    #[must_use]
    pub fn options(&self) -> TableOptions {
        self.options
    }

    /// The current position (its side to move is the player who acts, also after a force).
    #[must_use]
    pub fn position(&self) -> &Position<G> {
        &self.position
    }

    /// The position the game started from.
    #[must_use]
    pub fn start_position(&self) -> &Position<G> {
        &self.start
    }

    /// How the game ended, if it has.
    #[must_use]
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The opponent's pieces the player to act may huff (or force) now.
    #[must_use]
    pub fn huffable(&self) -> Vec<Huffable> {
        self.pending
            .as_ref()
            .map(|p| p.huffable.clone())
            .unwrap_or_default()
    }

    /// The square of the piece that must take as much as it can, after a force.
    #[must_use]
    pub fn forced(&self) -> Option<u8> {
        self.forced
    }

    /// What a touch bound the player to, in strict touch-move.
    #[must_use]
    pub fn touched(&self) -> Option<Touched> {
        self.touched
    }

    /// Whether the opponent's last move was a false move that may be corrected.
    #[must_use]
    pub fn false_move_pending(&self) -> bool {
        self.pending
            .as_ref()
            .is_some_and(|p| p.false_move.is_some())
    }

    /// Number of faults (moves that took less than the strongest side, false moves) so far.
    #[must_use]
    pub fn faults(&self) -> usize {
        self.faults
    }

    /// Every action applied so far with its notation, in order (the game's record).
    #[must_use]
    pub fn record(&self) -> &[(Action<G>, String)] {
        &self.record
    }

    /// The record as notation only.
    #[must_use]
    pub fn record_text(&self) -> Vec<String> {
        self.record.iter().map(|(_, t)| t.clone()).collect()
    }

    /// Replays a record (as [`FrenchGame::record_text`] gives it) from `start`.
    ///
    /// # Errors
    /// The index of the first action that cannot be read or applied, with the reason.
    pub fn from_record(
        start: Position<G>,
        options: TableOptions,
        record: &[String],
    ) -> Result<Self, (usize, String)> {
        let mut g = Self::from_position(start, options);
        for (i, t) in record.iter().enumerate() {
            let a = g.parse_action_text(t).map_err(|e| (i, e.to_string()))?;
            g.apply_action(&a).map_err(|e| (i, e.to_string()))?;
        }
        Ok(g)
    }

    /// The moves the player may make now (part of [`FrenchGame::legal_actions`]).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move<G>> {
        if self.ending.is_some() {
            return Vec::new();
        }
        if let Some(sq) = self.forced {
            return self
                .position
                .largest_captures()
                .into_iter()
                .filter(|m| m.from() == sq)
                .collect();
        }
        let only = match self.touched {
            Some(Touched::Huffable(_)) => return Vec::new(),
            Some(Touched::Own(s)) => Some(s),
            None => self.must_play,
        };
        let mut v = self.position.legal_moves();
        if let Some(s) = only {
            v.retain(|m| m.from() == s);
        }
        v
    }

    /// Every action the player may choose now: moves, huffs, forces, a correction, and in
    /// strict touch-move touches and *j'adoube*. Board entries and lifts (arbitrated games)
    /// are accidents and are not listed.
    #[must_use]
    pub fn legal_actions(&self) -> Vec<Action<G>> {
        let mut v: Vec<Action<G>> = self.legal_moves().into_iter().map(Action::Move).collect();
        if self.ending.is_some() || self.forced.is_some() {
            return v;
        }
        if let Some(Touched::Huffable(s)) = self.touched {
            return vec![Action::Huff(s)];
        }
        if self.touched.is_some() {
            return v;
        }
        if let Some(p) = &self.pending {
            v.extend(p.huffable.iter().map(|h| Action::Huff(h.now)));
            v.extend(p.huffable.iter().map(|h| Action::Force(h.now)));
            if p.false_move.is_some() && self.options.arbitrated {
                v.push(Action::Correct);
            }
        }
        if self.options.touch_move {
            let me = self.position.side_to_move();
            let moves = self.legal_moves();
            let (men, kings) = self.position.squares(me);
            let mut own: Vec<u32> = men.into_iter().chain(kings).collect();
            own.sort_unstable();
            for s in &own {
                let s8 = u8::try_from(*s).unwrap_or(0);
                if moves.iter().any(|m| m.from() == s8) {
                    v.push(Action::Touch(s8));
                }
            }
            if let Some(p) = &self.pending {
                v.extend(p.huffable.iter().map(|h| Action::Touch(h.now)));
            }
            for s in own {
                v.push(Action::Adjust(u8::try_from(s).unwrap_or(0)));
            }
        }
        v
    }

    /// Whether the player to act has a move, a huff, a force or a correction.
    fn has_core_action(&self) -> bool {
        !self.legal_moves().is_empty() || self.pending.is_some()
    }

    fn find_ending(&self, old_rule_move: bool) -> Option<Ending> {
        let p = &self.position;
        let actor = p.side_to_move();
        // After a huff that took the last piece, the huffer has won.
        if p.side_bits(actor.opposite()).is_empty() {
            return Some(Ending::NoMove { winner: actor });
        }
        if p.side_bits(actor).is_empty() || !self.has_core_action() {
            return Some(Ending::NoMove {
                winner: actor.opposite(),
            });
        }
        if old_rule_move {
            return Some(Ending::Draw(DrawReason::OldFrenchRule));
        }
        if let Some(last) = self.history.last() {
            if self.history.iter().filter(|q| *q == last).count() >= 3 {
                return Some(Ending::Draw(DrawReason::Repetition));
            }
        }
        None
    }

    /// Plays `m` (a legal move, a partial capture entered from a board, or a false move).
    fn commit(&mut self, m: &Move<G>, false_from: Option<u8>) {
        let before = self.position;
        let mover = before.side_to_move();
        let (max, caps) = largest(&before);
        let fault = self.forced.is_none() && m.capture_count() < max;
        let mut huffable: Vec<Huffable> = Vec::new();
        if fault {
            for c in &caps {
                let now = if c.from() == m.from() {
                    m.to()
                } else {
                    c.from()
                };
                let h = Huffable {
                    now,
                    before: c.from(),
                };
                if !huffable.contains(&h) {
                    huffable.push(h);
                }
            }
            huffable.sort_by_key(|h| h.now);
        }
        let old_rule = old_rule_material(&before, mover);
        self.position.play_unchecked(m);
        self.history.push(self.position);
        self.pending = if fault || false_from.is_some() {
            self.faults += 1;
            Some(Pending {
                huffable,
                prev: before,
                false_move: false_from,
            })
        } else {
            None
        };
        self.forced = None;
        self.must_play = None;
        self.touched = None;
        self.ending = self.find_ending(old_rule);
    }

    fn refuse(&self, why: &str) -> IllegalAction {
        if self.ending.is_some() {
            IllegalAction::new("the game is over")
        } else {
            IllegalAction::new(why)
        }
    }

    /// Applies an action (see the module docs for each).
    ///
    /// # Errors
    /// [`IllegalAction`] if it is not allowed now; the game is unchanged.
    pub fn apply_action(&mut self, action: &Action<G>) -> Result<(), IllegalAction> {
        if self.ending.is_some() {
            return Err(self.refuse(""));
        }
        let text = self.format_action_text(action);
        match action {
            Action::Entry(e) => return self.entry(e, text),
            Action::Lift(s) => return self.lift(*s, text),
            Action::Touch(s) if self.options.touch_move && self.touched.is_none() => {
                // Touching a piece that cannot move, or a piece of the opponent that is not
                // huffable, binds nothing.
                let piece = self.position.piece_at(u32::from(*s));
                if piece.is_some() && !self.legal_actions().contains(action) {
                    return Ok(());
                }
            }
            _ => {}
        }
        if !self.legal_actions().contains(action) {
            return Err(self.refuse(&format!("{text} is not allowed now")));
        }
        match action {
            Action::Move(m) => self.commit(m, None),
            Action::Huff(s) => {
                remove(&mut self.position, *s);
                self.pending = None;
                self.touched = None;
                self.ending = self.find_ending(false);
            }
            Action::Force(s) => {
                let p = self
                    .pending
                    .take()
                    .expect("listed only with a pending fault");
                let h = p
                    .huffable
                    .iter()
                    .find(|h| h.now == *s)
                    .expect("listed only for huffable pieces");
                self.position = p.prev;
                self.history.pop();
                self.forced = Some(h.before);
                self.touched = None;
                self.ending = self.find_ending(false);
            }
            Action::Correct => {
                let p = self.pending.take().expect("listed only after a false move");
                let from = p.false_move.expect("listed only after a false move");
                self.position = p.prev;
                self.history.pop();
                let movable = self.position.legal_moves().iter().any(|m| m.from() == from);
                self.must_play = movable.then_some(from);
                self.touched = None;
                self.ending = self.find_ending(false);
            }
            Action::Touch(s) => {
                let mine = self
                    .position
                    .piece_at(u32::from(*s))
                    .is_some_and(|p| p.side == self.position.side_to_move());
                self.touched = Some(if mine {
                    self.pending = None;
                    Touched::Own(*s)
                } else {
                    Touched::Huffable(*s)
                });
            }
            Action::Adjust(_) => {}
            Action::Entry(_) | Action::Lift(_) => unreachable!("handled above"),
        }
        self.record.push((action.clone(), text));
        Ok(())
    }

    fn entry(&mut self, e: &BoardEntry, text: String) -> Result<(), IllegalAction> {
        if !self.options.arbitrated {
            return Err(self.refuse("board entries are for arbitrated games"));
        }
        let n = G::SQUARES;
        let on_board = |s: u8| s >= 1 && u32::from(s) <= n;
        if !on_board(e.from) || !on_board(e.to) || !e.removed.iter().all(|s| on_board(*s)) {
            return Err(self.refuse("a square is not on the board"));
        }
        let me = self.position.side_to_move();
        let piece = self.position.piece_at(u32::from(e.from));
        let moves = self.legal_moves();
        if piece.is_none_or(|p| p.side != me) || !moves.iter().any(|m| m.from() == e.from) {
            // No fault: the piece goes back where it was.
            return Ok(());
        }
        if e.to != e.from && self.position.piece_at(u32::from(e.to)).is_some() {
            return Err(self.refuse("the square the piece was put on is occupied"));
        }
        let mut removed = e.removed.clone();
        removed.sort_unstable();
        removed.dedup();
        if removed.len() != e.removed.len()
            || removed.iter().any(|s| {
                self.position
                    .piece_at(u32::from(*s))
                    .is_none_or(|p| p.side == me)
            })
        {
            return Err(self.refuse("only pieces of the opponent can be taken off"));
        }
        let m = Move::<G>::new(e.from, e.to, &removed);
        let rb = m.captured();
        let legal = moves.contains(&m);
        let partial = moves.iter().any(|c| {
            c.from() == e.from && c.to() == e.to && c.is_capture() && (c.captured() & rb) == rb
        });
        if e.to == e.from && !legal {
            return Ok(());
        }
        self.commit(&m, (!legal && !partial).then_some(e.from));
        self.record.push((Action::Entry(e.clone()), text));
        Ok(())
    }

    fn lift(&mut self, s: u8, text: String) -> Result<(), IllegalAction> {
        if !self.options.arbitrated {
            return Err(self.refuse("lifting pieces is for arbitrated games"));
        }
        let me = self.position.side_to_move();
        if self
            .position
            .piece_at(u32::from(s))
            .is_none_or(|p| p.side != me)
        {
            return Err(self.refuse("only one's own piece can be lifted"));
        }
        remove(&mut self.position, s);
        // Touching his own piece, he gives up huffing this turn.
        self.pending = None;
        self.faults += 1;
        self.record.push((Action::Lift(s), text));
        self.ending = self.find_ending(false);
        Ok(())
    }

    /// The action in notation (see the module docs).
    #[must_use]
    pub fn format_action_text(&self, action: &Action<G>) -> String {
        match action {
            Action::Move(m) => notation::format(&self.position, m),
            Action::Huff(s) => format!("s{s}"),
            Action::Force(s) => format!("f{s}"),
            Action::Touch(s) => format!("t{s}"),
            Action::Adjust(s) => format!("j{s}"),
            Action::Correct => "redresse".into(),
            Action::Lift(s) => format!("l{s}"),
            Action::Entry(e) => {
                let mut t = format!("e{}-{}", e.from, e.to);
                if !e.removed.is_empty() {
                    let r: Vec<String> = e.removed.iter().map(u8::to_string).collect();
                    t.push('/');
                    t.push_str(&r.join(","));
                }
                t
            }
        }
    }

    /// Reads an action's notation (see the module docs) against this state.
    ///
    /// # Errors
    /// [`ParseActionError`] for bad syntax, or a move that is not legal or is ambiguous.
    pub fn parse_action_text(&self, text: &str) -> Result<Action<G>, ParseActionError> {
        let err = |reason: String| ParseActionError::syntax(text, reason);
        let t = text.trim();
        let square = |s: &str| -> Result<u8, ParseActionError> {
            s.trim()
                .parse::<u8>()
                .map_err(|_| err(format!("cannot read square {s:?}")))
        };
        if t == "redresse" {
            return Ok(Action::Correct);
        }
        let mut chars = t.chars();
        let head = chars.next().unwrap_or(' ');
        let rest = chars.as_str();
        match head {
            's' => return Ok(Action::Huff(square(rest)?)),
            'f' => return Ok(Action::Force(square(rest)?)),
            't' => return Ok(Action::Touch(square(rest)?)),
            'j' => return Ok(Action::Adjust(square(rest)?)),
            'l' => return Ok(Action::Lift(square(rest)?)),
            'e' => {
                let (mv, removed) = rest.split_once('/').unwrap_or((rest, ""));
                let (a, b) = mv
                    .split_once('-')
                    .ok_or_else(|| err("an entry is e<from>-<to>[/removed,...]".into()))?;
                let removed = if removed.trim().is_empty() {
                    Vec::new()
                } else {
                    removed
                        .split(',')
                        .map(square)
                        .collect::<Result<Vec<u8>, _>>()?
                };
                return Ok(Action::Entry(BoardEntry {
                    from: square(a)?,
                    to: square(b)?,
                    removed,
                }));
            }
            _ => {}
        }
        if self.ending.is_some() {
            return Err(ParseActionError::not_legal(text, "the game is over"));
        }
        notation::parse(&self.position, t)
            .map(Action::Move)
            .map_err(|e| e.into_action_error(text))
    }
}

/// What a client that holds no rules needs to show a French game and let a player act.
#[derive(Clone, Debug, Serialize)]
pub struct FrenchView {
    /// Variant name.
    pub variant: &'static str,
    /// The table options.
    pub options: TableOptions,
    /// The position as FEN.
    pub fen: String,
    /// Who acts.
    pub side_to_move: Side,
    /// Each piece: square, side, king.
    pub pieces: Vec<(u32, Side, bool)>,
    /// Every legal action.
    pub legal: Vec<ActionView>,
    /// The record, in notation.
    pub played: Vec<String>,
    /// The opponent's pieces that may be huffed now (squares).
    pub huffable: Vec<u8>,
    /// After a force: the piece that must take.
    pub forced: Option<u8>,
    /// What a touch bound the player to.
    pub touched: Option<Touched>,
    /// Whether the opponent's false move may be corrected.
    pub false_move: bool,
    /// How the game ended, if it has.
    pub ending: Option<Ending>,
}

/// One legal action for a client.
#[derive(Clone, Debug, Serialize)]
pub struct ActionView {
    /// The action as the old French notation writes it (`32-28`, `s21`, `f21`).
    pub notation: String,
    /// `move`, `huff`, `force`, `touch`, `adjust`, `correct`.
    pub kind: &'static str,
    /// Squares the piece visits (a move), or the square acted on.
    pub path: Vec<u8>,
    /// Captured squares of a move.
    pub captured: Vec<u8>,
}

impl<G: Geometry> tablier_core::Game for FrenchGame<G> {
    type Action = Action<G>;
    type View = FrenchView;

    fn actor(&self) -> Actor {
        if self.ending.is_some() {
            Actor::Nobody
        } else {
            Actor::Player(self.position.side_to_move())
        }
    }

    fn legal_actions(&self) -> Vec<Action<G>> {
        FrenchGame::legal_actions(self)
    }

    fn apply(&mut self, action: &Action<G>) -> Result<(), IllegalAction> {
        self.apply_action(action)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.ending.map(|e| match e {
            Ending::NoMove { winner } => Outcome::Win { winner, points: 1 },
            Ending::Draw(_) => Outcome::Draw,
        })
    }

    fn format_action(&self, action: &Action<G>) -> String {
        self.format_action_text(action)
    }

    fn parse_action(&self, text: &str) -> Result<Action<G>, ParseActionError> {
        self.parse_action_text(text)
    }

    fn view(&self) -> FrenchView {
        let p = &self.position;
        let legal = self
            .legal_actions()
            .iter()
            .map(|a| {
                let notation = self.format_action_text(a);
                let (kind, path, captured) = match a {
                    Action::Move(m) => (
                        "move",
                        if m.is_capture() {
                            notation::capture_path(p, m)
                        } else {
                            vec![m.from(), m.to()]
                        },
                        m.captured_squares(),
                    ),
                    Action::Huff(s) => ("huff", vec![*s], vec![]),
                    Action::Force(s) => ("force", vec![*s], vec![]),
                    Action::Touch(s) => ("touch", vec![*s], vec![]),
                    Action::Adjust(s) => ("adjust", vec![*s], vec![]),
                    Action::Correct => ("correct", vec![], vec![]),
                    Action::Entry(e) => ("entry", vec![e.from, e.to], e.removed.clone()),
                    Action::Lift(s) => ("lift", vec![*s], vec![]),
                };
                ActionView {
                    notation,
                    kind,
                    path,
                    captured,
                }
            })
            .collect();
        FrenchView {
            variant: p.variant().name,
            options: self.options,
            fen: fen::write(p),
            side_to_move: p.side_to_move(),
            pieces: p
                .pieces()
                .into_iter()
                .map(|(s, pc)| (s, pc.side, pc.king))
                .collect(),
            legal,
            played: self.record_text(),
            huffable: self.huffable().iter().map(|h| h.now).collect(),
            forced: self.forced,
            touched: self.touched,
            false_move: self.false_move_pending(),
            ending: self.ending,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Perft

/// Huffable pieces as (now, before) squares, and the position before the fault.
type Fault<G> = (Vec<(u8, u8)>, Position<G>);

/// A perft node: the position and what the last move left open.
#[derive(Clone)]
struct Node<G: Geometry> {
    pos: Position<G>,
    /// (now, before) squares of huffable pieces, and the position before the fault.
    fault: Option<Fault<G>>,
    forced: Option<u8>,
}

fn node_after_move<G: Geometry>(pos: &Position<G>, m: &Move<G>, forced: bool) -> Node<G> {
    let caps = pos.largest_captures();
    let max = caps.first().map_or(0, Move::capture_count);
    let mut q = *pos;
    q.play_unchecked(m);
    let fault = if !forced && m.capture_count() < max {
        let mut h: Vec<(u8, u8)> = caps
            .iter()
            .map(|c| {
                let now = if c.from() == m.from() {
                    m.to()
                } else {
                    c.from()
                };
                (now, c.from())
            })
            .collect();
        h.sort_unstable();
        h.dedup();
        Some((h, *pos))
    } else {
        None
    };
    Node {
        pos: q,
        fault,
        forced: None,
    }
}

fn perft_node<G: Geometry>(n: &Node<G>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let me = n.pos.side_to_move();
    if n.pos.side_bits(me).is_empty() || n.pos.side_bits(me.opposite()).is_empty() {
        return 0;
    }
    let mut total = 0;
    if let Some(sq) = n.forced {
        for m in n.pos.largest_captures().iter().filter(|m| m.from() == sq) {
            total += perft_node(&node_after_move(&n.pos, m, true), depth - 1);
        }
        return total;
    }
    for m in &n.pos.legal_moves() {
        total += if depth == 1 {
            1
        } else {
            perft_node(&node_after_move(&n.pos, m, false), depth - 1)
        };
    }
    if let Some((huffable, prev)) = &n.fault {
        for &(now, before) in huffable {
            let mut q = n.pos;
            remove(&mut q, now);
            let huffed = Node {
                pos: q,
                fault: None,
                forced: None,
            };
            let forced = Node {
                pos: *prev,
                fault: None,
                forced: Some(before),
            };
            total += perft_node(&huffed, depth - 1) + perft_node(&forced, depth - 1);
        }
    }
    total
}

/// Counts the leaves of the action tree of the default table, `depth` actions deep, from a
/// position with no fault pending (see the module docs for the convention).
#[must_use]
pub fn perft<G: Geometry>(pos: &Position<G>, depth: u32) -> u64 {
    perft_node(
        &Node {
            pos: *pos,
            fault: None,
            forced: None,
        },
        depth,
    )
}

/// [`perft`] below one move `m` of `pos` (a position with no fault pending): the count of
/// the action tree `depth` actions deep after `m`.
#[must_use]
pub fn perft_after<G: Geometry>(pos: &Position<G>, m: &Move<G>, depth: u32) -> u64 {
    perft_node(&node_after_move(pos, m, false), depth)
}

/// [`perft`] split by first action (from a position with no fault pending the first actions
/// are the moves): each move with the count below it.
#[must_use]
pub fn perft_divide<G: Geometry>(pos: &Position<G>, depth: u32) -> Vec<(Move<G>, u64)> {
    let depth = depth.max(1);
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let n = perft_node(&node_after_move(pos, &m, false), depth - 1);
            (m, n)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// PDN

/// The full PDN `GameType` written for [`FRENCH_OLD`].
pub const PDN_GAME_TYPE: &str = "42,W,10,10,N2,0";

/// Whether a PDN comment is an action token of this module.
fn is_action_token(c: &str) -> bool {
    let c = c.trim();
    if c == "redresse" {
        return true;
    }
    let mut ch = c.chars();
    match ch.next() {
        Some('s' | 'f' | 't' | 'j' | 'l') => {
            let r = ch.as_str();
            !r.is_empty() && r.len() <= 3 && r.bytes().all(|b| b.is_ascii_digit())
        }
        Some('e') => {
            let r = ch.as_str();
            r.contains('-') && r.bytes().all(|b| b.is_ascii_digit() || b"-/,".contains(&b))
        }
        _ => false,
    }
}

/// The game as a PDN record (see the module docs): `tags`, then `GameType`, the `FEN` when
/// the game did not start from the start position, and a `TableOptions` tag when an option
/// is on.
#[must_use]
pub fn to_pdn<G: Geometry>(game: &FrenchGame<G>, tags: &[(&str, &str)]) -> PdnGame {
    let mut head = String::new();
    let mut add = |k: &str, v: &str| head.push_str(&format!("[{k} \"{v}\"]\n"));
    for (k, v) in tags {
        add(k, v);
    }
    add("GameType", PDN_GAME_TYPE);
    let start = *game.start_position();
    if Position::<G>::start(start.variant()).ok() != Some(start) {
        add("FEN", &fen::write(&start));
    }
    let o = game.options();
    if o.touch_move || o.arbitrated {
        let mut words = Vec::new();
        if o.touch_move {
            words.push("touch-move");
        }
        if o.arbitrated {
            words.push("arbitrated");
        }
        add("TableOptions", &words.join(","));
    }
    let result = match game.ending() {
        None => "*",
        Some(Ending::Draw(_)) => "1-1",
        Some(Ending::NoMove {
            winner: Side::White,
        }) => "2-0",
        Some(Ending::NoMove {
            winner: Side::Black,
        }) => "0-2",
    };
    add("Result", result);
    // Ply index from White's first move; a taken-back move's replacement reuses its number.
    let mut ply: u32 = u32::from(start.side_to_move() == Side::Black);
    let mut body = Vec::new();
    for (a, t) in game.record() {
        match a {
            Action::Move(_) => {
                let label = if ply.is_multiple_of(2) {
                    format!("{}.", ply / 2 + 1)
                } else {
                    format!("{}...", ply / 2 + 1)
                };
                body.push(format!("{label} {t}"));
                ply += 1;
            }
            Action::Entry(_) => {
                body.push(format!("{{{t}}}"));
                ply += 1;
            }
            Action::Force(_) | Action::Correct => {
                body.push(format!("{{{t}}}"));
                ply -= 1;
            }
            _ => body.push(format!("{{{t}}}")),
        }
    }
    body.push(result.to_string());
    let text = format!("{head}\n{}\n", body.join(" "));
    pdn::parse_game(&text).expect("tablier writes PDN it can read")
}

/// Replays a PDN record written by [`to_pdn`] (or by hand in the same form).
///
/// # Errors
/// What went wrong, with the index of the action.
pub fn replay_pdn(g: &PdnGame) -> Result<FrenchGame<crate::G10>, String> {
    let start: Position<crate::G10> = match g.tag("FEN") {
        Some(f) => fen::parse(&FRENCH_OLD, f).map_err(|e| format!("bad FEN tag {f:?}: {e}"))?,
        None => Position::start(&FRENCH_OLD).map_err(|e| e.to_string())?,
    };
    let opts = g.tag("TableOptions").unwrap_or("");
    let options = TableOptions {
        touch_move: opts.contains("touch-move"),
        arbitrated: opts.contains("arbitrated"),
    };
    let mut game = FrenchGame::from_position(start, options);
    for (i, el) in g.body.iter().enumerate() {
        let text = match el {
            Element::Move { mv, .. } => mv.to_string(),
            Element::Comment(c) if is_action_token(c) => c.trim().to_string(),
            Element::Setup(_) | Element::Ellipsis { .. } => {
                return Err(format!("element {i}: not supported in a French record"))
            }
            _ => continue,
        };
        let a = game
            .parse_action_text(&text)
            .map_err(|e| format!("element {i} {text}: {e}"))?;
        game.apply_action(&a)
            .map_err(|e| format!("element {i} {text}: {e}"))?;
    }
    Ok(game)
}

/// Whether `v` is played with [`FrenchGame`] (its captures are enforced by huffing).
#[must_use]
pub fn is_french(v: &Variant) -> bool {
    v.capture == crate::CaptureRule::Huffing
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::G10;

    #[test]
    fn start_counts_match_international_before_any_capture() {
        let p = Position::<G10>::start(&FRENCH_OLD).unwrap();
        assert_eq!(perft(&p, 1), 9);
        assert_eq!(perft(&p, 2), 81);
    }

    #[test]
    fn action_tokens() {
        for t in [
            "s28",
            "f3",
            "t45",
            "j1",
            "l50",
            "redresse",
            "e32-27",
            "e28-17/22,23",
        ] {
            assert!(is_action_token(t), "{t}");
        }
        for t in ["forced", "s", "sx", "a good move", "e"] {
            assert!(!is_action_token(t), "{t}");
        }
    }
}
