//! What the test suites of tablier share. A dev-dependency only: nothing here ships.
//!
//! [`fuzz`]: the inputs of the fuzz targets (arbitrary text, mutations of valid samples, and
//! the number of cases, which `PROPTEST_CASES` raises for longer runs). [`python`]: the
//! Python interpreter of the oracle tests (pydraughts, GNU Backgammon's libraries). [`process`]:
//! the `tablier` binary run from a test, and what it wrote.
//! `trictrac` (feature `trictrac`): the book's tables of numbers, kept once, and builders of
//! trictrac positions, scores and games.
//!
//! ```
//! use proptest::test_runner::TestRunner;
//! use tablier_test_support::fuzz::{any_text, config, edits, mutate};
//!
//! // A parser fed arbitrary text must answer, never panic.
//! let mut runner = TestRunner::new(config(50));
//! runner
//!     .run(&any_text("0123456789-"), |text| {
//!         let _ = text.parse::<u32>();
//!         Ok(())
//!     })
//!     .unwrap();
//! // Mutations of a valid sample: edits drawn by `edits`, applied by `mutate`.
//! runner
//!     .run(&edits("0123456789-"), |e| {
//!         let _ = mutate("6-5", &e).parse::<u32>();
//!         Ok(())
//!     })
//!     .unwrap();
//! ```
#![deny(missing_docs)]

pub mod fuzz;
pub mod process;
pub mod python;
#[cfg(feature = "trictrac")]
pub mod trictrac;
