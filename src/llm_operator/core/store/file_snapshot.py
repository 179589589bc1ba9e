"""What a command did to the workspace's files: a snapshot before, one after, compared.

A command runs outside the journal, so the app cannot say what it wrote by watching its
own writes; it compares (size, mtime_ns, inode, mode) of every file before and after.

Invariants:
- The walk is the one fs.searchTree uses (``tree_walk.walk_files``): by descriptors, never
  following a symlinked folder, passing over ``.git``, the trash, the app's state folder and
  .gitignore'd paths. Files in those are not compared, and the result never says they were.
- At most ``MAX_FILES`` files are looked at (the searchTree visit cap); a snapshot that
  stopped early says so (``capped``), and a path past the cap of either snapshot is never
  reported, so a capped walk cannot list untouched files as deleted or created.
- Only names, sizes and times are read, never content: a secret-looking file that changed
  is named, as fs.list would name it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .tree_walk import WalkCounts, walk_files

if TYPE_CHECKING:
    from .workspace import Workspace

MAX_FILES = 5000

Signature = tuple[int, int, int, int]


@dataclass(frozen=True)
class FileSnapshot:
    """The workspace's files (path to size, mtime, inode, mode) as a walk saw them."""

    files: dict[str, Signature]
    capped: bool  # the walk stopped before the end: files past ``last`` were not seen
    last: str | None  # the last path seen when capped


def take_snapshot(workspace: Workspace) -> FileSnapshot:
    files: dict[str, Signature] = {}
    counts = WalkCounts()
    walk = walk_files(workspace, ".", counts)
    capped = False
    last: str | None = None
    try:
        for found in walk:
            if len(files) >= MAX_FILES:
                capped = True
                break
            try:
                info = found.lstat()
            except OSError:
                continue
            files[found.rel] = (info.st_size, info.st_mtime_ns, info.st_ino, info.st_mode)
            last = found.rel
    finally:
        walk.close()
    stopped = capped or counts.budget_stop
    return FileSnapshot(files, stopped, last if stopped else None)


def _within(path: str, snapshot: FileSnapshot) -> bool:
    """Whether the walk of ``snapshot`` reached ``path`` (walk order is by components)."""
    if not snapshot.capped:
        return True
    return snapshot.last is not None and path.split("/") <= snapshot.last.split("/")


def changed_files(before: FileSnapshot, after: FileSnapshot) -> Iterator[str]:
    """Paths created, changed or deleted between the snapshots, in walk order."""
    for path in sorted(set(before.files) | set(after.files), key=lambda p: p.split("/")):
        if not (_within(path, before) and _within(path, after)):
            continue
        if before.files.get(path) != after.files.get(path):
            yield path
