"""How GNU Backgammon writes plays (PyPI gnubg: gnubg.movetupletostring).

Plays seeded random games with gnubg_nn and, for each position and roll met, prints one line
per legal play:  <Position ID> <die1> <die2> <result Position ID> <gnubg's text of the play>

Usage: python gnubg_notation.py COUNT SEED
"""
import random
import sys

import gnubg
import gnubg_nn as g


def main():
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    start = g.board_from_position_id('4HPwATDgc/ABMA')
    done = 0
    while done < count:
        board = [list(start[0]), list(start[1])]
        while done < count:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            pid = g.position_id(board)
            moves = g.moves(board, d1, d2, 1)
            for key, hops in moves:
                flat = tuple(x for hop in hops for x in hop)
                text = gnubg.movetupletostring(flat, gnubg.positionfromid(pid))
                result = g.position_id([list(x) for x in g.board_from_position_key(key)])
                print(pid, d1, d2, result, text)
            done += 1
            if moves:
                nb = g.board_from_position_key(rng.choice(moves)[0])
                board = [list(nb[0]), list(nb[1])]
            if sum(board[1]) == 0:
                break
            board = [board[1], board[0]]


if __name__ == '__main__':
    main()
