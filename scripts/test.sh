#!/usr/bin/env bash
# The whole test suite: formatting, lints, and every test (unit, data-driven, property and
# oracle tests against outside programs), in release mode so that perft depths stay deep.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/python-env.sh
export TABLIER_PYTHON="$PWD/.venv/bin/python"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --release -- -D warnings
cargo test --workspace --release
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --release --quiet
