"""The type stubs (.pyi) name what the modules really have."""

import ast
import importlib
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "tablier"


@pytest.mark.parametrize("name", ["draughts", "backgammon", "trictrac", "_tablier"])
def test_stub_names_exist(name):
    module = importlib.import_module(f"tablier.{name}")
    tree = ast.parse((PACKAGE / f"{name}.pyi").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            cls = getattr(module, node.name)
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("__"):
                    assert hasattr(cls, item.name), f"{name}.{node.name}.{item.name}"
                elif isinstance(item, ast.AnnAssign):
                    assert hasattr(cls, item.target.id), f"{name}.{node.name}.{item.target.id}"
        elif isinstance(node, ast.FunctionDef):
            assert hasattr(module, node.name), f"{name}.{node.name}"
