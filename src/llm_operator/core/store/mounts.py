"""Mount points at or under a folder to delete: the trash cannot take such a folder whole.

A folder that is a mount point, or holds one, cannot be moved by one rename: the trash
falls back to copying it and removing the original, which fails on the mount point after
its contents have gone. So such a delete is refused before anything moves (when it is
planned, and again in the stale check just before the batch writes).

Mount points are read from ``/proc/self/mountinfo`` (bind mounts of the same file system
included); elsewhere, a folder whose device differs from its parent's is one.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import OperatorError

MOUNTINFO = "/proc/self/mountinfo"
_ESCAPE = re.compile(rb"\\([0-7]{3})")


def _unescape(field: bytes) -> bytes:
    """mountinfo writes space, tab, newline and backslash as octal escapes."""
    return _ESCAPE.sub(lambda m: bytes([int(m.group(1), 8)]), field)


def mounts_at_or_under(folder: Path) -> list[str]:
    """Mount points at ``folder`` (a real path) or inside it, relative to it ("." for itself)."""
    try:
        with open(MOUNTINFO, "rb") as handle:
            text = handle.read()
    except OSError:
        return []
    base = os.fsencode(folder)
    inside = base.rstrip(b"/") + b"/"
    found: set[str] = set()
    for line in text.splitlines():
        fields = line.split(b" ")
        if len(fields) < 5:
            continue
        point = _unescape(fields[4])
        if point == base or point.startswith(inside):
            found.add(os.fsdecode(os.path.relpath(point, base)))
    return sorted(found, key=lambda rel: (rel != ".", rel))


def refuse_mount_points(folder: Path, rel: str, dir_fd: int, info: os.stat_result | None) -> None:
    """Raise ERR_FILE_BUSY if the folder ``rel`` (real path ``folder``, entry of the folder
    held by ``dir_fd``, ``info`` its lstat) is a mount point or holds one."""
    found = mounts_at_or_under(folder)
    if not found and info is not None and os.fstat(dir_fd).st_dev != info.st_dev:
        found = ["."]
    if not found:
        return
    first = found[0]
    where = (
        f"{rel} is a mount point (another file system is mounted there)"
        if first == "."
        else f"{rel} holds a mount point, {rel}/{first}"
    )
    raise OperatorError(
        "ERR_FILE_BUSY",
        f"{where}, so the trash cannot take it whole; nothing was deleted. Delete the files "
        "inside it instead, or ask the user to unmount it first.",
        {"path": rel, "mount_point": rel if first == "." else f"{rel}/{first}"},
    )
