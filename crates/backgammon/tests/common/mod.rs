//! What the oracle tests share: finding the Python that has GNU Backgammon's libraries, and
//! reading numbers from the environment.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name} must be a number"))
        })
        .unwrap_or(default)
}

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Python interpreter that has gnubg and gnubg_nn, or a failure saying how to get one.
pub fn python() -> PathBuf {
    let fix = "run `bash scripts/python-env.sh` (creates .venv with gnubg 1.1.0a16 and gnubg-nn) \
               or point TABLIER_PYTHON at a Python that has them";
    let candidate = match std::env::var_os("TABLIER_PYTHON").filter(|v| !v.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => workspace_root().join(".venv/bin/python"),
    };
    let check = Command::new(&candidate)
        .args([
            "-c",
            "import importlib.metadata as m, gnubg, gnubg_nn; print(m.version('gnubg'))",
        ])
        .output();
    match check {
        Ok(out) if out.status.success() => {
            let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
            assert_eq!(
                version,
                "1.1.0a16",
                "{} has gnubg {version}, the oracle expects 1.1.0a16: {fix}",
                candidate.display()
            );
            candidate
        }
        Ok(out) => panic!(
            "{} cannot import gnubg and gnubg_nn ({}): {fix}",
            candidate.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ),
        Err(e) => panic!("cannot run {} ({e}): {fix}", candidate.display()),
    }
}
