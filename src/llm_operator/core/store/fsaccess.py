"""File access by descriptors: every path is walked from an open descriptor of the root.

Invariants:
- A path is opened one component at a time with ``O_NOFOLLOW`` relative to the folder
  opened just before (``dir_fd``), starting from a descriptor of the workspace root. No
  system call ever gets an absolute path or a path with more than one component, so a
  folder renamed or swapped for a symlink half-way cannot redirect the walk outside.
- A symlink met on the way is never followed by the kernel: its text is read
  (``readlink``), joined to the folders walked so far, and the walk starts again from the
  root. A target that is absolute outside the root, or climbs above it with ``..``, fails
  with ERR_PATH_OUTSIDE_WORKSPACE. More than MAX_HOPS symlinks is ERR_SYMLINK_LOOP.
- The caller gets a ``Spot``: the descriptor of the deepest folder that exists on the way,
  the names still missing below it, and the last name. Every later system call is made
  relative to that descriptor, so what was checked is what is used.
- Every component ever seen (as written, in every symlink text, as resolved) is kept in
  ``Spot.trail`` for the ``.git`` check.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ..errors import OperatorError
from .oserrors import named_os_error
from .pathtext import check_path_text, outside_error, split_parts

MAX_HOPS = 40
# Re-walks allowed when an entry changes kind between two system calls (a racing swap).
MAX_RETRIES = 200
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


@dataclass
class Spot:
    """A place in the workspace, reached by descriptors. Close it (``with``) when done."""

    dir_fd: int  # the deepest existing real folder on the way
    dir_parts: tuple[str, ...]  # its path below the root
    missing: tuple[str, ...]  # folders below dir_fd that do not exist yet
    name: str  # the last component; "" when the spot is the root itself
    info: os.stat_result | None  # lstat of name in dir_fd (None: nothing there)
    trail: tuple[str, ...]  # every component met while resolving, for the .git check

    @property
    def rel(self) -> str:
        parts = [*self.dir_parts, *self.missing, *([self.name] if self.name else [])]
        return "/".join(parts) or "."

    @property
    def parent_rel(self) -> str:
        return "/".join([*self.dir_parts, *self.missing]) or "."

    @property
    def exists(self) -> bool:
        return self.info is not None

    @property
    def is_dir(self) -> bool:
        return self.info is not None and stat.S_ISDIR(self.info.st_mode)

    @property
    def is_link(self) -> bool:
        return self.info is not None and stat.S_ISLNK(self.info.st_mode)

    @property
    def is_file(self) -> bool:
        return self.info is not None and stat.S_ISREG(self.info.st_mode)

    def close(self) -> None:
        if self.dir_fd >= 0:
            os.close(self.dir_fd)
            self.dir_fd = -1

    def __enter__(self) -> Spot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class _Link:
    """The walk met a symlink: restart from the root with ``parts``."""

    parts: list[str]


class _Changed(Exception):
    """An entry changed kind between two system calls: walk again."""


def open_root(root: Path) -> int:
    try:
        return os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise OperatorError(
            "ERR_WORKSPACE_INVALID",
            f"the workspace folder cannot be opened any more ({exc.strerror}); "
            "the user must open it again",
        ) from None


def locate(root: Path, path: str, *, follow_last: bool = True) -> Spot:
    """Walk ``path`` from ``root``; the last component is followed only if ``follow_last``."""
    parts = split_parts(check_path_text(path))
    trail = list(parts)
    hops = retries = 0
    while True:
        try:
            found = _walk_once(root, path, parts, follow_last)
        except _Changed:
            retries += 1
            if retries > MAX_RETRIES:
                raise outside_error(
                    path, "keeps changing between a folder and a symlink while it is opened"
                ) from None
            continue
        if isinstance(found, Spot):
            found.trail = tuple(trail) + found.trail
            return found
        hops += 1
        if hops > MAX_HOPS:
            raise OperatorError(
                "ERR_SYMLINK_LOOP",
                f"path {path!r} goes through more than {MAX_HOPS} symlinks (a symlink loop?); "
                "name the real file instead",
                {"path": path},
            )
        trail += found.parts
        parts = found.parts


def _under(root: Path, target: str) -> list[str] | None:
    base = str(root)
    if target == base or target.startswith(base.rstrip("/") + "/"):
        return split_parts(target[len(base) :])
    return None


def _link_parts(root: Path, path: str, walked: list[str], target: str) -> list[str]:
    if target.startswith("/"):
        parts = _under(root, target)
        if parts is None:
            # An absolute link may name the root through another path (a symlinked home,
            # /tmp -> /private/tmp). Its real name only gives the text to walk: the walk
            # itself starts again from the root descriptor.
            parts = _under(root, os.path.realpath(target))
        if parts is None:
            raise outside_error(path, "resolves (through a symlink) outside the workspace")
        return parts
    return [*walked, *split_parts(target)]


def _walk_once(root: Path, path: str, parts: list[str], follow_last: bool) -> Spot | _Link:
    fds: list[int] = [open_root(root)]
    walked: list[str] = []
    missing: list[str] = []
    name: str | None = None
    try:
        for index, part in enumerate(parts):
            if part == "..":
                if missing:
                    missing.pop()
                elif walked:
                    walked.pop()
                    os.close(fds.pop())
                else:
                    raise outside_error(path, "resolves (through a symlink) outside the workspace")
                continue
            if index == len(parts) - 1:
                name = part
                break
            if missing:
                missing.append(part)
                continue
            link = _step(root, path, fds, walked, missing, part)
            if link is not None:
                return _Link([*link, *parts[index + 1 :]])
        if name is None:
            return _dir_spot(fds, walked)
        if missing:
            return _spot(fds, walked, missing, name, None)
        info = _lstat(fds[-1], name, walked, path)
        if info is not None and follow_last and stat.S_ISLNK(info.st_mode):
            target = _readlink(fds[-1], name)
            return _Link(_link_parts(root, path, walked, target))
        return _spot(fds, walked, missing, name, info)
    finally:
        for fd in fds:
            os.close(fd)


def _spot(
    fds: list[int], walked: list[str], missing: list[str], name: str, info: os.stat_result | None
) -> Spot:
    fd = fds.pop()  # handed over to the Spot: not closed by the walk
    return Spot(fd, tuple(walked), tuple(missing), name, info, tuple(walked))


def _dir_spot(fds: list[int], walked: list[str]) -> Spot:
    """The spot of a folder the walk ended in (a path ending in ``..``, or the root)."""
    if not walked:
        fd = fds.pop()
        return Spot(fd, (), (), "", os.fstat(fd), ())
    os.close(fds.pop())
    name = walked[-1]
    info = os.stat(name, dir_fd=fds[-1], follow_symlinks=False)
    return _spot(fds, walked[:-1], [], name, info)


def _step(
    root: Path, path: str, fds: list[int], walked: list[str], missing: list[str], part: str
) -> list[str] | None:
    """Open the folder ``part`` below fds[-1]; a symlink gives the parts to walk instead."""
    try:
        fds.append(os.open(part, DIR_FLAGS, dir_fd=fds[-1]))
        walked.append(part)
        return None
    except FileNotFoundError:
        missing.append(part)
        return None
    except OSError as exc:
        if exc.errno not in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise named_os_error(exc, "/".join([*walked, part]), "open") from None
    info = _lstat(fds[-1], part, walked, path)
    if info is None:
        raise _Changed
    if stat.S_ISLNK(info.st_mode):
        return _link_parts(root, path, walked, _readlink(fds[-1], part))
    if stat.S_ISDIR(info.st_mode):
        raise _Changed  # it was a symlink a moment ago
    shown = "/".join([*walked, part])
    raise OperatorError(
        "ERR_NOT_A_DIRECTORY",
        f"path {path!r} goes through {shown!r}, which is a file, not a folder; "
        "check the path with fs.list",
        {"path": path},
    )


def _lstat(dir_fd: int, name: str, walked: list[str], path: str) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise named_os_error(exc, "/".join([*walked, name]), "look at") from None


def _readlink(dir_fd: int, name: str) -> str:
    try:
        return os.readlink(name, dir_fd=dir_fd)
    except (FileNotFoundError, OSError) as exc:
        if isinstance(exc, FileNotFoundError) or exc.errno == errno.EINVAL:
            raise _Changed from None  # no longer a symlink
        raise
