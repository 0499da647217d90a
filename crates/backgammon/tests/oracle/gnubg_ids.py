"""Oracle for tests/ids_gnubg.rs: gnubg's own Position IDs, Match IDs and XGID readings.

Usage: python gnubg_ids.py --count N --seed S --out FILE

Writes JSON lines to FILE (not stdout: gnubg's C code prints its own messages there):

  {"kind": "position", "board": [[25 ints], [25 ints]], "id": "..."}
      board as gnubg holds it: board[0] = the player NOT on roll, board[1] = the player on roll,
      each counted from its own home (index i = own point i+1, index 24 = bar). Positions come
      from seeded random play with gnubg_nn's move generator (every position of every game, so
      hits, checkers on the bar and bear-offs are included). "id" is gnubg.positionid(board);
      the script checks that gnubg.positionfromid(id) gives the board back.

  {"kind": "match", "cube": c, "owner": -1|0|1, "move": 0|1, "turn": 0|1, "length": ml,
   "score": [s0, s1], "crawford": 0|1, "jacoby": 0|1, "state": 0..4, "resigned": 0..3,
   "doubled": 0|1, "dice": [d1, d2], "id": "..."}
      the arguments given to gnubg.cubeinfo/posinfo (random match states) and
      gnubg.matchid(cubeinfo, posinfo).

  {"kind": "xgid", "xgid": "XGID=...", "gnubgid": "..."}
      a random XGID (a random-play position, either player on roll, random cube, dice, score
      and rules) and what gnubg.setgnubgid(xgid) followed by gnubg.gnubgid() gives.

Conventions: gnubg player 1 = bottom (XGID upper case), player 0 = top.
"""
import argparse
import json
import random

import gnubg
import gnubg_nn

START = '4HPwATDgc/ABMA'


def random_play_positions(n, rng):
    """n distinct boards (on-roll side = board[1]) from random games."""
    seen, out = set(), []
    start = gnubg_nn.board_from_position_id(START)
    while len(out) < n:
        b = [list(start[0]), list(start[1])]
        while len(out) < n:
            pid = gnubg_nn.position_id(b)
            if pid not in seen:
                seen.add(pid)
                out.append([list(b[0]), list(b[1])])
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            ms = gnubg_nn.moves(b, d1, d2)
            if ms:
                nb = gnubg_nn.board_from_position_key(rng.choice(ms))
                b = [list(nb[0]), list(nb[1])]
            if sum(b[1]) == 0:
                break  # the mover bore off his last checker: keep the final position too
            b = [b[1], b[0]]
    return out


def xgid_chars(bottom, top):
    s = ['-'] * 26
    if top[24]:
        s[0] = chr(ord('a') + top[24] - 1)
    if bottom[24]:
        s[25] = chr(ord('A') + bottom[24] - 1)
    for p in range(1, 25):
        if bottom[p - 1]:
            s[p] = chr(ord('A') + bottom[p - 1] - 1)
        elif top[24 - p]:
            s[p] = chr(ord('a') + top[24 - p] - 1)
    return ''.join(s)


def random_match(rng):
    ml = rng.choice([0, 0, 1, 3, 5, 7, 9, 11, 15, 25, 64])
    score = [rng.randrange(ml), rng.randrange(ml)] if ml else [0, 0]
    cube = 1 << rng.randrange(0, 13)
    owner = rng.choice([-1, 0, 1]) if cube > 1 else rng.choice([-1, -1, -1, 0, 1])
    move = rng.randrange(2)
    crawford = int(ml > 0 and rng.random() < 0.3)
    jacoby = rng.randrange(2) if ml == 0 else 0  # gnubg's cubeinfo() has jacoby 0 in match play
    state = rng.choice([1, 1, 1, 0, 2, 3, 4])
    resigned = rng.choice([0, 0, 0, 1, 2, 3])
    doubled = int(rng.random() < 0.2)
    turn = move if rng.random() < 0.7 else 1 - move
    dice = rng.choice([[0, 0], [rng.randint(1, 6), rng.randint(1, 6)]])
    return dict(cube=cube, owner=owner, move=move, turn=turn, length=ml, score=score,
                crawford=crawford, jacoby=jacoby, state=state, resigned=resigned,
                doubled=doubled, dice=dice)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--count', type=int, default=5000)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    lines = []

    boards = random_play_positions(a.count, rng)
    for b in boards:
        pid = gnubg.positionid(b)
        back = gnubg.positionfromid(pid)
        assert [list(back[0]), list(back[1])] == b, (pid, b, back)
        lines.append({'kind': 'position', 'board': b, 'id': pid})

    for _ in range(a.count):
        m = random_match(rng)
        ci = gnubg.cubeinfo(m['cube'], m['owner'], m['move'], m['length'], tuple(m['score']),
                            m['crawford'], 0)
        ci['jacoby'] = m['jacoby']
        pi = gnubg.posinfo(m['move'], m['resigned'], m['doubled'], m['state'], tuple(m['dice']))
        pi['turn'] = m['turn']
        m['id'] = gnubg.matchid(ci, pi)
        m['kind'] = 'match'
        lines.append(m)

    for i in range(a.count):
        b = boards[rng.randrange(len(boards))]
        on_roll, other = b[1], b[0]
        turn = rng.choice([1, -1])  # 1: bottom (player 1) on roll
        bottom, top = (on_roll, other) if turn == 1 else (other, on_roll)
        ml = rng.choice([0, 0, 1, 3, 5, 7, 11, 25])
        cube_log2 = rng.randrange(0, 8)
        cube_pos = rng.choice([-1, 0, 1]) if cube_log2 else 0
        dice = rng.choice(['00', '00', 'D', '%d%d' % (rng.randint(1, 6), rng.randint(1, 6))])
        if ml:
            s1, s2 = rng.randrange(ml), rng.randrange(ml)
            rules = int(rng.random() < 0.3)
        else:
            s1 = s2 = 0
            rules = rng.randrange(4)
        max_cube = rng.choice([10, 10, 8, 0])
        x = 'XGID=%s:%d:%d:%d:%s:%d:%d:%d:%d:%d' % (xgid_chars(bottom, top), cube_log2, cube_pos,
                                                    turn, dice, s1, s2, rules, ml, max_cube)
        gnubg.setgnubgid('4HPwATDgc/ABMA:cAkAAAAAAAAA')  # so that a refused XGID shows
        gnubg.setgnubgid(x)
        lines.append({'kind': 'xgid', 'xgid': x, 'gnubgid': gnubg.gnubgid()})

    with open(a.out, 'w') as f:
        for line in lines:
            f.write(json.dumps(line) + '\n')


if __name__ == '__main__':
    main()
