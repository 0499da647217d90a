# GNU Backgammon's verdict on cube decisions, for `tablier bench backgammon-cube`.
#   .venv/bin/python crates/backgammon-engine/oracle/gnubg_cube_judge.py IDS OUT [PLIES ...]
# IDS: one GNUbgID a line (position before the roll, cube and score in the Match ID).
# OUT: JSON lines {"id", "p<N>": [no double, double/take, double/pass]} for each of PLIES
# (default 2 3): gnubg's cubeful equities for the player on roll in units of the current cube
# (gnubg's `eval`, cube decisions and the position both evaluated at N plies, its default
# pruning), and "probs<N>", its cubeless probabilities at N plies. Resumable: positions already
# in OUT are skipped, so an interrupted run goes on where it stopped. Progress goes to stderr.
# Uses PyPI gnubg (installed by scripts/python-env.sh); GNU Backgammon is GPL and stays outside the
# repository, only its verdicts are read.
import json, os, re, sys, time

import gnubg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gnubg_text import capture  # noqa: E402

ids_path, out_path = sys.argv[1], sys.argv[2]
plies = [int(p) for p in sys.argv[3:]] or [2, 3]


capture(lambda: gnubg.command('set threads 1'))  # the PyPI build deadlocks in `eval` otherwise
capture(lambda: gnubg.command('set automatic roll off'))
capture(lambda: gnubg.command('set beavers 3'))

NUM = r'([+-]?\d+\.\d+)'
ACTIONS = {'No double': 0, 'No redouble': 0, 'Double, take': 1, 'Redouble, take': 1,
           'Double, pass': 2, 'Redouble, pass': 2, 'Double, beaver': 1, 'Redouble, beaver': 1}


def verdict(text):
    """The three cubeful equities of gnubg's cube analysis, and its cubeless probabilities."""
    eq = [None, None, None]
    probs = None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r'\s*\d\.\s+([A-Za-z ,]+?)\s+' + NUM, line)
        if m and m.group(1).strip() in ACTIONS:
            eq[ACTIONS[m.group(1).strip()]] = float(m.group(2))
        if 'cubeless equity' in line and i + 1 < len(lines):
            nums = re.findall(r'\d\.\d+', lines[i + 1])
            if len(nums) == 6:
                w, wg, wbg, _l, lg, lbg = (float(x) for x in nums)
                probs = [w, wg, wbg, lg, lbg]
    if None in eq or probs is None:
        raise ValueError('no cube analysis in:\n' + text)
    return eq, probs


done = set()
if os.path.exists(out_path):
    with open(out_path) as f:
        for line in f:
            try:
                done.add(json.loads(line)['id'])
            except (ValueError, KeyError):
                pass
with open(ids_path) as f:
    ids = [l.strip() for l in f if l.strip()]
todo = [i for i in ids if i not in done]
print('gnubg cube verdicts at plies %s: %d positions, %d already judged'
      % (plies, len(ids), len(ids) - len(todo)), file=sys.stderr, flush=True)
start = time.time()
with open(out_path, 'a') as out:
    for k, gid in enumerate(todo):
        row = {'id': gid}
        for n in plies:
            capture(lambda: gnubg.command('set evaluation cubedecision evaluation plies %d' % n))
            capture(lambda: gnubg.command('set evaluation chequerplay evaluation plies %d' % n))
            gnubg.setgnubgid(gid)
            eq, probs = verdict(capture(lambda: gnubg.command('eval')))
            row['p%d' % n] = eq
            row['probs%d' % n] = probs
        out.write(json.dumps(row) + '\n')
        out.flush()
        if (k + 1) % 25 == 0 or k + 1 == len(todo):
            spent = time.time() - start
            print('  %d/%d judged, %.0f s, about %.0f s left'
                  % (k + 1, len(todo), spent, spent / (k + 1) * (len(todo) - k - 1)),
                  file=sys.stderr, flush=True)
