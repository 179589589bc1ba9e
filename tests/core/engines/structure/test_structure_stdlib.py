"""Real-world round trip over the Python standard library that ships with the interpreter.

For every top-level function and class and every method of a top-level class in a fixed
sample of modules, reading the structure by its definition line returns exactly the
range ``ast`` reports (decorators included, extended over the comment lines directly
above), and replacing it with that text dedented (the indentation common to its lines
removed) leaves the file byte-identical.
"""

from __future__ import annotations

import ast
import sysconfig
from pathlib import Path

import pytest

from llm_operator.core.engines.structure import read_structure, replace_structure
from llm_operator.core.engines.structure.source import parser_for
from llm_operator.core.errors import OperatorError

SAMPLE_SIZE = 40


def sample_modules() -> list[Path]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    modules = sorted(stdlib.glob("*.py"), key=lambda p: p.name)
    stride = max(1, len(modules) // SAMPLE_SIZE)
    return modules[::stride][:SAMPLE_SIZE]


def expected_range(lines: list[str], node: ast.stmt) -> tuple[int, int]:
    start = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
    indent = lines[start - 1][: len(lines[start - 1]) - len(lines[start - 1].lstrip())]
    while start > 1:
        above = lines[start - 2]
        if not above.strip().startswith("#") or not above.startswith(indent):
            break
        if above[len(indent) :].startswith((" ", "\t")) or (start == 2 and above.startswith("#!")):
            break
        start -= 1
    assert node.end_lineno is not None
    return start, node.end_lineno


def dedent(text: str) -> str:
    """Remove the indentation common to the non-blank lines (whitespace-only lines stay)."""
    lines = text.split("\n")
    indents = [line[: len(line) - len(line.lstrip())] for line in lines if line.strip()]
    common = indents[0]
    for indent in indents[1:]:
        while not indent.startswith(common):
            common = common[:-1]
    return "\n".join(line[len(common) :] if line.strip() else line for line in lines)


def definitions(tree: ast.Module) -> list[tuple[list[ast.stmt], ast.stmt]]:
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    found: list[tuple[list[ast.stmt], ast.stmt]] = []
    for node in tree.body:
        if isinstance(node, kinds):
            found.append(([], node))
        if isinstance(node, ast.ClassDef):
            found.extend(([node], child) for child in node.body if isinstance(child, kinds[:2]))
    return found


@pytest.mark.slow
def test_stdlib_round_trip() -> None:
    files = checked = identical = ambiguous = 0
    failures: list[str] = []
    for path in sample_modules():
        data = path.read_bytes()
        try:
            text = data.decode("utf-8")
            tree = ast.parse(text)
        except (UnicodeDecodeError, SyntaxError):
            continue
        if parser_for("python").parse(data).root_node.has_error:
            continue
        files += 1
        lines = text.split("\n")
        for parents, node in definitions(tree):
            target = [lines[p.lineno - 1].strip() for p in [*parents, node]]
            start, end = expected_range(lines, node)
            matches = read_structure(data, path.name, target)["matches"]
            found = [m["line_range_inclusive"] for m in matches]
            if len(matches) > 1:
                ambiguous += 1
                assert [start, end] in found, (path.name, target, found)
                with pytest.raises(OperatorError) as info:
                    replace_structure(data, path.name, target, "pass")
                assert info.value.code == "ERR_TARGET_AMBIGUOUS"
                continue
            checked += 1
            if found != [[start, end]]:
                failures.append(f"{path.name} {target}: {found} != {[start, end]}")
                continue
            content = dedent(matches[0]["text"])
            edit = replace_structure(data, path.name, target, content)
            if edit.new_source == data:
                identical += 1
            else:
                failures.append(f"{path.name} {target}: replace changed the file")
    print(
        f"\nstdlib round trip: {files} files, {checked} structures checked, "
        f"{identical} byte-identical round trips, {ambiguous} ambiguous skipped"
    )
    assert not failures, "\n".join(failures[:20])
    assert files >= 30
    assert checked >= 1000
    assert identical == checked
