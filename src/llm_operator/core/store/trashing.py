"""Moving one workspace entry to the system trash, and telling where it went.

send2trash only takes a path name, so this is the one place where a name is used after a
descriptor check. The entry's parent is reached by descriptors first; just before the
call, the name is checked to lead to the very same folder and entry (device and inode)
with no symlink on the way. What remains is the window between that check and
send2trash's own rename: a process that swaps a folder of the path for a symlink inside
that window (microseconds) can make send2trash move an entry of the symlink's target. The
entry moved is always one the name then points at; nothing is erased, only moved.

On a workspace that is itself a mount point (or holds one), the freedesktop trash of that
volume is ``<mount>/.Trash-<uid>`` or ``<mount>/.Trash/<uid>``; when that folder (or the
home trash) is inside the workspace, ``landing`` names it so the result can say so.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from ..errors import OperatorError
from .fsaccess import Spot
from .oserrors import reason_of


def _inside(root: Path, folder: str) -> str | None:
    folder = os.path.normpath(folder)
    base = str(root)
    if folder == base or folder.startswith(base.rstrip("/") + "/"):
        return os.path.relpath(folder, base)
    return None


def landing(root: Path, path_text: str) -> str | None:
    """The workspace-relative trash folder send2trash will use for ``path_text``, if it is
    inside the workspace (None otherwise or where it cannot be told)."""
    if sys.platform == "darwin" or os.name == "nt":
        return None
    try:
        import send2trash.plat_other as freedesktop
    except ImportError:
        return None
    try:
        path_dev = os.lstat(path_text).st_dev
        home_dev = os.lstat(os.path.realpath(os.path.expanduser("~"))).st_dev
        if path_dev == home_dev:
            return _inside(root, os.fsdecode(freedesktop.HOMETRASH_B))
        topdir = os.fsdecode(freedesktop.find_mount_point(os.fsencode(path_text)))
        uid = str(os.getuid())
        shared = os.path.join(topdir, ".Trash")
        info = os.lstat(shared) if os.path.lexists(shared) else None
        if info is not None and stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_ISVTX:
            return _inside(root, os.path.join(shared, uid))
        return _inside(root, os.path.join(topdir, f".Trash-{uid}"))
    except OSError:
        return None


def _same(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def verify_name(root: Path, spot: Spot) -> str:
    """The absolute name of ``spot``'s entry, checked to still lead to the same entry."""
    assert spot.info is not None
    parent_text = str(root / spot.parent_rel) if spot.parent_rel != "." else str(root)
    path_text = os.path.join(parent_text, spot.name)
    changed = OperatorError(
        "ERR_STALE_FILE",
        f"{spot.rel} changed on disk just before its delete (a folder on the way was moved "
        "or replaced); nothing was deleted. Look at it again and resend the delete.",
        {"path": spot.rel},
    )
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


def move_to_trash(root: Path, spot: Spot, shown: str) -> str | None:
    """Trash ``spot``'s entry; returns the in-workspace trash folder it went to, if any."""
    path_text = verify_name(root, spot)
    where = landing(root, path_text)
    from send2trash import send2trash  # lazy: only deletes need it

    try:
        send2trash(path_text)
    except FileNotFoundError:
        # Checked a moment ago: a folder on the way was moved in between. Nothing moved.
        raise OperatorError(
            "ERR_STALE_FILE",
            f"{spot.rel} changed on disk just before its delete (it was no longer at its "
            "path); nothing was deleted. Look at it again and resend the delete.",
            {"path": spot.rel},
        ) from None
    except OSError as exc:
        raise OperatorError(
            "ERR_TRASH_UNAVAILABLE",
            f"could not move {shown} to the system trash ({reason_of(exc)}); "
            "nothing was deleted. Deletes only ever go to the trash: the user can free or "
            "fix the trash, or delete the path by hand.",
            {"path": shown, "reason": reason_of(exc)},
        ) from exc
    try:
        os.stat(spot.name, dir_fd=spot.dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return where
    raise OperatorError(
        "ERR_TRASH_UNAVAILABLE",
        f"the system trash did not take {shown}; nothing was deleted",
        {"path": shown},
    )
