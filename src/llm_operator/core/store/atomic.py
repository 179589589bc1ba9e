"""The one atomic write: a temp file in the same folder, fsynced, renamed over the target.

Everything is done relative to one open descriptor of the folder, so the temp file, the
rename and the folder fsync all happen in the same folder even if its name is moved or
swapped for a symlink meanwhile. A reader sees the old bytes or the new, never a mix; a
crash leaves at most a temp file (``.<name>.llmop-<8 hex>.tmp``) beside the untouched
target.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from pathlib import Path

TEMP_NAME = re.compile(r"\..+\.llmop-[0-9a-f]{8}\.tmp", re.DOTALL)
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC


def temp_name_for(name: str) -> str:
    # Cut long names so the temp name stays under the usual 255-byte limit.
    cut = name.encode("utf-8", "surrogateescape")[:200].decode("utf-8", "ignore")
    return f".{cut}.llmop-{os.urandom(4).hex()}.tmp"


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` (os.write may write less than asked)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


# Folder syncs that failed with a real error while ``watching_folder_syncs`` was active:
# the change is on disk, but may not survive a power loss.
_SYNC_FAILURES: ContextVar[list[str] | None] = ContextVar("folder_sync_failures", default=None)
# A file system that cannot sync a folder at all says so with these: nothing to warn about.
_CANNOT_SYNC_DIRS = (errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EROFS, errno.EBADF)


@contextlib.contextmanager
def watching_folder_syncs() -> Iterator[list[str]]:
    """Collect the reasons of folder syncs that failed inside the block."""
    found: list[str] = []
    token = _SYNC_FAILURES.set(found)
    try:
        yield found
    finally:
        _SYNC_FAILURES.reset(token)


def fsync_dir(dir_fd: int) -> None:
    # Makes the rename itself durable; not every file system allows it, hence best effort:
    # the change is made either way, and a real failure (EIO) is reported to the watcher.
    try:
        os.fsync(dir_fd)
    except OSError as exc:
        watcher = _SYNC_FAILURES.get()
        if watcher is not None and exc.errno not in _CANNOT_SYNC_DIRS:
            watcher.append((exc.strerror or type(exc).__name__).lower())


Writer = Callable[[int, bytes], None]
Renamer = Callable[[str, str], None]


def create_temp(
    dir_fd: int, name: str, data: bytes, mode: int | None, write: Writer = write_all
) -> str:
    """A fsynced temp file holding ``data`` beside ``name`` in ``dir_fd``; returns its name."""
    temp = temp_name_for(name)
    fd = os.open(temp, _CREATE, 0o666, dir_fd=dir_fd)
    try:
        try:
            write(fd, data)
            if mode is not None:
                os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=dir_fd)
        raise
    return temp


def replace_in(
    dir_fd: int,
    name: str,
    data: bytes,
    mode: int | None,
    write: Writer = write_all,
    rename: Renamer | None = None,
) -> None:
    """Replace ``name`` inside the folder ``dir_fd`` with ``data`` in one step.

    ``mode`` None keeps the umask default. A symlink at ``name`` is replaced, never
    followed. ``write`` and ``rename`` are seams for fault tests.
    """
    temp = create_temp(dir_fd, name, data, mode, write)
    try:
        if rename is None:
            os.replace(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        else:
            rename(temp, name)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=dir_fd)
        raise
    fsync_dir(dir_fd)


def write_path_atomically(path: Path, data: bytes, mode: int | None = 0o600) -> None:
    """Atomic, durable write of a file the app owns (settings, state), by its folder's fd.

    Private to the user by default: the state holds results that may quote files.
    """
    dir_fd = os.open(path.parent, _DIR)
    try:
        replace_in(dir_fd, path.name, data, mode)
    finally:
        os.close(dir_fd)
