"""Random playouts per second from Python: our international draughts and backgammon against
OpenSpiel's checkers and backgammon, measured in the same run; prints the ratios.

    .venv/bin/python python/bench.py [SECONDS_PER_GAME]
"""

import random
import sys
import time

import pyspiel

from tablier.backgammon import Match
from tablier.draughts import Game


def draughts_playout(rng):
    g = Game("international")
    while not g.is_over:
        g.play(rng.choice(g.legal_moves()))


def backgammon_playout(rng):
    m = Match(cube=False)
    while not m.is_over:
        if m.phase in ("opening", "before_roll", "rolling"):
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            if m.phase == "opening" and a == b:
                continue
            m.roll((a, b))
        else:
            m.play(rng.choice(m.plays()))


def openspiel_playout(game, rng):
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))


def rate(playout, seconds):
    rng = random.Random(1)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        playout(rng)
        n += 1
    return n / (time.perf_counter() - start)


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    checkers = pyspiel.load_game("checkers")
    bg = pyspiel.load_game("backgammon")
    rows = [
        ("draughts", "tablier international 10x10", draughts_playout,
         "OpenSpiel checkers 8x8", lambda r: openspiel_playout(checkers, r)),
        ("backgammon", "tablier backgammon (no cube)", backgammon_playout,
         "OpenSpiel backgammon", lambda r: openspiel_playout(bg, r)),
    ]
    for family, ours_name, ours, theirs_name, theirs in rows:
        a, b = rate(ours, seconds), rate(theirs, seconds)
        print(f"{family}: {ours_name} {a:,.1f} playouts/s, {theirs_name} {b:,.1f} playouts/s,"
              f" ratio {a / b:.2f}")


if __name__ == "__main__":
    main()
