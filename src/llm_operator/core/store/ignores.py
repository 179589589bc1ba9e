"""The .gitignore files met on a walk down a tree, each applying below its own folder.

As in git, the deepest .gitignore with a pattern that matches a path decides, and
``!pattern`` re-includes. Files are opened relative to a folder descriptor, never by name.

Patterns (of .gitignore files and of searchTree's glob and exclude) are matched by
pathspec's RE2 backend, in time linear in the name: a pattern such as ``*a*a*a*a*b``
cannot make a walk backtrack for minutes. A .gitignore line pathspec cannot compile is
left out (as git ignores a line it cannot read), the others still apply.
"""

from __future__ import annotations

import os
import stat
import warnings
from collections.abc import Sequence
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


class PatternProblem(ValueError):
    """A gitignore-style pattern that cannot be compiled (``pattern`` names it)."""

    def __init__(self, pattern: str, reason: str) -> None:
        super().__init__(f"{pattern!r}: {reason}")
        self.pattern = pattern
        self.reason = reason


def _spec(lines: Sequence[str]) -> pathspec.GitIgnoreSpec:
    import pathspec

    with warnings.catch_warnings():
        # pathspec also builds a Python regex per line; its FutureWarnings are noise here.
        warnings.simplefilter("ignore")
        return pathspec.GitIgnoreSpec.from_lines(lines, backend="re2")


def compile_patterns(lines: Sequence[str]) -> pathspec.GitIgnoreSpec:
    """The spec of gitignore-style ``lines``; PatternProblem names the first bad one."""
    try:
        return _spec(lines)
    except Exception:  # pathspec and the regex engines raise several kinds
        for line in lines:
            try:
                _spec([line])
            except Exception as error:
                raise PatternProblem(line, str(error) or type(error).__name__) from None
        raise


def compile_lenient(lines: Sequence[str]) -> pathspec.GitIgnoreSpec:
    """The spec of ``lines`` without the lines that cannot be compiled."""
    try:
        return _spec(lines)
    except Exception:
        good = []
        for line in lines:
            try:
                _spec([line])
            except Exception:
                continue
            good.append(line)
        return _spec(good)


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
        lines = data.decode("utf-8", "replace").splitlines()
        self._specs.append((rel, compile_lenient(lines)))
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
