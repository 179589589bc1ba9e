"""Gitignore-style patterns compiled in chunks keep git's rule: the last matching line
decides, across chunk boundaries; a bad line is left out (or named, for glob/exclude)."""

from __future__ import annotations

import pytest

from llm_operator.core.store.ignores import (
    CHUNK_LINES,
    PatternProblem,
    compile_lenient,
    compile_patterns,
)


def test_the_last_matching_line_decides_across_chunks() -> None:
    filler = [f"nothing{i}/" for i in range(CHUNK_LINES)]
    lines = ["*.log", *filler, "!keep.log", *filler, "again/"]
    patterns = compile_lenient(lines)
    assert patterns.check("other.log") is True
    assert patterns.check("keep.log") is False
    assert patterns.check("again/") is True
    assert patterns.check("src/main.py") is None


@pytest.mark.slow
def test_ten_thousand_lines_compile() -> None:
    patterns = compile_lenient([f"pattern{i}/" for i in range(10_000)] + ["*.tmp"])
    assert patterns.match("a.tmp")
    assert patterns.match("pattern9999/")
    assert not patterns.match("pattern10000/")


def test_a_bad_line_is_left_out_or_named() -> None:
    assert compile_lenient(["[z-a]", "*.py"]).match("a.py")
    with pytest.raises(PatternProblem) as caught:
        compile_patterns(["*.py", "[z-a]"])
    assert caught.value.pattern == "[z-a]"


def test_hostile_patterns_match_in_linear_time() -> None:
    patterns = compile_lenient(["*a" * 15 + "*b", "*?" * 100 + "c"])
    assert not patterns.match("a" * 50_000)
