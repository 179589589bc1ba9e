"""One-line targets that name a definition below the top level, and the refusals that say
what to send instead, on real files (tests/data/structure_real, sources in its README)."""

from __future__ import annotations

from pathlib import Path

import pytest

from llm_operator.core.engines.structure import (
    delete_structure,
    read_structure,
    replace_text_in_structure,
)
from llm_operator.core.engines.structure.targeting import Target
from llm_operator.core.errors import OperatorError
from llm_operator.core.protocol.encoder import failure_outcome

REAL = Path(__file__).parents[3] / "data" / "structure_real"
FILE_LIST = (REAL / "ruby" / "rake-rake-file_list.rb").read_bytes()
LOADER = (REAL / "ruby" / "rake-test-test_rake_rake_test_loader.rb").read_bytes()
CTX = (REAL / "python" / "flask-flask-ctx.py").read_bytes()


def refusal(call: object) -> OperatorError:
    with pytest.raises(OperatorError) as info:
        call()  # type: ignore[operator]
    return info.value


def test_a_method_two_modules_deep_is_found_from_its_definition_line() -> None:
    (match,) = read_structure(FILE_LIST, "fl.rb", ['def ext(newext="")'])["matches"]
    assert match["line_range_inclusive"] == [276, 286]
    assert match["target_matched"] == {"symbol": "Rake/FileList/ext"}


def test_an_edit_through_a_one_line_target_changes_only_that_method() -> None:
    edit = replace_text_in_structure(
        LOADER, "t.rb", ["def test_pattern"], "load @loader", "load(@loader)"
    )
    assert edit.result["target_matched"] == {"symbol": "TestRakeRakeTestLoader/test_pattern"}
    before, after = LOADER.decode().split("\n"), edit.new_source.decode().split("\n")
    changed = [n for n, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert changed
    assert changed == [19]  # line 20, inside test_pattern (lines 12-25)


def test_several_nested_matches_refuse_and_list_their_symbol_paths() -> None:
    error = refusal(lambda: delete_structure(CTX, "ctx.py", ["def pop("]))
    assert error.code == "ERR_TARGET_AMBIGUOUS"
    symbols = [m["symbol"] for m in error.details["matches"]]
    assert symbols == ["_AppCtxGlobals/pop", "AppContext/pop"]
    assert "'symbol: _AppCtxGlobals/pop'" in error.message
    assert "'occurrence: N'" in error.message


def test_occurrence_picks_among_nested_matches() -> None:
    edit = delete_structure(CTX, "ctx.py", Target(["def pop("], occurrence=2))
    assert edit.result["target_matched"] == {"symbol": "AppContext/pop"}
    assert edit.result["deleted_line_range_inclusive"][0] == 446


def test_a_refusal_lists_few_definitions_and_no_statements_or_imports() -> None:
    error = refusal(lambda: read_structure(FILE_LIST, "fl.rb", ["def extension(newext)"]))
    assert error.code == "ERR_TARGET_NOT_FOUND"
    suggestions = error.details["suggestions"]
    assert len(suggestions["nearest"]) <= 5
    assert suggestions["nearest"][0]["symbol"] == "Rake/FileList/ext"
    assert suggestions["next_levels"] == ["module Rake"]  # no require_relative lines
    shown = [e["definition"] for e in suggestions["nearest"]] + suggestions["next_levels"]
    assert not [line for line in shown if line.startswith(("require", "collect"))]


def test_a_refusal_is_short_and_says_so_when_the_target_was_cut() -> None:
    long_line = "def nonexistent_method(with, a, very, long, list, of, arguments)"
    error = refusal(lambda: read_structure(FILE_LIST, "fl.rb", [long_line]))
    assert "only the first 50 characters" in error.message
    assert f"{long_line[:50]!r}..." in error.message
    # Before this change the same refusal carried 3,974 characters of details.
    details = failure_outcome("fs.readStructure", error, "r1").details or ""
    assert len(details) < 1000
    assert error.message not in details


def test_a_nested_target_of_several_lines_still_may_not_skip_levels() -> None:
    error = refusal(lambda: read_structure(FILE_LIST, "fl.rb", ["module Rake", "def ext("]))
    assert error.code == "ERR_TARGET_NOT_FOUND"
    assert "'symbol: Rake/FileList/ext'" in error.message
