"""The one root exception of the core.

Every failure an LLM can see carries an ``ERR_`` code and a message written for the
LLM that will read it: what was expected, what was found, and how to fix it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class OperatorError(Exception):
    """A failure reported to the LLM as ``<action> failed (ERR_CODE): <message>``."""

    def __init__(self, code: str, message: str, details: Mapping[str, Any] | None = None) -> None:
        if not code.startswith("ERR_"):
            raise ValueError(f"error codes start with ERR_: {code!r}")
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details: dict[str, Any] = dict(details or {})


class InvalidCommand(OperatorError):
    """A command the validator refuses: reported as ``Invalid OPERATOR_CMD (ERR_CODE): ...``.

    Raised for the spec's parser/validator codes, including the few that can only be
    decided by looking at the workspace (ERR_SEARCH_PATH_IS_DIR, ERR_FILE_TOO_LARGE).
    """
