"""Peer for `tablier bench backgammon-plays`: GNU Backgammon's legal-play generator
(PyPI gnubg-nn, gnubg_nn.moves) timed on a position set drawn by seeded random play.

Writes the set to OUT (one `<Position ID> <die1> <die2>` per line) and prints
`<positions> <CPU seconds for gnubg_nn.moves over the whole set>` (best of REPEAT passes).

Usage: python bench_bg_plays.py COUNT SEED OUT [REPEAT]
"""
import random
import sys
import time

import gnubg_nn as g


def main():
    count, seed, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    rng = random.Random(seed)
    start = g.board_from_position_id('4HPwATDgc/ABMA')
    cases = []
    while len(cases) < count:
        board = [list(start[0]), list(start[1])]
        while len(cases) < count:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            cases.append(([list(board[0]), list(board[1])], d1, d2))
            keys = g.moves(board, d1, d2)
            if keys:
                nb = g.board_from_position_key(rng.choice(keys))
                board = [list(nb[0]), list(nb[1])]
            if sum(board[1]) == 0:
                break
            board = [board[1], board[0]]
    with open(path, 'w') as f:
        for b, d1, d2 in cases:
            f.write('%s %d %d\n' % (g.position_id(b), d1, d2))
    best = None
    for _ in range(repeat):
        t = time.process_time()
        for b, d1, d2 in cases:
            g.moves(b, d1, d2)
        dt = time.process_time() - t
        best = dt if best is None else min(best, dt)
    print(len(cases), best)


if __name__ == '__main__':
    main()
