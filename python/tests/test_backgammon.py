"""tablier.backgammon: matches and money games, the cube, IDs, .mat files, the engine."""

import copy
import pickle

import pytest

import tablier
from tablier.backgammon import Engine, Match, Play, roll_random


def test_opening_roll_play_and_ids():
    m = Match()
    assert (m.phase, m.actor) == ("opening", "chance")
    m.roll((3, 1))
    assert (m.turn, m.dice, m.phase) == ("white", (3, 1), "moving")
    plays = m.plays()
    assert len(plays) == 16 and all(isinstance(p, Play) for p in plays)
    assert "8/5 6/5" in [p.notation for p in plays]
    m.play("8/5 6/5")
    assert (m.turn, m.phase, m.pips) == ("black", "before_roll", (163, 167))
    again = Match.from_id(m.gnubg_id)
    assert again.gnubg_id == m.gnubg_id
    assert Match.from_id(m.xgid).gnubg_id == m.gnubg_id
    assert m.gnubg_id == m.position_id + ":" + m.match_id


def test_plays_of_any_roll_with_their_positions():
    m = Match()
    m.roll((6, 5))
    p = {p.notation: p for p in m.plays((4, 4))}
    assert "24/20(2) 13/9(2)" in p or len(p) > 10
    (bar,) = [x for x in Match.from_id("4HPwATDgc/ABMA:cAkAAAAAAAAA").plays("61")][:1]
    assert bar.position_id


def test_illegal_actions_raise_and_change_nothing():
    m = Match()
    m.roll((3, 1))
    before = m.gnubg_id
    with pytest.raises(tablier.IllegalMove, match="not a legal play"):
        m.play("24/18")
    with pytest.raises(tablier.IllegalMove):
        m.play("double")
    with pytest.raises(tablier.InvalidInput):
        m.play("13/")
    with pytest.raises(tablier.IllegalMove):
        m.roll((2, 2))
    assert m.gnubg_id == before


def test_cube_take_drop_and_jacoby():
    m = Match()
    m.roll((3, 1))
    m.play("8/5 6/5")
    m.play("double")
    assert m.actor == "white" and m.legal_actions() == ["take", "drop"]
    m.play("take")
    assert m.cube == (2, "white") and m.phase == "rolling"
    m.roll((6, 6))
    m.play(m.plays()[0])
    m.play("double")
    m.play("drop")
    o = m.outcome
    assert (o.winner, o.points, o.reason) == ("white", 2, "double dropped") and m.is_over


def test_crawford_game_forbids_doubling():
    m = Match(3)
    m.roll((3, 1))
    m.play("resign gammon")
    m.play("accept")
    assert m.score == (0, 2)
    assert m.crawford and m.phase == "opening"
    m.roll((1, 2))
    m.play(m.plays()[0])
    assert "double" not in m.legal_actions()


def test_mat_out_and_back_in():
    m = Match(3)
    import random

    rng = random.Random(5)
    e = Engine(level=0, seed=3)
    while not m.is_over:
        if m.actor == "chance":
            roll_random(m, rng)
        else:
            m.play(e.best_move(m))
    text = m.to_mat("Ann", "Bob")
    assert "3 point match" in text and "Ann" in text
    back = Match.from_mat(text)
    assert back.score == m.score and back.is_over
    assert back.to_mat("Ann", "Bob") == text


def test_copies_and_pickles():
    m = Match(5)
    m.roll((5, 2))
    for other in (m.copy(), copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
        assert other.gnubg_id == m.gnubg_id
        other.play(other.plays()[0])
        assert other.gnubg_id != m.gnubg_id
    from_id = Match.from_id(m.gnubg_id)
    assert pickle.loads(pickle.dumps(from_id)).gnubg_id == m.gnubg_id


def test_engine_decides_evaluates_and_rolls_out():
    m = Match()
    m.roll((3, 1))
    e = Engine(level=3)
    assert e.best_move(m) == "8/5 6/5"
    a = e.analyse(m)
    assert a.unit == "equity" and a.best == "8/5 6/5" and len(a.candidates) >= 2
    ev = e.evaluate(m)
    assert 0.4 < ev["win"] < 0.7 and set(ev) >= {"win_gammon", "equity"}
    r = e.rollout(Match.from_id("4HPwATDgc/ABMA:cAkAAAAAAAAA"), trials=72, truncate=6)
    assert r["trials"] == 72 and r["stderr"] > 0 and abs(r["equity"]) < 1
    with pytest.raises(tablier.InvalidInput):
        Engine(level=9)
