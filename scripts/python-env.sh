#!/usr/bin/env bash
# Creates (once) the Python virtual environment the interop tests and benchmarks use, with the
# outside programs we check ourselves against: pydraughts (legal moves, Hub/DXP client) and
# dame-rs (perft peer). Prints nothing on success when the environment is already complete.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.venv"
want="pydraughts==0.6.7 dame-rs==0.2.0"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import draughts, dame" 2>/dev/null; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check $want
fi
