#!/usr/bin/env bash
# gnubg's own judgement of our backgammon engine: Debian's gnubg hosts matches between
# `tablier gnubg-external` and its own player (0-ply unless OPP_PLIES says), analyses them
# (at 2-ply unless JUDGE_PLIES says) and prints both players' error rates (mEMG per unforced
# move / close cube decision).
#   bash scripts/bg-error-rate.sh [LEVEL] [MATCHES] [MATCH_LEN] [SEED] [JUDGE_PLIES] [OPP_PLIES] [SAGE_PLIES]
# e.g. `bash scripts/bg-error-rate.sh 5 10 7 1 3 2`: tablier level 5 against gnubg 2-ply, both
# judged by gnubg 3-ply. With SAGE_PLIES (e.g. 3) the same matches are judged again by bgsage
# at that depth (`tablier analyse --judge bgsage`: PyPI bgsage, nets that share nothing with
# gnubg's), and both players' totals printed.
# The analysed matches are written as .mat files to target/bg-error-rate/.
set -euo pipefail
cd "$(dirname "$0")/.."
level=${1:-5}
export MATCHES=${2:-3} MATCH_LEN=${3:-7} SEED=${4:-1} PLIES=${5:-2} OPP_PLIES=${6:-0}
cargo build --release -q -p tablier-cli
tdir=${CARGO_TARGET_DIR:-target}
export OUT="$PWD/target/bg-error-rate"
mkdir -p "$OUT"
fifo=$(mktemp -u); mkfifo "$fifo"
"$tdir"/release/tablier gnubg-external --port 0 --level "$level" >"$fifo" 2>"$OUT/tablier.log" &
engine=$!
trap 'kill $engine 2>/dev/null || true; rm -f "$fifo"' EXIT
read -r first <"$fifo"
export EXT_PORT=${first##*:}
echo "tablier level $level on port $EXT_PORT against gnubg $OPP_PLIES-ply; $MATCHES matches of $MATCH_LEN points from seed $SEED; judged by gnubg $PLIES-ply"
/usr/games/gnubg -t -q -r -p scripts/bg_error_rate.py 2>/dev/null | grep -E '^(match|TOTAL|points)'
sage=${7:-}
[ -n "$sage" ] || exit 0
bash scripts/python-env.sh >/dev/null
echo "the same matches judged by bgsage $sage-ply:"
reports=()
for k in $(seq 0 $((MATCHES - 1))); do
  mat="$OUT/match-$((SEED + k)).mat"
  "$tdir"/release/tablier analyse "$mat" --judge bgsage --judge-plies "$sage" -o "$mat.bgsage$sage"
  reports+=("$mat.bgsage$sage")
done
python3 - "${reports[@]}" <<'EOF2'
import re, sys
# The report's totals come in the .mat file's column order: tablier (player 0) first, gnubg
# second, whatever names gnubg wrote in the file.
tot = {'tablier': [0, 0.0, 0, 0.0], 'gnubg': [0, 0.0, 0, 0.0]}
for path in sys.argv[1:]:
    k = 0
    for line in open(path):
        m = re.match(r'^(\S+): (\d+) checker plays \(loss ([\d.]+)\), (\d+) cube decisions \(loss ([\d.]+)\)', line)
        if m:
            t = tot[('tablier', 'gnubg')[k]]
            k += 1
            for i, v in enumerate(m.groups()[1:]):
                t[i] += float(v)
for name, (n, loss, c, closs) in tot.items():
    print('SAGE %s: checker %.1f mEMG per unforced move (%d), cube %.1f per decision (%d), overall %.1f'
          % (name, 1000 * loss / max(n, 1), n, 1000 * closs / max(c, 1), c,
             1000 * (loss + closs) / max(n + c, 1)))
EOF2
