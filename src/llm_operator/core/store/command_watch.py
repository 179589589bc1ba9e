"""Someone watching the commands that run: live output, and a way to stop one.

A front end that shows a command while it runs (the window) installs a ``CommandWatch``
around the work that may run commands (``with watching(watch): session.execute(...)``);
``commands.run_command`` tells it when a command starts, hands it the output as it comes
and asks it, between reads, whether the person stopped the command. The watch is kept in
a context variable, so it reaches the command through the session without every layer in
between passing it on, and a worker thread sees only the watch it installed itself.

Invariants:
- Watching never changes what a command's result says: the result is made from the
  command's own ``OutputKeeper``; the watch only gets a copy of the bytes.
- ``LiveLines`` holds a bounded amount whatever the command prints: at most
  ``LIVE_LINES`` finished lines wait to be shown (older ones are counted, not kept) and an
  unfinished line is cut at ``MAX_LINE_CHARS``. Lines are cleaned as the result's are
  (``command_output.clean_line``: ANSI sequences removed, a long line cut); the one who
  shows them escapes the remaining control characters (``core.visible``).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol

from .command_output import CUT_NOTE, MAX_LINE_CHARS, clean_line

LIVE_LINES = 2000


@dataclass(frozen=True)
class Started:
    """A command that has just started: what runs, where, for how long at most."""

    argv: tuple[str, ...]
    cwd: str  # workspace-relative folder
    timeout: float


@dataclass(frozen=True)
class Ended:
    """How a watched command ended (``Finished`` says more; this is what a watcher shows)."""

    status: int | None
    signal: int | None
    timed_out: bool
    stopped: bool  # the person stopped it through the watch
    seconds: float


class CommandWatch(Protocol):
    """What ``run_command`` tells a watcher; called on the thread that runs the command."""

    def started(self, started: Started) -> None: ...

    def output(self, chunk: bytes) -> None: ...

    def stop_asked(self) -> bool: ...

    def ended(self, ended: Ended) -> None: ...


_current: ContextVar[CommandWatch | None] = ContextVar("command_watch", default=None)


def current_watch() -> CommandWatch | None:
    return _current.get()


@contextmanager
def watching(watch: CommandWatch) -> Iterator[None]:
    """Commands run inside this block (on this thread) are watched by ``watch``."""
    token = _current.set(watch)
    try:
        yield
    finally:
        _current.reset(token)


class LiveLines:
    """Output chunks in, cleaned finished lines out; thread-safe, bounded."""

    def __init__(self, limit: int = LIVE_LINES) -> None:
        self._lock = threading.Lock()
        self._ready: deque[str] = deque(maxlen=limit)
        self._dropped = 0
        self._partial = bytearray()
        self._cut = False

    def feed(self, chunk: bytes) -> bool:
        """Take a chunk; True when lines were waiting for none before (time to show)."""
        with self._lock:
            was_empty = not self._ready
            start = 0
            while True:
                end = chunk.find(b"\n", start)
                if end < 0:
                    self._add_partial(chunk[start:])
                    break
                self._add_partial(chunk[start:end])
                self._push_partial()
                start = end + 1
            return was_empty and bool(self._ready)

    def flush(self) -> None:
        """The command ended: an unfinished last line is a line too."""
        with self._lock:
            if self._partial or self._cut:
                self._push_partial()

    def take(self) -> tuple[list[str], int]:
        """The lines waiting to be shown, and how many were left out since the last take."""
        with self._lock:
            lines = list(self._ready)
            dropped = self._dropped
            self._ready.clear()
            self._dropped = 0
            return lines, dropped

    def _add_partial(self, piece: bytes) -> None:
        if self._cut:
            return
        room = 4 * MAX_LINE_CHARS + 64 - len(self._partial)
        if len(piece) > room:
            self._partial += piece[:room]
            self._cut = True
        else:
            self._partial += piece

    def _push_partial(self) -> None:
        line = clean_line(bytes(self._partial))
        if self._cut and not line.endswith(CUT_NOTE):
            line += CUT_NOTE
        self._partial.clear()
        self._cut = False
        if len(self._ready) == self._ready.maxlen:
            self._dropped += 1
        self._ready.append(line)
