"""Layering (issue 7): geometry reads no files, rules do not depend on the bots.

``grid`` is pure geometry: loading the terrain table and map files is ``content``'s job
(``content.terrain``, ``content.maps``). ``rules`` never imports ``bots`` (whose turn it is,
``next_seat``, is a rule fact in ``rules.turn_order``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import taistelukentta

PACKAGE = Path(taistelukentta.__file__).parent
FILE_MODULES = ("tomllib", "pathlib", "importlib.resources", "io", "os")
FILE_CALLS = ("open", "read_text", "read_bytes", "write_text", "write_bytes")


def _imports(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def _calls(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            out.add(
                f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            )
    return out


def _modules(subpackage: str) -> list[Path]:
    files = sorted((PACKAGE / subpackage).glob("*.py"))
    assert files, subpackage
    return files


def test_grid_reads_no_files_and_does_not_import_content() -> None:
    for path in _modules("grid"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports = _imports(tree)
        bad = sorted(
            m
            for m in imports
            if m.startswith("taistelukentta.content")
            or any(m == f or m.startswith(f + ".") for f in FILE_MODULES)
        )
        assert not bad, f"{path.name} imports {bad}"
        calls = sorted(_calls(tree) & set(FILE_CALLS))
        assert not calls, f"{path.name} calls {calls}"


def test_rules_do_not_import_the_bots() -> None:
    for path in _modules("rules"):
        imports = _imports(ast.parse(path.read_text(encoding="utf-8")))
        bad = sorted(m for m in imports if m.startswith("taistelukentta.bots"))
        assert not bad, f"{path.name} imports {bad}"
