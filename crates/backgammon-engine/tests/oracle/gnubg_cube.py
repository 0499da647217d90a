"""GNU Backgammon's money cube decisions (PyPI gnubg, 0-ply) for positions read on stdin.

Input: one GNUbgID a line (money, cube centred, side on roll before rolling); the Jacoby rule
is off unless the environment says JACOBY=on.
Output per line: gnubg's five cubeless 0-ply probabilities for the side on roll, then its
cubeful equities for no double, double/take and double/pass (in units of the current cube, as
its `eval` command prints them), then the proper action in words.
"""
import os
import re
import sys

import gnubg

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'oracle'))
from gnubg_text import capture  # noqa: E402


ids = [l.strip() for l in sys.stdin if l.strip()]
capture(lambda: [gnubg.command(c) for c in (
    'set threads 1', 'set automatic roll off',
    'set jacoby ' + ('on' if os.environ.get('JACOBY') == 'on' else 'off'), 'set beavers on',
    'set evaluation cubedecision evaluation plies 0',
    'set evaluation chequerplay evaluation plies 0')])
ctx = gnubg.evalcontext(0, 0, 1, 0, 0.0)
rows = []
for gid in ids:
    text = capture(lambda: (gnubg.command('set gnubgid ' + gid), gnubg.command('eval')))
    board = gnubg.positionfromid(gid.split(':')[0])
    probs = gnubg.evaluate(board, gnubg.cubeinfo(), ctx)[:5]
    eq = {}
    action = '?'
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r'^\d\. (No double|No redouble|Double, take|Redouble, take|'
                     r'Double, pass|Redouble, pass)\s+([+-]\d+\.\d+)', line)
        if m:
            label = m.group(1)
            eq['nd' if label.startswith('No') else 'dt' if 'take' in label else 'dp'] = m.group(2)
        if line.startswith('Proper cube action:'):
            action = line[len('Proper cube action:'):].strip()
    rows.append('%s %s %s %s %s | %s' % (' '.join('%.6f' % p for p in probs), eq.get('nd', 'nan'),
                                          eq.get('dt', 'nan'), eq.get('dp', 'nan'), gid, action))
print('\n'.join(rows))
