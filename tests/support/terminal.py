"""A child process on a real pseudo-terminal, and what it writes there, read as it comes.

``spawn`` runs a command with ``pty.fork``: the terminal is the child's controlling
terminal, stdin, stdout and stderr, exactly as when a person runs it in a terminal window.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import time
from collections.abc import Sequence


class Screen:
    """The bytes a child wrote to its terminal (``raw``), read up to what a test waits for."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.raw = bytearray()

    @property
    def text(self) -> str:
        """What was written, decoded, with the terminal's CR LF as LF."""
        return self.raw.decode("utf-8", "replace").replace("\r\n", "\n")

    def read_until(self, wanted: str | bytes, since: int = 0, timeout: float = 60) -> str:
        """Read until ``wanted`` appears after byte ``since``; returns what was written from
        ``since`` on (decoded). Fails when the terminal closes or ``timeout`` passes first."""
        needle = wanted.encode("utf-8") if isinstance(wanted, str) else wanted
        deadline = time.monotonic() + timeout
        while needle not in self.raw[since:]:
            left = deadline - time.monotonic()
            assert left > 0, f"never saw {wanted!r} in:\n{bytes(self.raw)!r}"
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:  # EIO: the child closed the terminal
                chunk = b""
            assert chunk, f"the terminal closed before {wanted!r}:\n{bytes(self.raw)!r}"
            self.raw += chunk
        return self.raw[since:].decode("utf-8", "replace")

    def drain(self) -> None:
        """Read the rest, until the child closes the terminal."""
        while True:
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:
                return
            if not chunk:
                return
            self.raw += chunk

    def type(self, keys: bytes) -> None:
        os.write(self.fd, keys)


def spawn(argv: Sequence[str]) -> tuple[int, Screen]:
    """Run ``argv`` (its first item the program's path) on a new pseudo-terminal."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execv(argv[0], list(argv))
        finally:
            os._exit(127)
    return pid, Screen(fd)


def reap(pid: int, timeout: float = 30) -> int:
    """The child's wait status; a child still waiting for an answer after ``timeout`` (a
    failed check left it asking) is killed rather than waited for forever."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    return os.waitpid(pid, 0)[1]
