//! A backgammon position, always seen from the player on roll.

use serde::{Deserialize, Serialize};

/// Checkers each side has.
pub const CHECKERS: u8 = 15;

/// Index of the mover's bar for [`Position::raw`].
pub const BAR: usize = 25;
/// Index of the opponent's bar for [`Position::raw`] (its count is negative).
pub const OPP_BAR: usize = 0;

/// A position seen from the player on roll ("the mover").
///
/// `points[p]` for `p` in `1..=24` is the mover's point `p` (the mover's home board is
/// `1..=6`, and the mover's checkers travel from 24 down to 1): a positive count is the mover's
/// checkers, a negative one the opponent's. `points[25]` is the mover's bar (≥ 0) and `points[0]`
/// the opponent's bar (≤ 0). The opponent's point `q` is the mover's point `25 - q`. Borne-off
/// checkers are what is missing from fifteen.
///
/// ```
/// use tablier_backgammon::Position;
///
/// let start = Position::start();
/// assert_eq!(start.pip_count(), (167, 167));
/// assert_eq!(start.flip(), start);
/// assert_eq!(start.mover_checkers(6), 5);
/// assert_eq!(start.opponent_checkers(6), 5); // the opponent's own 6-point
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Position {
    pub(crate) points: [i8; 26],
}

/// Why a set of checkers is not a backgammon position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has more than fifteen checkers.
    #[error("the {0} has {1} checkers (at most 15)")]
    TooManyCheckers(&'static str, u32),
    /// Both sides have checkers on the same point.
    #[error("both sides have checkers on the mover's point {0}")]
    SharedPoint(usize),
}

impl Position {
    /// The starting position (either side on roll: it is symmetric).
    #[must_use]
    pub fn start() -> Position {
        let side = Position::START_SIDE;
        Position::from_sides(&side, &side).expect("the start is a position")
    }

    /// One side of the start, in [`Position::from_sides`] layout.
    pub const START_SIDE: [u8; 25] = [
        0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0,
    ];

    /// Builds a position from each side's checkers counted from that side's own point of view,
    /// as gnubg's `TanBoard` does: index `i` is the side's own point `i + 1`, index 24 its bar.
    ///
    /// # Errors
    /// [`PositionError`] if a side has more than fifteen checkers or both sides share a point.
    pub fn from_sides(mover: &[u8; 25], opponent: &[u8; 25]) -> Result<Position, PositionError> {
        for (name, side) in [("player on roll", mover), ("opponent", opponent)] {
            let n: u32 = side.iter().map(|&c| u32::from(c)).sum();
            if n > u32::from(CHECKERS) {
                return Err(PositionError::TooManyCheckers(name, n));
            }
        }
        let mut points = [0i8; 26];
        for p in 1..=24 {
            let m = mover[p - 1];
            let o = opponent[24 - p];
            if m > 0 && o > 0 {
                return Err(PositionError::SharedPoint(p));
            }
            points[p] = m as i8 - o as i8;
        }
        points[BAR] = mover[24] as i8;
        points[OPP_BAR] = -(opponent[24] as i8);
        Ok(Position { points })
    }

    /// Each side's checkers from its own point of view (the layout of [`Position::from_sides`]):
    /// `(mover, opponent)`.
    #[must_use]
    pub fn to_sides(&self) -> ([u8; 25], [u8; 25]) {
        let mut mover = [0u8; 25];
        let mut opponent = [0u8; 25];
        for p in 1..=24 {
            let v = self.points[p];
            if v > 0 {
                mover[p - 1] = v as u8;
            } else if v < 0 {
                opponent[24 - p] = (-v) as u8;
            }
        }
        mover[24] = self.points[BAR] as u8;
        opponent[24] = (-self.points[OPP_BAR]) as u8;
        (mover, opponent)
    }

    /// The same position seen from the other side (who becomes the player on roll).
    #[must_use]
    pub fn flip(&self) -> Position {
        let mut points = [0i8; 26];
        for (i, v) in points.iter_mut().enumerate() {
            *v = -self.points[25 - i];
        }
        Position { points }
    }

    /// The signed count on an index (1..=24 points, 25 the mover's bar, 0 the opponent's bar):
    /// mover positive, opponent negative.
    #[must_use]
    pub fn raw(&self, index: usize) -> i8 {
        self.points[index]
    }

    /// The mover's checkers on his own point `p` (1..=24; 25 is his bar).
    #[must_use]
    pub fn mover_checkers(&self, p: usize) -> u8 {
        self.points[p].max(0) as u8
    }

    /// The opponent's checkers on *his own* point `q` (1..=24; 25 is his bar).
    #[must_use]
    pub fn opponent_checkers(&self, q: usize) -> u8 {
        (-self.points[25 - q]).max(0) as u8
    }

    /// Checkers the mover has borne off.
    #[must_use]
    pub fn mover_off(&self) -> u8 {
        let on: i32 = self
            .points
            .iter()
            .filter(|&&v| v > 0)
            .map(|&v| v as i32)
            .sum();
        CHECKERS - on as u8
    }

    /// Checkers the opponent has borne off.
    #[must_use]
    pub fn opponent_off(&self) -> u8 {
        self.flip().mover_off()
    }

    /// Pip counts `(mover, opponent)`: what each needs to bear everything off.
    #[must_use]
    pub fn pip_count(&self) -> (u32, u32) {
        let count = |pos: &Position| {
            (1..=25)
                .map(|p| pos.points[p].max(0) as u32 * p as u32)
                .sum::<u32>()
        };
        (count(self), count(&self.flip()))
    }

    /// True when the mover has no checker outside his home board (points 1 to 6), so that he may
    /// bear off.
    #[must_use]
    pub fn mover_all_home(&self) -> bool {
        self.points[7..=25].iter().all(|&v| v <= 0)
    }

    /// True when the game is over: one side has borne off all fifteen.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.mover_off() == CHECKERS || self.opponent_off() == CHECKERS
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_round_trip_and_flip() {
        let mut mover = [0u8; 25];
        let mut opp = [0u8; 25];
        mover[24] = 2;
        mover[0] = 3;
        mover[12] = 10;
        opp[24] = 1;
        opp[5] = 4;
        opp[20] = 1;
        let p = Position::from_sides(&mover, &opp).unwrap();
        assert_eq!(p.to_sides(), (mover, opp));
        assert_eq!(p.flip().to_sides(), (opp, mover));
        assert_eq!(p.flip().flip(), p);
        assert_eq!(p.mover_off(), 0);
        assert_eq!(p.opponent_off(), 9);
    }

    #[test]
    fn impossible_positions_are_refused() {
        let mut mover = Position::START_SIDE;
        mover[0] += 1;
        assert_eq!(
            Position::from_sides(&mover, &Position::START_SIDE),
            Err(PositionError::TooManyCheckers("player on roll", 16))
        );
        let mut a = [0u8; 25];
        let mut b = [0u8; 25];
        a[3] = 1; // mover's 4-point
        b[20] = 1; // opponent's 21-point = mover's 4-point
        assert_eq!(
            Position::from_sides(&a, &b),
            Err(PositionError::SharedPoint(4))
        );
    }
}
