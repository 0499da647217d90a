#!/usr/bin/env bash
# The whole test suite: formatting, lints, and every test (unit, data-driven, property and
# oracle tests against outside programs: pydraughts, GNU Backgammon, PostgreSQL, Chromium), in
# the `ci` profile (optimised, so that perft depths stay deep; see Cargo.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
# What the tests need (Debian packages, rustfmt/clippy, the Python venv), installed when missing.
bash scripts/setup.sh
export TABLIER_PYTHON="$PWD/.venv/bin/python"
# A throwaway PostgreSQL cluster for the server's storage tests.
pgdir=$(mktemp -d /tmp/tablier-pg.XXXXXX)
trap 'bash scripts/postgres-test.sh stop "$pgdir"; rm -rf "$pgdir"' EXIT
TABLIER_TEST_POSTGRES=$(bash scripts/postgres-test.sh start "$pgdir")
export TABLIER_TEST_POSTGRES
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --profile ci -- -D warnings
cargo test --workspace --profile ci
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --profile ci --quiet
# The Python package (python/, outside the workspace): formatting and lints of its Rust, then
# built into .venv (editable: the .so lands in python/tablier/) and its tests, which include
# the README's Python examples, OpenSpiel's checks and the oracle against OpenSpiel's
# backgammon.
cargo fmt --manifest-path python/Cargo.toml -- --check
CARGO_TARGET_DIR="$PWD/target/python" cargo clippy --manifest-path python/Cargo.toml --release --quiet -- -D warnings
CARGO_TARGET_DIR="$PWD/target/python" VIRTUAL_ENV="$PWD/.venv" .venv/bin/maturin develop \
  --manifest-path python/Cargo.toml --release --quiet
.venv/bin/python -m pytest -q python/tests
