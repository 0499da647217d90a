#!/usr/bin/env bash
# Installs what the tests need on a fresh machine, and nothing when it is all there:
#   python3-venv           the interop tests run pydraughts and dame-rs from a virtual environment;
#   gnubg                  GNU Backgammon (Debian) hosts our .mat files and plays against our engines;
#   postgresql             the server's storage tests run against a real PostgreSQL (a throwaway cluster);
#   chromium + chromium-driver   the web UI's tests drive a real browser;
#   rustfmt + clippy       the test command checks formatting and lints;
# then the Python virtual environment (scripts/python-env.sh). Debian packages need root (or
# sudo); without either, the missing ones are named and the script fails.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
python3 -c "import venv, ensurepip" 2>/dev/null || need+=(python3-venv)
[ -x /usr/games/gnubg ] || need+=(gnubg)
ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need+=(postgresql)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/chromedriver ] || need+=(chromium-driver)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    echo "scripts/setup.sh: the tests need these Debian packages: ${need[*]} (run as root, or install them)" >&2
    exit 1
  fi
  echo "scripts/setup.sh: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
fi
# gnubg makes ~/.gnubg at its first start, and quits ("File exists") when another gnubg
# started at the same moment made it first: the tests start several at once.
mkdir -p "$HOME/.gnubg"
if command -v rustup >/dev/null; then
  rustup component add rustfmt clippy >/dev/null 2>&1 || true
fi
bash scripts/python-env.sh
