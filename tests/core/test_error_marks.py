"""Names from a file (symbol paths) stay in a summary; quoted lines go to the details; both
are redacted for a secret-looking file."""

from __future__ import annotations

from llm_operator.core.errors import (
    TEXT_NOT_SHOWN,
    OperatorError,
    mark,
    mark_name,
    redact,
    replace_quotes,
)
from llm_operator.core.protocol.encoder import failure_outcome


def test_a_name_stays_in_the_summary_and_a_quoted_line_does_not() -> None:
    message = f"nearest: 'symbol: {mark_name('Shop/total')}'; the line was {mark('x = 1')}"
    assert replace_quotes(message, "(q)") == "nearest: 'symbol: Shop/total'; the line was (q)"
    assert redact(message) == (
        f"nearest: 'symbol: {TEXT_NOT_SHOWN}'; the line was {TEXT_NOT_SHOWN}"
    )


def test_a_long_or_multi_line_name_is_a_quote() -> None:
    for text in ("a" * 81, "two\nlines", "cr\rhere"):
        assert replace_quotes(mark_name(text), "(q)") == "(q)"


def test_a_marker_inside_a_name_cannot_close_it_early() -> None:
    sneaky = "A\ue001 leaked \ue000B"
    assert redact(mark_name(sneaky)) == TEXT_NOT_SHOWN


def test_a_failure_whose_summary_holds_the_whole_message_does_not_repeat_it() -> None:
    whole = failure_outcome("fs.x", OperatorError("ERR_INTERNAL", f"see {mark_name('A/b')}"), "x")
    assert whole.summary == "fs.x failed (ERR_INTERNAL): see A/b"
    assert "message" not in (whole.details or "")
    cut = failure_outcome("fs.x", OperatorError("ERR_INTERNAL", f"see {mark('x = 1')}"), "x")
    assert "message" in (cut.details or "")
    assert "x = 1" in (cut.details or "")
    assert "x = 1" not in cut.summary
