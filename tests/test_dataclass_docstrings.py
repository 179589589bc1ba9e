"""Every dataclass in the package has a docstring.

For a class with no docstring, ``dataclasses`` makes one up while the class is created: the
class name and ``inspect.signature(cls)``, worked out from the fields and their type
annotations. That costs about 0.1 ms a class, paid for every dataclass a run imports, at
every start of the command line. A docstring of our own skips it, and says what the value
is besides.
"""

from __future__ import annotations

import ast
from pathlib import Path

from support.paths import ROOT

PACKAGE = ROOT / "src" / "llm_operator"
DECORATORS = {"dataclass", "dataclasses.dataclass"}


def _is_dataclass(node: ast.ClassDef) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if ast.unparse(target) in DECORATORS:
            return True
    return False


def _undocumented(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
        for node in ast.walk(tree)
        # An empty docstring counts as none: dataclasses tests ``__doc__`` for truth.
        if isinstance(node, ast.ClassDef) and _is_dataclass(node) and not ast.get_docstring(node)
    ]


def test_the_walk_finds_dataclasses() -> None:
    found = [
        node
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and _is_dataclass(node)
    ]
    assert len(found) > 50


def test_every_dataclass_has_a_docstring() -> None:
    missing = [line for path in sorted(PACKAGE.rglob("*.py")) for line in _undocumented(path)]
    assert not missing, "dataclasses without a docstring:\n" + "\n".join(missing)
