"""What a deleted or overwritten entry held, captured and rebuilt by descriptors.

Every function here works on a folder descriptor and a single name: a symlink is read as
a link (its text), never followed, and a folder is entered with ``O_NOFOLLOW``, so a
capture or a rebuild never leaves the folder it was given.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from .fsaccess import DIR_FLAGS, READ_FLAGS

# A folder tree larger than this is not copied into the journal before its delete: the
# system trash is then the only way back, and undo says so.
SNAPSHOT_CAP = 200 * 1024 * 1024

_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class SavedFile:
    """A regular file as it was: its bytes and permission bits."""

    data: bytes
    mode: int


@dataclass(frozen=True)
class SavedLink:
    """A symlink as it was: its target, never followed."""

    target: str


@dataclass(frozen=True)
class SavedDir:
    """A folder as it was: its permission bits and its entries by name."""

    mode: int
    children: tuple[tuple[str, SavedEntry], ...]


@dataclass(frozen=True)
class SavedTooLarge:
    """An entry over SNAPSHOT_CAP: only the system trash holds its content. For a folder,
    ``listing`` names what it held (paths under it, folders before their entries, at most
    LISTING_CAP of them), so a delete the trash took only in part can say what is gone."""

    size: int
    listing: tuple[str, ...] = ()


@dataclass(frozen=True)
class SavedUnsupported:
    """A fifo, socket or device inside a deleted folder. A fifo holds no data, so its
    ``mode`` is all it takes to rebuild it; a socket or a device cannot be rebuilt."""

    kind: str
    mode: int | None = None

    @property
    def rebuildable(self) -> bool:
        return self.kind == "fifo" and self.mode is not None


SavedEntry: TypeAlias = SavedFile | SavedLink | SavedDir | SavedTooLarge | SavedUnsupported


def kind_of(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "device"


def read_file_at(dir_fd: int, name: str) -> bytes:
    fd = os.open(name, READ_FLAGS, dir_fd=dir_fd)
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


# How much of a file ``holds_exactly`` reads at a time: small enough to stay in the cache.
COMPARE_CHUNK = 256 * 1024


def holds_exactly(dir_fd: int, name: str, expected: bytes) -> bool:
    """Whether the file ``name`` holds ``expected``, byte for byte and no byte more.

    The same answer as ``read_file_at(dir_fd, name) == expected``: every byte is read and
    compared, but a piece at a time into one small buffer, so a big file is not copied
    into a new object of its size (for a few MB, setting up that memory costs more than
    the reading and the comparing)."""
    buffer = bytearray(min(COMPARE_CHUNK, len(expected) + 1))
    view = memoryview(buffer)
    fd = os.open(name, READ_FLAGS, dir_fd=dir_fd)
    with os.fdopen(fd, "rb", buffering=0) as handle:
        done = 0
        while True:
            count = handle.readinto(buffer)
            if not count:
                return done == len(expected)
            if done + count > len(expected) or not expected.startswith(view[:count], done):
                return False
            done += count


# The most entries a too-large folder's listing keeps (names only, a few MB at most).
LISTING_CAP = 100_000


def _tree_size(dir_fd: int, name: str) -> tuple[int, tuple[str, ...]]:
    """The bytes of the regular files under folder ``name``, and the listing of what it
    holds (relative to ``name``; at most LISTING_CAP paths)."""
    total = 0
    listing: list[str] = []
    for top, dirs, files, fd in os.fwalk(name, dir_fd=dir_fd, follow_symlinks=False):
        under = os.path.relpath(top, name)
        for child in files:
            with contextlib.suppress(FileNotFoundError):
                info = os.stat(child, dir_fd=fd, follow_symlinks=False)
                if stat.S_ISREG(info.st_mode):
                    total += info.st_size
        for child in (*dirs, *files):
            if len(listing) < LISTING_CAP:
                listing.append(child if under == "." else f"{under}/{child}")
    return total, tuple(listing)


def _capture(dir_fd: int, name: str) -> SavedEntry:
    info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    if stat.S_ISLNK(info.st_mode):
        return SavedLink(os.readlink(name, dir_fd=dir_fd))
    if stat.S_ISREG(info.st_mode):
        return SavedFile(read_file_at(dir_fd, name), stat.S_IMODE(info.st_mode))
    if stat.S_ISDIR(info.st_mode):
        fd = os.open(name, DIR_FLAGS, dir_fd=dir_fd)
        try:
            names = sorted(os.listdir(fd))
            children = tuple((child, _capture(fd, child)) for child in names)
        finally:
            os.close(fd)
        return SavedDir(stat.S_IMODE(info.st_mode), children)
    return SavedUnsupported(kind_of(info.st_mode), stat.S_IMODE(info.st_mode))


def capture_at(dir_fd: int, name: str, cap: int = SNAPSHOT_CAP) -> SavedEntry:
    """Everything needed to rebuild ``name`` in ``dir_fd`` (a symlink is kept as a link)."""
    info = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    if stat.S_ISREG(info.st_mode) and info.st_size > cap:
        return SavedTooLarge(info.st_size)
    if stat.S_ISDIR(info.st_mode):
        size, listing = _tree_size(dir_fd, name)
        if size > cap:
            return SavedTooLarge(size, listing)
    return _capture(dir_fd, name)


Writer = Callable[[int, bytes], None]


def put_file_at(dir_fd: int, name: str, saved: SavedFile, write: Writer) -> None:
    """Create ``name`` (it must not exist, nor be followed) holding ``saved``: its bytes
    written through ``write``, its mode set, then synced."""
    out = os.open(name, _CREATE, 0o600, dir_fd=dir_fd)
    try:
        write(out, saved.data)
        os.fchmod(out, saved.mode)
        os.fsync(out)
    finally:
        os.close(out)


def build_tree_at(
    dir_fd: int, name: str, saved: SavedDir, rel: str, problems: list[str], write: Writer
) -> None:
    """Create the folder ``name`` in ``dir_fd`` holding ``saved``; unrebuildable parts go to
    ``problems``."""
    os.mkdir(name, 0o700, dir_fd=dir_fd)
    fd = os.open(name, DIR_FLAGS, dir_fd=dir_fd)
    try:
        for child_name, child in saved.children:
            if isinstance(child, SavedFile):
                put_file_at(fd, child_name, child, write)
            elif isinstance(child, SavedLink):
                os.symlink(child.target, child_name, dir_fd=fd)
            elif isinstance(child, SavedDir):
                build_tree_at(fd, child_name, child, f"{rel}/{child_name}", problems, write)
            elif isinstance(child, SavedUnsupported) and not make_fifo_at(fd, child_name, child):
                problems.append(f"{rel}/{child_name}: a {child.kind} cannot be restored")
        # Last, so a read-only folder can still be filled first.
        os.fchmod(fd, saved.mode)
    finally:
        os.close(fd)


def make_fifo_at(dir_fd: int, name: str, saved: SavedUnsupported) -> bool:
    """Rebuild ``saved`` as ``name`` in ``dir_fd`` if it is a fifo; False if it cannot be."""
    if not saved.rebuildable or saved.mode is None:
        return False
    os.mkfifo(name, saved.mode, dir_fd=dir_fd)
    os.chmod(name, saved.mode, dir_fd=dir_fd)  # mkfifo's mode passes through the umask
    return True


def remove_tree_at(dir_fd: int, name: str) -> None:
    """Remove the folder ``name`` in ``dir_fd`` and everything in it, never following links."""
    try:
        fd = os.open(name, DIR_FLAGS, dir_fd=dir_fd)
    except OSError:
        os.unlink(name, dir_fd=dir_fd)  # not a folder (any more): just the entry
        return
    try:
        for child in os.listdir(fd):
            info = os.stat(child, dir_fd=fd, follow_symlinks=False)
            if stat.S_ISDIR(info.st_mode):
                remove_tree_at(fd, child)
            else:
                os.unlink(child, dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=dir_fd)
