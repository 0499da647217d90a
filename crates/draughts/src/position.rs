//! Positions, moves and the move generator shared by every variant.
//!
//! The generator reads the [`Variant`]'s fields (capture rule, men capturing backwards, flying
//! kings, promotion) and the board size comes in as a [`Geometry`] type, so that 8x8 and 10x10
//! boards use `u64` bitboards and 12x12 uses `u128`.

use crate::bits::Bits;
use crate::geometry::{Dir, Geometry};
use crate::variant::{BoardSize, CaptureRule, Promotion, Variant};
use tablier_core::Side;

/// A move: where the piece starts, where it ends and which pieces it captures.
///
/// Two capture sequences with the same start, end and captured set are the same move (the
/// FMJD convention that published perft counts use). Squares inside the move are bit indices of
/// the board's [`Geometry`]; [`Move::from`], [`Move::to`] and [`Move::captured_squares`] give
/// square numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move<G: Geometry> {
    from: u8,
    to: u8,
    captured: G::B,
}

impl<G: Geometry> Move<G> {
    /// The move from square `from` to square `to` capturing the pieces on `captured`
    /// (square numbers). No legality is checked.
    #[must_use]
    pub fn new(from: u8, to: u8, captured: &[u8]) -> Self {
        let mut c = G::B::ZERO;
        for &s in captured {
            c |= G::B::bit(G::bit_of(u32::from(s)));
        }
        Move {
            from: bit8::<G>(u32::from(from)),
            to: bit8::<G>(u32::from(to)),
            captured: c,
        }
    }

    /// Square number the piece starts on.
    #[must_use]
    pub fn from(&self) -> u8 {
        square8::<G>(u32::from(self.from))
    }

    /// Square number the piece ends on.
    #[must_use]
    pub fn to(&self) -> u8 {
        square8::<G>(u32::from(self.to))
    }

    /// Whether the move captures.
    #[must_use]
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// Number of pieces captured.
    #[must_use]
    pub fn capture_count(&self) -> u32 {
        self.captured.count()
    }

    /// The captured pieces as a bitboard.
    #[must_use]
    pub fn captured(&self) -> G::B {
        self.captured
    }

    /// Square numbers of the captured pieces, in increasing order.
    #[must_use]
    pub fn captured_squares(&self) -> Vec<u8> {
        self.captured.iter().map(square8::<G>).collect()
    }

    pub(crate) fn start_bit(&self) -> u32 {
        u32::from(self.from)
    }

    pub(crate) fn end_bit(&self) -> u32 {
        u32::from(self.to)
    }
}

#[allow(clippy::cast_possible_truncation)]
fn bit8<G: Geometry>(square: u32) -> u8 {
    G::bit_of(square) as u8
}

#[allow(clippy::cast_possible_truncation)]
fn square8<G: Geometry>(bit: u32) -> u8 {
    G::square_of(bit) as u8
}

/// A piece on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Piece {
    /// Whose piece.
    pub side: Side,
    /// Whether it is a king.
    pub king: bool,
}

/// Why a set of pieces is not a position of the variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The variant is played on another board than this position type's.
    #[error("variant {variant} is not played on a {n}x{n} board")]
    WrongBoard {
        /// The variant asked for.
        variant: &'static str,
        /// Side of the board type used.
        n: u32,
    },
    /// A square number outside `1..=squares`.
    #[error("square {0} is not on the board")]
    NoSuchSquare(u32),
    /// Two pieces on one square.
    #[error("square {0} holds two pieces")]
    Occupied(u32),
    /// A man standing on the row where it would have been crowned.
    #[error("a {side} man on square {square} stands on its promotion row")]
    ManOnPromotionRow {
        /// The man's side.
        side: Side,
        /// Its square.
        square: u32,
    },
}

/// A draughts position: the pieces and the side to move, for one [`Variant`].
///
/// # Example
/// ```
/// use tablier_draughts::{Position, G10, INTERNATIONAL};
///
/// let start = Position::<G10>::start(&INTERNATIONAL).unwrap();
/// assert_eq!(start.legal_moves().len(), 9);
/// assert_eq!(start.perft(3), 658);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position<G: Geometry> {
    variant: &'static Variant,
    pieces: [G::B; 2],
    kings: G::B,
    side: Side,
}

fn board_matches<G: Geometry>(variant: &Variant) -> bool {
    variant.board.side() == G::N
}

/// Square numbers from bitboard bits.
fn squares_of<G: Geometry>(b: G::B) -> impl Iterator<Item = u32> {
    b.iter().map(G::square_of)
}

impl<G: Geometry> Position<G> {
    /// The empty board with `side` to move.
    ///
    /// # Errors
    /// [`PositionError::WrongBoard`] if the variant is played on another board.
    pub fn empty(variant: &'static Variant, side: Side) -> Result<Self, PositionError> {
        if !board_matches::<G>(variant) {
            return Err(PositionError::WrongBoard {
                variant: variant.name,
                n: G::N,
            });
        }
        Ok(Position {
            variant,
            pieces: [G::B::ZERO; 2],
            kings: G::B::ZERO,
            side,
        })
    }

    /// The variant's starting position.
    ///
    /// # Errors
    /// [`PositionError::WrongBoard`] if the variant is played on another board.
    pub fn start(variant: &'static Variant) -> Result<Self, PositionError> {
        let mut p = Self::empty(variant, variant.first)?;
        let rows = variant.rows_of_men;
        for s in 1..=rows * G::H {
            p.pieces[Side::Black.index()] |= G::B::bit(G::bit_of(s));
        }
        for s in (G::SQUARES - rows * G::H + 1)..=G::SQUARES {
            p.pieces[Side::White.index()] |= G::B::bit(G::bit_of(s));
        }
        Ok(p)
    }

    /// A position from lists of pieces (square numbers), checked.
    ///
    /// # Errors
    /// A [`PositionError`] for a square off the board, a square used twice, or a man on its
    /// own promotion row.
    pub fn from_pieces(
        variant: &'static Variant,
        side: Side,
        pieces: &[(u32, Piece)],
    ) -> Result<Self, PositionError> {
        let mut p = Self::empty(variant, side)?;
        for &(sq, piece) in pieces {
            p.put(sq, piece)?;
        }
        Ok(p)
    }

    /// Puts a piece on an empty square (checked like [`Position::from_pieces`]).
    ///
    /// # Errors
    /// See [`Position::from_pieces`].
    pub fn put(&mut self, square: u32, piece: Piece) -> Result<(), PositionError> {
        if square == 0 || square > G::SQUARES {
            return Err(PositionError::NoSuchSquare(square));
        }
        let b = G::B::bit(G::bit_of(square));
        if !(self.occupied() & b).is_empty() {
            return Err(PositionError::Occupied(square));
        }
        if !piece.king && !(self.promotion_row(piece.side) & b).is_empty() {
            return Err(PositionError::ManOnPromotionRow {
                side: piece.side,
                square,
            });
        }
        self.pieces[piece.side.index()] |= b;
        if piece.king {
            self.kings |= b;
        }
        Ok(())
    }

    /// The rules this position is played under.
    #[must_use]
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The side to move.
    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// Sets the side to move.
    pub fn set_side_to_move(&mut self, side: Side) {
        self.side = side;
    }

    /// The piece on square `s`, if any.
    #[must_use]
    pub fn piece_at(&self, s: u32) -> Option<Piece> {
        if s == 0 || s > G::SQUARES {
            return None;
        }
        let b = G::B::bit(G::bit_of(s));
        let king = !(self.kings & b).is_empty();
        Side::ALL
            .into_iter()
            .find(|side| !(self.pieces[side.index()] & b).is_empty())
            .map(|side| Piece { side, king })
    }

    /// Every piece with its square, in square order.
    #[must_use]
    pub fn pieces(&self) -> Vec<(u32, Piece)> {
        (1..=G::SQUARES)
            .filter_map(|s| self.piece_at(s).map(|p| (s, p)))
            .collect()
    }

    /// Bitboard of one side's pieces.
    #[must_use]
    pub fn side_bits(&self, side: Side) -> G::B {
        self.pieces[side.index()]
    }

    /// Bitboard of the kings of both sides.
    #[must_use]
    pub fn king_bits(&self) -> G::B {
        self.kings
    }

    /// Number of men and kings of `side`.
    #[must_use]
    pub fn count(&self, side: Side) -> (u32, u32) {
        let p = self.pieces[side.index()];
        ((p & !self.kings).count(), (p & self.kings).count())
    }

    /// Squares of `side`'s men and kings.
    #[must_use]
    pub fn squares(&self, side: Side) -> (Vec<u32>, Vec<u32>) {
        let p = self.pieces[side.index()];
        (
            squares_of::<G>(p & !self.kings).collect(),
            squares_of::<G>(p & self.kings).collect(),
        )
    }

    #[inline(always)]
    fn occupied(&self) -> G::B {
        self.pieces[0] | self.pieces[1]
    }

    /// The row on which `side`'s men are crowned.
    #[inline(always)]
    fn promotion_row(&self, side: Side) -> G::B {
        match side {
            Side::White => G::TOP_ROW,
            Side::Black => G::BOTTOM_ROW,
        }
    }

    /// The legal moves.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move<G>> {
        let mut v = Vec::with_capacity(64);
        self.generate(&mut v);
        v
    }

    /// Whether the side to move has at least one legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        // Cheap in the common case: a quiet move or a capture start is found quickly.
        let mut v = Vec::with_capacity(32);
        self.generate(&mut v);
        !v.is_empty()
    }

    /// Writes the legal moves into `out` (cleared first). This is the generator; it reuses the
    /// caller's buffer so that search and perft allocate nothing per node.
    ///
    /// Under [`CaptureRule::Huffing`] (the old French rules) capture is not compulsory: the list
    /// holds every quiet move and every capture, including a capture stopped on any square
    /// where the piece lands after taking at least one piece; [`Position::proper_moves`] gives
    /// the moves that take every capture at its maximum.
    pub fn generate(&self, out: &mut Vec<Move<G>>) {
        out.clear();
        match self.variant.capture {
            CaptureRule::Huffing => {
                self.generate_captures(out, false, true);
                if out.len() > 1 {
                    dedup_captures(out);
                }
                self.generate_quiet(out);
            }
            rule => {
                self.generate_captures(out, rule == CaptureRule::Majority, false);
                if out.is_empty() {
                    self.generate_quiet(out);
                } else if out.len() > 1 {
                    dedup_captures(out);
                }
            }
        }
    }

    /// Writes the captures the side to move must choose from into `out` (cleared first): the
    /// list [`Position::generate`] gives when the side to move can take, and nothing when it
    /// cannot (then [`Position::has_quiet_move`] says whether it can move at all). A search's
    /// leaves need no more. Under [`CaptureRule::Huffing`], where taking is not compulsory,
    /// every capture [`Position::generate`] lists.
    pub fn generate_captures_only(&self, out: &mut Vec<Move<G>>) {
        out.clear();
        match self.variant.capture {
            CaptureRule::Huffing => self.generate_captures(out, false, true),
            rule => self.generate_captures(out, rule == CaptureRule::Majority, false),
        }
        if out.len() > 1 {
            dedup_captures(out);
        }
    }

    /// Whether the side to move has a move that takes nothing (a man stepping forward or a
    /// king stepping in any direction to an empty square), without listing the moves.
    #[must_use]
    pub fn has_quiet_move(&self) -> bool {
        let me = self.pieces[self.side.index()];
        let empty = G::VALID & !self.occupied();
        let men = me & !self.kings;
        let kings = me & self.kings;
        let forward = self
            .forward_dirs()
            .iter()
            .any(|&d| !(G::step(empty, d.opposite()) & men).is_empty());
        forward
            || (!kings.is_empty()
                && Dir::ALL
                    .iter()
                    .any(|&d| !(G::step(empty, d.opposite()) & kings).is_empty()))
    }

    /// The moves that take every capture at its maximum (the majority rule: if any capture
    /// is possible, only the captures taking the most pieces, a king counting as one; else
    /// the quiet moves). For every variant but [`CaptureRule::Free`] ones this is the list
    /// the international rules would allow with this variant's movement; under
    /// [`CaptureRule::Huffing`] it is the set of moves that no opponent can huff.
    #[must_use]
    pub fn proper_moves(&self) -> Vec<Move<G>> {
        let mut out = Vec::with_capacity(64);
        let majority = self.variant.capture != CaptureRule::Free;
        self.generate_captures(&mut out, majority, false);
        if out.is_empty() {
            self.generate_quiet(&mut out);
        } else if out.len() > 1 {
            dedup_captures(&mut out);
        }
        out
    }

    /// The captures taking the most pieces (a king counts as one), whatever the variant's
    /// capture rule; empty when nothing can be taken.
    #[must_use]
    pub fn largest_captures(&self) -> Vec<Move<G>> {
        let mut out = Vec::with_capacity(16);
        self.generate_captures(&mut out, true, false);
        if out.len() > 1 {
            dedup_captures(&mut out);
        }
        out
    }

    fn forward_dirs(&self) -> &'static [Dir] {
        match self.side {
            Side::White => &[Dir::UpLeft, Dir::UpRight],
            Side::Black => &[Dir::DownLeft, Dir::DownRight],
        }
    }

    fn generate_quiet(&self, out: &mut Vec<Move<G>>) {
        let me = self.pieces[self.side.index()];
        let empty = G::VALID & !self.occupied();
        let men = me & !self.kings;
        let kings = me & self.kings;
        for &d in self.forward_dirs() {
            let back = d.opposite();
            let movers = G::step(empty, back) & men;
            let off = G::offset(d);
            for from in movers.iter() {
                out.push(Move {
                    from: from as u8,
                    to: (from as i32 + off) as u8,
                    captured: G::B::ZERO,
                });
            }
        }
        if kings.is_empty() {
            return;
        }
        let flying = self.variant.flying_kings;
        for k in kings.iter() {
            let kb = G::B::bit(k);
            for d in Dir::ALL {
                let mut s = G::step(kb, d) & empty;
                while !s.is_empty() {
                    out.push(Move {
                        from: k as u8,
                        to: s.lowest() as u8,
                        captured: G::B::ZERO,
                    });
                    if !flying {
                        break;
                    }
                    s = G::step(s, d) & empty;
                }
            }
        }
    }

    fn generate_captures(&self, out: &mut Vec<Move<G>>, majority: bool, every: bool) {
        let me = self.pieces[self.side.index()];
        let opp = self.pieces[self.side.opposite().index()];
        let occupied = self.occupied();
        let empty = G::VALID & !occupied;
        let men = me & !self.kings;
        let kings = me & self.kings;
        let man_dirs: &'static [Dir] = if self.variant.men_capture_backward {
            &Dir::ALL
        } else {
            self.forward_dirs()
        };
        let mut cx = Captures::<G> {
            opp,
            empty,
            from: 0,
            best: 0,
            majority,
            every,
            stop_row: G::B::ZERO,
            out,
        };

        // Men that can take at least one piece, found with a few shifts.
        let mut takers = G::B::ZERO;
        for &d in man_dirs {
            let back = d.opposite();
            takers |= G::step(G::step(empty, back) & opp, back) & men;
        }
        if !takers.is_empty() {
            cx.stop_row = if self.variant.promotion == Promotion::StopsCapture {
                self.promotion_row(self.side)
            } else {
                G::B::ZERO
            };
            for from in takers.iter() {
                let fb = G::B::bit(from);
                cx.from = from as u8;
                cx.empty = empty | fb;
                cx.short(fb, G::B::ZERO, 0, man_dirs);
            }
        }
        if kings.is_empty() {
            return;
        }
        cx.stop_row = G::B::ZERO;
        for from in kings.iter() {
            let fb = G::B::bit(from);
            cx.from = from as u8;
            cx.empty = empty | fb;
            if self.variant.flying_kings {
                cx.flying(fb, G::B::ZERO, 0, ALL_DIRS);
            } else {
                cx.short(fb, G::B::ZERO, 0, &Dir::ALL);
            }
        }
    }

    /// Plays a move without checking it.
    ///
    /// # Contract
    /// `m` must be one of [`Position::legal_moves`] of this position; anything else leaves a
    /// position that no game can reach (pieces may vanish or overlap).
    pub fn play_unchecked(&mut self, m: &Move<G>) {
        let me = self.side.index();
        let from = G::B::bit(m.start_bit());
        let to = G::B::bit(m.end_bit());
        let was_king = !(self.kings & from).is_empty();
        self.pieces[me] = (self.pieces[me] & !from) | to;
        self.pieces[1 - me] &= !m.captured;
        self.kings &= !(m.captured | from);
        if was_king || !(self.promotion_row(self.side) & to).is_empty() {
            self.kings |= to;
        }
        self.side = self.side.opposite();
    }

    /// Plays a move if it is legal.
    ///
    /// # Errors
    /// [`crate::IllegalMove`] if `m` is not a legal move here; the position is unchanged.
    pub fn play(&mut self, m: &Move<G>) -> Result<(), crate::IllegalMove> {
        if self.legal_moves().contains(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(crate::IllegalMove {
                from: m.from(),
                to: m.to(),
            })
        }
    }

    /// Whether a man of the side to move would be crowned by `m`.
    #[must_use]
    pub fn is_promotion(&self, m: &Move<G>) -> bool {
        (self.kings & G::B::bit(m.start_bit())).is_empty()
            && !(self.promotion_row(self.side) & G::B::bit(m.end_bit())).is_empty()
    }

    /// Whether the piece moved by `m` is a king.
    #[must_use]
    pub fn moves_king(&self, m: &Move<G>) -> bool {
        !(self.kings & G::B::bit(m.start_bit())).is_empty()
    }

    /// Counts the leaves of the legal-move tree `depth` plies deep (no draw rules).
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        let mut lists: Vec<Vec<Move<G>>> = (0..=depth).map(|_| Vec::with_capacity(128)).collect();
        perft_rec(self, depth, &mut lists)
    }

    /// Perft split by first move: each legal move with the count below it.
    #[must_use]
    pub fn perft_divide(&self, depth: u32) -> Vec<(Move<G>, u64)> {
        let depth = depth.max(1);
        let mut lists: Vec<Vec<Move<G>>> = (0..depth).map(|_| Vec::with_capacity(128)).collect();
        self.legal_moves()
            .into_iter()
            .map(|m| {
                let mut p = *self;
                p.play_unchecked(&m);
                (m, perft_rec(&p, depth - 1, &mut lists))
            })
            .collect()
    }

    /// Every sequence of landing squares (square numbers, from the start square to the end
    /// square) by which the capture `m` can be made. For a king, every square it may stop on
    /// between two captures gives its own sequence. Empty for a non-capture.
    #[must_use]
    pub fn capture_paths(&self, m: &Move<G>) -> Vec<Vec<u8>> {
        let mut paths = Vec::new();
        if !m.is_capture() {
            return paths;
        }
        let from = G::B::bit(m.start_bit());
        let king = !(self.kings & from).is_empty();
        let ctx = PathSearch::<G> {
            opp: self.pieces[self.side.opposite().index()],
            empty: (G::VALID & !self.occupied()) | from,
            target: m.captured,
            to: G::B::bit(m.end_bit()),
            flying: king && self.variant.flying_kings,
            dirs: if king || self.variant.men_capture_backward {
                &Dir::ALL
            } else {
                self.forward_dirs()
            },
            stop_row: if !king && self.variant.promotion == Promotion::StopsCapture {
                self.promotion_row(self.side)
            } else {
                G::B::ZERO
            },
        };
        let mut path = vec![m.from()];
        ctx.walk(from, G::B::ZERO, &mut path, &mut paths);
        paths
    }

    /// The variant's board size.
    #[must_use]
    pub fn board(&self) -> BoardSize {
        self.variant.board
    }
}

fn perft_rec<G: Geometry>(p: &Position<G>, depth: u32, lists: &mut [Vec<Move<G>>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    p.generate(list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for m in list.iter() {
        let mut q = *p;
        q.play_unchecked(m);
        n += perft_rec(&q, depth - 1, rest);
    }
    n
}

/// Removes moves with the same start, end and captured set (different paths of one move).
fn dedup_captures<G: Geometry>(out: &mut Vec<Move<G>>) {
    let mut i = 1;
    while i < out.len() {
        if out[..i].contains(&out[i]) {
            out.swap_remove(i);
        } else {
            i += 1;
        }
    }
}

/// Bit mask over [`Dir`] indices.
type DirMask = u8;
const ALL_DIRS: DirMask = 0b1111;

const fn dir_bit(d: Dir) -> DirMask {
    1 << (d as u8)
}

/// The two directions across `d`'s diagonal.
const fn across(d: Dir) -> DirMask {
    match d {
        Dir::UpLeft | Dir::DownRight => dir_bit(Dir::UpRight) | dir_bit(Dir::DownLeft),
        Dir::UpRight | Dir::DownLeft => dir_bit(Dir::UpLeft) | dir_bit(Dir::DownRight),
    }
}

/// State of the capture search for one moving piece.
///
/// Captured pieces stay on the board until the move ends (coup turc): they keep blocking, and
/// `opp & !captured` are the pieces that may still be taken. The moving piece's start square
/// counts as empty.
struct Captures<'a, G: Geometry> {
    opp: G::B,
    empty: G::B,
    from: u8,
    best: u32,
    majority: bool,
    /// Record every landing square after a capture, also where the piece could go on taking
    /// (the old French rules, where a capture may be left unfinished).
    every: bool,
    /// Landing here ends a man's capture (English: crowned on the far row).
    stop_row: G::B,
    out: &'a mut Vec<Move<G>>,
}

impl<G: Geometry> Captures<'_, G> {
    #[inline]
    fn record(&mut self, to: G::B, captured: G::B, n: u32) {
        if self.majority {
            if n < self.best {
                return;
            }
            if n > self.best {
                self.best = n;
                self.out.clear();
            }
        }
        self.out.push(Move {
            from: self.from,
            to: to.lowest() as u8,
            captured,
        });
    }

    /// Captures by a piece that jumps over an adjacent piece (a man, or a short king).
    /// Returns whether any capture was found from `cur`.
    fn short(&mut self, cur: G::B, captured: G::B, n: u32, dirs: &[Dir]) -> bool {
        let avail = self.opp & !captured;
        let mut found = false;
        for &d in dirs {
            let victim = G::step(cur, d) & avail;
            if victim.is_empty() {
                continue;
            }
            let land = G::step(victim, d) & self.empty;
            if land.is_empty() {
                continue;
            }
            found = true;
            let cap = captured | victim;
            let stops = !(land & self.stop_row).is_empty();
            let further = !stops && self.short(land, cap, n + 1, dirs);
            if !further || self.every {
                self.record(land, cap, n + 1);
            }
        }
        found
    }

    /// Captures by a flying king at `cur`, looking only in the directions of `dirs`.
    /// Returns whether any capture was found.
    ///
    /// After a capture in direction `d`, each landing square looks across `d`; only the last
    /// landing square also looks further along `d` (from an earlier one the same capture would
    /// be found again through the same squares). If some landing square allows a further
    /// capture, the king must stop on such a square; otherwise it may stop on any of them.
    fn flying(&mut self, cur: G::B, captured: G::B, n: u32, dirs: DirMask) -> bool {
        let avail = self.opp & !captured;
        let mut found = false;
        for d in Dir::ALL {
            if dirs & dir_bit(d) == 0 {
                continue;
            }
            let mut s = G::step(cur, d);
            while !(s & self.empty).is_empty() {
                s = G::step(s, d);
            }
            if (s & avail).is_empty() {
                continue;
            }
            let first = G::step(s, d) & self.empty;
            if first.is_empty() {
                continue;
            }
            found = true;
            let cap = captured | s;
            let mut extended = false;
            let mut land = first;
            loop {
                let next = G::step(land, d) & self.empty;
                let look = if next.is_empty() {
                    across(d) | dir_bit(d)
                } else {
                    across(d)
                };
                extended |= self.flying(land, cap, n + 1, look);
                if next.is_empty() {
                    break;
                }
                land = next;
            }
            if !extended || self.every {
                let mut land = first;
                while !land.is_empty() {
                    self.record(land, cap, n + 1);
                    land = G::step(land, d) & self.empty;
                }
            }
        }
        found
    }
}

/// Search for the landing-square paths of one given capture.
struct PathSearch<G: Geometry> {
    opp: G::B,
    empty: G::B,
    target: G::B,
    to: G::B,
    flying: bool,
    dirs: &'static [Dir],
    stop_row: G::B,
}

impl<G: Geometry> PathSearch<G> {
    fn walk(&self, cur: G::B, captured: G::B, path: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if captured == self.target {
            if cur == self.to {
                out.push(path.clone());
            }
            return;
        }
        if !(cur & self.stop_row).is_empty() && !captured.is_empty() {
            return;
        }
        // Only pieces of the move's captured set may be jumped.
        let avail = self.opp & self.target & !captured;
        for &d in self.dirs {
            let mut s = G::step(cur, d);
            if self.flying {
                while !(s & self.empty).is_empty() {
                    s = G::step(s, d);
                }
            }
            if (s & avail).is_empty() {
                continue;
            }
            let mut land = G::step(s, d) & self.empty;
            while !land.is_empty() {
                path.push(square8::<G>(land.lowest()));
                self.walk(land, captured | s, path, out);
                path.pop();
                if !self.flying {
                    break;
                }
                land = G::step(land, d) & self.empty;
            }
        }
    }
}
