//! A game of draughts: the position, the moves played, and the end of the game — a win when
//! the side to move has no legal move (no pieces left, or all blocked), and each variant's
//! draw rules.
//!
//! Draw rules are applied automatically as soon as they hold (as lidraughts does); a player
//! does not have to claim them.
//!
//! * [`DrawRules::Fmjd`] (FMJD rules, Annex 1 art. 6, as consolidated in
//!   reference/draughts/PROTOCOLS.md §5):
//!   threefold repetition of the same position with the same side to move; 25 successive moves
//!   by each player made only with kings, with no man moved and no capture (50 plies); one king
//!   against three pieces including at least one king: drawn after 16 moves each (32 plies);
//!   one king against two pieces or fewer including at least one king: drawn after 5 moves
//!   each (10 plies).
//! * [`DrawRules::Brazilian`]: threefold repetition; seed 004: "after 20 successive moves with
//!   kings, without any capture or man move, the game is declared drawn" — read as 20 moves
//!   by each player (40 plies), as the FMJD counts its 25-move rule; and the FMJD-64 endgame
//!   rules that lidraughts applies to Brazilian (fmjd64.org art. 7.2.4, 7.2.6–7.2.8):
//!   three or more kings against a lone king, 15 moves each (30 plies); three pieces with a
//!   king against a lone king standing on the long diagonal (a1–h8) when that balance arose,
//!   5 moves each; two pieces or fewer with a king against a lone king, 5 moves each; both
//!   sides with kings and the material unchanged (no capture, no promotion): 30 moves each
//!   with 4 or 5 pieces on the board, 60 moves each with 6 or 7.
//! * [`DrawRules::English`]: threefold repetition; the 40-move rule: 40 moves by each player
//!   with no man advanced and no piece captured (80 plies).
//!
//! **Endgame counts.** A count belongs to a material class (for example "one king against
//! three pieces with a king"). It starts with the move that creates that class — that move is
//! not counted — and goes on while the class holds, even if a man is crowned inside it. A
//! capture that moves the game into another class (16-move class to 5-move class) starts the
//! new class's count from zero. A win on the last allowed move stands: the game is won before
//! a draw is looked for.
//!
//! # Example
//! ```
//! use tablier_draughts::{fen, game::Game, notation, G10, INTERNATIONAL};
//! use tablier_core::{Game as _, Outcome, Side};
//!
//! let mut g = Game::<G10>::start(&INTERNATIONAL).unwrap();
//! let m = notation::parse(g.position(), "32-28").unwrap();
//! g.play(&m).unwrap();
//! assert_eq!(g.position().side_to_move(), Side::Black);
//! assert!(g.outcome().is_none());
//! // An illegal move is refused and changes nothing.
//! let before = g.clone();
//! assert!(g.play(&m).is_err());
//! assert_eq!(g, before);
//!
//! // White to move with nothing left to move loses.
//! let lost = Game::<G10>::from_position(fen::parse(&INTERNATIONAL, "W:W:B1").unwrap());
//! assert_eq!(lost.outcome(), Some(Outcome::Win { winner: Side::Black, points: 1 }));
//! ```

use crate::geometry::Geometry;
use crate::notation;
use crate::position::{Move, Position, PositionError};
use crate::variant::{DrawRules, Variant};
use crate::IllegalMove;
use serde::Serialize;
use tablier_core::{Actor, IllegalAction, Outcome, ParseActionError, Side};

/// Why a game ended in a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DrawReason {
    /// The same position with the same side to move for the third time.
    Repetition,
    /// Too many successive king moves without a capture or a man move (25 each in FMJD rules,
    /// 20 each in Brazilian, 40 each in English where men moves count too).
    KingMoves,
    /// An endgame count ran out (16- or 5-move rule, FMJD-64 endgame rules).
    Endgame,
    /// The old French rule (seed 000): one king against three pieces or fewer with a king, and
    /// the stronger side did not win at once (see [`crate::french`]).
    OldFrenchRule,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Ending {
    /// The side to move has no legal move and loses.
    NoMove {
        /// The side that won: its opponent had no legal move.
        winner: Side,
    },
    /// A draw rule applied.
    Draw(DrawReason),
}

/// Endgame material classes with a count of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
enum Class {
    /// FMJD: one king against three pieces including a king.
    Fmjd16,
    /// FMJD: one king against at most two pieces including a king.
    Fmjd5,
    /// FMJD-64 7.2.4: three or more kings (no men) against a lone king.
    KingsVsKing,
    /// FMJD-64 7.2.7: three pieces with a king against a lone king on the long diagonal.
    LongDiagonal,
    /// FMJD-64 7.2.8: two pieces or fewer with a king against a lone king.
    SmallVsKing,
}

impl Class {
    /// Plies the class allows before the draw.
    fn limit(self) -> u32 {
        match self {
            Class::Fmjd16 => 32,
            Class::KingsVsKing => 30,
            Class::Fmjd5 | Class::LongDiagonal | Class::SmallVsKing => 10,
        }
    }
}

/// Counters that the draw rules read, updated after each move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counters {
    /// Plies since the last capture or man move.
    pub reversible: u32,
    /// Plies since the last capture or promotion.
    pub material: u32,
    /// Plies in the current endgame class.
    pub endgame: u32,
    #[serde(skip)]
    class: Option<Class>,
}

/// A game of draughts: where it started, the moves played, and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game<G: Geometry> {
    start: Position<G>,
    position: Position<G>,
    moves: Vec<Move<G>>,
    /// Positions since the last irreversible move, oldest first (for repetition).
    since_irreversible: Vec<Position<G>>,
    counters: Counters,
    ending: Option<Ending>,
}

/// The long diagonal a1–h8 of the 8x8 board, as square numbers.
const LONG_DIAGONAL_8X8: [u32; 8] = [4, 8, 11, 15, 18, 22, 25, 29];

impl<G: Geometry> Game<G> {
    /// A game from the variant's starting position.
    ///
    /// # Errors
    /// [`PositionError::WrongBoard`] if the variant is played on another board.
    pub fn start(variant: &'static Variant) -> Result<Self, PositionError> {
        Ok(Self::from_position(Position::start(variant)?))
    }

    /// A game from any position (a FEN set-up).
    #[must_use]
    pub fn from_position(position: Position<G>) -> Self {
        let mut g = Game {
            start: position,
            position,
            moves: Vec::new(),
            since_irreversible: vec![position],
            counters: Counters {
                class: classify(&position),
                ..Counters::default()
            },
            ending: None,
        };
        g.ending = g.find_ending();
        g
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position<G> {
        &self.position
    }

    /// The position the game started from.
    #[must_use]
    pub fn start_position(&self) -> &Position<G> {
        &self.start
    }

    /// The moves played so far.
    #[must_use]
    pub fn moves(&self) -> &[Move<G>] {
        &self.moves
    }

    /// The positions since the last irreversible move (a capture or a man move), oldest
    /// first, ending with the current one: what repetition is judged on. Engines use it to see
    /// repetitions that the game's past makes possible.
    #[must_use]
    pub fn positions_since_irreversible(&self) -> &[Position<G>] {
        &self.since_irreversible
    }

    /// The draw-rule counters.
    #[must_use]
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// How the game ended, if it has.
    #[must_use]
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// The legal moves (none once the game is over).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move<G>> {
        if self.ending.is_some() {
            Vec::new()
        } else {
            self.position.legal_moves()
        }
    }

    /// Plays a move.
    ///
    /// # Errors
    /// [`IllegalMove`] if the game is over or the move is not legal; the game is unchanged.
    pub fn play(&mut self, m: &Move<G>) -> Result<(), IllegalMove> {
        if self.ending.is_some() || !self.position.legal_moves().contains(m) {
            return Err(IllegalMove {
                from: m.from(),
                to: m.to(),
            });
        }
        let irreversible = m.is_capture() || !self.position.moves_king(m);
        let material_change = m.is_capture() || self.position.is_promotion(m);
        self.position.play_unchecked(m);
        self.moves.push(*m);
        let c = &mut self.counters;
        c.reversible = if irreversible { 0 } else { c.reversible + 1 };
        c.material = if material_change { 0 } else { c.material + 1 };
        // Classes depend on material (and, for the long diagonal, on where the lone king stood
        // when the balance arose), so they are looked at again only when material changes.
        let class = if material_change {
            classify(&self.position)
        } else {
            c.class
        };
        if class.is_some() && class == c.class {
            c.endgame += 1;
        } else {
            c.endgame = 0;
            c.class = class;
        }
        if irreversible {
            self.since_irreversible.clear();
        }
        self.since_irreversible.push(self.position);
        self.ending = self.find_ending();
        Ok(())
    }

    fn find_ending(&self) -> Option<Ending> {
        let p = &self.position;
        if !p.has_legal_move() {
            return Some(Ending::NoMove {
                winner: p.side_to_move().opposite(),
            });
        }
        let repeats = self
            .since_irreversible
            .iter()
            .filter(|q| **q == self.position)
            .count();
        if repeats >= 3 {
            return Some(Ending::Draw(DrawReason::Repetition));
        }
        let c = &self.counters;
        let king_limit = match p.variant().draw {
            DrawRules::Fmjd => 50,
            DrawRules::Brazilian => 40,
            DrawRules::English => 80,
            // The old French rules have no such count (see crate::french).
            DrawRules::FrenchOld => u32::MAX,
        };
        if c.reversible >= king_limit {
            return Some(Ending::Draw(DrawReason::KingMoves));
        }
        if let Some(class) = c.class {
            if c.endgame >= class.limit() {
                return Some(Ending::Draw(DrawReason::Endgame));
            }
        }
        if p.variant().draw == DrawRules::Brazilian {
            let (wm, wk) = p.count(Side::White);
            let (bm, bk) = p.count(Side::Black);
            let total = wm + wk + bm + bk;
            let limit = match total {
                4 | 5 => 60,
                6 | 7 => 120,
                _ => u32::MAX,
            };
            if wk > 0 && bk > 0 && c.material >= limit {
                return Some(Ending::Draw(DrawReason::Endgame));
            }
        }
        None
    }
}

/// The endgame class of a position under its variant's rules.
fn classify<G: Geometry>(p: &Position<G>) -> Option<Class> {
    let draw = p.variant().draw;
    if matches!(draw, DrawRules::English | DrawRules::FrenchOld) {
        return None;
    }
    for strong in Side::ALL {
        let weak = strong.opposite();
        if p.count(weak) != (0, 1) {
            continue;
        }
        let (men, kings) = p.count(strong);
        if kings == 0 {
            continue;
        }
        let pieces = men + kings;
        return match draw {
            DrawRules::Fmjd => match pieces {
                3 => Some(Class::Fmjd16),
                1 | 2 => Some(Class::Fmjd5),
                _ => None,
            },
            DrawRules::Brazilian => {
                let lone = p.squares(weak).1[0];
                if pieces <= 2 {
                    Some(Class::SmallVsKing)
                } else if pieces == 3 && LONG_DIAGONAL_8X8.contains(&lone) {
                    Some(Class::LongDiagonal)
                } else if men == 0 && kings >= 3 {
                    Some(Class::KingsVsKing)
                } else {
                    None
                }
            }
            DrawRules::English | DrawRules::FrenchOld => None,
        };
    }
    None
}

/// What a client that holds no rules needs to show a game and let a player choose a move.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// Variant name.
    pub variant: &'static str,
    /// Board side (8, 10, 12).
    pub board: u32,
    /// The position as FEN.
    pub fen: String,
    /// Side to move.
    pub side_to_move: Side,
    /// Each piece: square, side, king.
    pub pieces: Vec<(u32, Side, bool)>,
    /// The legal moves with their notation and path.
    pub legal: Vec<MoveView>,
    /// The moves played, in notation.
    pub played: Vec<String>,
    /// How the game ended, if it has.
    pub ending: Option<Ending>,
    /// Draw-rule counters.
    pub counters: Counters,
}

/// One legal move for a client: notation, path of squares, captured squares.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// Notation (`32-28`, `28x19`, with intermediate squares only when needed).
    pub notation: String,
    /// Squares the piece visits, start to end.
    pub path: Vec<u8>,
    /// Captured squares.
    pub captured: Vec<u8>,
}

impl<G: Geometry> tablier_core::Game for Game<G> {
    type Action = Move<G>;
    type View = GameView;

    fn actor(&self) -> Actor {
        if self.ending.is_some() {
            Actor::Nobody
        } else {
            Actor::Player(self.position.side_to_move())
        }
    }

    fn legal_actions(&self) -> Vec<Move<G>> {
        self.legal_moves()
    }

    fn apply(&mut self, action: &Move<G>) -> Result<(), IllegalAction> {
        self.play(action).map_err(|e| {
            if self.ending.is_some() {
                IllegalAction::new("the game is over")
            } else {
                IllegalAction::new(e.to_string())
            }
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        self.ending.map(|e| match e {
            Ending::NoMove { winner } => Outcome::Win { winner, points: 1 },
            Ending::Draw(_) => Outcome::Draw,
        })
    }

    fn format_action(&self, action: &Move<G>) -> String {
        notation::format(&self.position, action)
    }

    fn parse_action(&self, text: &str) -> Result<Move<G>, ParseActionError> {
        if self.ending.is_some() {
            return Err(ParseActionError::not_legal(text, "the game is over"));
        }
        notation::parse(&self.position, text).map_err(|e| e.into_action_error(text))
    }

    fn view(&self) -> GameView {
        let p = &self.position;
        let mut replay = self.start;
        let played = self
            .moves
            .iter()
            .map(|m| {
                let t = notation::format(&replay, m);
                replay.play_unchecked(m);
                t
            })
            .collect();
        GameView {
            variant: p.variant().name,
            board: G::N,
            fen: crate::fen::write(p),
            side_to_move: p.side_to_move(),
            pieces: p
                .pieces()
                .into_iter()
                .map(|(s, pc)| (s, pc.side, pc.king))
                .collect(),
            legal: self
                .legal_moves()
                .iter()
                .map(|m| MoveView {
                    notation: notation::format(p, m),
                    path: if m.is_capture() {
                        notation::capture_path(p, m)
                    } else {
                        vec![m.from(), m.to()]
                    },
                    captured: m.captured_squares(),
                })
                .collect(),
            played,
            ending: self.ending,
            counters: self.counters,
        }
    }
}
