"""tablier.draughts: the game, its notation and formats, the engine."""

import copy
import pickle

import pytest

import tablier
from tablier.draughts import Engine, Game, Move, variants


def test_start_moves_and_play():
    g = Game()
    moves = g.legal_moves()
    assert len(moves) == 9 and all(isinstance(m, Move) for m in moves)
    m = next(m for m in moves if m.notation == "32-28")
    assert (m.path, m.captured, m.start, m.end, m.is_capture) == ([32, 28], [], 32, 28, False)
    g.play(m)
    assert g.turn == "black" and g.fen == "B:W28,31,33-50:B1-20" and g.moves == ["32-28"]


def test_captures_give_path_and_captured_squares():
    g = Game(fen="W:W28:B23")
    (cap,) = g.legal_moves()
    assert cap.is_capture and cap.captured == [23] and cap.path == [28, 19]
    assert cap.notation == "28x19"


def test_illegal_move_raises_with_reason_and_changes_nothing():
    g = Game()
    before = (g.fen, g.moves)
    with pytest.raises(tablier.IllegalMove, match="no legal move 32-26"):
        g.play("32-26")
    with pytest.raises(tablier.InvalidInput, match="cannot read move"):
        g.play("32-")
    assert (g.fen, g.moves) == before
    assert issubclass(tablier.IllegalMove, ValueError)


@pytest.mark.parametrize(
    "variant,counts",
    [
        ("international", [9, 81, 658, 4265]),
        ("english", [7, 49, 302, 1469]),
        ("brazilian", [7, 49, 302, 1469]),
        ("canadian", [11, 121, 1222, 10053]),
    ],
)
def test_perft_of_every_variant(variant, counts):
    g = Game(variant)
    assert [g.perft(d) for d in range(1, 5)] == counts


def test_variants_and_french_old_huffs():
    assert set(variants()) >= {"international", "brazilian", "canadian", "english", "french-old"}
    g = Game("french-old")
    assert g.variant == "french-old" and len(g.legal_moves()) == 9


def test_outcome_when_a_side_cannot_move():
    g = Game(fen="W:W28:B23")
    g.play("28x19")
    assert g.is_over and g.turn is None
    o = g.outcome
    assert (o.winner, o.points) == ("white", 1) and "no legal move" in o.reason
    assert o.value_for("white") == 1 and o.value_for("black") == -1
    with pytest.raises(tablier.IllegalMove, match="over"):
        g.play("19-14")


def test_pdn_out_and_back_in():
    g = Game()
    for m in ["32-28", "19-23", "28x19", "14x23"]:
        g.play(m)
    text = g.pdn(White="Alice", Black="Bob")
    assert '[White "Alice"]' in text and "28x19" in text
    again = Game.from_pdn(text)
    assert again.fen == g.fen and again.moves == g.moves
    with pytest.raises(tablier.InvalidInput):
        Game.from_pdn('[GameType "20"]\n1. 32-28 32-28 *')


def test_copies_and_pickles_are_independent():
    g = Game("english")
    g.play(g.legal_moves()[0])
    for other in (g.copy(), copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert other.fen == g.fen and other.moves == g.moves and other.variant == "english"
        other.play(other.legal_moves()[0])
        assert other.fen != g.fen


def test_engine_moves_are_legal_and_explained():
    g = Game()
    e = Engine(level=2, seed=1)
    best = e.best_move(g)
    assert best in g.legal_moves()
    a = e.analyse(g, depth=4)
    assert a.unit == "men" and a.best in [m.notation for m in g.legal_moves()] and a.depth >= 4
    assert a.line[0] == a.best
    timed = Engine(level=8).best_move(g, time=0.05)
    assert timed in g.legal_moves()
    assert abs(e.evaluate(g)) < 1.0
    assert e.analyse(g).unit == "men"
    with pytest.raises(tablier.InvalidInput):
        Engine(level=99)
    with pytest.raises(ValueError):
        e.best_move(g, time=-1)


def test_engine_wins_a_won_ending():
    g = Game(fen="W:WK46,K5:B4")  # two kings against one
    assert Engine(level=5).best_move(g) is not None
