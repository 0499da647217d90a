"""Draughts: ``Game(variant="international", fen=None)``, its ``Move``s and the ``Engine``.

>>> from tablier.draughts import Game
>>> g = Game()
>>> len(g.legal_moves()), g.turn
(9, 'white')
>>> g.play("32-28"); g.fen
'B:W28,31,33-50:B1-20'
"""

from tablier._tablier import draughts as _d

Game = _d.Game
Move = _d.Move
Engine = _d.Engine
MAX_LEVEL = _d.MAX_LEVEL
variants = _d.variants

__all__ = ["Game", "Move", "Engine", "MAX_LEVEL", "variants"]
