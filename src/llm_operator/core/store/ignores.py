"""The .gitignore files met on a walk down a tree, each applying below its own folder.

As in git, the deepest .gitignore with a pattern that matches a path decides, and
``!pattern`` re-includes. Files are opened relative to a folder descriptor, never by name.
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec

_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
MAX_GITIGNORE_BYTES = 1_000_000


def _read(fd: int) -> bytes | None:
    try:
        handle = os.open(".gitignore", _READ_FLAGS, dir_fd=fd)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return None
        return os.read(handle, MAX_GITIGNORE_BYTES)
    except OSError:
        return None
    finally:
        os.close(handle)


class Ignores:
    """A stack of (folder, compiled .gitignore) pairs, pushed and popped by the walk."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self._specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []

    def load(self, fd: int, rel: str) -> int:
        """Push the .gitignore of the folder open at ``fd`` (workspace path ``rel``), if any;
        return how many entries were pushed (0 or 1), for ``pop``."""
        if not self.enabled:
            return 0
        data = _read(fd)
        if data is None:
            return 0
        import pathspec

        lines = data.decode("utf-8", "replace").splitlines()
        self._specs.append((rel, pathspec.GitIgnoreSpec.from_lines(lines)))
        return 1

    def pop(self, count: int) -> None:
        for _ in range(count):
            self._specs.pop()

    def ignored(self, rel: str, is_dir: bool) -> bool:
        for base, spec in reversed(self._specs):
            inner = rel if base == "." else rel[len(base) + 1 :]
            candidate = inner + "/" if is_dir else inner
            include = spec.check_file(candidate).include
            if include is not None:
                return bool(include)
        return False
