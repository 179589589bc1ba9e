"""OPERATOR_RESULT encoding: the exact format, one-line summaries, error payloads, and
the rule that every ``ok: false`` summary names its ERR_ code."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llm_operator.core.errors import InvalidCommand, OperatorError
from llm_operator.core.outcome import Outcome
from llm_operator.core.protocol.encoder import (
    Result,
    ResultForm,
    encode_result,
    encode_results,
    failure_outcome,
    invalid_outcome,
    rejected_outcome,
)
from llm_operator.core.protocol.result_reader import read_results
from support.paths import DATA

GOLDEN_DIR = DATA / "scanner"
FS_READ_TOO_LARGE = re.compile(
    r"File too large for fs\.read \([0-9]+ bytes\)\. Use fs\.readSlice\."
)
FAILURE_FORMS = (
    re.compile(r"Invalid OPERATOR_CMD \((ERR_[A-Z0-9_]+)\): \S"),
    re.compile(r"[a-z]+\.[A-Za-z]+ failed \((ERR_[A-Z0-9_]+)\): \S"),
)


def test_exact_format_with_details() -> None:
    details = "line one\nline two \u00e9\n"
    result = Result("read-7", Outcome(True, "Read a.txt (2 lines)", details))
    assert encode_result(result, ResultForm.BASE64).split("\n") == [
        "OPERATOR_RESULT",
        "id: read-7",
        "ok: true",
        "summary: Read a.txt (2 lines)",
        "details_b64: " + base64.b64encode(details.encode("utf-8")).decode("ascii"),
        "END_OPERATOR_RESULT",
    ]
    assert encode_result(result).split("\n") == [
        "OPERATOR_RESULT",
        "id: read-7",
        "ok: true",
        "summary: Read a.txt (2 lines)",
        "details_lines: 2",
        "| line one",
        "| line two \u00e9",
        "END_OPERATOR_RESULT",
    ]


@pytest.mark.parametrize("form", list(ResultForm))
@pytest.mark.parametrize("details", [None, ""])
def test_exact_format_without_details(details: str | None, form: ResultForm) -> None:
    outcome = Outcome(False, "fs.write failed (ERR_X): no", details)
    text = encode_result(Result("w-1", outcome), form)
    assert text.split("\n") == [
        "OPERATOR_RESULT",
        "id: w-1",
        "ok: false",
        "summary: fs.write failed (ERR_X): no",
        "END_OPERATOR_RESULT",
    ]


def test_results_are_separated_by_one_blank_line() -> None:
    one = Result("a", Outcome(True, "A"))
    two = Result("b", Outcome(True, "B", "x"))
    assert encode_results([one, two]) == encode_result(one) + "\n\n" + encode_result(two)
    assert encode_results([]) == ""


@pytest.mark.parametrize(
    ("summary", "line"),
    [
        ("first\nsecond", "first second"),
        ("a\r\nb\rc", "a b c"),
        ("  padded\t\ttabs  \n", "padded tabs"),
        ("x\u2028y\x0bz", "x y z"),
    ],
)
def test_summaries_are_folded_onto_one_line(summary: str, line: str) -> None:
    text = encode_result(Result("s", Outcome(True, summary)))
    assert text.split("\n")[3] == f"summary: {line}"
    assert len(text.split("\n")) == 5


@given(
    st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=20),
    st.booleans(),
    st.text(),
    st.none() | st.text(),
)
def test_any_outcome_encodes_to_one_well_formed_block(
    cmd_id: str, ok: bool, summary: str, details: str | None
) -> None:
    result = Result(cmd_id, Outcome(ok, summary, details))
    (readable,) = read_results(encode_result(result))
    assert readable.details == (details.encode("utf-8", "surrogatepass") if details else None)
    assert (readable.id, readable.ok) == (cmd_id, ok)
    lines = encode_result(result, ResultForm.BASE64).split("\n")
    assert lines[0] == "OPERATOR_RESULT"
    assert lines[-1] == "END_OPERATOR_RESULT"
    assert lines[1] == f"id: {cmd_id}"
    assert lines[2] == f"ok: {'true' if ok else 'false'}"
    assert lines[3].startswith("summary:")
    if details:
        assert len(lines) == 6
        encoded = lines[4].removeprefix("details_b64: ")
        assert base64.b64decode(encoded, validate=True).decode("utf-8") == details
    else:
        assert len(lines) == 5


def test_invalid_command_payload_is_the_operator_error_shape() -> None:
    with_id = invalid_outcome("ERR_NON_KEY_VALUE_LINE", "line 3 is prose", "c-1")
    assert not with_id.ok
    assert with_id.summary == "Invalid OPERATOR_CMD (ERR_NON_KEY_VALUE_LINE): line 3 is prose"
    assert json.loads(with_id.details or "") == {"message": with_id.summary, "related_id": "c-1"}
    without = invalid_outcome("ERR_MISSING_START_MARKER", "stray end", None)
    assert json.loads(without.details or "") == {"message": without.summary}


def test_failure_forms() -> None:
    failed = failure_outcome(
        "fs.patch", OperatorError("ERR_PATCH_CONTEXT_MISMATCH", "hunk 2"), "p-1"
    )
    assert failed.summary == "fs.patch failed (ERR_PATCH_CONTEXT_MISMATCH): hunk 2"
    assert json.loads(failed.details or "")["code"] == "ERR_PATCH_CONTEXT_MISMATCH"
    invalid = failure_outcome("fs.search", InvalidCommand("ERR_SEARCH_PATH_IS_DIR", "dir"), "s")
    assert invalid.summary == "Invalid OPERATOR_CMD (ERR_SEARCH_PATH_IS_DIR): dir"
    assert json.loads(invalid.details or "") == {"message": invalid.summary, "related_id": "s"}
    rejected = rejected_outcome("fs.delete", "not now")
    assert rejected.summary == (
        "fs.delete failed (ERR_REJECTED_BY_USER): rejected by the user: not now"
    )
    assert rejected_outcome("fs.delete", "").summary.endswith("rejected by the user")


# -- every ok:false names its code ----------------------------------------------------


def failing_reply(cmd: Any, raw_block: Any) -> str:
    """One reply holding a failure of every kind the core produces."""
    blocks = [
        cmd("f-missing", "fs.read", path="nope.txt"),
        cmd("f-dir", "fs.read", path="src"),
        cmd("f-list-file", "fs.list", path="README.md"),
        cmd("f-outside", "fs.read", path="../x"),
        cmd("f-backslash", "fs.read", path="a\\b"),
        cmd("f-slice", "fs.readSlice", path="README.md", start="x"),
        cmd("f-search-dir", "fs.search", path="src", q="x"),
        cmd("f-query", "fs.searchTree", path="."),
        cmd("f-b64", "fs.write", path="a.txt", content_b64="%%%"),
        cmd("f-key", "fs.write", path="a.txt", contnet_b64="eA=="),
        cmd("f-ws", "fs.list", path=".", workspaceRoot="/"),
        cmd("f-action", "fs.reed", path="a"),
        cmd("f-reserved", "operator.error"),
        cmd("f-path", "operator.getInterfaceSpec", path="."),
        cmd("f-nopath", "fs.stat"),
        cmd("f-lang", "operator.getCommentStyle", language="klingon"),
        cmd("f-nowrite", "fs.write", path="a.txt"),
        cmd("f-rejected", "fs.write", path="r.txt", content="x"),
        cmd("f-stat", "fs.stat", path="ghost"),
        cmd("f-big", "fs.read", path="big.txt"),
        raw_block("version: 1", "id: f-dupkey", "id: again", "action: fs.list", "path: ."),
        raw_block("version: 9", "id: f-version", "action: fs.list", "path: ."),
        raw_block("id: f-required", "action: fs.list", "path: ."),
        raw_block("version: 1", "id: f-empty", "", "action: fs.list"),
        raw_block("version: 1", "id: f-prose", "hello", "action: fs.list"),
        raw_block("version: 1", "id: f-ascii", "action: fs.list", "path: \u00e9"),
        raw_block("version: 1", "id: f-content", "action: fs.write", "path: a", "content: a", "b"),
        cmd("f-dup", "fs.stat", path="."),
        cmd("f-dup", "fs.stat", path="src"),
        "OPERATOR_CMD version: 1",
        "END_OPERATOR_CMD",
        "OPERATOR_CMD\nversion: 1\nid: f-nested\nOPERATOR_CMD\nEND_OPERATOR_CMD",
        "OPERATOR_CMD\nversion: 1\nid: f-unclosed",
    ]
    return "\n".join(blocks)


def assert_failure_named(result: Any) -> None:
    if FS_READ_TOO_LARGE.fullmatch(result.summary):
        return  # the spec's exact fs.read wording; the code travels in the details
    assert any(form.match(result.summary) for form in FAILURE_FORMS), result.summary
    assert result.code is not None


def test_every_failure_names_its_error_code(
    run_reply: Any, cmd: Any, raw_block: Any, workspace: Path
) -> None:
    (workspace / "big.txt").write_text("x" * 200_001, encoding="ascii")
    results = run_reply(failing_reply(cmd, raw_block), {"f-rejected": False})
    failures = [result for result in results if not result.ok]
    assert [result.id for result in results if result.ok] == ["f-dup"]  # its first use
    codes = {result.code for result in failures}
    assert len(codes) >= 20  # the reply really exercises many different failures
    for result in failures:
        assert_failure_named(result)


@pytest.mark.parametrize("golden", sorted(GOLDEN_DIR.glob("*.txt")), ids=lambda p: p.stem)
def test_every_failure_in_the_golden_replies_names_its_code(golden: Path, run_reply: Any) -> None:
    results = run_reply(golden.read_bytes().decode("utf-8"), False)
    for result in results:
        if not result.ok:
            assert_failure_named(result)
