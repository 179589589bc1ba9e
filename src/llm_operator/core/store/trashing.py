"""Moving one workspace entry to the system trash, and telling where it went.

On Linux the freedesktop trash is filled here by descriptors: the entry is moved by one
``renameat`` from the folder descriptor that was checked into the trash's ``files/``
folder, after its ``.trashinfo`` is created with O_EXCL. The entry's path name is used
only to write the ``Path=`` line of the .trashinfo and to find the volume's trash, never
to reach the entry, so a folder swapped for a symlink meanwhile cannot make the trash take
anything outside. Just before, the name is still checked to lead to the same folder and
entry (device and inode) with no symlink on the way, so the .trashinfo tells the truth.

Where that rename cannot work (the trash on another mount of the same disk, EXDEV),
send2trash's own cross-device move into the home trash gets the checked path name (without
its access pre-check, see ``_trash_across``); on other systems send2trash does; either way
the name is checked: the window between that check
and send2trash's own rename (microseconds) remains there, and a swap inside it can make
the trash take an entry of the swapped-in folder (moved, never erased).

On a workspace that is itself a mount point (or holds one), the freedesktop trash of that
volume is ``<mount>/.Trash-<uid>`` or ``<mount>/.Trash/<uid>``; when the trash folder used
is inside the workspace, its relative path is returned so the result can say so.

Where the entry went by the descriptor rename, the absolute names of its trashed entry and
of its ``.trashinfo`` are returned too (``Trashed``): the journal keeps them, so an undo
takes the file back out of the trash rather than leaving a second copy there (untrashing).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import OperatorError
from .fsaccess import DIR_FLAGS, Spot
from .oserrors import reason_of
from .workspace import home_trash, inside_root

TRASH_ATTEMPTS = 3


@dataclass(frozen=True)
class Trashed:
    """Where a deleted entry went: the workspace-relative trash folder when the trash is
    inside the workspace, and the absolute names of the entry in the trash's ``files/`` and
    of its ``.trashinfo`` when they are known (the descriptor rename; not send2trash's own
    moves, whose names it does not tell)."""

    inside: str | None
    files: str | None = None
    info: str | None = None
    # (st_dev, st_ino, st_ctime_ns) of the entry in files/ right after the move: the
    # trash reuses a freed name, so only this tells the app's copy from a file the user
    # trashed later under the same name with the same bytes (untrashing).
    identity: tuple[int, int, int] | None = None


_INFO_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def landing(root: Path, path_text: str) -> str | None:
    """The workspace-relative trash folder send2trash will use for ``path_text``, if it is
    inside the workspace (None otherwise or where it cannot be told)."""
    freedesktop = _freedesktop()
    if freedesktop is None:
        return None
    try:
        path_dev = os.lstat(path_text).st_dev
        home_dev = os.lstat(os.path.realpath(os.path.expanduser("~"))).st_dev
        if path_dev == home_dev:
            return inside_root(root, os.fsdecode(freedesktop.HOMETRASH_B))
        topdir = os.fsdecode(freedesktop.find_mount_point(os.fsencode(path_text)))
        uid = str(os.getuid())
        shared = os.path.join(topdir, ".Trash")
        info = os.lstat(shared) if os.path.lexists(shared) else None
        if info is not None and stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_ISVTX:
            return inside_root(root, os.path.join(shared, uid))
        return inside_root(root, os.path.join(topdir, f".Trash-{uid}"))
    except OSError:
        return None


def _same(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _changed(spot: Spot) -> OperatorError:
    return OperatorError(
        "ERR_STALE_FILE",
        f"{spot.rel} changed on disk just before its delete (a folder on the way was moved "
        "or replaced); nothing was deleted. Look at it again and resend the delete.",
        {"path": spot.rel},
    )


def verify_name(root: Path, spot: Spot) -> str:
    """The absolute name of ``spot``'s entry, checked to still lead to the same entry."""
    assert spot.info is not None
    parent_text = str(root / spot.parent_rel) if spot.parent_rel != "." else str(root)
    path_text = os.path.join(parent_text, spot.name)
    changed = _changed(spot)
    try:
        if os.path.realpath(parent_text) != parent_text:
            raise changed
        if not _same(os.stat(parent_text), os.fstat(spot.dir_fd)):
            raise changed
        if not _same(os.lstat(path_text), spot.info):
            raise changed
    except OSError:
        raise changed from None
    return path_text


def _freedesktop() -> Any:
    if sys.platform == "darwin" or os.name == "nt":
        return None
    try:
        import send2trash.plat_other as freedesktop
    except ImportError:
        return None
    # send2trash takes an empty XDG_DATA_HOME for a relative path (a Trash folder in the
    # current folder, unprotected); the spec says to ignore an empty or relative one.
    trash = home_trash()
    freedesktop.XDG_DATA_HOME = os.fsencode(os.path.dirname(trash))
    freedesktop.HOMETRASH_B = os.fsencode(trash)
    freedesktop.HOMETRASH = trash
    return freedesktop


def _no_link_on_the_way(top: bytes, trash: bytes) -> None:
    """Refuse a volume's trash folder reached through a symbolic link below its root ``top``
    (a planted ``.Trash-<uid>`` link would make the trash create and fill folders
    elsewhere): ELOOP,
    which the delete reports as a trash it cannot use, before anything is created."""
    steps = os.path.relpath(trash, top).split(b"/")
    if steps[0] in (b".", b".."):
        steps = []  # not below top: the trash folder itself and its two are looked at
    checked, here = [], top
    for step in steps:
        here = os.path.join(here, step)
        checked.append(here)
    checked += [trash, os.path.join(trash, b"files"), os.path.join(trash, b"info")]
    for path in checked:
        if os.path.islink(path):
            raise OSError(errno.ELOOP, _LINKED_TRASH)


def _trash_rename(src_dir_fd: int, name: str, files_fd: int, dest: str) -> None:
    """Seam: the one step that moves the entry (tests make it fail)."""
    os.rename(name, dest, src_dir_fd=src_dir_fd, dst_dir_fd=files_fd)


def _claim_info(info_fd: int, files_fd: int, name: str) -> tuple[str, int]:
    """A trash name free in files/ and info/, with its .trashinfo created (O_EXCL)."""
    base, ext = os.path.splitext(name)
    dest, counter = name, 0
    while True:
        try:
            handle = os.open(f"{dest}.trashinfo", _INFO_FLAGS, 0o600, dir_fd=info_fd)
        except FileExistsError:
            handle = -1
        if handle >= 0:
            try:
                os.stat(dest, dir_fd=files_fd, follow_symlinks=False)
            except FileNotFoundError:
                return dest, handle
            os.close(handle)
            os.unlink(f"{dest}.trashinfo", dir_fd=info_fd)
        counter += 1
        dest = f"{base} {counter}{ext}"


def _trash_by_descriptor(freedesktop: Any, root: Path, spot: Spot, path_text: str) -> Trashed:
    """The freedesktop trash, with the entry moved by one rename from its held folder."""
    assert spot.info is not None
    path_b = os.fsencode(path_text)
    home_dev = os.lstat(os.path.realpath(os.path.expanduser("~"))).st_dev
    if spot.info.st_dev == home_dev:
        topdir, trash = freedesktop.XDG_DATA_HOME, freedesktop.HOMETRASH_B
    else:
        topdir = freedesktop.find_mount_point(path_b)
        trash = freedesktop.find_ext_volume_trash(topdir)
        # A volume's trash sits at its root, where a cloned repository can hold a link of
        # that name; the user's own trash may be a link the user made (to another disk).
        _no_link_on_the_way(topdir, trash)
    files_dir, info_dir = os.path.join(trash, b"files"), os.path.join(trash, b"info")
    freedesktop.check_create(files_dir)
    freedesktop.check_create(info_dir)
    files_fd = os.open(files_dir, DIR_FLAGS)
    try:
        info_fd = os.open(info_dir, DIR_FLAGS)
        try:
            dest, handle = _claim_info(info_fd, files_fd, spot.name)
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as info:
                    info.write(freedesktop.info_for(path_b, topdir))
                try:
                    _trash_rename(spot.dir_fd, spot.name, files_fd, dest)
                except FileNotFoundError as exc:
                    # The trash folders are held open, so the entry itself was missing
                    # from its folder at that moment (moved by someone, perhaps back by
                    # now): the file changed, the trash did not fail.
                    raise _vanished(spot) from exc
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(f"{dest}.trashinfo", dir_fd=info_fd)
                raise
        finally:
            os.close(info_fd)
        identity = _identity(files_fd, dest)
    finally:
        os.close(files_fd)
    return Trashed(
        inside_root(root, os.fsdecode(trash)),
        os.path.join(os.fsdecode(files_dir), dest),
        os.path.join(os.fsdecode(info_dir), f"{dest}.trashinfo"),
        identity,
    )


def _identity(files_fd: int, dest: str) -> tuple[int, int, int] | None:
    """The trashed entry's (device, inode, change time); None if it cannot be looked at
    (the entry is in the trash all the same: the undo then leaves the trash alone)."""
    try:
        landed = os.stat(dest, dir_fd=files_fd, follow_symlinks=False)
    except OSError:
        return None
    return landed.st_dev, landed.st_ino, landed.st_ctime_ns


def _trash_across(freedesktop: Any, root: Path, path_text: str) -> str | None:
    """Where one rename cannot reach the trash (EXDEV: the entry is on another mount of the
    home folder's disk), send2trash's own move into the home trash, which copies and then
    removes. Called without send2trash's access pre-check, which asks whether the entry
    itself is writable: a read-only file in a folder the user may write would be refused
    as "permission denied", although moving it is allowed and its own rename would work."""
    freedesktop.trash_move(
        os.fsencode(path_text), freedesktop.HOMETRASH_B, freedesktop.XDG_DATA_HOME, cross_dev=True
    )
    return inside_root(root, os.fsdecode(freedesktop.HOMETRASH_B))


def _gone(spot: Spot) -> bool:
    try:
        os.stat(spot.name, dir_fd=spot.dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return True
    return False


def _vanished(spot: Spot) -> OperatorError:
    return OperatorError(
        "ERR_STALE_FILE",
        f"{spot.rel} changed on disk just before its delete (it was no longer in its "
        "folder); nothing was deleted. Look at it again and resend the delete.",
        {"path": spot.rel},
    )


_LINKED_TRASH = "the trash folder is reached through a symbolic link"


def _unavailable(shown: str, exc: OSError) -> OperatorError:
    reason = _LINKED_TRASH if exc.strerror == _LINKED_TRASH else reason_of(exc)
    return OperatorError(
        "ERR_TRASH_UNAVAILABLE",
        f"could not move {shown} to the system trash ({reason}); "
        "nothing was deleted. Deletes only ever go to the trash: the user can free "
        "or fix the trash, or delete the path by hand.",
        {"path": shown, "reason": reason},
    )


def _trash_failed(root: Path, spot: Spot, shown: str, exc: OSError) -> OperatorError:
    """What a trash move that kept failing means. If the entry left its held folder, or
    the failing name is the entry's own path, or the name no longer leads to the held folder
    (a folder on the way was swapped meanwhile), the file changed under the delete:
    ERR_STALE_FILE. A failing name elsewhere (the trash's own folders), or a name that
    still leads to the entry, means the trash failed."""
    if _gone(spot):
        return _vanished(spot)
    if exc.filename is not None:
        failing = os.path.normpath(os.fsdecode(exc.filename))
        entry = os.path.normpath(os.path.join(str(root), spot.rel))
        if inside_root(root, failing) is not None and (
            entry == failing or entry.startswith(failing.rstrip("/") + "/")
        ):
            return _changed(spot)  # the entry's own path, found a moment ago, was not there
    try:
        verify_name(root, spot)
    except OperatorError as stale:
        return stale
    return _unavailable(shown, exc)


def move_to_trash(root: Path, spot: Spot, shown: str) -> Trashed:
    """Trash ``spot``'s entry; returns where it went (see ``Trashed``)."""
    if os.fstatvfs(spot.dir_fd).f_flag & os.ST_RDONLY:
        # Nothing leaves a read-only file system, and that is the cause to name: the
        # trash's own folders (or send2trash's access pre-check, "permission denied")
        # would otherwise be blamed. Raised as the OS error a move would meet, so a delete
        # says what a write on the same mount says.
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))
    freedesktop = _freedesktop()
    for attempt in range(TRASH_ATTEMPTS if freedesktop is not None else 0):
        path_text = verify_name(root, spot)  # for the .trashinfo and the volume only
        try:
            return _trash_by_descriptor(freedesktop, root, spot, path_text)
        except OSError as exc:
            if exc.errno == errno.EXDEV:
                break  # a bind mount: the trash is on another mount; send2trash copies across
            if _gone(spot):
                raise _vanished(spot) from exc
            if attempt + 1 < TRASH_ATTEMPTS:
                # Nothing moved (the rename is one step and its .trashinfo was removed):
                # a folder on the way may have been swapped for a moment while the trash
                # looked at the path by name. Check the name again and retry; a trash
                # that keeps failing is reported.
                continue
            raise _trash_failed(root, spot, shown, exc) from exc
    from send2trash import send2trash  # lazy: only deletes need it

    for attempt in range(TRASH_ATTEMPTS):
        path_text = verify_name(root, spot)
        try:
            if freedesktop is not None:
                where = _trash_across(freedesktop, root, path_text)
            else:
                where = landing(root, path_text)
                send2trash(path_text)
            break
        except OSError as exc:
            if isinstance(exc, FileNotFoundError):
                if attempt + 1 < TRASH_ATTEMPTS:
                    # The name may have been missing for a moment (a folder on the way
                    # being moved): check it again and retry.
                    continue
                raise _trash_failed(root, spot, shown, exc) from exc
            raise _unavailable(shown, exc) from exc
    try:
        os.stat(spot.name, dir_fd=spot.dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return Trashed(where)
    raise OperatorError(
        "ERR_TRASH_UNAVAILABLE",
        f"the system trash did not take {shown}; nothing was deleted",
        {"path": shown},
    )
