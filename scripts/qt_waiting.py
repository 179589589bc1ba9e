"""Waiting for the real widgets in the screenshot scripts: events run while waiting."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication


def wait_for(condition: Callable[[], bool], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("timed out waiting for the window")
        QCoreApplication.processEvents()
        time.sleep(0.01)


def settle() -> None:
    """Let posted layout and paint requests run before a grab."""
    for _ in range(20):
        QCoreApplication.processEvents()
        time.sleep(0.01)
