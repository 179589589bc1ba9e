"""One writer per workspace, across processes.

A run holds the workspace's write lock from the stale check of its first approved change
to the commit of its batch. The lock is an advisory ``flock`` on ``write.lock`` in the
workspace's state folder: the kernel drops it when its process dies (kill -9 included),
so a crashed run never leaves the workspace locked. A second run waits, saying so
through ``on_wait`` once; reads never take the lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Callable
from pathlib import Path

from .database import store_error

LOCK_NAME = "write.lock"
POLL_SECONDS = 0.05

OnWait = Callable[[], None]


class WorkspaceLock:
    def __init__(self, folder: Path) -> None:
        self._path = folder / LOCK_NAME
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def _open(self) -> int:
        try:
            return os.open(self._path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            if exc.errno in (30, 13, 1):  # EROFS, EACCES, EPERM: open read-only to lock
                with contextlib.suppress(OSError):
                    return os.open(self._path, os.O_RDONLY | os.O_CLOEXEC)
            raise store_error(exc, "take the workspace's write lock") from exc

    def try_acquire(self) -> bool:
        """Take the lock if nobody holds it; never waits."""
        if self._fd is not None:
            return True
        fd = self._open()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def acquire(self, on_wait: OnWait | None = None, timeout: float | None = None) -> bool:
        """Take the lock, waiting for the run that holds it; False only after ``timeout``."""
        if self.try_acquire():
            return True
        if on_wait is not None:
            on_wait()
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.try_acquire():
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(POLL_SECONDS)
        return True

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
