#!/usr/bin/env bash
# Our backgammon engine against Debian's gnubg at a chosen ply, with duplicate dice: gnubg hosts
# the games (scripts/bg_duplicate.py), `tablier gnubg-external` plays one seat, each dice seed is
# played twice with the seats swapped. Prints points per game (or per match) with its standard
# error, and both sides' thinking time per move.
#   bash scripts/bg-vs-gnubg.sh [LEVEL] [PLIES] [PAIRS] [SEED] [MATCH_LEN] [RESULTS]
# LEVEL: tablier's level (default 5); PLIES: gnubg's plies for checker play and cube (default 2);
# PAIRS: dice seeds (default 10, two games each); MATCH_LEN: 0 = money (default), L = L-point
# matches. RESULTS (default target/bg-vs-gnubg/L<level>-P<plies>-M<len>-S<seed>.jsonl) keeps
# every game: run the same command again to go on after an interruption. ANALYSE=J in the
# environment has gnubg judge every game at J plies (scripts/bg_duplicate.py); TABLIER_ARGS
# adds arguments to `tablier gnubg-external` (e.g. `--play-value cubeless`, `--weights W`).
set -euo pipefail
cd "$(dirname "$0")/.."
level=${1:-5}
export PLIES=${2:-2} PAIRS=${3:-10} SEED=${4:-1} MATCH_LEN=${5:-0} LEVEL=$level
dir="$PWD/target/bg-vs-gnubg"
mkdir -p "$dir"
export RESULTS=${6:-$dir/L$level-P$PLIES-M$MATCH_LEN-S$SEED.jsonl}
tdir=${CARGO_TARGET_DIR:-target}
bin=${TABLIER_BIN:-}
if [ -z "$bin" ]; then
  cargo build --release -q -p tablier-cli
  bin="$tdir/release/tablier"
fi
pids=()
ports=()
stats=()
fifos=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -f "${fifos[@]}"' EXIT
for seat in 0 1; do
  fifo=$(mktemp -u); mkfifo "$fifo"; fifos+=("$fifo")
  st="$dir/stats-$$-$seat"; stats+=("$st"); rm -f "$st"
  # shellcheck disable=SC2086
  "$bin" gnubg-external --port 0 --level "$level" --seed $((SEED + seat)) --stats "$st" ${TABLIER_ARGS:-} \
    >"$fifo" 2>>"$dir/tablier.log" &
  pids+=($!)
  read -r first <"$fifo"
  ports+=("${first##*:}")
done
export PORTS="${ports[*]}"
echo "tablier level $level against gnubg ${PLIES}-ply: $PAIRS pairs of duplicate dice from seed $SEED" \
  "$( [ "$MATCH_LEN" = 0 ] && echo "(money games)" || echo "($MATCH_LEN-point matches)")"; echo "results: $RESULTS"
out=$(mktemp)
/usr/games/gnubg -t -q -r -p scripts/bg_duplicate.py 2>/dev/null | tee "$out" | grep --line-buffered -E '^(so far|RESULT|no pair|REFUSED)' || true
grep -q '^RESULT\|^no pair' "$out" || { echo "gnubg stopped before the end (see $RESULTS)" >&2; exit 1; }
# Thinking time of this run's games: tablier's from its own clock, gnubg's as the games' wall
# time less tablier's, over gnubg's moves (an estimate: it includes gnubg's refereeing).
python3 - "$out" "${stats[@]}" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r'^TIME wall (\d+) s for (\d+) tablier moves and (\d+) gnubg moves', text, re.M)
decisions = seconds = 0.0
for path in sys.argv[2:]:
    try:
        f = open(path).read().split()
        decisions += float(f[1]); seconds += float(f[3])
    except (OSError, IndexError, ValueError):
        pass
if m and decisions:
    wall, tm, gm = (float(x) for x in m.groups())
    print('thinking time: tablier %.3f s a move (%.1f s over %d moves; %d decisions, the cube\'s '
          'included); gnubg about %.3f s a move (wall less tablier, over %d moves); ratio %.2f'
          % (seconds / max(tm, 1), seconds, tm, decisions, max(wall - seconds, 0) / max(gm, 1), gm,
             (seconds / max(tm, 1)) / max(max(wall - seconds, 0) / max(gm, 1), 1e-9)))
EOF
rm -f "$out" "${stats[@]}"
