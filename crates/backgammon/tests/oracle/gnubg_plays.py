"""Legal plays according to GNU Backgammon's move generator (PyPI gnubg-nn, gnubg_nn.moves).

Plays seeded random games from the opening with gnubg_nn's own legal moves and prints, for
each position met and the roll thrown there, one line:

    <Position ID> <die1> <die2> <Position ID after each legal play ...>

Position IDs are gnubg's (gnubg_nn.position_id), always from the side on roll; the result
IDs are the board after the play, still from the mover's side (gnubg_nn.moves returns the
position keys that way). No legal play prints nothing after the dice. gnubg_nn's list is
already de-duplicated by resulting position.

Usage: python gnubg_plays.py COUNT SEED
"""
import random
import sys

import gnubg_nn as g


def main():
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    start = g.board_from_position_id('4HPwATDgc/ABMA')
    out = sys.stdout
    done = 0
    while done < count:
        board = [list(start[0]), list(start[1])]
        while done < count:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            keys = g.moves(board, d1, d2)
            results = [g.position_id([list(x) for x in g.board_from_position_key(k)]) for k in keys]
            out.write('%s %d %d %s\n' % (g.position_id(board), d1, d2, ' '.join(results)))
            done += 1
            if keys:
                nb = g.board_from_position_key(rng.choice(keys))
                board = [list(nb[0]), list(nb[1])]
            if sum(board[1]) == 0:          # the mover has borne off everything
                break
            board = [board[1], board[0]]    # the other side is on roll


if __name__ == '__main__':
    main()
