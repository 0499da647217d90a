# GNU Backgammon's (or bgsage's) verdict on cube decisions, for `tablier bench backgammon-cube`.
#   .venv/bin/python crates/backgammon-engine/oracle/gnubg_cube_judge.py IDS OUT [PLIES ...]
# IDS: one GNUbgID a line (position before the roll, cube and score in the Match ID).
# OUT: JSON lines {"id", "p<N>": [no double, double/take, double/pass]} for each of PLIES
# (default 2 3): gnubg's cubeful equities for the player on roll in units of the current cube
# (gnubg's `eval`, cube decisions and the position both evaluated at N plies, its default
# pruning), and "probs<N>", its cubeless probabilities at N plies; where the player on roll
# may not double (his opponent owns the cube), his cubeful equity three times. Resumable: positions already
# in OUT are skipped, so an interrupted run goes on where it stopped. Progress goes to stderr.
# A ply given as `sageN` asks bgsage (PyPI, MPL-2.0, its own nets: a judge that shares nothing
# with gnubg) at N plies instead, written "s<N>" and "sprobs<N>"; money games only (Jacoby on,
# no beaver, as gnubg's equities are given).
# Uses PyPI gnubg (installed by scripts/python-env.sh); GNU Backgammon is GPL and stays outside the
# repository, only its verdicts are read.
import base64, json, os, re, sys, time

import gnubg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gnubg_text import capture  # noqa: E402

ids_path, out_path = sys.argv[1], sys.argv[2]
plies = sys.argv[3:] or ['2', '3']
sage = {}


def sage_board(pid):
    """bgsage's board (26 numbers, the side on roll positive, index 25 his bar, index 0 the
    opponent's bar counted positive) from a Position ID."""
    opp, me = gnubg.positionfromid(pid)
    out = [0] * 26
    for i in range(24):
        out[i + 1] = me[i] - opp[23 - i]
    out[25], out[0] = me[24], opp[24]
    return out


def judge_sage(n, gid):
    import bgsage
    if n not in sage:
        sage[n] = bgsage.BgBotAnalyzer(eval_level='%dply' % n, parallel_threads=1)
    pid, mid = gid.split(':')
    # The Match ID's first bits: log2 of the cube (4), its owner (2: 3 centred, else the
    # gnubg player; the side on roll is player 1 here).
    bits = int.from_bytes(base64.b64decode(mid), 'little')
    cube = 1 << (bits & 15)
    owner = {3: 'centered', 1: 'player', 0: 'opponent'}[(bits >> 4) & 3]
    c = sage[n].cube_action(sage_board(pid), cube, owner, jacoby=True, beaver=False)
    p = c.probs
    return ([c.equity_nd, c.equity_dt, c.equity_dp],
            [p.win, p.gammon_win, p.backgammon_win, p.gammon_loss, p.backgammon_loss])



capture(lambda: gnubg.command('set threads 1'))  # the PyPI build deadlocks in `eval` otherwise
capture(lambda: gnubg.command('set automatic roll off'))
capture(lambda: gnubg.command('set beavers 3'))

NUM = r'([+-]?\d+\.\d+)'
ACTIONS = {'No double': 0, 'No redouble': 0, 'Double, take': 1, 'Redouble, take': 1,
           'Double, pass': 2, 'Redouble, pass': 2, 'Double, beaver': 1, 'Redouble, beaver': 1}


def verdict(text, n):
    """The three cubeful equities of gnubg's cube analysis, and its cubeless probabilities.
    When the player on roll may not double (his opponent owns the cube), gnubg prints no cube
    analysis: the three are then the cubeful equity of its `n`-ply row, three times."""
    eq = [None, None, None]
    probs = None
    lines = text.splitlines()
    row = re.compile(r'\s*%s:\s+' % ('static' if n == 0 else '%d ply' % n) + r'((?:\d\.\d+\s+){5})'
                     + NUM + r'\s+' + NUM)
    for line in lines:
        m = row.match(line)
        if m and 'Cube analysis' not in text:
            w, wg, wbg, lg, lbg = (float(x) for x in m.group(1).split())
            return [float(m.group(3))] * 3, [w, wg, wbg, lg, lbg]
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
print('cube verdicts at plies %s: %d positions, %d already judged'
      % (plies, len(ids), len(ids) - len(todo)), file=sys.stderr, flush=True)
start = time.time()
with open(out_path, 'a') as out:
    for k, gid in enumerate(todo):
        row = {'id': gid}
        for ply in plies:
            if ply.startswith('sage'):
                n = int(ply[4:])
                row['s%d' % n], row['sprobs%d' % n] = judge_sage(n, gid)
                continue
            n = int(ply)
            capture(lambda: gnubg.command('set evaluation cubedecision evaluation plies %d' % n))
            capture(lambda: gnubg.command('set evaluation chequerplay evaluation plies %d' % n))
            capture(lambda: gnubg.setgnubgid(gid))
            eq, probs = verdict(capture(lambda: gnubg.command('eval')), n)
            row['p%d' % n] = eq
            row['probs%d' % n] = probs
        out.write(json.dumps(row) + '\n')
        out.flush()
        if (k + 1) % 25 == 0 or k + 1 == len(todo):
            spent = time.time() - start
            print('  %d/%d judged, %.0f s, about %.0f s left'
                  % (k + 1, len(todo), spent, spent / (k + 1) * (len(todo) - k - 1)),
                  file=sys.stderr, flush=True)
