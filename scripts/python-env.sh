#!/usr/bin/env bash
# Creates (once) the Python virtual environment the interop tests and benchmarks use, with the
# outside programs we check ourselves against: pydraughts (legal moves, Hub/DXP client),
# dame-rs (perft peer), and GNU Backgammon as Python libraries (gnubg: the full engine, for
# IDs and match files; gnubg-nn: its legal-move generator and nets), bgsage (a backgammon
# engine with nets of its own, MPL-2.0: a second judge of cube decisions); for the Python package
# (python/): maturin to build it, pytest, OpenSpiel (its checks, MCTS and backgammon), and
# Shimmy with PettingZoo (the Gymnasium/PettingZoo wrapper of the OpenSpiel games). Prints
# nothing on success when the environment is already complete.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.venv"
want="pydraughts==0.6.7 dame-rs==0.2.0 gnubg==1.1.0a16 gnubg-nn==1.1.0a11 bgsage==2.0.20260907 maturin==1.16.0 pytest==9.2.0 open-spiel==2.0.2 shimmy[openspiel]==2.0.1"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import draughts, dame, gnubg, gnubg_nn, bgsage, pytest, pyspiel, shimmy, pettingzoo" 2>/dev/null \
  || [ ! -x "$venv/bin/maturin" ]; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check --pre $want
fi
