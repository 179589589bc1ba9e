"""One entry of the workspace written, captured, restored or unlinked through the
descriptor of its held folder: the primitives applying, undo and recovery share.

Invariants:
- With a workspace, every path is walked from a descriptor of its root (``fsaccess``),
  never followed at its last component; without one, the folder is opened by name
  (files the app owns).
- A file is never written in place: its bytes go to a temp file in the same folder and
  one rename swaps it in (``atomic.replace_in``).
- ``write_all`` and ``rename_entry`` are the seams tests slow down or make fail; every
  write and every swap goes through them.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from pathlib import Path, PosixPath

from . import atomic
from .fsaccess import DIR_FLAGS, Spot
from .pathtext import outside_error
from .saved import (
    SNAPSHOT_CAP,
    SavedDir,
    SavedEntry,
    SavedFile,
    SavedLink,
    SavedTooLarge,
    build_tree_at,
    capture_at,
    make_fifo_at,
    remove_tree_at,
)
from .workspace import Workspace

# -- reaching a folder by descriptor ----------------------------------------------------------


class HeldPath(PosixPath):
    """A name inside a folder held open by ``dir_fd``: what the write seams receive.

    Its text (the workspace root joined with the relative path) is for messages and tests;
    the real operation uses ``dir_fd`` and the last component only.
    """

    dir_fd: int = -1


def _held(dir_fd: int, shown: Path) -> HeldPath:
    held = HeldPath(shown)
    held.dir_fd = dir_fd
    return held


@contextlib.contextmanager
def _parent_of(real: Path, workspace: Workspace | None, create: bool) -> Iterator[tuple[int, str]]:
    """(folder descriptor, name) for ``real``; missing folders are made when ``create``.

    With a workspace the folder is walked from its root (``real`` is the root joined with a
    relative path); without one, ``real``'s folder is opened by name (files the app owns).
    """
    if workspace is None:
        fd = os.open(real.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            yield fd, real.name
        finally:
            os.close(fd)
        return
    with workspace.locate(workspace.relative(real), follow_last=False) as spot:
        fd, _ = make_missing_dirs(spot) if create else (os.dup(spot.dir_fd), [])
        if spot.missing and not create:
            os.close(fd)
            raise FileNotFoundError(errno.ENOENT, "a folder of the path does not exist")
        try:
            yield fd, spot.name
        finally:
            os.close(fd)


def make_missing_dirs(spot: Spot, created: list[str] | None = None) -> tuple[int, list[str]]:
    """Create ``spot.missing`` one folder at a time; returns (new descriptor of the last
    folder, the relative paths created). Each new folder is opened with O_NOFOLLOW.
    Each one is added to ``created`` as soon as it exists, so a failure part way leaves
    the caller knowing every folder to take back."""
    fd = os.dup(spot.dir_fd)
    created = [] if created is None else created
    parts = list(spot.dir_parts)
    try:
        for name in spot.missing:
            parts.append(name)
            try:
                os.mkdir(name, dir_fd=fd)
                created.append("/".join(parts))
            except FileExistsError:
                pass  # an earlier write of this ChangeSet made it
            try:
                next_fd = os.open(name, DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise outside_error(
                        "/".join(parts), "was replaced by a symlink or a file while it was made"
                    ) from None
                raise
            os.close(fd)
            fd = next_fd
    except BaseException:
        os.close(fd)
        raise
    return fd, created


# -- what a deleted or overwritten entry held ------------------------------------------


def capture_entry(
    real: Path, cap: int | None = None, workspace: Workspace | None = None
) -> SavedEntry:
    """Everything needed to rebuild ``real`` (not following it if it is a symlink)."""
    with _parent_of(real, workspace, create=False) as (fd, name):
        return capture_at(fd, name, SNAPSHOT_CAP if cap is None else cap)


def unlink_entry(workspace: Workspace, rel: str) -> None:
    """Remove the file or symlink at ``rel`` (reached by descriptors, never followed)."""
    with workspace.locate(rel, follow_last=False) as spot:
        os.unlink(spot.name, dir_fd=spot.dir_fd)


# -- the primitive write ------------------------------------------------------------------


def write_all(fd: int, data: bytes) -> None:
    """Seam: write every byte of ``data`` (tests slow it down or make it fail)."""
    atomic.write_all(fd, data)


def rename_entry(src: Path, dst: Path) -> None:
    """Seam: the one step that makes a write visible (a rename inside one held folder)."""
    if isinstance(src, HeldPath) and isinstance(dst, HeldPath):
        os.replace(src.name, dst.name, src_dir_fd=src.dir_fd, dst_dir_fd=dst.dir_fd)
    else:
        os.replace(src, dst)


def write_in(dir_fd: int, name: str, shown: Path, data: bytes, mode: int | None) -> None:
    def rename(temp: str, target: str) -> None:
        rename_entry(_held(dir_fd, shown.with_name(temp)), _held(dir_fd, shown.with_name(target)))

    atomic.replace_in(dir_fd, name, data, mode, write=write_all, rename=rename)


def restore_entry(real: Path, saved: SavedEntry, workspace: Workspace | None = None) -> list[str]:
    """Put ``saved`` back at ``real`` atomically; returns what could not be rebuilt.

    A file replaces whatever file stands at ``real``; a symlink or a folder needs the
    place to be free (a folder is built under a temp name and renamed into place). With a
    workspace, ``real`` is reached from its root by descriptors and missing folders on the
    way are made again.
    """
    with _parent_of(real, workspace, create=True) as (fd, name):
        return _restore_at(fd, name, real, saved)


def _restore_at(fd: int, name: str, shown: Path, saved: SavedEntry) -> list[str]:
    problems: list[str] = []
    if isinstance(saved, SavedFile):
        write_in(fd, name, shown, saved.data, saved.mode)
    elif isinstance(saved, SavedLink):
        temp = atomic.temp_name_for(name)
        os.symlink(saved.target, temp, dir_fd=fd)
        try:
            rename_entry(_held(fd, shown.with_name(temp)), _held(fd, shown))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=fd)
            raise
    elif isinstance(saved, SavedDir):
        with contextlib.suppress(FileNotFoundError):
            os.stat(name, dir_fd=fd, follow_symlinks=False)
            raise FileExistsError(errno.EEXIST, "something already stands there")
        temp = atomic.temp_name_for(name)
        try:
            build_tree_at(fd, temp, saved, name, problems, write_all)
            os.rename(temp, name, src_dir_fd=fd, dst_dir_fd=fd)
        except BaseException:
            with contextlib.suppress(OSError):
                remove_tree_at(fd, temp)
            raise
    elif isinstance(saved, SavedTooLarge):
        problems.append(
            f"{name} ({saved.size} bytes) was over the journal's size limit; "
            "restore it from the system trash"
        )
    elif not make_fifo_at(fd, name, saved):
        problems.append(f"{name}: a {saved.kind} cannot be restored")
    atomic.fsync_dir(fd)
    return problems


# -- stale checks ---------------------------------------------------------------------------
