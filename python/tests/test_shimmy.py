"""Gymnasium/PettingZoo: the registered OpenSpiel games through Shimmy's OpenSpiel wrapper
(``shimmy.OpenSpielCompatibilityV0``) pass PettingZoo's own API test, and a random player
plays them to the end with the action mask the wrapper gives."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
shimmy = pytest.importorskip("shimmy")

from pettingzoo.test import api_test  # noqa: E402

from tablier import openspiel  # noqa: E402

openspiel.register()

GAMES = [
    "tablier_draughts(variant=english)",
    "tablier_draughts",
    "tablier_draughts(variant=french-old)",
    "tablier_backgammon(cube=False)",
    "tablier_backgammon(match_length=3)",
    "tablier_trictrac",
    "tablier_trictrac(ecoles=True)",
]


def wrap(name):
    return shimmy.OpenSpielCompatibilityV0(env=pyspiel.load_game(name), render_mode=None)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api(name):
    env = wrap(name)
    env.reset(seed=1)
    api_test(env, num_cycles=200)


@pytest.mark.parametrize("name", GAMES)
def test_random_player_reaches_the_end(name):
    env = wrap(name)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    steps, ended = 0, False
    for agent in env.agent_iter(max_iter=20_000):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            ended = True
            action = None
        else:
            mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
            legal = np.flatnonzero(mask)
            assert legal.size > 0, f"{name}: no legal action for {agent}"
            action = int(rng.choice(legal))
        env.step(action)
        steps += 1
    assert ended, f"{name}: no end after {steps} steps"
