"""tablier's games as OpenSpiel games.

``register()`` registers three Python games with ``pyspiel.register_game``; load them with
``pyspiel.load_game``:

* ``tablier_draughts(variant=international)`` — also ``brazilian``, ``canadian``,
  ``english`` and ``french-old`` (the old French rules, with their huffs);
* ``tablier_backgammon(match_length=0,cube=True,jacoby=True,beavers=False,crawford=True,
  cube_limit=64)`` — a money game (``match_length=0``) or a match;
* ``tablier_trictrac(ecoles=False)`` — a partie in 12 holes, marked by the program, or with
  ``ecoles=True`` by the players themselves (marks, warnings, claims of écoles).

The states subclass ``pyspiel.State`` and keep a ``tablier`` game inside (``state.game``),
so OpenSpiel's C++ algorithms (``random_sim_test``, MCTS, ...) and its Python ones run on
them. Resignations are not offered.

Action ids (stable: the same action always has the same id)
-----------------------------------------------------------
Draughts, on a board of ``n`` playable squares (32, 50, 72)::

    id = ((start - 1) * n + (end - 1)) * 16 + k

where ``k`` tells apart the legal captures with the same start and end squares: the rank of
the move among them ordered by their captured squares (sorted lists compared in order);
``k`` is 0 for every other move. ``num_distinct_actions = n * n * 16``. Under the old French
rules (``french-old``, ``n = 50``) two more ids per square follow: ``n * n * 16 + s - 1``
huffs the opponent's piece on square ``s`` (*souffler*, ``s21``), ``n * n * 16 + n + s - 1``
obliges him to take with it (``f21``); letting the piece stand is playing one's move.

Backgammon (the mover's numbering: 1..24 his points, 25 his bar; 0 below means "unused")::

    0 .. 675        a play of two different numbers: high_from * 26 + low_from, the points
                    the higher and the lower die are played from
    676 .. 24426    a play of doubles: 676 + rank of the multiset of the (up to four) start
                    points a >= b >= c >= d (0 for an unused die) in the combinatorial
                    number system, C(a+3,4) + C(b+2,3) + C(c+1,2) + d
    24427 roll, 24428 double, 24429 take, 24430 drop, 24431 beaver

Plays that reach the same position are one play (as gnubg counts them). Rolling is asked
only when the player may double; otherwise it happens at once. Chance outcomes: the opening
throw ``(white_die - 1) * 6 + (black_die - 1)`` over the 30 unequal pairs (1/30 each: equal
dice are thrown again), and each roll ``(high - 1) * 6 + (low - 1)`` over the 21 rolls
(1/36 for doubles, 2/36 for the others).

Trictrac (relative flèches of the mover: 1..24 from his talon; 0 below means "unused")::

    kind * 676 + high_from * 26 + low_from

with ``kind`` 0 for *tout à bas* with two dames or one number (``pass`` is 0), 1 for *tout
d'une* (one dame played with both numbers: the second hop starts from the rest), 2 for *par
puissance*, 3 for one dame moved twice by single moves (``1-7,7-12``, which the rules tell
from the tout d'une ``1-7-12`` and from ``7-12,1-7``); for doublets and puissance the two
start flèches are sorted, larger first. 2704 is ``go`` (s'en aller), 2705 ``stay``. With
écoles: ``2706 + k`` marks ``k`` points, ``2962 + k`` warns of ``k`` (*je ne marque pas*),
``3218 + k`` claims an école of ``k`` (``k`` < 256), then 3474 ``claim``, 3475 ``decline``,
3476 ``erase``, 3477 ``oblige``. Chance outcomes as for backgammon: the primauté (White's die, Black's
die; 30 unequal pairs) and the 21 rolls.

Returns
-------
Draughts: +1/-1, 0 for a draw. Backgammon money game: the points won (cube × single, gammon
or backgammon; ±3 × ``cube_limit`` at most); a match: +1/-1. Trictrac: +1/-1.

Observation tensors (``state.observation_tensor()``, the same for both players)
------------------------------------------------------------------------------
Draughts ``[5, n]``: planes of white men, white kings, black men, black kings (1 on the
squares they occupy, square ``s`` at index ``s - 1``), then a plane of 1s when White is to move.

Backgammon ``[70]``: White's checkers on White's points 1..24, White's bar, White's off
(each count / 15); Black's on the same points in White's numbering, Black's bar, Black's off;
actor is White, actor is Black; the dice (high / 6, low / 6, 0 before the roll);
log2(cube) / 15; cube centred, owned by White, owned by Black; the match score of White and
Black / match length (0 for money); Crawford game; the phase one-hot (opening, before_roll,
rolling, moving, doubled, resigning, over).

Trictrac ``[67]``: White's dames on flèches 1..24 (absolute, along White's path) / 15,
White's off / 15; the same for Black; points of White and Black / 12; holes / 12;
bredouille of each; actor is White, actor is Black; roller is White, roller is Black; the
dice (/ 6); the phase one-hot (primaute, roll, decide, play, over).

Serialization
-------------
``state.serialize()`` / ``game.deserialize_state(text)`` (the Python methods): a draughts
state as its start FEN and its moves (``W:W31-50:B1-20;32-28 19-23``), a backgammon state
as its GNUbgID (``;roll`` added once the player has chosen to roll), a trictrac state as
its game record (JSON lines). OpenSpiel's own
``pyspiel.serialize_game_and_state`` works too (through the action history and pickling).

Gymnasium and PettingZoo: ``shimmy``'s ``OpenSpielCompatibilityV0`` wraps any of these
games once registered (``pip install shimmy[openspiel]``).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from tablier import backgammon, draughts, trictrac

_PLAYER = {"white": 0, "black": 1}
_OPEN_VARIANTS = ("international", "brazilian", "canadian", "english", "french-old")

_registered = False


def _game_type(short_name, long_name, chance, params):
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


DRAUGHTS_TYPE = _game_type(
    "tablier_draughts",
    "tablier draughts",
    pyspiel.GameType.ChanceMode.DETERMINISTIC,
    {"variant": "international"},
)
BACKGAMMON_TYPE = _game_type(
    "tablier_backgammon",
    "tablier backgammon",
    pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    {
        "match_length": 0,
        "cube": True,
        "jacoby": True,
        "beavers": False,
        "crawford": True,
        "cube_limit": 64,
    },
)
TRICTRAC_TYPE = _game_type(
    "tablier_trictrac",
    "tablier grand trictrac",
    pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    {"ecoles": False},
)


class _Observer:
    """OpenSpiel's PyObserver: the state's observation vector, whoever observes."""

    def __init__(self, shape, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state, player):
        del player
        self.tensor[:] = state.game._os_observation()

    def string_from(self, state, player):
        del player
        return str(state)


class _State(pyspiel.State):
    """A tablier game as an OpenSpiel state; ``self.game`` is the tablier object."""

    def __init__(self, game, inner):
        super().__init__(game)
        self.game = inner

    # The actor: subclasses say who acts through `_actor()`.
    def current_player(self):
        actor = self._actor()
        if actor is None:
            return pyspiel.PlayerId.TERMINAL
        if actor == "chance":
            return pyspiel.PlayerId.CHANCE
        return _PLAYER[actor]

    def _legal_actions(self, player):
        del player
        return self.game._os_legal()

    def chance_outcomes(self):
        return self.game._os_chance()

    def _apply_action(self, action):
        self.game._os_apply(int(action))

    def _action_to_string(self, player, action):
        del player
        return self.game._os_action_string(int(action))

    def is_terminal(self):
        return self._actor() is None

    def returns(self):
        o = self.game.outcome
        if o is None or o.winner is None:
            return [0.0, 0.0]
        v = float(self._points(o))
        return [v, -v] if o.winner == "white" else [-v, v]

    def _points(self, outcome):
        return 1

    def __str__(self):
        return self.serialize()


class DraughtsState(_State):
    def _actor(self):
        return self.game.turn

    def chance_outcomes(self):
        return []

    def serialize(self):
        return self.game.start_fen + ";" + " ".join(self.game.moves)


class BackgammonState(_State):
    def _actor(self):
        return self.game.actor

    def _points(self, outcome):
        return outcome.points if self.game.length == 0 else 1

    def serialize(self):
        # A GNUbgID without dice reads as the moment before rolling or doubling: a player who
        # has chosen to roll (the dice not yet thrown) is marked.
        rolled = ";roll" if self.game.phase == "rolling" else ""
        return self.game.gnubg_id + rolled


class TrictracState(_State):
    def _actor(self):
        return self.game.actor

    def serialize(self):
        return self.game.record()


class DraughtsGame(pyspiel.Game):
    """``tablier_draughts(variant=...)``."""

    def __init__(self, params=None):
        params = dict(params or {})
        self.variant = str(params.get("variant", "international"))
        if self.variant not in _OPEN_VARIANTS:
            raise ValueError(
                f"variant {self.variant!r}: expected one of {', '.join(_OPEN_VARIANTS)}"
            )
        probe = draughts.Game(self.variant)
        n = probe.squares
        # Men moves and captures are irreversible and bounded; between two of them the
        # draw rules allow at most 80 plies (English), 50 elsewhere.
        men = len(probe.pieces())
        side = {32: 8, 50: 10, 72: 12}[n]
        irreversible = men * (side - 1) + men
        self.max_length = irreversible * 81
        info = pyspiel.GameInfo(
            num_distinct_actions=draughts._d._os_num_actions(self.variant),
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_length,
        )
        super().__init__(DRAUGHTS_TYPE, info, {"variant": self.variant})
        self._shape = (5, n)

    def new_initial_state(self, fen=None):
        return DraughtsState(self, draughts.Game(self.variant, fen))

    def deserialize_state(self, text):
        fen, _, moves = text.partition(";")
        state = self.new_initial_state(fen)
        for m in moves.split():
            state.game.play(m)
        return state

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer(self._shape, params)


class BackgammonGame(pyspiel.Game):
    """``tablier_backgammon(match_length=0, cube=True, jacoby=True, beavers=False,
    crawford=True, cube_limit=64)``."""

    def __init__(self, params=None):
        p = dict(BACKGAMMON_TYPE.parameter_specification)
        p.update(params or {})
        self.length = int(p["match_length"])
        self.cube = bool(p["cube"])
        self.jacoby = bool(p["jacoby"])
        self.beavers = bool(p["beavers"])
        self.crawford = bool(p["crawford"])
        self.cube_limit = int(p["cube_limit"])
        if self.cube and self.cube_limit < 1:
            raise ValueError("cube_limit: OpenSpiel needs a bounded cube (a power of two)")
        limit = self.cube_limit if self.cube else 1
        max_points = 1.0 if self.length > 0 else 3.0 * limit
        games = max(1, 2 * self.length - 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=backgammon._b._OS_NUM_ACTIONS,
            max_chance_outcomes=36,
            num_players=2,
            min_utility=-max_points,
            max_utility=max_points,
            utility_sum=0.0,
            max_game_length=2000 * games,
        )
        super().__init__(BACKGAMMON_TYPE, info, p)
        self._shape = (backgammon._b._OS_OBSERVATION_SIZE,)

    def _match(self):
        return backgammon.Match(
            self.length,
            cube=self.cube,
            crawford=self.crawford,
            jacoby=self.jacoby,
            beavers=self.beavers,
            cube_limit=self.cube_limit if self.cube else 0,
        )

    def new_initial_state(self):
        return BackgammonState(self, self._match())

    def deserialize_state(self, text):
        gid, _, rolled = text.partition(";")
        m = backgammon.Match.from_id(
            gid,
            cube=self.cube,
            crawford=self.crawford,
            jacoby=self.jacoby,
            beavers=self.beavers,
            cube_limit=self.cube_limit if self.cube else 0,
        )
        if rolled == "roll" and m.phase == "before_roll":
            m.play("roll")
        m._os_advance()
        return BackgammonState(self, m)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer(self._shape, params)


class TrictracGame(pyspiel.Game):
    """``tablier_trictrac(ecoles=False)``: a partie in 12 holes, marked by the program, or
    by the players themselves with écoles (``ecoles=True``)."""

    def __init__(self, params=None):
        p = dict(TRICTRAC_TYPE.parameter_specification)
        p.update(params or {})
        self.ecoles = bool(p["ecoles"])
        info = pyspiel.GameInfo(
            num_distinct_actions=trictrac._t._OS_NUM_ACTIONS,
            max_chance_outcomes=36,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=100_000,
        )
        super().__init__(TRICTRAC_TYPE, info, {"ecoles": self.ecoles})
        self._shape = (trictrac._t._OS_OBSERVATION_SIZE,)

    def new_initial_state(self):
        return TrictracState(self, trictrac.Partie(marking="ecoles" if self.ecoles else "automatic"))

    def deserialize_state(self, text):
        return TrictracState(self, trictrac.Partie.replay(text))

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer(self._shape, params)


def register():
    """Registers ``tablier_draughts``, ``tablier_backgammon`` and ``tablier_trictrac`` with
    OpenSpiel (once; later calls do nothing)."""
    global _registered
    if _registered:
        return
    pyspiel.register_game(DRAUGHTS_TYPE, DraughtsGame)
    pyspiel.register_game(BACKGAMMON_TYPE, BackgammonGame)
    pyspiel.register_game(TRICTRAC_TYPE, TrictracGame)
    _registered = True


__all__ = [
    "register",
    "DraughtsGame",
    "BackgammonGame",
    "TrictracGame",
    "DraughtsState",
    "BackgammonState",
    "TrictracState",
]
