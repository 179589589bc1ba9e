"""docs/limits.md lists every limit constant as the code sets it, and the served spec and
docs/protocol.md state the limits they name with the constants' own values."""

from __future__ import annotations

import functools
import importlib.util
from types import ModuleType

import pytest

from support.paths import ROOT, SPEC_FILE


@functools.cache
def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("limits_doc", ROOT / "scripts" / "limits_doc.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def _values() -> dict[tuple[str, str], float]:
    """(module path under src/, constant) -> value, read from the code by the script."""
    return {
        (module, name): float(value.split(" ")[0].replace(",", ""))
        for module, name, value, _written, _why in _script().limits()
    }


# (module, constant, words of the served spec holding its value), "{}" for the value as
# written there: plain (5000) or with thousands commas ({:,}).
SPEC = [
    ("core/actions/search_tree.py", "MAX_MATCHES", "max {} matches"),
    ("core/actions/search_tree.py", "MAX_FILES", "max {} files read per call"),
    ("core/actions/search_tree.py", "MAX_FILE_BYTES", "skip files over {} bytes"),
    ("core/actions/read.py", "LIST_MAX_ENTRIES", "At most {} entries"),
    ("core/actions/read.py", "SEARCH_MAX_MATCHES", "fs.search returns at most {} matches"),
    ("core/actions/outline.py", "MAX_FILES", "At most {} files"),
    ("core/store/files.py", "MAX_READ_BYTES", "({:,} bytes)"),
    ("core/protocol/block_body.py", "MAX_BLOCK_CHARS", "holds at most {:,} characters"),
    ("core/store/commands.py", "DEFAULT_TIMEOUT", "timeout (seconds, default {},"),
    ("core/store/commands.py", "MAX_TIMEOUT", "at most {})"),
]
PROTOCOL = [
    ("core/protocol/scanner.py", "SCAN_LIMIT", "Only the last {:,} characters are scanned"),
    ("core/plan/preview.py", "MAX_REVIEW_LINES", "A diff of more than {:,} lines"),
    ("core/store/memory.py", "MAX_KEPT_DETAILS", "Details over {:,} characters"),
    ("core/work_budget.py", "MAX_DETAILS", "({:,} characters) of result details"),
    ("gui/pages.py", "MAX_SHOWN_CHARS", "at most {:,} characters of a diff line"),
    ("core/store/outline_cache.py", "MAX_ROWS", "at most {:,}, oldest dropped first"),
]


def test_docs_limits_md_is_rendered_from_the_constants() -> None:
    on_disk = (ROOT / "docs" / "limits.md").read_text("utf-8")
    assert on_disk == _script().render(), (
        "docs/limits.md is out of date: python scripts/limits_doc.py --write"
    )


def test_the_table_finds_the_limits_of_every_floor() -> None:
    modules = {module for module, _name in _values()}
    for floor in ("actions", "engines", "plan", "protocol", "store"):
        assert any(m.startswith(f"llm_operator/core/{floor}/") for m in modules), floor
    assert len(_values()) > 60


@pytest.mark.parametrize(("module", "name", "words"), SPEC)
def test_the_served_spec_states_the_constant(module: str, name: str, words: str) -> None:
    value = int(_values()[(f"llm_operator/{module}", name)])
    text = " ".join(SPEC_FILE.read_text("utf-8").split())
    assert words.format(value) in text, f"the spec should say {words.format(value)!r}"


@pytest.mark.parametrize(("module", "name", "words"), PROTOCOL)
def test_the_protocol_doc_states_the_constant(module: str, name: str, words: str) -> None:
    value = int(_values()[(f"llm_operator/{module}", name)])
    text = " ".join((ROOT / "docs" / "protocol.md").read_text("utf-8").split())
    assert words.format(value) in text, f"docs/protocol.md should say {words.format(value)!r}"
