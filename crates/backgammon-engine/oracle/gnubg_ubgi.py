"""GNU Backgammon's nets (PyPI gnubg-nn) as a UBGI engine, so that a UBGI driver
(`tablier bench ubgi --opponent ...`) can seat gnubg beside any other UBGI engine.

    python gnubg_ubgi.py [--plies N]

Reads UBGI on stdin: `ubgi` (answers `id name`, `id author`, `id version`, `readyok`),
`isready`, `stop`, `quit`, and positions as XGID lines. A position with dice gets gnubg's
best play at N plies (default 0) as from/to pairs written hop by hop (25 = bar, 0 = off; a
blank line when nothing can be played). gnubg-nn has no money cube decisions
(`evaluate_cube_decision` is match-only), so this engine is cubeless: it never doubles
(`roll`) and always takes (`take`). Anything else gets `sorry`.
"""
import sys

import gnubg_nn


def board_from_xgid(line):
    """gnubg's board (board[1] = side on roll, each side from its own home, index 24 = bar)
    and the dice of an XGID line."""
    fields = line[len('XGID='):].split(':')
    if len(fields) != 10 or len(fields[0]) != 26:
        raise ValueError('an XGID has 26 position letters and 9 fields')
    chars, turn, dice = fields[0], int(fields[3]), fields[4]
    bottom = [0] * 25
    top = [0] * 25
    for i, c in enumerate(chars):
        if c == '-':
            continue
        if 'A' <= c <= 'O':
            n = ord(c) - ord('A') + 1
            # Char i = bottom's point i (1..24); char 25 = bottom's bar.
            if i == 0:
                raise ValueError('a bottom checker on the top bar')
            bottom[i - 1] += n
        elif 'a' <= c <= 'o':
            n = ord(c) - ord('a') + 1
            # Char i = top's point 25 - i; char 0 = top's bar.
            if i == 25:
                raise ValueError('a top checker on the bottom bar')
            top[24 - i] += n
        else:
            raise ValueError('bad position letter %r' % c)
    board = [top, bottom] if turn == 1 else [bottom, top]
    return board, dice


def main():
    plies = 0
    if '--plies' in sys.argv:
        plies = int(sys.argv[sys.argv.index('--plies') + 1])
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line or line == 'stop':
            continue
        if line == 'quit':
            break
        if line == 'ubgi':
            out.write('id name gnubg-nn %d-ply\nid author GNU Backgammon team (nets), '
                      'tablier (adapter)\nid version 1.1\nreadyok\n' % plies)
        elif line == 'isready':
            out.write('readyok\n')
        elif line.startswith('XGID='):
            try:
                board, dice = board_from_xgid(line)
            except ValueError as e:
                sys.stderr.write('gnubg_ubgi: %s\n' % e)
                out.write('sorry\n')
            else:
                if dice == '00':
                    out.write('roll\n')
                elif dice == 'D':
                    out.write('take\n')
                elif len(dice) == 2 and dice.isdigit():
                    hops = gnubg_nn.best_move(board, int(dice[0]), int(dice[1]), n=plies)
                    out.write(' '.join('%d/%d' % hop for hop in hops) + '\n')
                else:
                    out.write('sorry\n')
        else:
            out.write('sorry\n')
        out.flush()


if __name__ == '__main__':
    main()
