"""For scripts that drive the window (the keyboard round trip): with
``LLM_OPERATOR_STATUS_LOG=FILE`` set, every status-bar message is appended to FILE, one a
line, as shown. Off unless set; a file that cannot be written costs only the log."""

from __future__ import annotations

import os
from collections.abc import Callable

from ..core.visible import shown

STATUS_LOG_ENV = "LLM_OPERATOR_STATUS_LOG"


def status_logger() -> Callable[[str], None] | None:
    """A slot that logs a message, or None when no log is asked for."""
    target = os.environ.get(STATUS_LOG_ENV)
    if not target:
        return None

    def log(message: str) -> None:
        if not message:
            return
        try:
            with open(target, "a", encoding="utf-8") as out:
                out.write(shown(message) + "\n")
        except OSError:
            return

    return log
