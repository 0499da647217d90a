# How far a file of labels (from `tablier train backgammon-label`) is from GNU Backgammon's own
# cubeless values of the same positions: an outsider's check of labels and of our nets.
#   .venv/bin/python scripts/bg_label_check.py LABELS N PLIES OUT
# Draws N lines of LABELS at random (seed 1), has PyPI gnubg value each position at PLIES
# (through crates/backgammon-engine/oracle/gnubg_cube_judge.py, money, cube centred), prints
# the mean absolute difference of cubeless equity (and of the winning chance) between the
# labels and gnubg, and writes gnubg's values to OUT in the labels' format, so that
#   tablier train backgammon-fit --data OUT --epochs 0 --held-out 0 --out /dev/null [--weights W]
# prints the nets' own 0-ply distance to gnubg on the same positions ("equity error").
# GNU Backgammon is GPL and stays outside the repository: only its values are read.
import base64, json, os, random, subprocess, sys, tempfile

labels_path, n, plies, out_path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
here = os.path.dirname(os.path.abspath(__file__))
judge = os.path.join(here, '..', 'crates', 'backgammon-engine', 'oracle', 'gnubg_cube_judge.py')

with open(labels_path) as f:
    lines = [l.split() for l in f if l.strip()]
random.Random(1).shuffle(lines)
lines = lines[:n]

# A money game's Match ID, cube 1 centred, gnubg's player 1 on roll before rolling (the side
# on roll of a Position ID here): cube log2 0, owner 3 (bits 4-5), dice owner 1 (bit 6), game
# playing (bits 8-10 = 1), turn 1 (bit 11); nine bytes, little-endian.
MID = base64.b64encode((3 << 4 | 1 << 6 | 1 << 8 | 1 << 11).to_bytes(9, 'little')).decode()


def equity(p):
    return 2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]


with tempfile.TemporaryDirectory() as tmp:
    ids = os.path.join(tmp, 'ids.txt')
    verdicts = os.path.join(tmp, 'verdicts.jsonl')
    with open(ids, 'w') as f:
        for l in lines:
            f.write('%s:%s\n' % (l[0], MID))
    subprocess.run([sys.executable, judge, ids, verdicts, plies], check=True)
    got = {}
    with open(verdicts) as f:
        for line in f:
            v = json.loads(line)
            got[v['id'].split(':')[0]] = v['probs' + plies]

eq_diff, win_diff = [], []
with open(out_path, 'w') as out:
    for l in lines:
        g = got[l[0]]
        mine = [float(x) for x in l[1:6]]
        eq_diff.append(abs(equity(mine) - equity(g)))
        win_diff.append(abs(mine[0] - g[0]))
        out.write('%s %s\n' % (l[0], ' '.join('%.6f' % min(max(x, 0.0), 1.0) for x in g)))
print('%d positions of %s against gnubg %s-ply: equity %.4f, win %.4f (mean absolute difference)'
      % (len(lines), labels_path, plies, sum(eq_diff) / len(eq_diff), sum(win_diff) / len(win_diff)))
