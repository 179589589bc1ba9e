"""The one root exception of the core, and the marking of file content inside messages.

Every failure an LLM can see carries an ``ERR_`` code and a message written for the
LLM that will read it: what was expected, what was found, and how to fix it.

A message may quote the file it is about ("the most similar line is line 3: 'x = 1'").
Such quotes are written with ``quote`` (a ``repr``) or ``mark`` (text as it is), which
wrap them in two private-use characters. ``OperatorError`` keeps two renderings: the
plain one (markers dropped, what every caller sees as ``message`` and ``details``) and a
redacted one (every marked span replaced by ``TEXT_NOT_SHOWN``), which the session sends
instead when the file is secret-looking and the user has not approved
(``plan.secrecy``). So there is one redaction point, not one per message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

QUOTE_OPEN = "\ue000"
NAME_OPEN = "\ue002"  # a name from the file (a symbol path): redacted, but kept in summaries
QUOTE_CLOSE = "\ue001"
TEXT_NOT_SHOWN = "<text not shown>"
_OPENS = f"{QUOTE_OPEN}{NAME_OPEN}"
_SPAN = re.compile(f"[{_OPENS}][^{_OPENS}{QUOTE_CLOSE}]*{QUOTE_CLOSE}")
_QUOTE_SPAN = re.compile(f"{QUOTE_OPEN}[^{_OPENS}{QUOTE_CLOSE}]*{QUOTE_CLOSE}")
_MARKERS = re.compile(f"[{_OPENS}{QUOTE_CLOSE}]")


def mark(text: str) -> str:
    """``text`` (file content) marked for redaction, shown as it is otherwise."""
    # A marker character inside the text would end the span early: write it escaped.
    inner = (
        text.replace(QUOTE_OPEN, "\\ue000")
        .replace(QUOTE_CLOSE, "\\ue001")
        .replace(NAME_OPEN, "\\ue002")
    )
    return f"{QUOTE_OPEN}{inner}{QUOTE_CLOSE}"


def mark_name(text: str) -> str:
    """A short name taken from the file (a symbol path such as ``Shop/total``), marked for
    redaction like any file content, but kept where a summary leaves quoted lines to the
    details: it is the fix the model sends back. Anything longer than a name, or on
    more than one line, is marked as a quote."""
    if len(text) > 80 or "\n" in text or "\r" in text:
        return mark(text)
    inner = (
        text.replace(QUOTE_OPEN, "\\ue000")
        .replace(QUOTE_CLOSE, "\\ue001")
        .replace(NAME_OPEN, "\\ue002")
    )
    return f"{NAME_OPEN}{inner}{QUOTE_CLOSE}"


def quote(text: str) -> str:
    """``repr(text)`` (file content) marked for redaction."""
    # repr escapes private-use characters, so the span cannot be closed from inside.
    return f"{QUOTE_OPEN}{text!r}{QUOTE_CLOSE}"


def has_marks(text: str) -> bool:
    return QUOTE_OPEN in text or NAME_OPEN in text


def unmark(text: str) -> str:
    return _MARKERS.sub("", text)


def redact(text: str) -> str:
    return _MARKERS.sub("", _SPAN.sub(TEXT_NOT_SHOWN, text))


def replace_quotes(text: str, stand_in: str) -> str:
    """``text`` with every marked quote of a file replaced by ``stand_in`` (a summary keeps
    a message's words and leaves the file's text to the details)."""
    return _MARKERS.sub("", _QUOTE_SPAN.sub(stand_in, text))


def _walk(value: Any, change: Any) -> Any:
    if isinstance(value, str):
        return change(value)
    if isinstance(value, Mapping):
        return {key: _walk(item, change) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_walk(item, change) for item in value]
    return value


def _any_marks(value: Any) -> bool:
    if isinstance(value, str):
        return has_marks(value)
    if isinstance(value, Mapping):
        return any(_any_marks(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return any(_any_marks(item) for item in value)
    return False


class OperatorError(Exception):
    """A failure reported to the LLM as ``<action> failed (ERR_CODE): <message>``."""

    def __init__(self, code: str, message: str, details: Mapping[str, Any] | None = None) -> None:
        if not code.startswith("ERR_"):
            raise ValueError(f"error codes start with ERR_: {code!r}")
        raw_details = dict(details or {})
        self.code = code
        self.message = unmark(message)
        self.details: dict[str, Any] = _walk(raw_details, unmark)
        super().__init__(f"{code}: {self.message}")
        # The marked forms, so a wrapper (InvalidCommand from OperatorError) keeps them.
        self.marked_message = message
        self.marked_details = raw_details
        self.quotes_file = has_marks(message) or _any_marks(raw_details)

    @property
    def redacted_message(self) -> str:
        return redact(self.marked_message)

    @property
    def redacted_details(self) -> dict[str, Any]:
        redacted: dict[str, Any] = _walk(self.marked_details, redact)
        return redacted

    def redacted(self) -> OperatorError:
        """The same failure with every quote of the file replaced by TEXT_NOT_SHOWN."""
        kind = type(self)
        return kind(self.code, self.redacted_message, self.redacted_details)


class InvalidCommand(OperatorError):
    """A command the validator refuses: reported as ``Invalid OPERATOR_CMD (ERR_CODE): ...``.

    Raised for the spec's parser/validator codes, including the few that can only be
    decided by looking at the workspace (ERR_SEARCH_PATH_IS_DIR, ERR_FILE_TOO_LARGE).
    """
