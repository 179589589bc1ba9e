"""Outlines made ahead of time, in a process of their own, for the window.

The first outline of a tree parses every file: tens of times slower than fs.searchTree over
the same files, and tree-sitter holds Python's lock while it parses, so doing it in one of
the window's threads would make the window stutter. When the window opens a workspace it
starts this module as a child process (``python -m llm_operator.core.plan.outline_warmer``,
its settings as JSON on stdin). The child lowers its priority, walks the tree as a folder
outline does, at the default depth, and keeps the outlines in the workspace's state store,
so the model's first fs.outline (and the context builder's outline) reads them instead of
parsing.

Invariants:
- It only reads the workspace and writes the ``outlines`` table (never a secret-looking
  file's outline: the same rule as every outline).
- It stops after ``MAX_FILES`` outlined files, and, after the file it is parsing, when
  its parent is gone or its stdin closes (the window's end closes when the window dies).
- It reports nothing: the outlines it keeps are a cache, and a failure only leaves the
  first outline as slow as without it. Its exit status is 0 unless it was started wrong.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from ..actions.outline import DEPTH_DEFAULT, outline_folder
from ..errors import OperatorError
from ..store.database import StateStore, StoreError
from ..store.outline_cache import StoredOutlines
from ..store.workspace import Workspace

MAX_FILES = 3000  # ten folder outlines' worth; a bigger tree is outlined as asked
NICENESS = 10


def warm(workspace: Workspace, store: StateStore, stop: Callable[[], bool]) -> int:
    """Outline ``workspace`` call by call, as fs.outline with ``after:`` would, keeping the
    outlines in ``store``; returns how many files were outlined."""
    outlined = 0
    after: str | None = None
    while outlined < MAX_FILES and not stop():
        memo = StoredOutlines(store)
        folder = outline_folder(workspace, ".", DEPTH_DEFAULT, after, memo=memo, stop=stop)
        outlined += folder.outlined
        if folder.next_after is None:
            break
        after = folder.next_after
    return outlined


def main(first_line: str) -> int:
    """Run with the settings line read from stdin; the rest of stdin is read until the
    window closes it."""
    try:
        asked = json.loads(first_line)
        root = Path(asked["workspace"])
        state_folder = Path(asked["state_folder"])
        app_state = Path(asked["state_dir"])
        patterns = tuple(str(p) for p in asked["secret_patterns"])
    except (ValueError, KeyError, TypeError):
        return 2
    parent = os.getppid()
    closed = threading.Event()

    def wait_for_close() -> None:
        sys.stdin.read()  # returns when the window closes our stdin or exits
        closed.set()

    threading.Thread(target=wait_for_close, daemon=True).start()
    if hasattr(os, "nice"):  # not on Windows, where the child keeps normal priority
        with contextlib.suppress(OSError):
            os.nice(NICENESS)
    try:
        workspace = Workspace(root, patterns).with_app_state(app_state)
        store = StateStore(state_folder)
    except (OperatorError, OSError):
        return 0
    try:
        warm(workspace, store, lambda: closed.is_set() or os.getppid() != parent)
    except (OperatorError, StoreError, OSError):
        pass
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.stdin.readline()))
