//! The clocks of a game, computed from the times of its log: nothing ticks, so a restored
//! game's clocks are exactly what they were. Each side's clock starts with its first move;
//! table actions (offers and answers) neither stop a clock nor earn an increment; a
//! [`RESUME`] entry says the server was down until then, and that time is nobody's. With a
//! delay, each move's first seconds are not charged.

use tablier_core::Side;

use crate::record::{side_from, LoggedAction};
use crate::spec::ClockSpec;

/// The log entry (with an empty side) that says the server's clocks went on again after a
/// restart: the time between the entry before it and this one is charged to nobody.
pub const RESUME: &str = "!resume";

/// Remaining clock time of each side at `now` (ms since the epoch) for a game with `clock`
/// created at `created_ms` with `log`, and the side whose clock runs (`to_act`, the side to
/// act, once it has moved).
///
/// ```
/// use tablier_catalog::referee::clock::clocks;
/// use tablier_catalog::{ClockSpec, LoggedAction};
/// use tablier_core::Side;
///
/// let clock = ClockSpec { initial_s: 60, increment_s: 2, delay_s: 0 };
/// let at = |n, side: &str, at_ms| LoggedAction { n, side: side.into(), action: "x".into(), at_ms };
/// // White moves at 1 s, Black at 4 s, White again at 10 s; Black to act at 15 s. A clock
/// // starts with its side's first move; each move adds the increment.
/// let log = [at(1, "white", 1_000), at(2, "black", 4_000), at(3, "white", 10_000)];
/// let (left, running) = clocks(clock, 0, &log, Some(Side::Black), 15_000);
/// assert_eq!(running, Some(Side::Black));
/// assert_eq!(left, [60_000 + 2 * 2_000 - 6_000, 60_000 + 2_000 - 5_000]);
/// ```
#[must_use]
pub fn clocks(
    clock: ClockSpec,
    created_ms: i64,
    log: &[LoggedAction],
    to_act: Option<Side>,
    now: i64,
) -> ([i64; 2], Option<Side>) {
    let r = reading(clock, created_ms, log, to_act, now);
    (r.left, r.running)
}

/// The clocks at a moment: what [`clocks`] gives, and what is left of the running side's
/// delay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Each side's reserve left, in ms.
    pub left: [i64; 2],
    /// The side whose clock runs.
    pub running: Option<Side>,
    /// Of the running side's delay for this move, the ms not yet used (0 without a delay).
    pub delay_left: i64,
}

/// The clocks at `now`, the delay included (see [`clocks`]).
///
/// ```
/// use tablier_catalog::referee::clock::reading;
/// use tablier_catalog::{ClockSpec, LoggedAction};
/// use tablier_core::Side;
///
/// // A minute's reserve and 12 s of delay a move (a backgammon server's clock).
/// let clock = ClockSpec { initial_s: 60, increment_s: 0, delay_s: 12 };
/// let at = |n, side: &str, at_ms| LoggedAction { n, side: side.into(), action: "x".into(), at_ms };
/// // White's clock starts with his first move (1 s); Black then thinks 5 s (all delay),
/// // White 20 s (12 free, 8 from the reserve).
/// let log = [
///     at(1, "white", 1_000),
///     at(2, "black", 3_000),
///     at(3, "black", 8_000),
///     at(4, "white", 28_000),
/// ];
/// let r = reading(clock, 0, &log, Some(Side::Black), 31_000);
/// assert_eq!(r.left, [60_000 - 8_000, 60_000]);
/// // Black has used 3 s of this move's 12.
/// assert_eq!((r.running, r.delay_left), (Some(Side::Black), 9_000));
/// let r = reading(clock, 0, &log, Some(Side::Black), 50_000);
/// assert_eq!((r.left[1], r.delay_left), (60_000 - 10_000, 0));
/// ```
#[must_use]
pub fn reading(
    clock: ClockSpec,
    created_ms: i64,
    log: &[LoggedAction],
    to_act: Option<Side>,
    now: i64,
) -> Reading {
    let delay = i64::from(clock.delay_s) * 1000;
    let charge = |used: i64| (used - delay).max(0);
    let mut left = [i64::from(clock.initial_s) * 1000; 2];
    let mut since = created_ms;
    let mut moved = [false; 2];
    for a in log {
        if a.side.is_empty() && a.action == RESUME {
            since = a.at_ms;
            continue;
        }
        if a.action.starts_with('!') {
            continue;
        }
        if let Some(s) = side_from(&a.side) {
            if moved[s.index()] {
                left[s.index()] -= charge(a.at_ms - since);
            }
            left[s.index()] += i64::from(clock.increment_s) * 1000;
            moved[s.index()] = true;
        }
        since = a.at_ms;
    }
    let running = to_act.filter(|s| moved[s.index()]);
    let mut delay_left = 0;
    if let Some(s) = running {
        left[s.index()] -= charge(now - since);
        delay_left = (delay - (now - since)).clamp(0, delay);
    }
    Reading {
        left,
        running,
        delay_left,
    }
}
