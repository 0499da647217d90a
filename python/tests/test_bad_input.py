"""Bad input: every constructor and every play refuses malformed text with a Python
exception naming the problem, and nothing panics across the FFI."""

import random
import subprocess
import sys

import pytest

import tablier
from tablier.backgammon import Match
from tablier.draughts import Game
from tablier.trictrac import Partie

GARBAGE = [
    "", " ", "x", "-", "--", "1-", "-1", "0-0", "99-98", "1x", "x1x", "W:", "B:W", "W:W0",
    "W:W51", "W:Wa11", "W:W1-", "W:W5-1", "W:WK", "W:W1,1", "\x00", "é", "🂡", "1" * 500,
    "32-28" * 50, "XGID=", "XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:1:0:99",
    ":", "4HPwATDgc/ABMA", "4HPwATDgc/ABMA:", "!!!!!!!!!!!!!!:AAAAAAAAAAAA", "1W15",
    "1W16-24B15", "1W15-24B15-3W1", "25W15", "1X15", "mark", "mark -1", "mark 99999999999",
    "warn x", "ecole", "resign huge", "opening 7-1", "13/0", "bar/", "25/24*", "off/3",
    '{"game":"trictrac"}', "[Event", '[FEN "W:W99"]\n1. 32-28 *',
]


def _refused(call):
    try:
        call()
    except (tablier.TablierError, ValueError, TypeError):
        return True
    return False


@pytest.mark.parametrize("text", GARBAGE)
def test_constructors_refuse_malformed_text(text):
    for call in (
        lambda: Game(fen=text),
        lambda: Game(variant=text),
        lambda: Game.from_pdn(text),
        lambda: Match.from_id(text),
        lambda: Match.from_mat(text),
        lambda: Partie(position=text),
        lambda: Partie(marking=text),
        lambda: Partie.replay(text),
    ):
        try:
            call()
        except tablier.TablierError as e:
            assert str(e), "the exception names the problem"
        except (ValueError, TypeError):
            pass


def test_messages_name_the_problem():
    with pytest.raises(tablier.InvalidInput, match='unknown variant "chess"'):
        Game("chess")
    with pytest.raises(tablier.InvalidInput, match="FEN"):
        Game(fen="W:W99")
    with pytest.raises(tablier.InvalidInput, match="GNUbgID"):
        Match.from_id("nonsense")
    with pytest.raises(tablier.InvalidInput, match="position"):
        Partie(position="1W16-24B15")
    with pytest.raises(tablier.InvalidInput, match=".mat"):
        Match.from_mat("not a match file")
    with pytest.raises(tablier.InvalidInput, match="record"):
        Partie.replay("{}")
    with pytest.raises(tablier.InvalidInput, match="dice"):
        Match().roll((0, 7))
    with pytest.raises(tablier.InvalidInput, match="level"):
        tablier.draughts.Engine(level=200)


@pytest.mark.parametrize("text", GARBAGE)
def test_play_refuses_malformed_text_and_changes_nothing(text):
    g = Game()
    m = Match()
    m.roll((3, 1))
    p = Partie()
    p.roll((6, 5))
    q = Partie(marking="ecoles")
    q.roll((6, 5))
    for obj, state in ((g, lambda: g.fen), (m, lambda: m.gnubg_id), (p, lambda: repr(p)),
                       (q, lambda: repr(q))):
        before = state()
        try:
            obj.play(text)
        except tablier.TablierError as e:
            assert str(e)
            assert state() == before
    for obj in (m, p):
        try:
            obj.roll(text)
        except tablier.TablierError:
            pass


def test_random_text_never_panics():
    """PyO3 turns a Rust panic into pyo3_runtime.PanicException (a BaseException): none may
    escape from any parser."""
    rng = random.Random(11)
    alphabet = "0123456789-x/:*WBKwb,() bar off mark go stay XGID=\n"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        for call in (
            lambda: Game(fen=text),
            lambda: Game("english", text),
            lambda: Game().play(text),
            lambda: Match.from_id(text),
            lambda: Partie(position=text),
            lambda: Partie().play(text),
        ):
            try:
                call()
            except Exception:
                pass


def test_the_interpreter_survives_bad_input():
    """A panic with panic=abort would kill the process: run the worst inputs in a child."""
    code = (
        "import tablier\n"
        "from tablier.draughts import Game\n"
        "from tablier.backgammon import Match\n"
        "from tablier.trictrac import Partie\n"
        "for t in %r:\n"
        "    for f in (lambda: Game(fen=t), lambda: Match.from_id(t), "
        "lambda: Partie(position=t), lambda: Game().perft(30)):\n"
        "        try: f()\n"
        "        except Exception: pass\n"
        "print('alive')\n" % (GARBAGE,)
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "alive", r.stderr
