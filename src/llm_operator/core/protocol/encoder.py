"""OPERATOR_RESULT blocks, in the readable form (the default) or exactly as the spec writes them.

    OPERATOR_RESULT                         OPERATOR_RESULT
    id: <same id as command>                id: <same id as command>
    ok: true|false                          ok: true|false
    summary: <one line>                     summary: <one line>
    details_lines: <N>                      details_b64: <optional base64 UTF-8 payload>
    | <N body lines, see readable.py>       END_OPERATOR_RESULT
    END_OPERATOR_RESULT

Both forms carry the same details, and only their encoding in the block differs, except a
structure action's result JSON, which the readable form shows as lines (readable_details.py).

Summaries are forced onto one line. Every ``ok: false`` summary names its ERR_ code:
``Invalid OPERATOR_CMD (ERR_X): ...`` for commands the validator refused and
``<action> failed (ERR_X): ...`` for failures while running.

A summary is read on terminals and in chat boxes that act on what they print, so it is
one line of printable text, rendered as a details line is (readable.py): a summary that
holds a control, bidi or invisible character is written escaped (``\x1b``, ``\u202e``,
``\\`` for a backslash), never raw. A failure's summary carries the first line of its
message with each quote of the file (``errors.quote``/``mark``) replaced by QUOTED_NOTE:
the file's lines are shown in the details, whose message is the whole one.
"""

from __future__ import annotations

import base64
import enum
import json
import re
from dataclasses import dataclass

from ..encodable_text import without_surrogates
from ..errors import InvalidCommand, OperatorError, replace_quotes
from ..outcome import Outcome
from .readable import escape_line, line_needs_escape
from .readable_details import readable_details

_SPACE_RUN = re.compile(r"\s+")
MAX_SUMMARY = 2000
QUOTED_NOTE = "(quoted in the details)"
MORE_NOTE = " (more in the details)"


class ResultForm(enum.Enum):
    """How a result's details travel: readable lines (default) or strict v3 details_b64."""

    READABLE = "readable"
    BASE64 = "base64"


@dataclass(frozen=True)
class Result:
    """One OPERATOR_RESULT: the id it answers and what happened."""

    id: str
    outcome: Outcome
    repeat: bool = False  # shown again from memory, not executed again
    notice: bool = False  # made by the app (an undo notice), answering no command

    @property
    def ok(self) -> bool:
        return self.outcome.ok


def one_line(text: str) -> str:
    """``text`` as a summary line: white space runs made one space, cut at MAX_SUMMARY
    characters, and escaped as a details line is when it holds a character a screen would
    not show as itself (so no terminal sequence, bidi control or invisible text survives)."""
    line = _SPACE_RUN.sub(" ", text).strip()
    if len(line) > MAX_SUMMARY:
        line = line[: MAX_SUMMARY - 3] + "..."
    return escape_line(line) if line_needs_escape(line) else line


def summary_words(marked_message: str) -> str:
    """What a failure's summary says of its (marked) message: the first line, each quote of
    the file replaced by QUOTED_NOTE, and MORE_NOTE when lines were left to the details."""
    first, _, rest = marked_message.partition("\n")
    words = replace_quotes(first, QUOTED_NOTE).rstrip()
    return words + MORE_NOTE if rest.strip() else words


def b64(text: str) -> str:
    return base64.b64encode(without_surrogates(text).encode("utf-8")).decode("ascii")


def encode_result(result: Result, form: ResultForm = ResultForm.READABLE) -> str:
    outcome = result.outcome
    lines = [
        "OPERATOR_RESULT",
        f"id: {without_surrogates(result.id)}",
        f"ok: {'true' if outcome.ok else 'false'}",
        f"summary: {one_line(outcome.summary)}",
    ]
    if outcome.details and form is ResultForm.BASE64:
        # An empty payload is left out rather than sent as a bare "details_b64:" line.
        lines.append(f"details_b64: {b64(outcome.details)}")
    elif outcome.details and (details := readable_details(outcome)):
        from .readable import NO_NEWLINE, encode_lines

        body = encode_lines(details)
        count = len(body) - (body[-1] == NO_NEWLINE)
        lines.append(f"details_lines: {count}")
        lines.extend(body)
    lines.append("END_OPERATOR_RESULT")
    return "\n".join(lines)


def encode_results(results: list[Result], form: ResultForm = ResultForm.READABLE) -> str:
    return "\n\n".join(encode_result(result, form) for result in results)


def error_details(message: str, related_id: str | None) -> str:
    """The operator.error payload: {"message": ..., "related_id": ...}."""
    payload: dict[str, str] = {"message": message}
    if related_id is not None:
        payload["related_id"] = related_id
    return json.dumps(payload, ensure_ascii=False)


def invalid_outcome(
    code: str, message: str, related_id: str | None, marked: str | None = None
) -> Outcome:
    """``marked``: the message with its quotes of a file marked, when it has any."""
    head = f"Invalid OPERATOR_CMD ({code}): "
    summary = head + summary_words(message if marked is None else marked)
    return Outcome(False, summary, error_details(head + message, related_id))


def failure_outcome(action: str, error: OperatorError, related_id: str) -> Outcome:
    if isinstance(error, InvalidCommand):
        return invalid_outcome(error.code, error.message, related_id, error.marked_message)
    words = summary_words(error.marked_message)
    summary = f"{action} failed ({error.code}): {words}"
    payload: dict[str, object] = {"code": error.code}
    if words != error.message:
        # The summary left the file's quoted lines, or the message's later lines, to the
        # details; a message the summary carries whole is not repeated.
        payload["message"] = error.message
    if error.details:
        payload["details"] = error.details
    return Outcome(False, summary, json.dumps(payload, ensure_ascii=False, indent=1))


def rejected_outcome(action: str, reason: str) -> Outcome:
    why = f": {reason}" if reason.strip() else ""
    summary = f"{action} failed (ERR_REJECTED_BY_USER): rejected by the user{why}"
    return Outcome(False, summary)
