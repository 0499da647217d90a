"""Backgammon: ``Match(length=0, ...)`` (money game or match), its ``Play``s and the
``Engine`` (levels, evaluation, rollouts).

>>> from tablier.backgammon import Match
>>> m = Match()
>>> m.roll((3, 1)); m.turn, m.dice
('white', (3, 1))
>>> m.play("8/5 6/5"); m.gnubg_id
'sGfwATDgc/ABMA:cAkAAAAAAAAA'
"""

import random as _random

from tablier._tablier import backgammon as _b

Match = _b.Match
Play = _b.Play
Engine = _b.Engine
MAX_LEVEL = _b.MAX_LEVEL


def roll_random(m: Match, rng: "_random.Random | None" = None) -> tuple:
    """Throws random dice for whatever ``m`` waits for (the opening roll or a turn's roll)
    and returns them."""
    rng = rng or _random
    if m.phase == "opening":
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if dice[0] != dice[1]:
                break
    else:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    m.roll(dice)
    return dice


__all__ = ["Match", "Play", "Engine", "MAX_LEVEL", "roll_random"]
