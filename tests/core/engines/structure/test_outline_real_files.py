"""outline_structures over real files of public repositories (tests/data/structure_real,
sources and licences in its README): every language gives a sensible map."""

from __future__ import annotations

from pathlib import Path

import pytest

from llm_operator.core.engines.structure import language_for_path, outline_structures
from support.paths import DATA

REAL = DATA / "structure_real"
FILES = sorted(p for p in REAL.rglob("*") if p.is_file() and language_for_path(p.name))
# Files that hold no definition a reader navigates by (a shell script of plain commands).
NO_DEFINITIONS = {"bash/ripgrep-complete-encodings.sh"}


def rel(path: Path) -> str:
    return path.relative_to(REAL).as_posix()


@pytest.mark.parametrize("path", FILES, ids=rel)
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
        assert top == tuple(e for e in deep if e.depth == 0), rel(path)


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
