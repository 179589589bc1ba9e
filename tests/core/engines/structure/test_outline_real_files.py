"""outline_structures over real files of public repositories (tests/data/structure_real,
sources and licences in its README): every language gives a sensible map."""

from __future__ import annotations

from pathlib import Path

import pytest

from llm_operator.core.engines.structure import language_for_path, outline_structures
from support.examples import everyday_share
from support.paths import DATA

REAL = DATA / "structure_real"
FILES = sorted(p for p in REAL.rglob("*") if p.is_file() and language_for_path(p.name))
# Files that hold no definition a reader navigates by (a shell script of plain commands).
NO_DEFINITIONS = {"bash/ripgrep-complete-encodings.sh"}


def rel(path: Path) -> str:
    return path.relative_to(REAL).as_posix()


# A quarter of each language's files in the everyday run, all of them in the slow stage.
SHARE = everyday_share(FILES, rel, group=lambda p: language_for_path(p.name))


@pytest.mark.parametrize("path", SHARE)
def test_every_entry_is_a_range_holding_its_definition_line(path: Path) -> None:
    outline = outline_structures(path.read_bytes(), path.name, depth=3)
    lines = path.read_text("utf-8").removeprefix("\ufeff").split("\n")
    if rel(path) not in NO_DEFINITIONS:
        assert outline.entries, f"{rel(path)}: nothing outlined"
    parents: list[tuple[int, int]] = []
    for entry in outline.entries:
        assert 1 <= entry.start <= entry.end <= outline.line_count
        span = [line.strip() for line in lines[entry.start - 1 : entry.end]]
        assert entry.line in span, entry
        del parents[entry.depth :]
        assert len(parents) == entry.depth, f"{entry} skips a level"
        if parents:
            start, end = parents[-1]
            assert start <= entry.start, f"{entry} starts before its parent"
            assert entry.end <= end, f"{entry} ends after its parent"
        parents.append((entry.start, entry.end))


def test_depth_one_is_the_top_level_of_depth_three() -> None:
    for path in FILES:
        data = path.read_bytes()
        deep = outline_structures(data, path.name, depth=3).entries
        top = outline_structures(data, path.name, depth=1).entries
        # What lies deeper is counted only where the limit cuts: compare the rest.
        same = [(e.depth, e.start, e.end, e.line, e.symbol) for e in top]
        assert same == [(e.depth, e.start, e.end, e.line, e.symbol) for e in deep if e.depth == 0]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "java/gson-annotations-SerializedName.java",
            ["25-101: public @interface SerializedName {"],
        ),
        (
            "csharp/Newtonsoft.Json-Issues-Issue1569.cs",
            [
                "43-123: public class Issue1569 : TestFixtureBase",
                "  46-61: public async Task Test()",
                "  63-122: public class AsyncOnlyStream : Stream",
            ],
        ),
        (
            "javascript/express-lib-view.js",
            [
                "52-95: function View(name, options) {",
                "104-123: View.prototype.lookup = function lookup(name) {",
            ],
        ),
        (
            "rust/ripgrep-src-error.rs",
            [
                "1-9: pub struct Error {",
                "11-37: impl Error {",
                "  12-14: pub(crate) fn new(kind: ErrorKind) -> Error {",
            ],
        ),
    ],
)
def test_real_file_outlines_start_as_a_reader_expects(name: str, expected: list[str]) -> None:
    path = REAL / name
    rendered = [e.render() for e in outline_structures(path.read_bytes(), path.name).entries]
    assert rendered[: len(expected)] == expected


@pytest.mark.parametrize("path", SHARE)
def test_every_symbol_an_outline_gives_reads_back_exactly_its_entry(path: Path) -> None:
    from llm_operator.core.engines.structure import read_structure, symbol_target

    data = path.read_bytes()
    outline = outline_structures(data, path.name, depth=3)
    for entry in [e for e in outline.entries if e.symbol]:
        found = read_structure(data, path.name, symbol_target(entry.symbol or ""))["matches"]
        assert [m["line_range_inclusive"] for m in found] == [[entry.start, entry.end]], entry


DATA_LANGUAGES = {"css", "html", "json", "toml", "yaml"}  # keys and rules, not definitions


def test_most_definitions_of_the_real_files_have_a_symbol() -> None:
    code = [p for p in FILES if p.parent.name not in DATA_LANGUAGES]
    entries = [e for p in code for e in outline_structures(p.read_bytes(), p.name, 3).entries]
    named = [e for e in entries if e.symbol]
    # Measured 2026-11-29: 1,124 of 1,243 (90%); the rest share a name and scope with
    # no index to tell them apart, or have no name (a Go ``type (`` group, a C++ template).
    assert len(named) >= 0.85 * len(entries), (len(named), len(entries))


def test_an_entry_cut_at_the_depth_limit_counts_what_lies_inside() -> None:
    data = (REAL / "ruby" / "rake-rake-file_list.rb").read_bytes()
    shallow = outline_structures(data, "fl.rb", depth=2).entries
    assert [(e.line, e.deeper, e.deepest) for e in shallow if e.deeper] == [
        ("class FileList", 30, 4),
        ("class << self", 2, 3),
    ]
    assert shallow[1].render(symbols=True) == (
        "  8-411: class FileList  (symbol: Rake/FileList; +30 inside)"
    )
    assert shallow[1].render() == "  8-411: class FileList"  # the pack's outline is unchanged
    full = outline_structures(data, "fl.rb", depth=4).entries
    assert not [e for e in full if e.deeper]
    assert len(full) == len(shallow) + 32
