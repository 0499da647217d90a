"""GNU Backgammon's nets (PyPI gnubg-nn) as a peer for tablier's backgammon engine.

    python gnubg_peer.py play         stdin: "POSITION_ID D1 D2" a line; stdout: gnubg's 0-ply
                                      best play as "from to from to ..." (mover's numbering,
                                      25 = bar, 0 = off; an empty line when nothing can move)
    python gnubg_peer.py eval FILE    times gnubg's 0-ply evaluation of every Position ID in
                                      FILE (one a line, side on roll); prints "COUNT CPU_SECONDS"
    python gnubg_peer.py probs        stdin: "POSITION_ID PLIES"; stdout: gnubg's five
                                      cubeless probabilities for the side on roll
"""
import sys
import time

import gnubg_nn


def play():
    for line in sys.stdin:
        fields = line.split()
        if len(fields) != 3:
            continue
        board = gnubg_nn.board_from_position_id(fields[0])
        moves = gnubg_nn.best_move(board, int(fields[1]), int(fields[2]))
        sys.stdout.write(' '.join('%d %d' % hop for hop in moves) + '\n')
        sys.stdout.flush()


def evaluate(path):
    boards = [gnubg_nn.board_from_position_id(l.split()[0]) for l in open(path) if l.strip()]
    # One pass only: gnubg caches evaluations, a second pass would measure its cache.
    t = time.process_time()
    for b in boards:
        gnubg_nn.probabilities(b, 0)
    print(len(boards), '%.6f' % (time.process_time() - t))


def probs():
    for line in sys.stdin:
        fields = line.split()
        if len(fields) != 2:
            continue
        board = gnubg_nn.board_from_position_id(fields[0])
        p = gnubg_nn.probabilities(board, int(fields[1]))
        sys.stdout.write(' '.join('%.6f' % v for v in p) + '\n')
        sys.stdout.flush()


if __name__ == '__main__':
    mode = sys.argv[1] if len(sys.argv) > 1 else ''
    if mode == 'play':
        play()
    elif mode == 'eval':
        evaluate(sys.argv[2])
    elif mode == 'probs':
        probs()
    else:
        sys.exit(__doc__)
