# bgsage's verdict on the decisions of played games, for `tablier analyse --judge bgsage`.
#   .venv/bin/python crates/backgammon-engine/oracle/bgsage_judge.py [PLIES]
# Reads JSON lines on stdin, one decision each, every board as bgsage's 26 numbers seen from
# the player who decides (his checkers positive on indices 1 to 24, his bar 25, the opponent's
# bar 0 counted positive):
#   {"kind": "play", "board": [...], "dice": [a, b], "after": [...], "cube": 1,
#    "owner": "centered"|"player"|"opponent", "away": [0, 0], "crawford": false,
#    "jacoby": true, "beaver": true}
#   {"kind": "cube", "board": [...], "cube": ..., "owner": ..., "away": ..., ...}
# and writes one JSON line for each: for a play {"loss": equity lost by the play made against
# bgsage's best, "best": bgsage's best board, "moves": how many it compared}; for a cube
# decision {"nd": ..., "dt": ..., "dp": ...}, the cubeful equities of no double, double/take
# and double/pass for the player on roll. Equities are bgsage's: points per cube in money
# play, normalised match equity (EMG) in a match. PLIES (default 3) counts plies as gnubg and
# tablier do (0 = the net alone): bgsage counts as XG does (1-ply = the net alone), so PLIES N
# is bgsage's eval level N + 1 (3 = its '4ply').
# bgsage is PyPI `bgsage` (MPL-2.0, nets of its own, sharing nothing with GNU Backgammon).
# Progress goes to stderr.
import json
import sys
import time

import bgsage

plies = int(sys.argv[1]) if len(sys.argv) > 1 else 3
judge = bgsage.BgBotAnalyzer(eval_level='%dply' % (plies + 1), parallel_threads=1)
lines = [l for l in sys.stdin if l.strip()]
start = time.time()
for k, line in enumerate(lines):
    d = json.loads(line)
    common = dict(cube_value=d['cube'], cube_owner=d['owner'], away1=d['away'][0],
                  away2=d['away'][1], is_crawford=d['crawford'], jacoby=d['jacoby'])
    if d['kind'] == 'play':
        r = judge.checker_play(d['board'], d['dice'][0], d['dice'][1], beaver=d['beaver'],
                               **common)
        played = [m for m in r.moves if list(m.board) == d['after']]
        if not played:
            sys.exit('bgsage_judge: the play made is not among bgsage\'s moves: %s' % line)
        out = {'loss': max(0.0, -played[0].equity_diff), 'best': list(r.moves[0].board),
               'moves': len(r.moves)}
    elif d['kind'] == 'cube':
        c = judge.cube_action(d['board'], beaver=d['beaver'], **common)
        out = {'nd': c.equity_nd, 'dt': c.equity_dt, 'dp': c.equity_dp}
    else:
        sys.exit('bgsage_judge: unknown kind %r' % d['kind'])
    print(json.dumps(out), flush=True)
    if (k + 1) % 50 == 0 or k + 1 == len(lines):
        spent = time.time() - start
        print('  bgsage %d-ply: %d/%d decisions judged, %.0f s, about %.0f s left'
              % (plies, k + 1, len(lines), spent, spent / (k + 1) * (len(lines) - k - 1)),
              file=sys.stderr, flush=True)
