//! Iterative-deepening principal-variation search.
//!
//! * Alpha-beta in negamax form with a null window for every move after the first (PVS),
//!   re-searched with the full window when it beats alpha.
//! * A transposition table ([`crate::tt`]) gives the first move to try and cut-offs.
//! * Move order: the table's move, captures (the most pieces first), two killer moves per ply,
//!   then the history table.
//! * Captures are never cut short: where the depth runs out and the side to move must take,
//!   the search goes on through the captures (quiescence); a position with a single legal
//!   move is searched one ply deeper (most such moves are forced captures).
//! * Late quiet moves at depth 3 and more are searched shallower first (late move
//!   reductions: `0.5 + ln(depth)·ln(move number) / 1.75` plies, one less in
//!   principal-variation nodes), and again at full depth when they beat alpha.
//! * ProbCut: a null-window node of depth 5 or more with no capture to make is first searched
//!   four plies shallower against a bound raised by a margin (60 centi-men); if even that
//!   bound is cleared, the node is cut ([`SearchOptions`]).
//! * Repetition of a position since the last irreversible move, in the game or in the search,
//!   scores as a draw; small material is read from the endgame tables when they are loaded.
//! * Time: a soft limit (no new iteration is started after it) and a hard limit (the search
//!   stops at once); both, and an outside stop flag, are checked every 1,024 nodes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tablier_draughts::{CaptureRule, Geometry, Move, Position};

use crate::egtb::{Tables, Wdl};
use crate::eval::Evaluator;
use crate::tt::{hash, hash_after, Bound, Tt};

/// A score above every evaluation.
pub const INF: i32 = 30_000;
/// The score of a win now; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 29_000;
/// Scores of positions the endgame tables call won are `TABLE_WIN` plus material.
pub const TABLE_WIN: i32 = 20_000;
/// The default divisor of the late-move reductions ([`SearchOptions::lmr_divisor`]).
pub const LMR_DIVISOR: f32 = 1.75;
/// `ln(n)` for `n` in `0..64` (0 for 0), for the late-move reductions.
static LN: std::sync::LazyLock<[f32; 64]> = std::sync::LazyLock::new(|| {
    let mut t = [0.0; 64];
    for (n, v) in t.iter_mut().enumerate().skip(1) {
        *v = (n as f32).ln();
    }
    t
});

/// A move's place in a node's order: its ordering key (below 2^24) in the high bits and its
/// index in the node's list (below 256) turned over in the low byte, so that sorting the
/// entries from the largest puts the best key first and, among equal keys, the move listed
/// first.
fn order_entry(key: i32, index: usize) -> u32 {
    debug_assert!((0..1 << 24).contains(&key) && index < 256);
    ((key as u32) << 8) | (255 - index as u32)
}

/// The ordering key of an [`order_entry`].
fn order_key(entry: u32) -> i32 {
    (entry >> 8) as i32
}

/// The list index of an [`order_entry`].
fn order_index(entry: u32) -> usize {
    255 - (entry & 255) as usize
}

/// The deepest ply the search reaches.
pub const MAX_PLY: usize = 120;

/// Whether a score announces a forced win or loss found by the search.
#[must_use]
pub fn is_mate(score: i32) -> bool {
    score.abs() > WIN - MAX_PLY as i32 * 2
}

/// How long a search may take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// No time limit: until the depth or node limit, or until stopped.
    Infinite,
    /// Think this long for the move.
    MoveTime(Duration),
    /// A game clock: time left, the increment added before each move, and the moves left to
    /// the next time control (if any).
    Clock {
        /// Time left on the clock.
        remaining: Duration,
        /// Time added for each move.
        increment: Duration,
        /// Moves to play before the next time control.
        moves_to_go: Option<u32>,
    },
}

/// The limits of one search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// The deepest iteration (plies).
    pub depth: Option<u32>,
    /// At most this many nodes.
    pub nodes: Option<u64>,
    /// How the time is limited: a time per move, a game clock, or none.
    pub time: TimeControl,
    /// Whether to search a position with a single legal move at all (analysis) or to play
    /// it at once (games).
    pub search_forced: bool,
}

impl Limits {
    /// A search to `depth` plies with no time limit.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            nodes: None,
            time: TimeControl::Infinite,
            search_forced: true,
        }
    }

    /// A search of `t` for the move.
    #[must_use]
    pub fn move_time(t: Duration) -> Limits {
        Limits {
            depth: None,
            nodes: None,
            time: TimeControl::MoveTime(t),
            search_forced: false,
        }
    }

    /// The (soft, hard) time budgets: no new iteration starts after the soft one, and the
    /// search stops at the hard one. `None` where there is no time limit. With a set time
    /// per move both are that time; on a clock the soft budget keeps time for later moves,
    /// and a clock without a move count is divided as if 30 moves were left.
    #[must_use]
    pub fn budgets(&self) -> (Option<Duration>, Option<Duration>) {
        self.budgets_for(None, SOFT_SHARE)
    }

    /// The same budgets, where a clock without a move count is divided over the moves that
    /// `pieces` on the board suggest are left ([`moves_left`]; `None`: 30 moves, whatever
    /// the board), and the soft budget is `soft_share` of a move's even share of the clock
    /// (at most the hard budget).
    ///
    /// ```
    /// use std::time::Duration;
    /// use tablier_draughts_engine::{Limits, TimeControl};
    /// let clock = Limits {
    ///     time: TimeControl::Clock {
    ///         remaining: Duration::from_secs(60),
    ///         increment: Duration::ZERO,
    ///         moves_to_go: None,
    ///     },
    ///     ..Limits::move_time(Duration::ZERO)
    /// };
    /// // Early in the game (40 pieces) a move gets less than the 30-move share ...
    /// assert!(clock.budgets_for(Some(40), 0.6).0 < clock.budgets().0);
    /// // ... and in an ending (10 pieces) more.
    /// assert!(clock.budgets_for(Some(10), 0.6).0 > clock.budgets().0);
    /// // A larger soft share starts more iterations.
    /// assert!(clock.budgets_for(None, 0.8).0 > clock.budgets().0);
    /// ```
    #[must_use]
    pub fn budgets_for(
        &self,
        pieces: Option<usize>,
        soft_share: f64,
    ) -> (Option<Duration>, Option<Duration>) {
        match self.time {
            TimeControl::Infinite => (None, None),
            // A set time per move is spent whole (what is left over is lost anyway): the
            // search deepens until the time is up, and an unfinished iteration's best root
            // move stands if it has overtaken the last finished one.
            TimeControl::MoveTime(t) => (Some(t), Some(t)),
            TimeControl::Clock {
                remaining,
                increment,
                moves_to_go,
            } => {
                let moves = match (moves_to_go, pieces) {
                    (Some(m), _) => f64::from(m.clamp(1, 40)),
                    (None, Some(p)) => f64::from(moves_left(p)),
                    (None, None) => 30.0,
                };
                let reserve = Duration::from_millis(30).min(remaining / 4);
                let usable = remaining.saturating_sub(reserve);
                let base = usable.div_f64(moves) + increment.mul_f64(0.8);
                let hard = (base * 3).min(usable.mul_f64(0.4)).min(usable);
                let soft = base.mul_f64(soft_share.max(0.0)).min(hard);
                (Some(soft), Some(hard))
            }
        }
    }
}

/// The share of a move's even share of a game clock after which no new iteration starts, by
/// default.
pub const SOFT_SHARE: f64 = 0.6;

/// The moves a side is likely still to make with `pieces` on the board, for dividing a game
/// clock: 8 more than the pieces, at least 16 and at most 48 (a game of strong engines from
/// the start lasts some 50 moves a side before an ending the tables know).
#[must_use]
pub fn moves_left(pieces: usize) -> u32 {
    (8 + pieces as u32).clamp(16, 48)
}

/// What the search reports after each completed iteration.
#[derive(Clone, Debug)]
pub struct Info<G: Geometry> {
    /// Depth of the iteration (plies).
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Score in centi-men from the side to move's point of view.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search began.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move<G>>,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<G: Geometry> {
    /// The move to play (`None` when there is no legal move).
    pub best: Option<Move<G>>,
    /// The reply expected.
    pub ponder: Option<Move<G>>,
    /// Score in centi-men, side to move's point of view.
    pub score: i32,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move<G>>,
}

/// Switches of the search that can be set per engine, so that one setting can be measured
/// against another in the same match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchOptions {
    /// ProbCut's margin in centi-men (0: off; [`PROBCUT_MARGIN`] by default). In a
    /// null-window node of depth [`PROBCUT_DEPTH`] or more, a search [`PROBCUT_REDUCTION`]
    /// plies shallower that clears beta by this margin cuts the node, as the full search most
    /// likely would.
    pub probcut_margin: i32,
    /// Late-move reductions: a late quiet move at depth `d`, `n`-th in the order, is searched
    /// `0.5 + ln(d)·ln(n) / lmr_divisor` plies shallower first ([`LMR_DIVISOR`] by default;
    /// smaller reduces more).
    pub lmr_divisor: f32,
    /// On a game clock without a move count, divide the time left over the moves the
    /// material suggests are left ([`moves_left`]) instead of 30 whatever the board. On by
    /// default: in self-play against the engine with 30 moves, +40 =136 −24 at 10 s a game
    /// (200 games) and +16 =72 −12 at 30 s (100 games), together 53.3%, +23 ± 22 Elo
    /// (2026-11-29).
    pub moves_left_by_material: bool,
    /// On a game clock, the share of a move's even share of the time left after which no
    /// new iteration starts ([`SOFT_SHARE`] by default).
    pub soft_share: f64,
    /// On a game clock, stretch the soft budget where the search is unsure (the best move
    /// changed in the last iteration, or the score fell), and shorten it where the best
    /// move has stood for several iterations ([`stability_factor`]); never past the hard
    /// budget. Off by default.
    pub time_by_stability: bool,
    /// Reverse futility pruning's margin per ply, in centi-men (0: off, the default). In a
    /// null-window node of depth 1 to [`FUTILITY_DEPTH`] where neither side has a capture,
    /// a static evaluation that clears beta by this margin times the depth cuts the node.
    pub futility_margin: i32,
    /// Internal iterative reduction: a node of depth [`IIR_DEPTH`] or more with no move from
    /// the hash table is searched one ply shallower. Off by default: in self-play at 0.1 s a
    /// move it gained +28 ± 20 Elo over 400 games, but against Scan 2.0 at a minute a game it
    /// scored 20.3% over 37 games where the engine without it scored 32.4% on the same
    /// openings and colours (14 games better without it, 5 worse; 2026-11-30).
    pub iir: bool,
    /// Late-move pruning (0: off, the default): in a null-window node of depth 1 to
    /// [`LMP_DEPTH`] with no capture to make, the quiet moves after the first `late_moves +
    /// depth²` in the order (not the killers, not promotions) are not searched.
    pub late_moves: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            probcut_margin: PROBCUT_MARGIN,
            lmr_divisor: LMR_DIVISOR,
            moves_left_by_material: true,
            soft_share: SOFT_SHARE,
            time_by_stability: false,
            futility_margin: 0,
            iir: false,
            late_moves: 0,
        }
    }
}

/// The deepest node where reverse futility pruning is tried.
pub const FUTILITY_DEPTH: i32 = 3;

/// The deepest node where late-move pruning is tried.
pub const LMP_DEPTH: i32 = 3;

/// The shallowest node that internal iterative reduction shortens.
pub const IIR_DEPTH: i32 = 4;

/// How much of the soft time budget the next iteration may start within, given how many
/// iterations in a row the best move has stood (`stable`, 0: it just changed) and how far
/// the score fell in the last one (centi-men; negative: it rose): ×1.5 after a change,
/// ×0.75 after four unchanged iterations, and ×1.3 more after a fall of 25 centi-men or
/// more.
///
/// ```
/// use tablier_draughts_engine::stability_factor;
/// assert!(stability_factor(0, 0) > stability_factor(1, 0));
/// assert!(stability_factor(4, 0) < 1.0);
/// assert!(stability_factor(4, 40) > stability_factor(4, 0));
/// ```
#[must_use]
pub fn stability_factor(stable: u32, fall: i32) -> f64 {
    let base = match stable {
        0 => 1.5,
        1..=3 => 1.0,
        _ => 0.75,
    };
    if fall >= 25 {
        base * 1.3
    } else {
        base
    }
}

/// ProbCut's margin by default, in centi-men: +56 ± 30 Elo against no ProbCut in self-play
/// at 0.1 s a move (200 games, 2026-11-27).
pub const PROBCUT_MARGIN: i32 = 60;

/// The shallowest node where ProbCut is tried.
pub const PROBCUT_DEPTH: i32 = 5;
/// How much shallower ProbCut's search is.
pub const PROBCUT_REDUCTION: i32 = 4;

/// The state of one search.
pub(crate) struct Searcher<'a, G: Geometry> {
    pub options: SearchOptions,
    pub eval: &'a Evaluator<G>,
    pub tt: &'a mut Tt,
    pub history: &'a mut [i32],
    pub tables: Option<&'a Tables>,
    pub stop: &'a AtomicBool,
    killers: Vec<[(u8, u8); 2]>,
    lists: Vec<Vec<Move<G>>>,
    /// Move order per ply, best first, each as [`order_entry`] packs it.
    orders: Vec<Vec<u32>>,
    /// Hashes of the positions before the current one (game history, then search path).
    path: Vec<u64>,
    start: Instant,
    hard: Option<Instant>,
    node_limit: u64,
    pub nodes: u64,
    stopped: bool,
    huffing: bool,
    seldepth: usize,
}

/// History table index of a move.
fn hist_index<G: Geometry>(m: &Move<G>) -> usize {
    (m.from() as usize) * 80 + m.to() as usize
}

/// Size of the history table.
pub(crate) const HISTORY_SIZE: usize = 80 * 80;

impl<'a, G: Geometry> Searcher<'a, G> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        eval: &'a Evaluator<G>,
        tt: &'a mut Tt,
        history: &'a mut [i32],
        tables: Option<&'a Tables>,
        stop: &'a AtomicBool,
        game_history: &[Position<G>],
        huffing: bool,
    ) -> Self {
        Searcher {
            options: SearchOptions::default(),
            eval,
            tt,
            history,
            tables,
            stop,
            killers: vec![[(0, 0); 2]; MAX_PLY + 2],
            lists: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            orders: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            path: game_history.iter().map(hash).collect(),
            start: Instant::now(),
            hard: None,
            node_limit: u64::MAX,
            nodes: 0,
            stopped: false,
            huffing,
            seldepth: 0,
        }
    }

    fn generate(&self, pos: &Position<G>, out: &mut Vec<Move<G>>) {
        if self.huffing {
            *out = pos.proper_moves();
        } else {
            pos.generate(out);
        }
    }

    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 == 0
            && (self.stop.load(Ordering::Relaxed)
                || self.hard.is_some_and(|h| Instant::now() >= h)
                || self.nodes >= self.node_limit)
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Fills `out` with the moves' ordering keys and indices ([`order_entry`]), best first
    /// (on equal keys the move listed first).
    fn order(
        &self,
        pos: &Position<G>,
        list: &[Move<G>],
        tt_move: u8,
        ply: usize,
        out: &mut Vec<u32>,
    ) {
        let killers = self.killers[ply];
        out.clear();
        out.extend(list.iter().enumerate().map(|(i, m)| {
            let key = if i == tt_move as usize {
                10_000_000
            } else if m.is_capture() {
                1_000_000 + m.capture_count() as i32 * 1000
            } else {
                let ft = (m.from(), m.to());
                if ft == killers[0] {
                    900_000
                } else if ft == killers[1] {
                    800_000
                } else {
                    let promo = if pos.is_promotion(m) { 500_000 } else { 0 };
                    promo + self.history[hist_index(m)].min(400_000)
                }
            };
            order_entry(key, i)
        }));
        // One integer comparison a pair (the key in the high bits, the index turned over in
        // the low byte) sorts as the key, then the index, would.
        out.sort_unstable_by(|a, b| b.cmp(a));
    }

    /// Whether the side not to move could take, were it its turn.
    fn threatened(&mut self, pos: &Position<G>) -> bool {
        let mut other = *pos;
        other.set_side_to_move(pos.side_to_move().opposite());
        let mut list = std::mem::take(&mut self.lists[MAX_PLY + 1]);
        self.generate(&other, &mut list);
        let capture = list.first().is_some_and(Move::is_capture);
        self.lists[MAX_PLY + 1] = list;
        capture
    }

    fn table_score(&self, pos: &Position<G>, ply: usize) -> Option<i32> {
        let tables = self.tables?;
        let wdl = tables.probe(pos)?;
        let material = self.eval.evaluate(pos).clamp(-5000, 5000) / 10;
        Some(match wdl {
            Wdl::Win => TABLE_WIN + material - ply as i32,
            Wdl::Loss => -TABLE_WIN + material + ply as i32,
            Wdl::Draw => 0,
        })
    }

    /// Negamax search with alpha-beta. `rev` counts the reversible plies that led here.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position<G>,
        h: u64,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        rev: usize,
        ext_left: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 {
            // A repetition of a position since the last irreversible move is a draw.
            let n = self.path.len();
            let mut d = 4;
            while d <= rev && d <= n {
                if self.path[n - d] == h {
                    return 0;
                }
                d += 2;
            }
            // The fastest win from here cannot beat one already found.
            let a = alpha.max(-WIN + ply as i32);
            let b = beta.min(WIN - ply as i32 - 1);
            if a >= b {
                return a;
            }
            if let Some(s) = self.table_score(pos, ply) {
                return s;
            }
        }
        if ply >= MAX_PLY {
            return self.eval.evaluate(pos);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        if depth <= 0 && !self.huffing {
            // A leaf unless the side to move must take: its quiet moves are not listed.
            pos.generate_captures_only(&mut list);
            if list.is_empty() {
                self.lists[ply] = list;
                return if pos.has_quiet_move() {
                    self.eval.evaluate(pos)
                } else {
                    -WIN + ply as i32
                };
            }
        } else {
            self.generate(pos, &mut list);
        }
        if list.is_empty() {
            self.lists[ply] = list;
            return -WIN + ply as i32;
        }
        let captures = list[0].is_capture();
        if depth <= 0 && !captures {
            self.lists[ply] = list;
            return self.eval.evaluate(pos);
        }
        let mut depth = depth.max(0);
        let mut ext_left = ext_left;
        if list.len() == 1 && ext_left > 0 && depth > 0 {
            depth += 1;
            ext_left -= 1;
        }
        let quiescence = depth == 0;
        let mut tt_move = 255u8;
        // Whether the table already says that a search at least ProbCut's depth stays under
        // its raised bound (then ProbCut is not tried).
        let mut probcut_hopeless = false;
        if !quiescence {
            if let Some(e) = self.tt.probe(h) {
                tt_move = e.mv;
                let s = from_tt(i32::from(e.score), ply);
                probcut_hopeless = i32::from(e.depth) >= depth - PROBCUT_REDUCTION
                    && e.bound != Bound::Lower
                    && s < beta + self.options.probcut_margin;
                if ply > 0 && i32::from(e.depth) >= depth {
                    let cut = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => s >= beta,
                        Bound::Upper => s <= alpha,
                    };
                    if cut {
                        self.lists[ply] = list;
                        return s;
                    }
                }
            }
        }
        // Reverse futility: near the leaves, in a null-window node where neither side can
        // take, a static evaluation far enough above beta is taken for a cut.
        let futility = self.options.futility_margin;
        if futility > 0
            && ply > 0
            && !quiescence
            && !captures
            && beta - alpha == 1
            && depth <= FUTILITY_DEPTH
            && beta.abs() < TABLE_WIN / 2
        {
            let e = self.eval.evaluate(pos);
            if e - futility * depth >= beta && !self.threatened(pos) {
                self.lists[ply] = list;
                return beta;
            }
        }
        // Internal iterative reduction: a node the table knows nothing of is searched
        // shallower (the work of later iterations, with a move to try first, does the rest).
        if self.options.iir && tt_move == 255 && depth >= IIR_DEPTH {
            depth -= 1;
        }
        // ProbCut: in a null-window node deep enough, with no capture to make, a shallow
        // search that clears beta by a wide margin is taken for what the full search would
        // find, and the node is cut. Its best move, left in the table, is tried first if not.
        let margin = self.options.probcut_margin;
        if margin > 0
            && ply > 0
            && !captures
            && beta - alpha == 1
            && depth >= PROBCUT_DEPTH
            && beta.abs() < TABLE_WIN / 2
            && !probcut_hopeless
            && self.eval.evaluate(pos) >= beta
        {
            let high = beta + margin;
            let s = self.search(
                pos,
                h,
                depth - PROBCUT_REDUCTION,
                high - 1,
                high,
                ply,
                rev,
                ext_left,
            );
            if self.stopped {
                self.lists[ply] = list;
                return 0;
            }
            if s >= high {
                self.lists[ply] = list;
                self.tt.store(h, depth, Bound::Lower, to_tt(beta, ply), 255);
                return beta;
            }
            if let Some(e) = self.tt.probe(h) {
                tt_move = e.mv;
            }
        }
        // The table's move is searched first: its child's bucket is fetched while the moves
        // are put in order.
        let tt_child = match list.get(usize::from(tt_move)) {
            Some(m) if depth > 1 => {
                let th = hash_after(pos, h, m);
                self.tt.prefetch(th);
                Some(th)
            }
            _ => None,
        };
        let mut order = std::mem::take(&mut self.orders[ply]);
        self.order(pos, &list, tt_move, ply, &mut order);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_i = 255u8;
        // Late-move pruning: how many moves of this node are searched at most.
        let searched = if self.options.late_moves > 0
            && ply > 0
            && !captures
            && beta - alpha == 1
            && depth <= LMP_DEPTH
            && beta.abs() < TABLE_WIN / 2
        {
            self.options.late_moves + (depth * depth) as usize
        } else {
            usize::MAX
        };
        self.path.push(h);
        // The hash of the next move's child, worked out (and its bucket fetched) before the
        // move before it is searched, so that the bucket is in the cache when that child
        // probes the table: a child near the leaves does too little work before its probe
        // to hide the wait for memory on its own.
        let mut next_hash = match (tt_child, order.first()) {
            (Some(th), Some(&e)) if order_index(e) == usize::from(tt_move) => Some((0, th)),
            _ => None,
        };
        for (n, &e) in order.iter().enumerate() {
            let (key, i) = (order_key(e), order_index(e));
            let m = list[i];
            if n >= searched && key < 500_000 && best > -TABLE_WIN / 2 {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(&m);
            let ch = match next_hash.take() {
                Some((at, ch)) if at == n => ch,
                _ => {
                    let ch = hash_after(pos, h, &m);
                    if depth > 1 {
                        self.tt.prefetch(ch);
                    }
                    ch
                }
            };
            if depth > 1 {
                if let Some(&next) = order.get(n + 1) {
                    let nh = hash_after(pos, h, &list[order_index(next)]);
                    self.tt.prefetch(nh);
                    next_hash = Some((n + 1, nh));
                }
            }
            let child_rev = if m.is_capture() || !pos.moves_king(&m) {
                0
            } else {
                rev + 1
            };
            let quiet = !m.is_capture();
            let score = if n == 0 {
                -self.search(
                    &child,
                    ch,
                    depth - 1,
                    -beta,
                    -alpha,
                    ply + 1,
                    child_rev,
                    ext_left,
                )
            } else {
                // Late quiet moves (not the killers, not promotions) are searched shallower
                // first, the more so the later the move and the deeper the node (the
                // logarithmic rule of modern searches); one ply less in a principal-variation
                // node.
                let r = if depth >= 3 && n >= 3 && quiet && key < 500_000 {
                    let ln = &*LN;
                    let late = (0.5
                        + ln[(depth as usize).min(63)] * ln[n.min(63)] / self.options.lmr_divisor)
                        as i32;
                    let pv = i32::from(beta - alpha > 1);
                    (late - pv).clamp(1, depth - 2)
                } else {
                    0
                };
                let mut s = -self.search(
                    &child,
                    ch,
                    depth - 1 - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    child_rev,
                    ext_left,
                );
                if s > alpha && (r > 0 || s < beta) && !self.stopped {
                    s = -self.search(
                        &child,
                        ch,
                        depth - 1,
                        -beta,
                        -alpha,
                        ply + 1,
                        child_rev,
                        ext_left,
                    );
                }
                s
            };
            if self.stopped {
                self.path.pop();
                self.lists[ply] = list;
                self.orders[ply] = order;
                return 0;
            }
            if score > best {
                best = score;
                best_i = i as u8;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if quiet {
                            let key = (m.from(), m.to());
                            let k = &mut self.killers[ply];
                            if k[0] != key {
                                k[1] = k[0];
                                k[0] = key;
                            }
                            self.history[hist_index(&m)] += depth * depth;
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        self.lists[ply] = list;
        self.orders[ply] = order;
        if !quiescence {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(h, depth, bound, to_tt(best, ply), best_i);
        }
        best
    }

    /// The principal variation read from the table.
    fn pv(&self, pos: &Position<G>, first: Move<G>, max: usize) -> Vec<Move<G>> {
        let mut pv = vec![first];
        let mut p = *pos;
        let mut h = hash(&p);
        let mut seen = vec![h];
        h = hash_after(&p, h, &first);
        p.play_unchecked(&first);
        let mut list = Vec::new();
        while pv.len() < max {
            if seen.contains(&h) {
                break;
            }
            seen.push(h);
            let Some(e) = self.tt.probe(h) else { break };
            self.generate(&p, &mut list);
            let Some(m) = list.get(e.mv as usize).copied() else {
                break;
            };
            pv.push(m);
            h = hash_after(&p, h, &m);
            p.play_unchecked(&m);
        }
        pv
    }

    /// Iterative deepening from the root.
    pub fn run(
        &mut self,
        pos: &Position<G>,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info<G>),
    ) -> SearchResult<G> {
        self.start = Instant::now();
        let pieces = pos.pieces().len();
        let (soft, hard) = limits.budgets_for(
            self.options.moves_left_by_material.then_some(pieces),
            self.options.soft_share,
        );
        self.hard = hard.map(|d| self.start + d);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        let mut root = Vec::new();
        self.generate(pos, &mut root);
        let mut result = SearchResult {
            best: root.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: root.first().copied().into_iter().collect(),
        };
        if root.is_empty() {
            result.score = -WIN;
            return result;
        }
        if root.len() == 1 && !limits.search_forced {
            result.score = self.eval.evaluate(pos);
            return result;
        }
        let h = hash(pos);
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 10).max(1);
        // Root moves in the order of the last iteration's scores.
        let mut order: Vec<usize> = (0..root.len()).collect();
        let mut prev_score = 0;
        // Iterations in a row that the best move has stood, and how far the score fell in
        // the last one (for `time_by_stability`).
        let mut stable = 0u32;
        let mut fall = 0;
        let on_clock = matches!(limits.time, TimeControl::Clock { .. });
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let d = depth as i32;
            // Aspiration window around the last score, widened on failure.
            let mut window = if depth >= 4 && !is_mate(prev_score) {
                40
            } else {
                INF
            };
            let (best_i, score) = loop {
                let alpha = if window >= INF {
                    -INF
                } else {
                    prev_score - window
                };
                let beta = if window >= INF {
                    INF
                } else {
                    prev_score + window
                };
                let (bi, s) = self.root(pos, h, &root, &mut order, d, alpha, beta);
                if self.stopped {
                    break (bi, s);
                }
                if s <= alpha || s >= beta {
                    window = if window >= 320 { INF } else { window * 4 };
                    continue;
                }
                break (bi, s);
            };
            if self.stopped && best_i.is_none() {
                break;
            }
            let Some(bi) = best_i else { break };
            let bm = root[bi];
            result.best = Some(bm);
            if self.stopped && result.pv.first() != Some(&bm) {
                // A better move found by the unfinished iteration: its line (and so the
                // reply to ponder on) comes from the table, never from the old line.
                let pv = self.pv(pos, bm, depth as usize + 8);
                result.ponder = pv.get(1).copied();
                result.pv = pv;
            }
            if !self.stopped {
                if depth > 1 {
                    stable = if result.pv.first() == Some(&bm) {
                        stable + 1
                    } else {
                        0
                    };
                    fall = prev_score - score;
                }
                result.score = score;
                result.depth = depth;
                prev_score = score;
                let pv = self.pv(pos, bm, depth as usize + 8);
                result.ponder = pv.get(1).copied();
                result.pv = pv;
                on_info(&Info {
                    depth,
                    seldepth: self.seldepth as u32,
                    score,
                    nodes: self.nodes,
                    time: self.start.elapsed(),
                    pv: result.pv.clone(),
                });
            }
            if self.stopped
                || soft.is_some_and(|s| {
                    let s = if self.options.time_by_stability && on_clock && depth > 1 {
                        s.mul_f64(stability_factor(stable, fall))
                            .min(hard.unwrap_or(s))
                    } else {
                        s
                    };
                    self.start.elapsed() >= s
                })
                || (is_mate(score) && depth as i32 > WIN - score.abs() + 2)
            {
                break;
            }
        }
        result.nodes = self.nodes;
        result.time = self.start.elapsed();
        result
    }

    /// One root iteration: returns the best move's index in `root` and its score. Moves are
    /// tried in `order`, which is updated (best first).
    #[allow(clippy::too_many_arguments)]
    fn root(
        &mut self,
        pos: &Position<G>,
        h: u64,
        root: &[Move<G>],
        order: &mut Vec<usize>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (Option<usize>, i32) {
        self.nodes += 1;
        let mut best = -INF;
        let mut best_i = None;
        let ext = depth / 2 + 2;
        self.path.push(h);
        for n in 0..order.len() {
            let i = order[n];
            let m = root[i];
            let mut child = *pos;
            child.play_unchecked(&m);
            let ch = hash_after(pos, h, &m);
            let rev = if m.is_capture() || !pos.moves_king(&m) {
                0
            } else {
                // Repetitions through the game's own history count from here.
                self.path.len()
            };
            let score = if n == 0 {
                -self.search(&child, ch, depth - 1, -beta, -alpha, 1, rev, ext)
            } else {
                let mut s = -self.search(&child, ch, depth - 1, -alpha - 1, -alpha, 1, rev, ext);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.search(&child, ch, depth - 1, -beta, -alpha, 1, rev, ext);
                }
                s
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_i = Some(i);
                // Move it to the front for the next iteration.
                let v = order.remove(n);
                order.insert(0, v);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.path.pop();
        if let Some(bi) = best_i {
            if best > -INF && !self.stopped {
                let bound = if best >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                self.tt.store(h, depth, bound, best, bi as u8);
            }
        }
        (best_i, best)
    }

    /// The score of every root move searched with a full window to `depth` plies (for levels
    /// that choose among near-best moves).
    pub fn score_all(&mut self, pos: &Position<G>, depth: u32) -> Vec<(Move<G>, i32)> {
        self.start = Instant::now();
        self.hard = None;
        let mut root = Vec::new();
        self.generate(pos, &mut root);
        let h = hash(pos);
        self.path.push(h);
        let ext = depth as i32 / 2 + 2;
        let out = root
            .iter()
            .map(|m| {
                let mut child = *pos;
                child.play_unchecked(m);
                let ch = hash_after(pos, h, m);
                let s = -self.search(&child, ch, depth as i32 - 1, -INF, INF, 1, 0, ext);
                (*m, s)
            })
            .collect();
        self.path.pop();
        out
    }
}

/// Win scores are stored relative to the node, so that they stay right at another ply.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN - 1000 {
        score + ply as i32
    } else if score < -WIN + 1000 {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN - 1000 {
        score - ply as i32
    } else if score < -WIN + 1000 {
        score + ply as i32
    } else {
        score
    }
}

/// Whether the variant's captures are enforced by huffing (the engine then plays only moves
/// that cannot be huffed).
#[must_use]
pub fn is_huffing(pos_variant: &tablier_draughts::Variant) -> bool {
    pos_variant.capture == CaptureRule::Huffing
}
