//! The trictrac engine of tablier (work in progress: see the open issue).

/// The highest level offered to people (level 0 is the weakest).
pub const MAX_LEVEL: u8 = 0;
