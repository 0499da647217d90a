"""Oracle: OpenSpiel's own backgammon and ours, driven through the same dice and the same
choices in money games without the cube, have the same legal plays at every turn.

OpenSpiel encodes a turn as one or two actions of two checker moves each; we compare the
sets of positions a turn can reach. Each turn, one of those positions is chosen at random and
both games go there.
"""

import os
import random
import re

import pytest

pyspiel = pytest.importorskip("pyspiel")

from tablier.backgammon import Match  # noqa: E402

POSITIONS = int(os.environ.get("TABLIER_ORACLE_POSITIONS", "10000"))
SEED = int(os.environ.get("TABLIER_ORACLE_SEED", "23"))
DICE = re.compile(r"^Dice: (\d)(\d)$", re.M)


def os_key(state, mover):
    """The points of both sides, each in its own numbering (1..24), mover first."""
    def own(player):
        if player == 0:
            return tuple(state.board(0, 24 - k) for k in range(1, 25))
        return tuple(state.board(1, k - 1) for k in range(1, 25))

    return own(mover), own(1 - mover)


def os_turns(state, mover):
    """Every position OpenSpiel's mover can reach this turn: key -> action sequence."""
    out = {}

    def walk(s, seq):
        if s.is_terminal() or s.is_chance_node() or s.current_player() != mover:
            out.setdefault(os_key(s, mover), seq)
            return
        for a in s.legal_actions():
            walk(s.child(a), seq + [a])

    walk(state, [])
    return out


def dice_of(state):
    m = DICE.search(str(state))
    assert m, str(state)
    return int(m.group(1)), int(m.group(2))


def test_same_legal_plays_as_openspiel_backgammon():
    rng = random.Random(SEED)
    game = pyspiel.load_game("backgammon")
    compared = no_play = doubles = 0
    while compared < POSITIONS:
        s = game.new_initial_state()
        m = Match(cube=False)
        # The opening: OpenSpiel's first chance outcome gives the starter and the dice.
        outcomes = s.chance_outcomes()
        s.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        a, b = dice_of(s)
        hi, lo = max(a, b), min(a, b)
        m.roll((hi, lo) if s.current_player() == 0 else (lo, hi))
        while not s.is_terminal() and compared < POSITIONS:
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(
                    rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
                )
                m.roll(dice_of(s))
                continue
            mover = s.current_player()
            assert m.turn == ("white" if mover == 0 else "black")
            assert sorted(dice_of(s), reverse=True) == list(m.dice)
            mine, theirs = m.sides
            assert os_key(s, mover) == (tuple(mine[:24]), tuple(theirs[:24])), str(s)
            reached = os_turns(s, mover)
            ours = {(tuple(p.sides[0][:24]), tuple(p.sides[1][:24])): p for p in m.plays()}
            assert set(ours) == set(reached), (
                f"{m.gnubg_id} dice {m.dice}: ours only "
                f"{[ours[k].notation for k in set(ours) - set(reached)]}, OpenSpiel's only "
                f"{[s.action_to_string(reached[k][0]) for k in set(reached) - set(ours)]}"
            )
            compared += 1
            no_play += len(ours) == 1 and next(iter(ours.values())).notation == ""
            doubles += m.dice[0] == m.dice[1]
            key = rng.choice(sorted(reached))
            for action in reached[key]:
                s.apply_action(action)
            m.play(ours[key])
        if s.is_terminal():
            assert m.is_over
            winner = "white" if s.returns()[0] > 0 else "black"
            assert m.outcome.winner == winner
    assert compared == POSITIONS
    # The sample reaches the cases that matter.
    assert doubles > POSITIONS // 10 and no_play > 0
