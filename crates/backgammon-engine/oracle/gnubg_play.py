# GNU Backgammon's own checker play, for `tablier bench backgammon-checker --players gnubg:N`.
#   .venv/bin/python crates/backgammon-engine/oracle/gnubg_play.py TASKS OUT PLIES
# TASKS: one "GNUBGID D1 D2" a line (the position before the play with the side to play on
# roll, the cube and score in the Match ID, and the roll).
# OUT: JSON lines {"id": "GNUBGID D1 D2", "play<N>": PLAY}: gnubg's best play at N plies in
# its notation (`24/18 13/9`), cubeful, with the move filters of its World Class player
# ("normal": at 2 plies the 8 best plays within 0.16 at 0-ply go on); "" when no checker can
# move. Resumable: tasks already in OUT are skipped.
# Progress goes to stderr. Uses PyPI gnubg (installed by scripts/python-env.sh); GNU Backgammon
# is GPL and stays outside the repository, only its choices are read.
import json, os, re, sys, time

import gnubg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gnubg_text import capture  # noqa: E402

tasks_path, out_path, plies = sys.argv[1], sys.argv[2], int(sys.argv[3])

capture(lambda: gnubg.command('set threads 1'))  # the PyPI build deadlocks otherwise
capture(lambda: gnubg.command('set automatic roll off'))
capture(lambda: gnubg.command('set beavers 3'))

# gnubg's "normal" move filters (its World Class and Grandmaster players'): per ply searched,
# per level below it, the plays always kept, the extra ones and their margin; -1 kept: the
# level is skipped.
NORMAL = {1: [(0, 8, 0.16)],
          2: [(0, 8, 0.16), (-1, 0, 0.0)],
          3: [(0, 8, 0.16), (-1, 0, 0.0), (0, 2, 0.04)]}
capture(lambda: gnubg.command('set evaluation chequerplay evaluation plies %d' % plies))
capture(lambda: gnubg.command('set evaluation chequerplay evaluation cubeful on'))
for level, (accept, extra, margin) in enumerate(NORMAL.get(plies, [])):
    capture(lambda: gnubg.command('set evaluation movefilter %d %d %d %d %g'
                                  % (plies, level, accept, extra, margin)))
# The first line of `hint`: "    1. Cubeful 2-ply    8/5 6/5      Eq.: +0.123". (PyPI gnubg's
# findbestmove cuts its move tuple at the first checker borne off, so its text is read.)
FIRST = re.compile(r'^\s*1\.\s+\S+\s+\S+\s+(.+?)\s+Eq\.:')


def best(gid, d1, d2):
    """gnubg's best play, in its notation ('' when no checker can move)."""
    capture(lambda: gnubg.setgnubgid(gid))
    capture(lambda: gnubg.command('set dice %d%d' % (d1, d2)))
    text = capture(lambda: gnubg.command('hint 1'))
    for line in text.splitlines():
        m = FIRST.match(line)
        if m:
            return m.group(1)
    if 'no legal moves' in text.lower() or not text.strip():
        return ''
    raise ValueError('no play in gnubg\'s hint for %s %d%d:\n%s' % (gid, d1, d2, text))


done = set()
if os.path.exists(out_path):
    with open(out_path) as f:
        for line in f:
            try:
                row = json.loads(line)
                if 'play%d' % plies in row:
                    done.add(row['id'])
            except (ValueError, KeyError):
                pass
with open(tasks_path) as f:
    tasks = [l.strip() for l in f if l.strip()]
todo = [t for t in tasks if t not in done]
print('gnubg %d-ply plays: %d positions, %d already played'
      % (plies, len(tasks), len(tasks) - len(todo)), file=sys.stderr, flush=True)
start = time.time()
with open(out_path, 'a') as out:
    for k, task in enumerate(todo):
        gid, d1, d2 = task.split()
        out.write(json.dumps({'id': task, 'play%d' % plies: best(gid, int(d1), int(d2))}) + '\n')
        out.flush()
        if (k + 1) % 100 == 0 or k + 1 == len(todo):
            spent = time.time() - start
            print('  %d/%d played, %.0f s, about %.0f s left'
                  % (k + 1, len(todo), spent, spent / (k + 1) * (len(todo) - k - 1)),
                  file=sys.stderr, flush=True)
