"""OpenSpiel: the registered games pass OpenSpiel's own checks, serialize through FEN,
GNUbgID and trictrac records, and OpenSpiel's MCTS plays whole games against our engines."""

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import tablier  # noqa: E402
from tablier import openspiel  # noqa: E402

openspiel.register()

GAMES = [
    "tablier_draughts",
    "tablier_draughts(variant=english)",
    "tablier_draughts(variant=brazilian)",
    "tablier_draughts(variant=canadian)",
    "tablier_draughts(variant=french-old)",
    "tablier_backgammon(cube=False)",
    "tablier_backgammon",
    "tablier_backgammon(match_length=3)",
    "tablier_trictrac",
    "tablier_trictrac(ecoles=True)",
]


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test(name):
    """OpenSpiel's C++ random simulation checks: legal actions and their mask, chance
    outcomes summing to 1, returns at terminal states, serialization round trips through
    OpenSpiel's own format, clones, observation tensors."""
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def _random_states(game, rng, n=200):
    s = game.new_initial_state()
    for _ in range(n):
        if s.is_terminal():
            s = game.new_initial_state()
        yield s
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            s.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("name", GAMES)
def test_serialize_through_our_notations(name):
    game = pyspiel.load_game(name)
    rng = random.Random(4)
    for s in _random_states(game, rng):
        text = s.serialize()
        back = game.deserialize_state(text)
        assert back.serialize() == text and str(back) == str(s)
        assert back.current_player() == s.current_player()
        if not s.is_chance_node():
            assert back.legal_actions() == s.legal_actions()
        assert np.array_equal(back.observation_tensor(0), s.observation_tensor(0))
        assert len(s.observation_tensor(1)) == game.observation_tensor_size()


@pytest.mark.parametrize("name", GAMES)
def test_action_ids_are_stable_and_named(name):
    game = pyspiel.load_game(name)
    rng = random.Random(8)
    for s in _random_states(game, rng, 100):
        if s.is_terminal() or s.is_chance_node():
            continue
        ids = s.legal_actions()
        assert len(set(ids)) == len(ids) and all(0 <= a < game.num_distinct_actions() for a in ids)
        names = [s.action_to_string(a) for a in ids]
        if name.startswith("tablier_draughts"):
            texts = [m.notation for m in s.game.legal_moves()]
            assert sorted(names) == sorted(texts)
        else:
            assert set(names) <= set(s.game.legal_actions())
        # The same action applied by its text gives the same state as by its id.
        a = rng.choice(ids)
        by_id, by_text = s.clone(), s.clone()
        by_id.apply_action(a)
        by_text.game.play(s.action_to_string(a))
        if name.startswith("tablier_backgammon"):
            by_text.game._os_advance()
        assert str(by_id) == str(by_text)


def _engine_action(state, engine):
    text = engine.best_move(state.game)
    text = getattr(text, "notation", text)
    for a in state.legal_actions():
        if state.action_to_string(a) == text:
            return a
    raise AssertionError(f"the engine's {text!r} is not among {state.legal_actions()}")


class _ZeroEvaluator:
    """A value of 0 everywhere and uniform priors: MCTS by search alone (fast)."""

    def evaluate(self, state):
        return np.zeros(2)

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


@pytest.mark.parametrize(
    "name,engine",
    [
        ("tablier_draughts(variant=english)", tablier.draughts.Engine(level=0, seed=1)),
        ("tablier_backgammon(cube=False)", tablier.backgammon.Engine(level=0, seed=1)),
        ("tablier_backgammon", tablier.backgammon.Engine(level=1, seed=2)),
        ("tablier_trictrac", tablier.trictrac.Engine(level=0, seed=1)),
    ],
)
def test_mcts_plays_whole_games_against_our_engine(name, engine):
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(name)
    rng = np.random.RandomState(3)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=8, evaluator=_ZeroEvaluator(),
                       random_state=rng, solve=False)
    for mcts_player in (0, 1):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                a = rng.choice([a for a, _ in outcomes], p=[p for _, p in outcomes])
            elif s.current_player() == mcts_player:
                a = bot.step(s)
            else:
                a = _engine_action(s, engine)
            assert a in s.legal_actions() or s.is_chance_node()
            s.apply_action(a)
        r = s.returns()
        assert r[0] == -r[1] and s.game.outcome is not None


def test_draughts_game_parameters():
    with pytest.raises(Exception):
        pyspiel.load_game("tablier_draughts(variant=shogi)")
    g = pyspiel.load_game("tablier_draughts(variant=french-old)")
    assert g.num_distinct_actions() == 50 * 50 * 16 + 2 * 50
    g = pyspiel.load_game("tablier_draughts(variant=canadian)")
    assert g.num_distinct_actions() == 72 * 72 * 16
    assert g.observation_tensor_shape() == [5, 72]


def test_french_old_huffs_have_their_own_ids():
    """Under the old French rules capturing is optional and the opponent may then huff the
    piece that did not take (``sN``) or oblige it to take (``fN``): ids after the moves'."""
    game = pyspiel.load_game("tablier_draughts(variant=french-old)")
    base = 50 * 50 * 16
    rng = random.Random(5)
    seen = {"s": 0, "f": 0}
    for _ in range(40):
        s = game.new_initial_state()
        while not s.is_terminal() and len(s.history()) < 200:
            legal = s.legal_actions()
            extra = [a for a in legal if a >= base]
            for a in extra:
                text = s.action_to_string(a)
                assert text[0] in "sf" and 1 <= int(text[1:]) <= 50, text
                assert a == base + (0 if text[0] == "s" else 50) + int(text[1:]) - 1
                seen[text[0]] += 1
            s.apply_action(rng.choice(extra) if extra and rng.random() < 0.5 else rng.choice(legal))
    assert seen["s"] > 0 and seen["f"] > 0, seen


def test_trictrac_ecoles_ids():
    """With écoles, marks, warnings and claims have ids of their own, and random players
    (who mark at random) make and claim écoles."""
    game = pyspiel.load_game("tablier_trictrac(ecoles=True)")
    assert game.num_distinct_actions() == 3478
    rng = random.Random(7)
    words = set()
    for _ in range(3):
        s = game.new_initial_state()
        while not s.is_terminal() and len(s.history()) < 3000:
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(outcomes, probs)[0])
                continue
            legal = s.legal_actions()
            for a in legal:
                text = s.action_to_string(a)
                word = text.split()[0]
                if a >= 2706:
                    expected = {"mark": 2706, "warn": 2962, "ecole": 3218}.get(word)
                    if expected is not None:
                        assert a == expected + int(text.split()[1]), text
                    words.add(word)
            s.apply_action(rng.choice(legal))
    assert {"mark", "claim", "decline"} <= words, words
