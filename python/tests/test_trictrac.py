"""tablier.trictrac: the partie, its plays with their jans and points, the engine."""

import copy
import pickle
import random

import pytest

import tablier
from tablier.trictrac import Engine, Jan, Partie, roll_random


def test_primaute_and_first_plays():
    p = Partie()
    assert (p.phase, p.actor) == ("primaute", "chance")
    p.roll((5, 3))
    assert (p.roller, p.actor, p.dice, p.phase) == ("white", "white", (5, 3), "play")
    plays = {x.notation: x for x in p.plays()}
    assert "1-6,1-4" in plays
    p.play("1-6,1-4")
    assert p.position == "1W13-4W1-6W1-24B15" and p.actor == "chance"


def test_plays_carry_their_jans_and_points():
    # n°131, fig. 17: White's 4-3 hits Black's lone dame on 15 three ways, 2 points each.
    board = "1W2-4W1-6W1-7W3-8W2-9W2-11W2-12W2-13B2-14B2-15B1-17B2-18B2"
    p = Partie(position=board)
    p.roll((4, 3))
    jans = p.jans()
    hit = [j for j in jans if j.kind == "battre à vrai" and j.at == 15]
    assert hit and isinstance(hit[0], Jan)
    assert (hit[0].ways, hit[0].points, hit[0].to) == (3, 6, "white")
    plays = p.plays()
    assert plays and all(x.points[0] >= 6 for x in plays)
    assert all(x.jans[0].paragraph.startswith("n°") for x in plays)


def test_hole_then_go_or_stay():
    p = Partie(position="1W15-24B15", points=(10, 0))
    rng = random.Random(1)
    for _ in range(200):
        if p.phase == "decide":
            assert set(p.legal_actions()) >= {"go", "stay"}
            p.play("go")
            assert p.points == (0, 0) and p.holes[0] >= 1
            return
        if p.actor == "chance":
            roll_random(p, rng)
        else:
            p.play(p.legal_actions()[0])
    pytest.fail("no hole won in 200 actions")


def test_bearing_off_is_a_right_and_the_sortie_is_marked_after_the_play():
    # 22W1-24W1, 5-1: bear off both (4 points for the sortie) or keep the dame on 24.
    p = Partie(position="22W1-24W1-1B15", points=(10, 0))
    p.roll((5, 1))
    plays = {x.notation: x for x in p.plays()}
    assert plays["22-off,24-off"].points == (4, 0)
    assert plays["22-23,23-off"].points == (0, 0)
    assert plays["22-off,24-off"].jans[-1].kind.startswith("sortie")
    keep = p.copy()
    keep.play("22-23,23-off")
    assert keep.position == "1B15-24W1" and keep.points == (10, 0)
    # The sortie's hole is decided after the play: staying plays the 5-1 from the talons.
    p.play("22-off,24-off")
    assert (p.phase, p.holes[0], p.points[0]) == ("decide", 1, 2)
    p.play("stay")
    assert (p.phase, p.dice, p.position) == ("play", (5, 1), "1W15-24B15")


def test_ecoles_mode_marks_by_hand():
    p = Partie(marking="ecoles")
    p.roll((6, 5))
    assert p.marking == "ecoles"
    acts = p.legal_actions()
    assert any(a.startswith("mark") for a in acts) or p.phase == "play"


def test_illegal_actions_raise_and_change_nothing():
    p = Partie()
    p.roll((6, 5))
    before = repr(p)
    with pytest.raises(tablier.IllegalMove):
        p.play("go")
    with pytest.raises(tablier.IllegalMove):
        p.play("1-2,1-3")
    with pytest.raises(tablier.IllegalMove):
        p.roll((1, 2))
    assert repr(p) == before


def test_record_replays_and_copies():
    p = Partie()
    rng = random.Random(3)
    e = Engine(level=0, seed=2)
    for _ in range(60):
        if p.actor == "chance":
            roll_random(p, rng)
        else:
            p.play(e.best_move(p))
    again = Partie.replay(p.record())
    assert again.position == p.position and again.points == p.points
    for other in (p.copy(), copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert repr(other) == repr(p) and other.actions == p.actions


def test_a_whole_partie_between_engines():
    p = Partie()
    rng = random.Random(7)
    engines = {"white": Engine(level=1, seed=1), "black": Engine(level=2, seed=2)}
    while not p.is_over:
        if p.actor == "chance":
            roll_random(p, rng)
        else:
            p.play(engines[p.actor].best_move(p))
    o = p.outcome
    # A last throw may win several holes at once: the winner has 12 or more.
    assert o.winner in ("white", "black") and max(p.holes) >= 12


def test_engine_analyses_a_roll():
    p = Partie()
    p.roll((6, 5))
    a = Engine(level=2).analyse(p)
    assert a.unit == "partie" and a.best in [x.notation for x in p.plays()]
    assert 0.0 <= a.value <= 1.0 and a.value == max(v for _, v in a.candidates)
    assert isinstance(Engine().evaluate(Partie()), float)


def test_engine_in_a_partie_a_ecrire_values_going_in_jetons():
    # White's 2-1 conserves his grand jan for 4 points: a hole, 6 against 9. Going ends the
    # marqué and loses it (9 + 2 - 6 = 5 jetons); staying, the pavillon his hole gave him
    # (nobody held it) would pass to Black at Black's next hole. The engine values both in
    # jetons and takes the better, with half the postillons at stake counted each way: in a
    # partie of two marqués, losing both costs a postillon of 28 jetons (n°227).
    p = Partie(
        marques=2,
        position="1W1-7W2-8W2-9W2-10W2-11W2-12W4-13B5-14B2-15B2-16B2-17B2-18B2",
        points=(8, 0),
        holes=(5, 9),
    )
    p.roll((2, 1))
    assert p.holes == (6, 9) and p.phase == "decide"
    a = Engine(level=2).analyse(p)
    values = dict(a.candidates)
    assert a.unit == "jetons" and values["go"] == -5.0 - 14.0
    assert a.best == max(values, key=values.get)
    assert Engine(level=3).best_move(p) == a.best
