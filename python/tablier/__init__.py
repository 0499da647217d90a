"""tablier: draughts, backgammon and trictrac — rules, engines and OpenSpiel games.

The rules and the engines are tablier's Rust crates, compiled into ``tablier._tablier``;
this package re-exports them per game family:

* :mod:`tablier.draughts` — ``Game``, ``Move``, ``Engine`` (international, Brazilian,
  Canadian, English and the old French rules);
* :mod:`tablier.backgammon` — ``Match``, ``Play``, ``Engine`` (money games and matches with
  the cube, gnubg's IDs and ``.mat`` files, rollouts);
* :mod:`tablier.trictrac` — ``Partie``, ``Play``, ``Jan``, ``Engine`` (grand trictrac, the
  partie in 12 holes or à écrire, automatic marking or écoles);
* :mod:`tablier.openspiel` — ``register()`` makes the three families OpenSpiel games.

Errors: ``InvalidInput`` for text that cannot be read, ``IllegalMove`` for an action the
rules refuse now (the game is then unchanged); both derive from ``TablierError``, a
``ValueError``.
"""

from tablier._tablier import (
    Analysis,
    IllegalMove,
    InvalidInput,
    Outcome,
    TablierError,
    __version__,
)
from tablier import backgammon, draughts, trictrac

__all__ = [
    "Analysis",
    "IllegalMove",
    "InvalidInput",
    "Outcome",
    "TablierError",
    "__version__",
    "backgammon",
    "draughts",
    "trictrac",
]
