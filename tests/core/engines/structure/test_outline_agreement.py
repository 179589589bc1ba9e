"""The outline and the reading and editing actions see each file the same way: one parse
(grammar, C++ for a header that needs it, macro masking), the same structures and the same
ranges. Checked on every file under tests/data that a structure grammar reads (the real
ones' sources and licences are in the READMEs beside them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from llm_operator.core.engines.structure import (
    OutlineEntry,
    language_for_path,
    outline_structures,
    read_structure,
    symbol_target,
)
from llm_operator.core.engines.structure.boundaries import structure_range
from llm_operator.core.engines.structure.source import load_source
from llm_operator.core.engines.structure.targeting import name_of, structure_at_row
from llm_operator.core.errors import OperatorError
from support.examples import everyday_share
from support.paths import DATA

FILES = sorted(p for p in DATA.rglob("*") if p.is_file() and language_for_path(p.name))


def rel(path: Path) -> str:
    return path.relative_to(DATA).as_posix()


# A quarter of each language's files in the everyday run, all of them in the slow stage.
SHARE = everyday_share(FILES, rel, group=lambda p: language_for_path(p.name))


def test_the_files_cover_every_language_family() -> None:
    languages = {language_for_path(p.name) for p in FILES}
    assert {"c", "cpp", "python", "javascript", "csharp", "go", "kotlin", "ruby"} <= languages


@pytest.mark.parametrize("path", SHARE)
def test_every_outline_range_is_the_range_the_edit_actions_use(path: Path) -> None:
    data = path.read_bytes()
    outline = outline_structures(data, path.name, depth=3)
    source = load_source(data, path.name)
    assert outline.language == source.spec.name
    assert outline.parse_errors == min(len(source.errors), 20)
    for entry in outline.entries:
        rows = range(entry.start - 1, entry.end)
        row = next(r for r in rows if source.lines[r].strip() == entry.line)
        found = structure_at_row(source, row)
        assert found is not None, f"{rel(path)}: the edit actions see no structure at {entry}"
        first, last = structure_range(source, found.node)
        assert (first + 1, last + 1) == (entry.start, entry.end), f"{rel(path)}: {entry}"


def _outlined(path: Path) -> list[tuple[OutlineEntry, list[str], list[str] | None]]:
    """Each outline entry, the outline lines of it and its parents (the target a reader
    of the outline writes), and their grammar names (None where a level has none)."""
    data = path.read_bytes()
    source = load_source(data, path.name)
    found: list[tuple[OutlineEntry, list[str], list[str] | None]] = []
    lines: list[str] = []
    names: list[str | None] = []
    for entry in outline_structures(data, path.name, depth=3).entries:
        rows = range(entry.start - 1, entry.end)
        row = next(r for r in rows if source.lines[r].strip() == entry.line)
        structure = structure_at_row(source, row)
        assert structure is not None
        del lines[entry.depth :], names[entry.depth :]
        lines.append(entry.line)
        names.append(name_of(source, structure.node))
        symbol = None if None in names else [n for n in names if n is not None]
        found.append((entry, list(lines), symbol))
    return found


def _spans(data: bytes, name: str, target: list[str]) -> list[list[int]] | None:
    """The ranges read at ``target``; None for a definition broken by a syntax error,
    which the outline shows and the edit actions refuse to touch."""
    try:
        read = read_structure(data, name, target)
    except OperatorError as exc:
        if exc.code == "ERR_PARSER_FAILED":
            return None
        raise
    return [m["line_range_inclusive"] for m in read["matches"]]


@pytest.mark.parametrize("path", SHARE)
def test_every_outline_entry_is_read_by_the_lines_the_outline_shows(path: Path) -> None:
    data = path.read_bytes()
    for entry, lines, _ in _outlined(path):
        spans = _spans(data, path.name, lines)
        if spans is None:
            continue
        # Several identical lines: the outline lists them in file order, as occurrence counts.
        assert [entry.start, entry.end] in spans, f"{rel(path)}: {lines} gives {spans}"


@pytest.mark.parametrize("path", SHARE)
def test_every_named_outline_entry_is_read_by_its_symbol(path: Path) -> None:
    data = path.read_bytes()
    named = 0
    for entry, _, symbol in _outlined(path):
        if symbol is None or any("/" in name for name in symbol):
            continue
        named += 1
        spans = _spans(data, path.name, symbol_target("/".join(symbol)))
        if spans is None:
            continue
        assert [entry.start, entry.end] in spans, f"{rel(path)}: {symbol} gives {spans}"


@pytest.mark.parametrize(
    ("name", "lines", "symbol", "span"),
    [
        # A def under ``if sys.platform == "win32":`` (psf/requests).
        (
            "python/requests-requests-utils.py",
            ["def proxy_bypass(host: str) -> bool:  # noqa"],
            "proxy_bypass",
            [137, 146],
        ),
        # Members of a class under a C# ``#if`` (JamesNK/Newtonsoft.Json).
        (
            "csharp/Newtonsoft.Json-Issues-Issue1569.cs",
            ["public class Issue1569 : TestFixtureBase", "public async Task Test()"],
            "Issue1569/Test",
            [46, 61],
        ),
        # An accessor of an object literal (koajs/koa).
        ("javascript/koa-lib-request.js", ["module.exports = {", "get url () {"], "", [77, 79]),
        ("javascript/koa-lib-context.js", [], "proto/toJSON", [47, 57]),
        # A type spec of a grouped ``type ( ... )`` (urfave/cli).
        (
            "go/cli-flag_int.go",
            ["type (", "Int8Flag  = FlagBase[int8, IntegerConfig, intValue[int8]]"],
            "Int8Flag",
            [10, 10],
        ),
        # A Kotlin companion object and its function (InsertKoinIO/koin).
        (
            "kotlin/koin-mock-MockProviderRule.kt",
            ["class MockProviderRule private", "companion object {"],
            "MockProviderRule/Companion",
            [32, 36],
        ),
        (
            "kotlin/koin-mock-MockProviderRule.kt",
            ["class MockProviderRule private", "companion object {", "fun create("],
            "MockProviderRule/Companion/create",
            [33, 35],
        ),
    ],
)
def test_the_issue_cases_are_targeted_by_line_and_symbol(
    name: str, lines: list[str], symbol: str, span: list[int]
) -> None:
    data = (DATA / "structure_real" / name).read_bytes()
    if lines:
        read = read_structure(data, name, lines)
        assert [m["line_range_inclusive"] for m in read["matches"]] == [span]
    if symbol:
        read = read_structure(data, name, symbol_target(symbol))
        assert [m["line_range_inclusive"] for m in read["matches"]] == [span]
    entries = outline_structures(data, name, depth=3).entries
    assert any((e.start, e.end) == tuple(span) for e in entries)
