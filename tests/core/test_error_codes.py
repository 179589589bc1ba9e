"""The ERR_ code registry against the code that raises and the spec that describes.

Codes are collected from the string literals of the package (read with ``ast``, so that
comments and docstrings, where placeholders such as ERR_X live, do not count), and from
the served spec as it is shipped.
"""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from llm_operator.core.error_codes import ERROR_CODES
from llm_operator.core.errors import OperatorError
from support.paths import ROOT, SPEC_FILE

PACKAGE = ROOT / "src" / "llm_operator"
REGISTRY = PACKAGE / "core" / "error_codes.py"
CODE = re.compile(r"\bERR_[A-Z0-9_]*[A-Z0-9]\b")
SECTIONS = [
    "scanner and validator",
    "paths and files",
    "state store and undo",
    "patch and edits",
    "regions",
    "structure",
    "search and context",
    "running commands",
]


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings of the module, a class or a def."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                found.add(id(body[0].value))
    return found


def codes_in_source(source: str) -> set[str]:
    """Every ERR_ code inside a string literal of ``source`` that is not a docstring."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    codes: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            codes.update(CODE.findall(node.value))
    return codes


@functools.cache
def emitted_codes() -> dict[str, list[str]]:
    """Code -> the package modules (other than the registry) whose literals carry it."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == REGISTRY:
            continue
        for code in codes_in_source(path.read_text("utf-8")):
            found.setdefault(code, []).append(path.relative_to(PACKAGE).as_posix())
    return found


def spec_codes() -> set[str]:
    return set(CODE.findall(SPEC_FILE.read_text("utf-8")))


def registry_sections() -> Iterator[tuple[str, list[str]]]:
    """(section comment, codes in it) in the order of the registry's source."""
    section = ""
    codes: list[str] = []
    for line in REGISTRY.read_text("utf-8").splitlines():
        stripped = line.strip()
        if stripped.startswith("# "):
            if section:
                yield section, codes
            section, codes = stripped[2:], []
        elif section and (match := re.match(r'"(ERR_[A-Z0-9_]+)":', stripped)):
            codes.append(match.group(1))
    if section:
        yield section, codes


def test_the_collector_reads_literals_and_skips_docstrings_and_comments() -> None:
    source = (
        '"""Module text naming ERR_X."""\n'
        "def f() -> None:\n"
        '    """Raises ERR_CODE."""\n'
        '    raise OperatorError("ERR_ONE", f"see ERR_TWO for {x}")  # ERR_THREE\n'
        'TABLE = {"a": "ERR_FOUR"}\n'
    )
    assert codes_in_source(source) == {"ERR_ONE", "ERR_TWO", "ERR_FOUR"}


def test_the_collector_finds_codes_raised_through_tables_and_helpers() -> None:
    emitted = emitted_codes()
    # A direct raise, a code in a ClassVar table, and one passed to a helper function.
    assert "core/store/applying.py" in emitted["ERR_JOURNAL_FAILED"]
    assert "core/actions/regions.py" in emitted["ERR_MISSING_MARKER_ID"]
    assert "core/actions/structure.py" in emitted["ERR_MISSING_DEST_TARGET"]
    assert "ERR_X" not in emitted
    assert "ERR_CODE" not in emitted


def test_every_code_the_package_emits_is_in_the_registry() -> None:
    missing = {code: where for code, where in emitted_codes().items() if code not in ERROR_CODES}
    assert not missing, f"add these to core/error_codes.py (code: modules): {missing}"


def test_every_registry_code_is_emitted_somewhere() -> None:
    unused = sorted(set(ERROR_CODES) - set(emitted_codes()))
    assert not unused, f"registry codes nothing raises: {unused}"


def test_every_registry_code_is_named_in_the_served_spec() -> None:
    missing = sorted(set(ERROR_CODES) - spec_codes())
    assert not missing, f"add these to the error list of resources/interface-spec.txt: {missing}"


def test_every_code_the_spec_names_is_in_the_registry() -> None:
    unknown = sorted(spec_codes() - set(ERROR_CODES))
    assert not unknown, f"the served spec names codes the registry lacks: {unknown}"


def test_the_journal_failure_is_in_the_spec_error_list_with_its_meaning() -> None:
    lines = SPEC_FILE.read_text("utf-8").splitlines()
    assert any(line.startswith("- ERR_JOURNAL_FAILED: ") for line in lines)


def test_every_meaning_is_one_short_line() -> None:
    for code, text in ERROR_CODES.items():
        assert text == text.strip(), code
        assert text, code
        assert "\n" not in text, code
        assert len(f'        "{code}": "{text}",') <= 100, f"{code}: meaning too long"


def test_the_registry_is_in_the_agreed_sections_and_each_code_is_listed_once() -> None:
    sections = list(registry_sections())
    assert [name for name, _ in sections] == SECTIONS
    listed = [code for _, codes in sections for code in codes]
    assert sorted(listed) == sorted(ERROR_CODES), "a code is listed twice or outside a section"


def test_in_tests_an_unregistered_code_fails_where_it_is_raised() -> None:
    with pytest.raises(AssertionError, match=r"ERR_NOT_A_CODE is not in core/error_codes\.py"):
        OperatorError("ERR_NOT_A_CODE", "a typo")


def test_at_run_time_an_unregistered_code_is_reported_not_raised() -> None:
    script = (
        "from llm_operator.core.errors import OperatorError\n"
        "from llm_operator.core.protocol.encoder import failure_outcome\n"
        "print(failure_outcome('fs.read', OperatorError('ERR_TYPO', 'x'), 'r-1').summary)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "fs.read failed (ERR_TYPO): x"
