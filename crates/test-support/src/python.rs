//! The oracle tests' Python: the interpreter that has an outside program's package
//! (pydraughts, GNU Backgammon's `gnubg` and `gnubg_nn`) at the version the tests expect.
//!
//! The interpreter is `$TABLIER_PYTHON`, else `<workspace>/.venv/bin/python`, which
//! `bash scripts/python-env.sh` creates (the README's test command runs it).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace's root folder.
#[must_use]
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A whole number from the environment variable `name`, or `default` when it is unset.
///
/// # Panics
/// When the variable is set to something that is not a number.
#[must_use]
pub fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name} must be a number"))
        })
        .unwrap_or(default)
}

/// The Python interpreter that imports `modules` (comma-separated, as in an `import`
/// statement) and has the distribution `package` at `version`.
///
/// # Panics
/// With how to get one, when there is none: a test that needs an oracle fails rather than
/// passing without it.
#[must_use]
pub fn python_with(modules: &str, package: &str, version: &str) -> PathBuf {
    let fix = format!(
        "run `bash scripts/python-env.sh` (creates .venv with {package} {version}) \
         or point TABLIER_PYTHON at a Python that has it"
    );
    let candidate = match std::env::var_os("TABLIER_PYTHON").filter(|v| !v.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => workspace_root().join(".venv/bin/python"),
    };
    let check = Command::new(&candidate)
        .args([
            "-c",
            &format!("import importlib.metadata as m, {modules}; print(m.version('{package}'))"),
        ])
        .output();
    match check {
        Ok(out) if out.status.success() => {
            let found = String::from_utf8_lossy(&out.stdout).trim().to_string();
            assert_eq!(
                found,
                version,
                "{} has {package} {found}, the tests expect {version}: {fix}",
                candidate.display()
            );
            candidate
        }
        Ok(out) => panic!(
            "{} cannot import {modules} ({}): {fix}",
            candidate.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ),
        Err(e) => panic!("cannot run {} ({e}): {fix}", candidate.display()),
    }
}

/// The Python that has pydraughts 0.6.7 (the draughts oracle and protocol client).
#[must_use]
pub fn pydraughts() -> PathBuf {
    python_with("draughts", "pydraughts", "0.6.7")
}

/// The Python that has GNU Backgammon's libraries, gnubg 1.1.0a16 and gnubg_nn (the
/// backgammon oracle).
#[must_use]
pub fn gnubg() -> PathBuf {
    python_with("gnubg, gnubg_nn", "gnubg", "1.1.0a16")
}
