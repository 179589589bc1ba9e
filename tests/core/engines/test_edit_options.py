"""replaceFirst / replaceAll options: regex, caseSensitive, wholeWord, expectedCount."""

from __future__ import annotations

import json
from typing import Any

import pytest

from llm_operator.core.engines.edits import apply_edits
from llm_operator.core.errors import OperatorError

TEXT = "Foo foo food\nfoo_bar = foo(1)\nFOO = 2\n"


def doc(*edits: dict[str, Any]) -> str:
    return json.dumps({"version": 1, "edits": list(edits)})


def run(**edit: Any) -> str:
    return apply_edits(TEXT, doc(edit)).text


def failure(text: str, *edits: dict[str, Any]) -> OperatorError:
    with pytest.raises(OperatorError) as caught:
        apply_edits(text, doc(*edits))
    return caught.value


# -- defaults stay exact --------------------------------------------------------------


def test_defaults_match_exactly_and_case_sensitively() -> None:
    assert run(op="replaceAll", find="foo", text="X") == "Foo X Xd\nX_bar = X(1)\nFOO = 2\n"


def test_plain_find_with_regex_characters_is_literal_without_regex() -> None:
    result = apply_edits("a.b axb\n", doc({"op": "replaceAll", "find": "a.b", "text": "Y"}))
    assert result.text == "Y axb\n"


# -- caseSensitive -----------------------------------------------------------------------


def test_case_insensitive_replace_all() -> None:
    out = run(op="replaceAll", find="foo", text="x", caseSensitive=False)
    assert out == "x x xd\nx_bar = x(1)\nx = 2\n"


def test_case_insensitive_replace_first_takes_the_first_in_any_case() -> None:
    assert run(op="replaceFirst", find="FOO", text="x", caseSensitive=False).startswith("x foo")


def test_case_sensitive_true_is_the_default_behaviour() -> None:
    assert run(op="replaceFirst", find="FOO", text="x", caseSensitive=True).endswith("x = 2\n")


# -- wholeWord ---------------------------------------------------------------------------


def test_whole_word_skips_matches_inside_words() -> None:
    out = run(op="replaceAll", find="foo", text="baz", wholeWord=True)
    # "food" and "foo_bar" hold foo inside a word; "Foo"/"FOO" differ in case.
    assert out == "Foo baz food\nfoo_bar = baz(1)\nFOO = 2\n"


def test_whole_word_with_case_insensitive() -> None:
    out = run(op="replaceAll", find="foo", text="baz", wholeWord=True, caseSensitive=False)
    assert out == "baz baz food\nfoo_bar = baz(1)\nbaz = 2\n"


def test_whole_word_find_with_punctuation_is_literal() -> None:
    result = apply_edits(
        "x(1) xx(1)\n", doc({"op": "replaceAll", "find": "x(1)", "text": "y", "wholeWord": True})
    )
    assert result.text == "y xx(1)\n"


def test_whole_word_with_no_whole_match_is_anchor_not_found() -> None:
    error = failure("food\n", {"op": "replaceFirst", "find": "foo", "text": "x", "wholeWord": True})
    assert error.code == "ERR_ANCHOR_NOT_FOUND"
    assert "whole words" in error.message
    assert error.details["edit"] == 0


# -- regex -------------------------------------------------------------------------------


def test_regex_with_numbered_groups() -> None:
    out = run(op="replaceAll", find=r"foo\((\d+)\)", text=r"bar(\1, \1)", regex=True)
    assert "foo_bar = bar(1, 1)\n" in out


def test_regex_with_named_groups() -> None:
    text = "a = 1\nb = 2\n"
    edit = {
        "op": "replaceAll",
        "find": r"^(?P<name>\w+) = (?P<value>\d+)$",
        "text": r"\g<value> = \g<name>",
        "regex": True,
    }
    assert apply_edits(text, doc(edit)).text == "1 = a\n2 = b\n"


def test_regex_caret_matches_at_each_line_and_dot_stays_on_a_line() -> None:
    text = "x1\nx2\n"
    edit = {"op": "replaceAll", "find": "^x.*", "text": "y", "regex": True}
    assert apply_edits(text, doc(edit)).text == "y\ny\n"


def test_regex_replace_first_changes_only_the_first() -> None:
    out = run(op="replaceFirst", find=r"f\w+", text="Z", regex=True)
    assert out == "Foo Z food\nfoo_bar = foo(1)\nFOO = 2\n"


def test_regex_combined_with_case_and_whole_word() -> None:
    out = run(
        op="replaceAll", find="fo+", text="Q", regex=True, caseSensitive=False, wholeWord=True
    )
    assert out == "Q Q food\nfoo_bar = Q(1)\nQ = 2\n"


def test_without_regex_backslashes_in_text_are_literal() -> None:
    out = apply_edits("a\n", doc({"op": "replaceFirst", "find": "a", "text": r"\1\n"})).text
    assert out == "\\1\\n\n"


def test_regex_no_match_is_anchor_not_found_saying_regex() -> None:
    error = failure(TEXT, {"op": "replaceAll", "find": r"zz\d", "text": "", "regex": True})
    assert error.code == "ERR_ANCHOR_NOT_FOUND"
    assert "as regex" in error.message


# -- expectedCount -----------------------------------------------------------------------


def test_expected_count_that_matches_applies() -> None:
    out = run(op="replaceAll", find="foo", text="x", expectedCount=4)
    assert out == "Foo x xd\nx_bar = x(1)\nFOO = 2\n"


def test_expected_count_mismatch_names_the_real_count_and_lines() -> None:
    error = failure(TEXT, {"op": "replaceAll", "find": "foo", "text": "x", "expectedCount": 2})
    assert error.code == "ERR_COUNT_MISMATCH"
    assert "expectedCount is 2" in error.message
    assert "matches 4 times" in error.message
    assert "lines 1, 1, 2, 2" in error.message
    assert error.details == {"edit": 0, "expected": 2, "count": 4, "lines": [1, 1, 2, 2]}


def test_expected_count_counts_with_the_options() -> None:
    edit = {"op": "replaceAll", "find": "foo", "text": "x", "caseSensitive": False}
    error = failure(TEXT, {**edit, "expectedCount": 3})
    assert "matches 6 times" in error.message
    assert "ignoring case" in error.message


def test_expected_count_mismatch_in_a_later_edit_leaves_nothing_applied() -> None:
    first = {"op": "replaceFirst", "find": "Foo", "text": "Bar"}
    second = {"op": "replaceAll", "find": "foo", "text": "x", "expectedCount": 9}
    error = failure(TEXT, first, second)
    assert error.code == "ERR_COUNT_MISMATCH"
    assert error.details["edit"] == 1


@pytest.mark.parametrize("value", [0, -1, "3", 1.5])
def test_expected_count_must_be_a_whole_number_of_one_or_more(value: Any) -> None:
    error = failure(TEXT, {"op": "replaceAll", "find": "foo", "text": "x", "expectedCount": value})
    assert error.code == "ERR_INVALID_EDITS_JSON"
    assert "edit 0 (replaceAll)" in error.message
    assert "expectedCount" in error.message


def test_expected_count_is_not_a_replace_first_field() -> None:
    error = failure(TEXT, {"op": "replaceFirst", "find": "foo", "text": "x", "expectedCount": 1})
    assert error.code == "ERR_INVALID_EDITS_JSON"
    assert "unknown field 'expectedCount'" in error.message


# -- bad options and patterns ------------------------------------------------------------


@pytest.mark.parametrize("name", ["regex", "caseSensitive", "wholeWord"])
def test_options_must_be_json_booleans(name: str) -> None:
    error = failure(TEXT, {"op": "replaceAll", "find": "foo", "text": "x", name: "true"})
    assert error.code == "ERR_INVALID_EDITS_JSON"
    assert f"{name} must be true or false" in error.message


def test_bad_pattern_names_the_edit_and_what_is_wrong() -> None:
    good = {"op": "replaceFirst", "find": "Foo", "text": "Bar"}
    bad = {"op": "replaceAll", "find": "foo(bar", "text": "x", "regex": True}
    error = failure(TEXT, good, bad)
    assert error.code == "ERR_INVALID_REGEX"
    assert error.message.startswith(
        "edit 1 (replaceAll): find pattern 'foo(bar' is not valid RE2 syntax (missing ): foo(bar"
    )
    assert error.details["edit"] == 1


def test_bad_pattern_is_quoted_as_written_with_whole_word() -> None:
    bad = {"op": "replaceAll", "find": "ab[", "text": "x", "regex": True, "wholeWord": True}
    error = failure(TEXT, bad)
    assert error.code == "ERR_INVALID_REGEX"
    assert "find pattern 'ab[' is not valid RE2 syntax (missing ]: [" in error.message


@pytest.mark.parametrize(
    ("pattern", "hint"),
    [
        (r"(a)\1", "backreferences (\\1)"),
        ("(?=foo)", "lookahead (?=...) is not supported"),
        ("(?<!x)foo", "negative lookbehind (?<!...) is not supported"),
        (r"foo\Z", "write \\z for the end of the text"),
        ("a++", "possessive repeats"),
    ],
)
def test_constructs_re2_lacks_are_named_with_what_to_do(pattern: str, hint: str) -> None:
    error = failure(TEXT, {"op": "replaceAll", "find": pattern, "text": "y", "regex": True})
    assert error.code == "ERR_INVALID_REGEX"
    assert hint in error.message
    assert "RE2" in error.message


def test_bad_group_reference_in_text_is_refused_before_anything_runs() -> None:
    bad = {"op": "replaceAll", "find": "(foo)", "text": r"\2", "regex": True}
    error = failure("no match here\n", bad)
    assert error.code == "ERR_INVALID_EDITS_JSON"
    assert "text template is not valid" in error.message
    assert "invalid group reference 2" in error.message


def test_unknown_group_name_in_text_is_refused() -> None:
    bad = {"op": "replaceFirst", "find": "(?P<a>foo)", "text": r"\g<b>", "regex": True}
    assert "text template" in failure(TEXT, bad).message


@pytest.mark.parametrize("pattern", ["x*", "a|", "^", r"\b"])
def test_pattern_matching_empty_text_is_refused(pattern: str) -> None:
    error = failure(TEXT, {"op": "replaceAll", "find": pattern, "text": "y", "regex": True})
    assert error.code == "ERR_INVALID_EDITS_JSON"
    assert "empty text" in error.message


def test_boundary_only_pattern_matching_empty_in_the_text_is_refused() -> None:
    error = failure(TEXT, {"op": "replaceAll", "find": r"\bfoo|\b", "text": "y", "regex": True})
    assert error.code == "ERR_INVALID_EDITS_JSON"
    assert "matches empty text at line 1" in error.message


def test_the_format_message_lists_the_new_fields() -> None:
    error = failure(TEXT, {"op": "replaceAll", "find": "foo", "text": "x", "whole": True})
    assert "regex (optional)" in error.message
    assert "expectedCount (optional)" in error.message
