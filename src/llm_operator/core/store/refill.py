"""Putting back what a failed folder delete took: the trash took part of a folder.

Where the trash cannot move a folder by one rename (another disk or mount), it copies the
folder and then removes the original entry by entry; when a removal fails (an immutable
file, a folder the user may not write), part of the folder is gone from the workspace
while the delete failed. Every entry the folder held before (its undo copy) that is
missing now is rebuilt here, by descriptors, so the failed delete leaves the folder as it
was and the message can say so. Entries still there are never touched.
"""

from __future__ import annotations

import os
import stat

from .fsaccess import DIR_FLAGS
from .oserrors import reason_of
from .saved import SavedDir, SavedFile, SavedLink, Writer, build_tree_at, put_file_at


def refill_at(dir_fd: int, saved: SavedDir, rel: str, write: Writer) -> tuple[list[str], list[str]]:
    """Rebuild the entries of ``saved`` missing from the folder held by ``dir_fd`` (the
    folder ``rel``); returns (the paths put back, what could not be put back)."""
    put_back: list[str] = []
    problems: list[str] = []
    for name, child in saved.children:
        path = f"{rel}/{name}"
        try:
            info: os.stat_result | None = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            info = None
        try:
            if info is not None:
                if isinstance(child, SavedDir) and stat.S_ISDIR(info.st_mode):
                    fd = os.open(name, DIR_FLAGS, dir_fd=dir_fd)
                    try:
                        more, failed = refill_at(fd, child, path, write)
                    finally:
                        os.close(fd)
                    put_back += more
                    problems += failed
                continue
            if isinstance(child, SavedDir):
                build_tree_at(dir_fd, name, child, path, problems, write)
            elif isinstance(child, SavedFile):
                put_file_at(dir_fd, name, child, write)
            elif isinstance(child, SavedLink):
                os.symlink(child.target, name, dir_fd=dir_fd)
            else:
                problems.append(f"{path}: it cannot be rebuilt (look in the system trash)")
                continue
            put_back.append(path)
        except OSError as exc:
            problems.append(f"{path}: {reason_of(exc)}")
    return put_back, problems
