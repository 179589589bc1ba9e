"""Reading workspace files for actions: existence, kind and size checks with clear errors.

Every read goes through ``fsaccess``: the file is opened with ``O_NOFOLLOW`` relative to a
descriptor of its folder, reached from the root one component at a time, and its identity
(device, inode) is checked against what ``find_file`` saw.

Inside ``recording_reads()`` every file opened for its content is noted by the path it
really has (``Spot.rel``, links resolved). Whether a result may leave is decided on those
paths too (``plan.secrecy``), so a link retargeted at a secret file between a check and
the read cannot slip one out as a public result.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from ..errors import OperatorError
from ..work_budget import charge
from .fsaccess import DIR_FLAGS, MAX_RETRIES, READ_FLAGS, Spot, locate
from .oserrors import named_os_error
from .passed_over import kind_of
from .pathtext import outside_error
from .workspace import Workspace

MAX_READ_BYTES = 10 * 1024 * 1024
"""The largest file read whole: planning a write, delete, structure or region command
and every other whole-file read refuse a larger file by its size, before reading it."""


@dataclass(frozen=True)
class FoundFile:
    """A regular file as ``find_file`` saw it: its real path, size and identity (device, inode)."""

    rel: str  # canonical workspace-relative path of the real file
    real: Path
    size: int
    root: Path | None = None
    identity: tuple[int, int] = (0, 0)  # (st_dev, st_ino) when it was found


def open_spot_dir(spot: Spot) -> int:
    """A new descriptor of the folder at ``spot`` (which must exist and be a folder)."""
    if not spot.name:
        return os.dup(spot.dir_fd)
    return os.open(spot.name, DIR_FLAGS, dir_fd=spot.dir_fd)


def _names_in(workspace: Workspace, folder: str) -> list[str]:
    try:
        with workspace.locate(folder or ".") as spot:
            if not spot.is_dir:
                return []
            fd = open_spot_dir(spot)
            try:
                return sorted(os.listdir(fd))
            finally:
                os.close(fd)
    except (OperatorError, OSError):
        return []


def not_found(workspace: Workspace, path: str) -> OperatorError:
    """ERR_FILE_NOT_FOUND, naming the nearest existing names so the LLM can correct it."""
    parent_text, _, name = path.strip("/").rpartition("/")
    names = _names_in(workspace, parent_text)
    if not names and parent_text:
        return OperatorError(
            "ERR_FILE_NOT_FOUND",
            f"nothing at {path!r}: the folder {parent_text!r} does not exist either; "
            "use fs.list or fs.searchTree to find the right path",
        )
    import difflib  # lazy: only a missing path needs it, and start-up counts

    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    prefix = f"{parent_text}/" if parent_text else ""
    hint = (
        "; did you mean " + " or ".join(repr(prefix + c) for c in close) + "?"
        if close
        else "; use fs.list on its folder to see what is there"
    )
    return OperatorError("ERR_FILE_NOT_FOUND", f"nothing at {path!r}{hint}")


def find_file(workspace: Workspace, path: str) -> FoundFile:
    """The regular file at ``path`` (symlinks inside the workspace followed)."""
    with workspace.locate(path) as spot:
        info = spot.info
        if info is None:
            raise not_found(workspace, path)
        if stat.S_ISDIR(info.st_mode):
            raise OperatorError(
                "ERR_IS_A_DIRECTORY",
                f"{path!r} is a folder; use fs.list to see its entries or fs.searchTree to "
                "search it",
            )
        if not stat.S_ISREG(info.st_mode):
            raise OperatorError(
                "ERR_NOT_A_FILE",
                f"{path!r} is a {kind_of(info.st_mode)}, not a regular file; only regular "
                "files can be read or written",
            )
        real = workspace.root / spot.rel
        return FoundFile(spot.rel, real, info.st_size, workspace.root, (info.st_dev, info.st_ino))


def find_dir(workspace: Workspace, path: str) -> tuple[str, Path]:
    with workspace.locate(path) as spot:
        if not spot.exists:
            raise not_found(workspace, path)
        if not spot.is_dir:
            raise OperatorError(
                "ERR_NOT_A_DIRECTORY", f"{path!r} is a file; use fs.read or fs.readSlice to read it"
            )
        return spot.rel, workspace.root / spot.rel if spot.rel != "." else workspace.root


@contextlib.contextmanager
def open_dir(workspace: Workspace, path: str) -> Iterator[tuple[str, int]]:
    """(canonical relative path, open descriptor) of the folder at ``path``.

    The folder is opened with O_NOFOLLOW from its parent's descriptor; if it turned into a
    symlink since the walk looked at it, the path is walked again (so the link's text is
    checked like any other).
    """
    for _ in range(MAX_RETRIES):
        with workspace.locate(path) as spot:
            if not spot.exists:
                raise not_found(workspace, path)
            if not spot.is_dir:
                raise OperatorError(
                    "ERR_NOT_A_DIRECTORY",
                    f"{path!r} is a file; use fs.read or fs.readSlice to read it",
                )
            try:
                fd = open_spot_dir(spot)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.ENOENT):
                    continue  # changed between the look and the open: walk again
                raise named_os_error(exc, spot.rel, "open the folder", "ERR_READ_FAILED") from None
            rel = spot.rel
        try:
            yield rel, fd
        finally:
            os.close(fd)
        return
    raise outside_error(path, "keeps changing between a folder and a symlink while it is opened")


_OPENED: ContextVar[list[str] | None] = ContextVar("opened_for_reading", default=None)


@contextlib.contextmanager
def recording_reads() -> Iterator[list[str]]:
    """The paths of the files opened for reading inside the block, as they really are."""
    opened: list[str] = []
    token = _OPENED.set(opened)
    try:
        yield opened
    finally:
        _OPENED.reset(token)


def reads_so_far() -> tuple[str, ...]:
    """What ``recording_reads`` has noted so far (nothing outside it)."""
    return tuple(_OPENED.get() or ())


def too_large(rel: str, size: int, limit: int = MAX_READ_BYTES) -> OperatorError:
    return OperatorError(
        "ERR_FILE_TOO_LARGE",
        f"{rel} is {size} bytes; commands that read a whole file (writes, edits, deletes, "
        f"structure and region commands) handle files up to {limit} bytes, so nothing was "
        "read or changed; no command shows a file this large (fs.readSlice reads files up to "
        "2000000 bytes): ask the user for the part you need, or to change or delete it by hand",
        {"file_size": size, "limit": limit, "state": "FILE_UNCHANGED"},
    )


def read_at(
    spot: Spot, identity: tuple[int, int] | None = None, limit: int = MAX_READ_BYTES
) -> bytes:
    """The bytes of the regular file at ``spot``, opened without following a symlink.

    A file over ``limit`` bytes is refused by its size (fstat) before any byte is read, and
    one that grows past it while being read is refused too."""
    try:
        fd = os.open(spot.name, READ_FLAGS, dir_fd=spot.dir_fd)
    except FileNotFoundError:
        raise OperatorError(
            "ERR_FILE_NOT_FOUND", f"{spot.rel!r} disappeared while it was being read"
        ) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a symlink put there since the check
            raise OperatorError(
                "ERR_STALE_FILE",
                f"{spot.rel!r} was replaced by a symlink while it was being read; read it again",
                {"path": spot.rel},
            ) from None
        raise named_os_error(exc, spot.rel, "open", "ERR_READ_FAILED") from None
    opened = _OPENED.get()
    if opened is not None:
        opened.append(spot.rel)
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or (
            identity is not None and (info.st_dev, info.st_ino) != identity
        ):
            raise OperatorError(
                "ERR_STALE_FILE",
                f"{spot.rel!r} was replaced while it was being read; read it again",
                {"path": spot.rel},
            )
        if info.st_size > limit:
            raise too_large(spot.rel, info.st_size, limit)
        try:
            # As many bytes as fstat says, and one more to see a file that grew: a buffer
            # of ``limit`` bytes would cost more to set up than the read itself.
            data = handle.read(min(info.st_size, limit) + 1)
            if len(data) > info.st_size:  # it grew while being read: on to the limit
                data += handle.read(limit + 1 - len(data))
        except OSError as exc:
            raise named_os_error(exc, spot.rel, "read", "ERR_READ_FAILED") from None
        charge(len(data))
        if len(data) > limit:
            raise too_large(spot.rel, len(data), limit)
        return data


def read_bytes(found: FoundFile) -> bytes:
    root = found.root if found.root is not None else found.real.parent
    rel = found.rel if found.root is not None else found.real.name
    with locate(root, rel, follow_last=False) as spot:
        if not spot.exists:
            raise OperatorError(
                "ERR_FILE_NOT_FOUND", f"{found.rel!r} disappeared while it was being read"
            )
        return read_at(spot, found.identity if found.root is not None else None)


def read_if_file(workspace: Workspace, rel: str) -> bytes | None:
    """The bytes of the regular file at ``rel`` (symlinks followed), None if there is none."""
    with workspace.locate(rel) as spot:
        if not spot.is_file:
            return None
        return read_at(spot)


def read_text(found: FoundFile) -> tuple[str, str]:
    """(text with LF line breaks and no BOM, a short note on the file's encoding style)."""
    from ..engines.textfile import TextFile

    decoded = TextFile.decode(read_bytes(found), found.rel)
    notes = [decoded.breaks_note] if decoded.breaks_note else []
    if decoded.bom:
        notes.append("UTF-8 BOM")
    return decoded.text, ", ".join(notes)


def line_count(text: str) -> int:
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)
