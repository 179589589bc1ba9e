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
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..work_budget import charge

if TYPE_CHECKING:
    import pathspec

_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
MAX_GITIGNORE_BYTES = 1_000_000
MAX_GITIGNORE_LINES = 1000  # pattern lines compiled per .gitignore file
MAX_WALK_GITIGNORE_LINES = 20_000  # pattern lines compiled per walk, all .gitignore files


def _read(fd: int) -> bytes | None:
    try:
        handle = os.open(".gitignore", _READ_FLAGS, dir_fd=fd)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return None
        data = os.read(handle, MAX_GITIGNORE_BYTES)
        charge(len(data))
        return data
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


CHUNK_LINES = 256  # lines per compiled set: RE2 refuses a set past its memory budget


class Patterns:
    """Gitignore-style lines compiled in chunks; as in git, the last line that matches a
    path decides (so the last chunk with a match does)."""

    def __init__(self, chunks: list[pathspec.GitIgnoreSpec]) -> None:
        self._chunks = chunks

    def check(self, path: str) -> bool | None:
        """True: matched (ignored), False: re-included by ``!``, None: no line matched."""
        for chunk in reversed(self._chunks):
            include = chunk.check_file(path).include
            if include is not None:
                return bool(include)
        return None

    def match(self, path: str) -> bool:
        return bool(self.check(path))


def _compile(lines: Sequence[str], strict: bool) -> Patterns:
    chunks = []
    for start in range(0, max(len(lines), 1), CHUNK_LINES):
        part = lines[start : start + CHUNK_LINES]
        try:
            chunks.append(_spec(part))
            continue
        except Exception:  # pathspec and the regex engines raise several kinds
            pass
        good = []
        for line in part:
            try:
                _spec([line])
            except Exception as error:
                if strict:
                    raise PatternProblem(line, str(error) or type(error).__name__) from None
                continue  # a line that cannot be read is left out, as git does
            good.append(line)
        try:
            chunks.append(_spec(good))
        except Exception:  # together still too big for one set: one set per line
            chunks.extend(_spec([line]) for line in good)
    return Patterns(chunks)


def compile_patterns(lines: Sequence[str]) -> Patterns:
    """The patterns of gitignore-style ``lines``; PatternProblem names the first bad one."""
    return _compile(lines, strict=True)


def compile_lenient(lines: Sequence[str]) -> Patterns:
    """The patterns of ``lines`` without the lines that cannot be compiled."""
    return _compile(lines, strict=False)


class Ignores:
    """A stack of (folder, compiled .gitignore) pairs, pushed and popped by the walk."""

    def __init__(
        self, enabled: bool = True, is_secret: Callable[[str], bool] | None = None
    ) -> None:
        self.enabled = enabled
        # A .gitignore that looks secret (in a folder named like a secret) is never read:
        # what it ignores would make the walk's answers depend on its bytes.
        self.is_secret = is_secret
        self._specs: list[tuple[str, Patterns]] = []
        # Compiling costs about 0.15 ms a line: a deep tree of long .gitignore files must
        # not use up a reply's budget before the walk moves, so the lines are capped.
        self.room = MAX_WALK_GITIGNORE_LINES
        self.dropped = 0  # pattern lines left out by the caps (reported)

    def load(self, fd: int, rel: str) -> int:
        """Push the .gitignore of the folder open at ``fd`` (workspace path ``rel``), if any;
        return how many entries were pushed (0 or 1), for ``pop``."""
        if not self.enabled:
            return 0
        if self.is_secret is not None and self.is_secret(f"{rel}/.gitignore"):
            return 0
        data = _read(fd)
        if data is None:
            return 0
        lines = [
            line
            for line in data.decode("utf-8", "replace").splitlines()
            if line.strip() and not line.startswith("#")
        ]
        kept = lines[: max(0, min(MAX_GITIGNORE_LINES, self.room))]
        self.dropped += len(lines) - len(kept)
        self.room -= len(kept)
        self._specs.append((rel, compile_lenient(kept)))
        return 1

    def pop(self, count: int) -> None:
        for _ in range(count):
            self._specs.pop()

    def ignored(self, rel: str, is_dir: bool) -> bool:
        for base, spec in reversed(self._specs):
            inner = rel if base == "." else rel[len(base) + 1 :]
            candidate = inner + "/" if is_dir else inner
            include = spec.check(candidate)
            if include is not None:
                return include
        return False
