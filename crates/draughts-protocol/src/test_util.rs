//! What the tests of several modules share.

use std::time::Instant;

use tablier_draughts_engine::Limits;

/// What the engine does with a level's or a game's limits: the budgets, and the instant at
/// which the search must stop; none of it may panic.
pub(crate) fn engine_side(limits: &Limits) {
    let (soft, hard) = limits.budgets();
    for d in [soft, hard].into_iter().flatten() {
        assert!(Instant::now().checked_add(d).is_some(), "{limits:?}");
    }
}
