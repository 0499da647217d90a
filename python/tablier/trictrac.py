"""Grand trictrac: ``Partie(...)``, the ``Play``s of a roll with their ``Jan``s and points,
and the ``Engine``.

>>> from tablier.trictrac import Partie
>>> p = Partie()
>>> p.roll((5, 3)); p.roller, p.dice
('white', (5, 3))
"""

import random as _random

from tablier._tablier import trictrac as _t

Partie = _t.Partie
Play = _t.Play
Jan = _t.Jan
Engine = _t.Engine
MAX_LEVEL = _t.MAX_LEVEL


def roll_random(p: Partie, rng: "_random.Random | None" = None) -> tuple:
    """Throws random dice for whatever ``p`` waits for (the primauté, never equal, or the
    roller's dice) and returns them."""
    rng = rng or _random
    while True:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if p.phase != "primaute" or dice[0] != dice[1]:
            break
    p.roll(dice)
    return dice


__all__ = ["Partie", "Play", "Jan", "Engine", "MAX_LEVEL", "roll_random"]
