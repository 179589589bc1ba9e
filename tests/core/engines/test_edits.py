"""apply_edits: every op, every decision the module docstring records, every error code."""

from __future__ import annotations

import json
from typing import Any

import pytest

from llm_operator.core.engines.edits import EditsResult, apply_edits
from llm_operator.core.errors import OperatorError

TEXT = "import os\nimport sys\n\ndef main():\n    return 0\n"


def doc(*edits: dict[str, Any], version: Any = 1) -> str:
    return json.dumps({"version": version, "edits": list(edits)})


def edit_error(text: str, edits_json: str) -> OperatorError:
    with pytest.raises(OperatorError) as caught:
        apply_edits(text, edits_json)
    return caught.value


# -- success paths ------------------------------------------------------------------


def test_spec_golden_example() -> None:
    # The spec's fs.applyEdits example, applied to its fs.write example content.
    edits = '{"version":1,"edits":[{"op":"insertAfter","anchor":"Beta","text":"\\nGamma"}]}'
    assert apply_edits("Alpha\nBeta", edits).text == "Alpha\nBeta\nGamma"


def test_insert_after_prepends_newline_when_anchor_ends_a_line() -> None:
    result = apply_edits(TEXT, doc({"op": "insertAfter", "anchor": "import sys", "text": "X"}))
    assert result.text == TEXT.replace("import sys\n", "import sys\nX\n")


def test_insert_after_mid_line_inserts_inline() -> None:
    result = apply_edits("foo(a)\n", doc({"op": "insertAfter", "anchor": "foo(", "text": "x, "}))
    assert result.text == "foo(x, a)\n"


def test_insert_after_anchor_ending_in_newline_inserts_at_line_start() -> None:
    edits = doc({"op": "insertAfter", "anchor": "import os\n", "text": "import re\n"})
    assert apply_edits(TEXT, edits).text == TEXT.replace("os\n", "os\nimport re\n")


def test_insert_after_at_end_of_text_without_newline() -> None:
    assert apply_edits("a", doc({"op": "insertAfter", "anchor": "a", "text": "b"})).text == "a\nb"


def test_insert_before_appends_newline_when_anchor_starts_a_line() -> None:
    result = apply_edits(TEXT, doc({"op": "insertBefore", "anchor": "def main", "text": "# x"}))
    assert result.text == TEXT.replace("def main", "# x\ndef main")


def test_insert_before_mid_line_inserts_inline() -> None:
    edits = doc({"op": "insertBefore", "anchor": "0", "text": "1 + "})
    assert apply_edits(TEXT, edits).text == TEXT.replace("return 0", "return 1 + 0")


def test_occurrence_picks_the_nth_match() -> None:
    text = "x = 1\nx = 1\nx = 1\n"
    edits = doc({"op": "insertAfter", "anchor": "x = 1", "text": "# second", "occurrence": 2})
    result = apply_edits(text, edits)
    assert result.text == "x = 1\nx = 1\n# second\nx = 1\n"
    assert "insertAfter at line 2" in result.summary_note


def test_occurrences_do_not_overlap() -> None:
    edits = doc({"op": "insertBefore", "anchor": "aa", "text": "|", "occurrence": 2})
    assert apply_edits("aaaa\n", edits).text == "aa|aa\n"


def test_replace_first_and_all() -> None:
    text = "a b a b a\n"
    first = apply_edits(text, doc({"op": "replaceFirst", "find": "a", "text": "A"}))
    every = apply_edits(text, doc({"op": "replaceAll", "find": "a", "text": "A"}))
    assert first.text == "A b a b a\n"
    assert every.text == "A b A b A\n"
    assert every.summary_note == "1 edit applied: replaceAll (3 replaced)"


def test_replace_with_empty_text_deletes() -> None:
    edits = doc({"op": "replaceFirst", "find": "import os\n", "text": ""})
    assert apply_edits(TEXT, edits).text == TEXT[len("import os\n") :]


@pytest.mark.parametrize(
    ("text", "start", "end", "new", "expected"),
    [
        ("a\nb\nc\n", 2, 2, "B", "a\nB\nc\n"),
        ("a\nb\nc\n", 2, 2, "B\n", "a\nB\nc\n"),
        ("a\nb\nc\n", 1, 2, "x\ny\nz", "x\ny\nz\nc\n"),
        ("a\nb\nc\n", 2, 3, "", "a\n"),
        ("a\nb\nc\n", 1, 3, "", ""),
        ("a\nb\nc", 3, 3, "C\n", "a\nb\nC"),
        ("a\nb\nc", 2, 3, "", "a"),
        ("a\nb\nc\n", 2, 2, "\n", "a\n\nc\n"),
        ("a\r\nb\n", 1, 1, "x\r\ny", "x\ny\nb\n"),
    ],
)
def test_replace_range_keeps_lines_lines(
    text: str, start: int, end: int, new: str, expected: str
) -> None:
    edits = doc({"op": "replaceRange", "startLine": start, "endLine": end, "text": new})
    assert apply_edits(text, edits).text == expected


def test_each_edit_sees_the_previous_result() -> None:
    edits = doc(
        {"op": "replaceFirst", "find": "import sys", "text": "import sys\nimport re"},
        {"op": "insertAfter", "anchor": "import re", "text": "import json"},
        {"op": "replaceRange", "startLine": 1, "endLine": 1, "text": "import io"},
        {"op": "replaceAll", "find": "import", "text": "from x import"},
    )
    result = apply_edits(TEXT, edits)
    assert result == EditsResult(
        "from x import io\nfrom x import sys\nfrom x import re\nfrom x import json\n\n"
        "def main():\n    return 0\n",
        4,
        "4 edits applied: replaceFirst at line 2, insertAfter at line 3, "
        "replaceRange lines 1-1, replaceAll (4 replaced)",
    )


def test_crlf_in_json_strings_is_normalised() -> None:
    edits = doc({"op": "replaceFirst", "find": "import os\r\nimport sys", "text": "A\r\nB"})
    assert apply_edits(TEXT, edits).text == TEXT.replace("import os\nimport sys", "A\nB")


# -- ERR_INVALID_EDITS_JSON ---------------------------------------------------------


@pytest.mark.parametrize(
    ("edits_json", "fragments"),
    [
        ("not json", ["not valid JSON", '{"version":1']),
        ("[]", ["must be a JSON object"]),
        (doc({"op": "replaceAll", "find": "a", "text": "b"}, version=2), ["version must be"]),
        (doc({"op": "replaceAll", "find": "a", "text": "b"}, version="1"), ["version must be"]),
        ('{"edits": []}', ["version"]),
        ('{"version": 1}', ["'edits' is missing"]),
        ('{"version": 1, "edits": [], "extra": 1}', ["non-empty array"]),
        (
            '{"version": 1, "edits": [{"op": "replaceAll", "find": "a", "text": "b"}], "x": 1}',
            ["unknown top-level field 'x'"],
        ),
        (
            doc({"op": "replaceAll", "find": "a", "text": "b"}, {"find": "a", "text": "b"}),
            ["edit 1 has no op", "replaceRange"],
        ),
        (doc({"op": "replace", "find": "a", "text": "b"}), ["edit 0: unknown op 'replace'"]),
        (
            doc({"op": "replaceFirst", "find": "a"}),
            [
                "edit 0 (replaceFirst): field 'text' is missing",
                "replaceFirst takes: op, find, text",
            ],
        ),
        (
            doc({"op": "replaceFirst", "find": "a", "text": "b", "occurrence": 2}),
            ["unknown field 'occurrence'", "replaceFirst takes: op, find, text"],
        ),
        (
            doc({"op": "insertAfter", "anchor": "a", "text": "b", "ocurrence": 2}),
            ["unknown field 'ocurrence'", "anchor, text, occurrence (optional)"],
        ),
        (
            doc({"op": "insertAfter", "anchor": "a", "text": "b", "occurrence": 0}),
            ["occurrence must be a whole number >= 1"],
        ),
        (
            doc({"op": "insertAfter", "anchor": "a", "text": "b", "occurrence": "2"}),
            ["occurrence must be a whole number"],
        ),
        (
            doc({"op": "insertAfter", "anchor": "a", "text": "b", "occurrence": True}),
            ["occurrence must be a whole number"],
        ),
        (doc({"op": "insertAfter", "anchor": "", "text": "b"}), ["anchor must not be empty"]),
        (doc({"op": "insertBefore", "anchor": "a", "text": ""}), ["text must not be empty"]),
        (doc({"op": "replaceAll", "find": "", "text": "b"}), ["find must not be empty"]),
        (doc({"op": "replaceAll", "find": 3, "text": "b"}), ["find must be a string"]),
        (
            doc({"op": "replaceRange", "startLine": 3, "endLine": 2, "text": ""}),
            ["startLine 3 is after endLine 2"],
        ),
        (
            doc({"op": "replaceRange", "startLine": 1.5, "endLine": 2, "text": ""}),
            ["startLine must be a whole number"],
        ),
        (
            doc({"op": "replaceRange", "startLine": 0, "endLine": 2, "text": ""}),
            ["startLine must be a whole number >= 1"],
        ),
        (doc("not an object"), ["edit 0 must be a JSON object"]),  # type: ignore[arg-type]
    ],
)
def test_invalid_edits_json(edits_json: str, fragments: list[str]) -> None:
    error = edit_error(TEXT, edits_json)
    assert error.code == "ERR_INVALID_EDITS_JSON"
    for fragment in fragments:
        assert fragment in error.message


def test_invalid_edit_in_the_middle_aborts_before_anything_runs() -> None:
    edits = doc(
        {"op": "replaceAll", "find": "import", "text": "IMPORT"},
        {"op": "replaceAll", "find": "import", "text": "X"},
        {"op": "replaceAll", "find": "x", "txt": "y"},
    )
    error = edit_error(TEXT, edits)
    assert error.code == "ERR_INVALID_EDITS_JSON"
    assert error.message.startswith("edit 2 (replaceAll): field 'text' is missing")
    assert "and 1 more problem" in error.message
    assert error.details["edit"] == 2


# -- errors while applying ----------------------------------------------------------


def test_anchor_not_found_names_the_edit_and_the_nearest_line() -> None:
    edits = doc(
        {"op": "replaceFirst", "find": "os", "text": "io"},
        {"op": "insertAfter", "anchor": "def main(argv):", "text": "    pass"},
    )
    error = edit_error(TEXT, edits)
    assert error.code == "ERR_ANCHOR_NOT_FOUND"
    assert error.message.startswith("edit 1 (insertAfter): anchor 'def main(argv):' was not found")
    assert "the most similar line is line 4: 'def main():'" in error.message
    assert error.details == {
        "edit": 1,
        "anchor": "def main(argv):",
        "nearest_line": 4,
        "nearest_text": "def main():",
    }


def test_multi_line_find_not_found_explains_exact_matching() -> None:
    edits = doc({"op": "replaceFirst", "find": "def main():\n  return 0", "text": "x"})
    error = edit_error(TEXT, edits)
    assert error.code == "ERR_ANCHOR_NOT_FOUND"
    assert "including indentation" in error.message
    assert error.details["nearest_line"] == 4


def test_replace_all_without_a_match_fails() -> None:
    error = edit_error(TEXT, doc({"op": "replaceAll", "find": "absent", "text": "x"}))
    assert error.code == "ERR_ANCHOR_NOT_FOUND"
    assert error.message.startswith("edit 0 (replaceAll): find 'absent'")


def test_anchor_not_found_in_empty_text_has_no_nearest_line() -> None:
    error = edit_error("", doc({"op": "insertBefore", "anchor": "x", "text": "y"}))
    assert error.code == "ERR_ANCHOR_NOT_FOUND"
    assert "nearest_line" not in error.details


def test_occurrence_beyond_the_count_says_how_many() -> None:
    text = "x\ny\nx\n"
    edits = doc({"op": "insertBefore", "anchor": "x", "text": "z", "occurrence": 3})
    error = edit_error(text, edits)
    assert error.code == "ERR_INVALID_ANCHOR_OCCURRENCE"
    assert "occurs 2 times (at lines 1, 3)" in error.message
    assert error.details == {"edit": 0, "occurrence": 3, "count": 2, "lines": [1, 3]}


def test_replace_range_past_the_end_names_the_line_count() -> None:
    edits = doc(
        {"op": "replaceRange", "startLine": 1, "endLine": 2, "text": ""},
        {"op": "replaceRange", "startLine": 2, "endLine": 4, "text": "x"},
    )
    error = edit_error(TEXT, edits)
    assert error.code == "ERR_INVALID_LINE_RANGE"
    assert "edit 1 (replaceRange): lines 2-4" in error.message
    assert "has 3 lines at this point" in error.message
    assert error.details["line_count"] == 3


def test_failure_returns_nothing_and_leaves_input_alone() -> None:
    text = TEXT
    edits = doc(
        {"op": "replaceAll", "find": "import", "text": "IMPORT"},
        {"op": "replaceFirst", "find": "import", "text": "x"},
    )
    error = edit_error(text, edits)
    assert error.code == "ERR_ANCHOR_NOT_FOUND"
    assert error.message.startswith("edit 1 (replaceFirst)")
    assert text == TEXT
