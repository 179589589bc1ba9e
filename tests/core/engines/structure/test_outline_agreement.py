"""The outline and the reading and editing actions see each file the same way: one parse
(grammar, C++ for a header that needs it, macro masking), the same structures and the same
ranges. Checked on every file under tests/data that a structure grammar reads (the real
ones' sources and licences are in the READMEs beside them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from llm_operator.core.engines.structure import language_for_path, outline_structures
from llm_operator.core.engines.structure.boundaries import structure_range
from llm_operator.core.engines.structure.source import load_source
from llm_operator.core.engines.structure.targeting import structure_at_row
from support.paths import DATA

FILES = sorted(p for p in DATA.rglob("*") if p.is_file() and language_for_path(p.name))


def rel(path: Path) -> str:
    return path.relative_to(DATA).as_posix()


def test_the_files_cover_every_language_family() -> None:
    languages = {language_for_path(p.name) for p in FILES}
    assert {"c", "cpp", "python", "javascript", "csharp", "go", "kotlin", "ruby"} <= languages


@pytest.mark.parametrize("path", FILES, ids=rel)
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
