"""The README's Python examples (its "## Python" section) and the modules' docstrings, run
as doctests."""

import doctest
import pathlib
import re

import pytest

import tablier
from tablier import backgammon, draughts, trictrac

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def python_blocks():
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_readme_has_an_example_per_game():
    blocks = python_blocks()
    joined = "\n".join(blocks)
    for name in ("tablier.draughts", "tablier.backgammon", "tablier.trictrac", "openspiel"):
        assert name in joined
    assert len(blocks) >= 4


@pytest.mark.parametrize("index", range(len(python_blocks())))
def test_readme_examples(index):
    pytest.importorskip("pyspiel")
    block = python_blocks()[index]
    test = doctest.DocTestParser().get_doctest(block, {}, f"README block {index}", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"README block {index} failed (see the output above)"


@pytest.mark.parametrize("module", [tablier, draughts, backgammon, trictrac])
def test_module_docstrings(module):
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
