"""No import cycles in the package, counting every import statement wherever it stands.

An import inside a function or under ``if TYPE_CHECKING:`` still ties two modules
together (it runs later, or only for the type checker, but a change to either module can
break the other), so both count. Edges follow import-linter's convention: ``from a.b
import c`` depends on ``a.b.c`` when that is a module, else on ``a.b``; parent packages
that Python imports on the way are not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

from support.paths import ROOT

SOURCE = ROOT / "src"
PACKAGE = "llm_operator"


def module_names() -> dict[str, Path]:
    names: dict[str, Path] = {}
    for path in sorted((SOURCE / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SOURCE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imported_modules(module: str, is_package: bool, source: str, known: set[str]) -> set[str]:
    """The modules of ``known`` that any import statement of ``source`` names."""
    targets: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node)
            for alias in node.names:
                child = f"{base}.{alias.name}"
                targets.add(child if child in known else base)
    return {target for target in targets if target in known and target != module}


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules its import statements name (anywhere in the file)."""
    names = module_names()
    return {
        module: imported_modules(
            module, path.name == "__init__.py", path.read_text("utf-8"), set(names)
        )
        for module, path in names.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def describe(group: list[str], graph: dict[str, set[str]]) -> str:
    members = set(group)
    edges = [f"{a} -> {b}" for a in group for b in sorted(graph[a] & members)]
    return "; ".join(edges)


def test_the_cycle_finder_reports_each_cycle_once() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"f"}, "f": {"e"}, "g": set()}
    assert cycles(graph) == [["a", "b", "c"], ["e", "f"]]


def test_imports_in_functions_and_under_type_checking_count() -> None:
    known = {"p", "p.a", "p.b", "p.c", "p.d", "p.sub", "p.sub.e"}
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import b\n"
        "if TYPE_CHECKING:\n"
        "    from .c import Thing\n"
        "def later() -> None:\n"
        "    import p.d\n"
        "    from .sub.e import run\n"
    )
    assert imported_modules("p.a", False, source, known) == {"p.b", "p.c", "p.d", "p.sub.e"}
    # From a package's __init__, one dot is the package itself.
    assert imported_modules("p.sub", True, "from .e import x\nfrom .. import a\n", known) == {
        "p.sub.e",
        "p.a",
    }


def test_the_package_has_no_import_cycles() -> None:
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(describe(g, graph) for g in found)
