//! Running the `tablier` binary from an integration test and reading what it wrote.
//!
//! ```
//! use tablier_test_support::process::{output_text, run};
//!
//! // A test passes `env!("CARGO_BIN_EXE_tablier")`; any program will do here.
//! let o = run("sh", &["-c", "echo out; echo err >&2"]);
//! assert!(o.status.success());
//! assert_eq!(output_text(&o), "out\nerr\n");
//! ```

use std::process::{Command, Output};

/// Runs `program` with `args`, waits for it and returns what it wrote and how it ended.
///
/// # Panics
/// When the program cannot be started (a test with a missing binary must fail).
#[must_use]
pub fn run(program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("starting {program}: {e}"))
}

/// What a finished program wrote: its standard output, then its standard error.
#[must_use]
pub fn output_text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}
