#!/usr/bin/env python3
"""Legal moves according to pydraughts 0.6.7, for the oracle test `tests/oracle_pydraughts.rs`.

Usage: pydraughts_moves.py --variant international|brazilian|english --count N --seed S

Prints one JSON object per line, one line per position:

    {"variant": "brazilian", "source": "game", "fen": "W:Wa1,...:Bb6,...",
     "moves": [[21, 17, []], [22, 13, [17]], ...]}

* `fen` is the FEN exactly as pydraughts read it (and, for game positions, wrote it): the W
  section always comes first, both sections are always present.
* `moves` are pydraughts' legal moves, de-duplicated by (from, to, set of captured squares),
  as [from, to, sorted captured squares], sorted, in FMJD numbering (the numbering tablier
  uses: square 1 at the top left, on black's side; white's men on the high numbers move up).
* `source` is "game" (a position reached by a random game played by pydraughts from the start
  position) or "random" (a random placement of men and kings; men are never on their
  promotion row).

The positions come from `random.Random(seed)` only, so a given seed always prints the same
lines.

pydraughts conventions, found by experiment and by reading the installed package
(`draughts/convert.py`, `draughts/core/game.py`, `draughts/core/variant.py`):

* Variant names: international draughts is "standard" (the name "international" is not
  translated by `_convert_variant_names` and only works by accident, since the rule switches
  test membership in lists of other names); Brazilian is "brazilian"; English checkers is
  "english" ("american" is an alias).
* International: FMJD numbering, same as ours. `Board("standard").fen` at the start is
  `W:W31,...,50:B1,...,20`, moves 31-26 ... 35-30.
* English: the FEN and the moves use the same numbers and colours as ours: start
  `B:W21,...,32:B1,...,12`, black (on 1..12) moves first: 9-13, 9-14, 10-14, 10-15, 11-15,
  11-16, 12-16. (Internally pydraughts swaps the colours and rotates the board by 180
  degrees, `_rotate_move` notation 1, but `Board` undoes both in its FEN and moves.)
* Brazilian: pydraughts writes (and reads) FEN squares in algebraic notation (a1 = white's
  bottom left corner, as in our FEN reader), and numbers the squares in its moves from the
  bottom: 1 = a1, 2 = c1, 3 = e1, 4 = g1, 5 = b2, ..., 29 = b8, 32 = h8
  (`_numeric_to_algebraic_square`, width 4). The start position's white men are on its
  1..12 and its first moves are 9-13 ... 12-16. Ours (FMJD) count from the top: 1 = b8,
  ..., 32 = g1, so white starts on our 21..32 and plays 21-17 ... 24-20. The two numberings
  are a mirror image top to bottom that keeps the position within the row:
  ours = 4 * (7 - (n - 1) // 4) + (n - 1) % 4 + 1 (and the same formula back), see
  `pyd_brazilian_to_fmjd`. It is checked against pydraughts' own algebraic conversion at
  start-up (`check_brazilian_mapping`).
* Colours in a FEN are taken by position, not by letter: the first section is white's even
  when it is labelled B. Every FEN here is written W first.
* A side without pieces must be written as an empty section (`W:W28:B`), never left out.
* Every capture path is listed as a separate move; we de-duplicate.
"""

import argparse
import json
import random
import sys

from draughts import Board
from draughts.convert import _numeric_to_algebraic_square

PYDRAUGHTS_NAME = {"international": "standard", "brazilian": "brazilian", "english": "english"}
SIDE = {"international": 10, "brazilian": 8, "english": 8}


def pyd_brazilian_to_fmjd(n):
    """pydraughts' Brazilian square number (1 = a1, counting from the bottom) -> FMJD (1 = b8)."""
    row_from_bottom, k = divmod(n - 1, 4)
    return 4 * (7 - row_from_bottom) + k + 1


def fmjd_to_algebraic(s, side):
    """FMJD square number -> algebraic square (a1 = white's bottom left corner)."""
    half = side // 2
    row, k = divmod(s - 1, half)  # row 0 is the top row
    col = 2 * k + (1 if row % 2 == 0 else 0)
    return "abcdefghijkl"[col] + str(side - row)


def check_brazilian_mapping():
    for n in range(1, 33):
        via_pydraughts = _numeric_to_algebraic_square(str(n), 4)
        ours = fmjd_to_algebraic(pyd_brazilian_to_fmjd(n), 8)
        if via_pydraughts != ours:
            sys.exit(f"Brazilian square mapping is wrong for pydraughts {n}: {via_pydraughts} != {ours}")


def to_fmjd(variant, n):
    return pyd_brazilian_to_fmjd(n) if variant == "brazilian" else n


def pydraughts_fen(variant, turn, white, black):
    """A FEN pydraughts reads: W first, both sections present. `white`/`black`: lists of
    (FMJD square, is_king)."""

    def square(s, king):
        name = fmjd_to_algebraic(s, 8) if variant == "brazilian" else str(s)
        return ("K" if king else "") + name

    w = ",".join(square(s, k) for s, k in sorted(white))
    b = ",".join(square(s, k) for s, k in sorted(black))
    return f"{turn}:W{w}:B{b}"


def legal_moves(variant, fen):
    """pydraughts' legal moves for `fen`, read by a fresh Board, de-duplicated, FMJD numbering."""
    board = Board(variant=PYDRAUGHTS_NAME[variant], fen=fen)
    seen = set()
    for m in board.legal_moves():
        steps = m.steps_move
        frm, to = to_fmjd(variant, steps[0]), to_fmjd(variant, steps[-1])
        caps = tuple(sorted(to_fmjd(variant, c) for c in (m.captures or [])))
        seen.add((frm, to, caps))
    return [[f, t, list(c)] for f, t, c in sorted(seen)]


def game_fens(variant, count, rng):
    """FENs of positions met in random games played by pydraughts from the start position,
    each kept with a probability chosen so that the sample covers every phase of the games."""
    fens = []
    seen = set()
    while len(fens) < count:
        board = Board(variant=PYDRAUGHTS_NAME[variant])
        for _ply in range(250):
            fen = board.fen
            if fen not in seen and rng.random() < 0.35:
                seen.add(fen)
                fens.append(fen)
                if len(fens) == count:
                    break
            moves = board.legal_moves()
            if not moves:
                break
            board.push(rng.choice(moves))
    return fens


def random_fens(variant, count, rng):
    """FENs of random placements: 1..12 pieces a side, about half of them kings, men never on
    their promotion row, either side to move."""
    side = SIDE[variant]
    half = side // 2
    squares = side * half
    fens = []
    seen = set()
    while len(fens) < count:
        n_white = rng.randint(1, 12 if side == 10 else 8)
        n_black = rng.randint(1, 12 if side == 10 else 8)
        king_share = rng.choice([0.0, 0.3, 0.6, 1.0])
        chosen = rng.sample(range(1, squares + 1), n_white + n_black)
        white, black = [], []
        for i, s in enumerate(chosen):
            is_white = i < n_white
            row = (s - 1) // half
            promotion_row = 0 if is_white else side - 1
            king = row == promotion_row or rng.random() < king_share
            (white if is_white else black).append((s, king))
        fen = pydraughts_fen(variant, rng.choice("WB"), white, black)
        if fen not in seen:
            seen.add(fen)
            fens.append(fen)
    return fens


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", required=True, choices=sorted(PYDRAUGHTS_NAME))
    ap.add_argument("--count", type=int, required=True, help="number of positions")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    check_brazilian_mapping()
    rng = random.Random(f"{args.seed}:{args.variant}")
    n_random = args.count * 2 // 5
    fens = [("game", f) for f in game_fens(args.variant, args.count - n_random, rng)]
    fens += [("random", f) for f in random_fens(args.variant, n_random, rng)]
    out = sys.stdout
    for source, fen in fens:
        line = {"variant": args.variant, "source": source, "fen": fen, "moves": legal_moves(args.variant, fen)}
        out.write(json.dumps(line, separators=(",", ":")) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
