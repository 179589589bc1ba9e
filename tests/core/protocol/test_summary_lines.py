"""A summary is one line of printable text, whatever the message: control, bidi and
invisible characters are escaped as in a details line, and quotes of a file stay in the
details."""

from __future__ import annotations

import json
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from llm_operator.core.errors import OperatorError, mark, quote
from llm_operator.core.outcome import Outcome
from llm_operator.core.protocol.encoder import (
    QUOTED_NOTE,
    Result,
    ResultForm,
    encode_result,
    failure_outcome,
    invalid_outcome,
)
from llm_operator.core.protocol.readable import decode_line, escape_line

HOSTILE = "be\x1b]52;c;aGk=\x07ta\r \u202ex\u200by\x9b"
_HIDDEN = {"Cc", "Cf", "Zl", "Zp", "Cs"}


def summary_line(outcome: Outcome, form: ResultForm = ResultForm.READABLE) -> str:
    lines = encode_result(Result("r1", outcome), form).split("\n")
    (line,) = [line for line in lines if line.startswith("summary: ")]
    return line


def assert_printable_line(line: str) -> None:
    assert "\n" not in line
    hidden = [c for c in line if unicodedata.category(c) in _HIDDEN and c != "\t"]
    assert not hidden, [f"U+{ord(c):04X}" for c in hidden]


@given(st.text())
def test_any_summary_encodes_as_one_printable_line(text: str) -> None:
    for form in ResultForm:
        assert_printable_line(summary_line(Outcome(False, text, "d"), form))


@given(st.text(), st.text())
def test_any_failure_message_gives_one_printable_summary_line(words: str, quoted: str) -> None:
    error = OperatorError("ERR_TEXT_NOT_FOUND", f"{words} {quote(quoted)} {mark(quoted)}")
    outcome = failure_outcome("fs.applyEdits", error, "r1")
    assert_printable_line(summary_line(outcome))
    assert_printable_line(summary_line(invalid_outcome("ERR_X", words, "r1")))


def test_a_summary_with_a_control_character_is_escaped_as_a_details_line_is() -> None:
    line = summary_line(Outcome(False, f"failed: {HOSTILE} and C:\\dir"))
    rendered = line.removeprefix("summary: ")
    # The CR counts as a line break (white space made one space); the rest is escaped
    # exactly as a details line is, and reads back as one.
    source = f"failed: {HOSTILE.replace(chr(13) + ' ', ' ')} and C:\\dir"
    assert rendered == escape_line(source)
    assert "\\x1b]52;c;aGk=\\x07" in rendered
    assert "\\u202e" in rendered
    assert "\\u200b" in rendered
    assert "C:\\\\dir" in rendered  # backslashes doubled, as in an escaped details line
    assert decode_line("|\\" + rendered).decode() == source


def test_a_plain_summary_is_left_as_it_is() -> None:
    text = "Wrote C:\\x (3 lines) \u00e9\u4e2d \U0001f600"
    assert summary_line(Outcome(True, text)) == f"summary: {text}"


def test_quotes_of_the_file_go_to_the_details_not_the_summary() -> None:
    error = OperatorError(
        "ERR_ANCHOR_NOT_FOUND",
        f"find 'x' was not found; the most similar line is line 2: {quote(HOSTILE)}",
        {"nearest_text": mark(HOSTILE)},
    )
    outcome = failure_outcome("fs.applyEdits", error, "e1")
    assert outcome.summary == (
        "fs.applyEdits failed (ERR_ANCHOR_NOT_FOUND): find 'x' was not found; the most "
        f"similar line is line 2: {QUOTED_NOTE}"
    )
    assert outcome.details is not None
    payload = json.loads(outcome.details)
    assert payload["message"].endswith(repr(HOSTILE))
    assert payload["details"]["nearest_text"] == HOSTILE


def test_a_message_of_several_lines_keeps_only_its_first_in_the_summary() -> None:
    message = f"hunk 1 does not apply to f.txt.\nThe file:\n  2 | {mark(HOSTILE)}"
    outcome = failure_outcome("fs.patch", OperatorError("ERR_PATCH_CONTEXT_MISMATCH", message), "p")
    assert outcome.summary == (
        "fs.patch failed (ERR_PATCH_CONTEXT_MISMATCH): hunk 1 does not apply to f.txt. "
        "(more in the details)"
    )
    assert outcome.details is not None
    assert json.loads(outcome.details)["message"].endswith(HOSTILE)


def test_an_invalid_command_keeps_its_whole_message_in_the_details() -> None:
    outcome = invalid_outcome("ERR_X", f"first\nsecond {HOSTILE}", "r1", None)
    assert outcome.summary == "Invalid OPERATOR_CMD (ERR_X): first (more in the details)"
    assert outcome.details is not None
    assert json.loads(outcome.details)["message"].endswith(HOSTILE)
