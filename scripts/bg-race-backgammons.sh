#!/usr/bin/env bash
# How far tablier's 0-ply backgammon chances in races are from gnubg 2-ply's, on random race
# positions where a backgammon is possible (scripts/bg_race_backgammons.py draws them inside
# Debian's gnubg): the mean absolute difference of the backgammon chances and of the cubeless
# equity, and how many positions differ by more than 0.1 in equity.
#   bash scripts/bg-race-backgammons.sh [COUNT] [SEED]     (300 and 7 by default)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-300}
seed=${2:-7}
cargo build --release -q -p tablier-cli
tdir=${CARGO_TARGET_DIR:-target}
out="$PWD/target/bg-race"
mkdir -p "$out"
COUNT=$count SEED=$seed OUT="$out/gnubg-$seed-$count.jsonl" \
  /usr/games/gnubg -t -q -r -p scripts/bg_race_backgammons.py >/dev/null 2>&1
ours="$out/tablier-$seed-$count.txt"
: >"$ours"
python3 -c "import json,sys; [print(json.loads(l)['id']) for l in open(sys.argv[1])]" \
  "$out/gnubg-$seed-$count.jsonl" | while read -r id; do
  echo "$id $("$tdir"/release/tablier rollout --id "$id" --trials 1 --quiet | sed -n 2p)" >>"$ours"
done
python3 - "$out/gnubg-$seed-$count.jsonl" "$ours" <<'PY'
import json, re, sys
gnubg = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    gnubg[r['id']] = r['gnubg2']
num = r'([\d.]+)'
pat = re.compile(r'win %s \(gammon %s, backgammon %s\)\s+lose %s \(gammon %s, backgammon %s\)' % ((num,) * 6))
eq = lambda p: 2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]
n = bg = e = big = 0
for line in open(sys.argv[2]):
    pid = line.split()[0]
    w, wg, wb, _l, lg, lb = map(float, pat.search(line).groups())
    ours, theirs = [w, wg, wb, lg, lb], gnubg[pid]
    n += 1
    bg += abs(ours[2] - theirs[2]) + abs(ours[4] - theirs[4])
    d = abs(eq(ours) - eq(theirs))
    e += d
    big += d > 0.1
print('%d race positions: backgammon chance %.4f from gnubg 2-ply on average, equity %.4f; '
      '%d differ by more than 0.1 in equity' % (n, bg / n, e / n, big))
PY
