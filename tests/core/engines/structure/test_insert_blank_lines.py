"""Inserted structures keep exactly the blank lines their content sends; when it sends
none, the app spaces them as the file does and says so in a warning.

The Go file is gin's utils_test.go (tests/data/structure_real/README.md says where from):
a model inserting a test function after TestWrap is the case that once gained a blank
line it did not send, silently. The last tests hold the primer's other blank-line rules
(region content as sent, replaceRange text as whole lines).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.engines.structure import insert_after_structure, insert_before_structure
from support.paths import DATA

GO_FILE = DATA / "structure_real" / "go" / "gin-utils_test.go"
NEW_TEST = "func TestNew(t *testing.T) {\n\tassert.True(t, true)\n}\n"


def lines_around(data: bytes, first: str) -> list[str]:
    lines = data.decode("utf-8").split("\n")
    at = lines.index(first)
    return lines[at - 2 : at + 5]


LAST = "func TestLastChar(t *testing.T) {"
NEW = ["func TestNew(t *testing.T) {", "\tassert.True(t, true)", "}"]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        # One blank line sent before: one blank line before, and the file's own after.
        ("\n" + NEW_TEST, ["}", "", *NEW, "", LAST]),
        # Two sent: two kept, none added.
        ("\n\n" + NEW_TEST, ["", "", *NEW, "", LAST]),
        # A blank line sent only after: nothing is added before; the file's own stays.
        (NEW_TEST + "\n", ['\tassert.Equal(t, "hola!", w.Body.String())', "}", *NEW, "", ""]),
    ],
)
def test_insert_after_keeps_exactly_the_blank_lines_sent(content: str, expected: list[str]) -> None:
    original = GO_FILE.read_bytes()
    edit = insert_after_structure(original, "utils_test.go", ["func TestWrap("], content)
    assert lines_around(edit.new_source, "func TestNew(t *testing.T) {") == expected
    assert edit.result["warnings"] == []
    assert edit.blank_lines_added == 0
    added = edit.new_source.count(b"\n") - original.count(b"\n")
    assert added == content.count("\n")  # not one line more than was sent


def test_content_without_edge_blank_lines_is_spaced_like_the_file_with_a_warning() -> None:
    original = GO_FILE.read_bytes()
    edit = insert_after_structure(original, "utils_test.go", ["func TestWrap("], NEW_TEST)
    assert lines_around(edit.new_source, "func TestNew(t *testing.T) {")[:3] == [
        "}",
        "",
        "func TestNew(t *testing.T) {",
    ]
    assert edit.blank_lines_added == 1  # the action's summary says so


def test_insert_before_keeps_a_trailing_blank_line_sent() -> None:
    original = GO_FILE.read_bytes()
    edit = insert_before_structure(
        original, "utils_test.go", ["func TestLastChar("], NEW_TEST + "\n"
    )
    around = lines_around(edit.new_source, "func TestNew(t *testing.T) {")
    assert around == [
        "}",
        "",
        "func TestNew(t *testing.T) {",
        "\tassert.True(t, true)",
        "}",
        "",
        "func TestLastChar(t *testing.T) {",
    ]
    assert edit.result["warnings"] == []


def test_the_action_summary_says_which_blank_lines_it_added(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "utils_test.go").write_bytes(GO_FILE.read_bytes())
    (spaced,) = run_reply(
        cmd(
            "i1",
            "fs.insertAfterStructure",
            path="utils_test.go",
            symbol="TestWrap",
            content_json=json.dumps(NEW_TEST),
        )
    )
    assert spaced.ok, spaced.summary
    assert "; 1 blank line(s) added around it to match the file" in spaced.summary
    (exact,) = run_reply(
        cmd(
            "i2",
            "fs.insertAfterStructure",
            path="utils_test.go",
            symbol="TestNew",
            content_json=json.dumps("\n" + NEW_TEST.replace("TestNew", "TestNewer")),
        )
    )
    assert exact.ok, exact.summary
    assert "blank line" not in exact.summary
    assert exact.landed[1:] == [
        "63: func TestNewer(t *testing.T) {",
        "64: \tassert.True(t, true)",
        "65: }",
        "66: ",
    ]


def test_region_content_keeps_exactly_the_blank_lines_sent(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "g.py").write_text("x = 1\n# anchor\ny = 2\n", encoding="utf-8")
    (result,) = run_reply(
        cmd(
            "r1",
            "fs.insertRegion",
            path="g.py",
            marker_id="m1",
            anchor="# anchor",
            content_json=json.dumps("\nz = 3\n\n"),
        )
    )
    assert result.ok, result.summary
    assert (workspace / "g.py").read_text("utf-8") == (
        "x = 1\n# anchor\n# OPERATOR_BEGIN m1\n\nz = 3\n\n# OPERATOR_END m1\ny = 2\n"
    )


def test_replace_range_text_is_whole_lines(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "r.txt").write_text("a\nb\nc\n", encoding="utf-8")
    edits = {
        "version": 1,
        "edits": [{"op": "replaceRange", "startLine": 2, "endLine": 2, "text": "B1\nB2"}],
    }
    (result,) = run_reply(cmd("e1", "fs.applyEdits", path="r.txt", edits_json=json.dumps(edits)))
    assert result.ok, result.summary
    assert (workspace / "r.txt").read_text("utf-8") == "a\nB1\nB2\nc\n"
