# Run INSIDE Debian's gnubg (scripts/bg-race-backgammons.sh does it):
#   COUNT=300 SEED=7 OUT=race.jsonl /usr/games/gnubg -t -q -r -p scripts/bg_race_backgammons.py
# Random race positions where a backgammon is possible: one side (A) with nothing off and one
# to six checkers in the other's home board, the other (B) with up to eight checkers left, all
# home and behind A's (no contact); either side on roll. Writes each Position ID with gnubg's
# 2-ply cubeless probabilities (win, win gammon, win backgammon, lose gammon, lose
# backgammon, for the side on roll).
import gnubg, json, os, random
random.seed(int(os.environ.get('SEED', '7')))
out = open(os.environ['OUT'], 'w')
ec = {'cubeful': 0, 'plies': 2, 'deterministic': 1, 'noise': 0.0}
n = 0
while n < int(os.environ.get('COUNT', '300')):
    # A: 15 checkers, none off; k of them in B's home (A's points 19..24 -> index 18..23)
    k = random.randint(1, 6)
    qmax = random.randint(1, 5)           # B's highest point
    pmax = 24 - qmax                      # A's checkers at most on A's point pmax
    if pmax < 19: continue
    A = [0] * 25
    for _ in range(k):
        A[random.randint(19, pmax) - 1] += 1
    for _ in range(15 - k):
        A[random.randint(1, 18) - 1] += 1
    B = [0] * 25
    m = random.randint(1, 8)
    for _ in range(m):
        B[random.randint(1, qmax) - 1] += 1
    if B[qmax - 1] == 0: B[qmax - 1] = 1
    a_on_roll = random.random() < 0.5
    # gnubg board: (opponent, player on roll), index 0 = ace point of each
    board = (tuple(B), tuple(A)) if a_on_roll else (tuple(A), tuple(B))
    pid = gnubg.positionid(board)
    ci = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0)
    pr = gnubg.evaluate(board, ci, ec)
    out.write(json.dumps({'id': pid, 'a_on_roll': a_on_roll, 'gnubg2': list(pr[:5])}) + '\n')
    n += 1
