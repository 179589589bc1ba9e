"""Why a walk passed over an entry, in words a person and a model read: what the entry is
(a FIFO, a socket, a device, a link that leads nowhere or outside) and no path, so a
message that quotes it names only the workspace-relative path its caller adds."""

from __future__ import annotations

import stat

LINK_REASONS = {
    "ERR_PATH_OUTSIDE_WORKSPACE": "a link leading out of the workspace",
    "ERR_FILE_NOT_FOUND": "a dangling link (its target does not exist)",
    "ERR_SYMLINK_LOOP": "a link loop (links leading to each other)",
}


def kind_of(mode: int) -> str:
    """What the entry of ``mode`` is, in a word or two, without an article ("folder",
    "FIFO (named pipe)", "character device"): the one wording of every message that says
    why an entry is no regular file."""
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISLNK(mode):
        return "symlink"
    if stat.S_ISFIFO(mode):
        return "FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    if stat.S_ISDIR(mode):
        return "folder"
    return "special file"


def os_reason(error: OSError) -> str:
    """An OS error in words, without a path (``strerror`` names none)."""
    return (error.strerror or type(error).__name__).lower()
