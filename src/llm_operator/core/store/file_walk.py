"""The files under a folder, in the deterministic order every tree action uses.

Invariants:
- Depth first, each folder's entries sorted by name (code points), folders in place among
  the files, so a path's position is the tuple of its components: ``after`` continuation
  compares those tuples and skips whole folders that lie before it without opening them.
- ``.git`` folders are never entered; folders and files that .gitignore files ignore are
  skipped and counted. The .gitignore files of the folders above the start folder apply
  too, and the deepest matching pattern decides (``!pattern`` re-includes), as in git.
- Symlinked folders are not followed; a symlinked file is yielded only if its target is a
  regular file inside the workspace, and it is secret-looking if the link's name or the
  target's is.
- It is a generator: a caller that stops early stops the walk, so a capped walk costs
  what it read, not the size of the tree.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import OperatorError

if TYPE_CHECKING:
    from .workspace import Workspace


@dataclass(frozen=True)
class WalkedFile:
    rel: str  # workspace-relative, / separated, as found (the link's name for a link)
    real: Path  # the file to read (a link's resolved target)
    secret: bool


@dataclass
class WalkTally:
    ignored: int = 0
    unreadable: int = 0


def position(rel: str) -> tuple[str, ...]:
    """A path's place in the walk order."""
    return tuple(rel.split("/"))


class _Ignores:
    """The .gitignore files met on the way down, each applying below its own folder."""

    def __init__(self) -> None:
        self._specs: list[tuple[str, Any]] = []

    def load(self, folder: Path, rel: str) -> int:
        path = folder / ".gitignore"
        try:
            lines = path.read_text("utf-8", errors="replace").splitlines()
        except OSError:
            return 0
        import pathspec

        self._specs.append((rel, pathspec.GitIgnoreSpec.from_lines(lines)))
        return 1

    def pop(self, count: int) -> None:
        del self._specs[len(self._specs) - count :]

    def ignored(self, rel: str, is_dir: bool) -> bool:
        for base, spec in reversed(self._specs):
            inner = rel if base == "." else rel[len(base) + 1 :]
            include = spec.check_file(inner + "/" if is_dir else inner).include
            if include is not None:
                return bool(include)
        return False


def walk_files(
    workspace: Workspace,
    start: str,
    tally: WalkTally,
    after: str | None = None,
) -> Iterator[WalkedFile]:
    """Every non-ignored regular file under the folder ``start`` (workspace-relative)."""
    ignores = _Ignores()
    if start != ".":
        parts = start.split("/")
        for depth in range(len(parts)):
            base = "/".join(parts[:depth]) or "."
            ignores.load(workspace.root / base, base)
    resume = position(after) if after else None
    yield from _visit(workspace, workspace.root / start, start, ignores, tally, resume)


def _visit(
    workspace: Workspace,
    folder: Path,
    folder_rel: str,
    ignores: _Ignores,
    tally: WalkTally,
    resume: tuple[str, ...] | None,
) -> Iterator[WalkedFile]:
    pushed = ignores.load(folder, folder_rel)
    try:
        with os.scandir(folder) as scan:
            entries = sorted(scan, key=lambda e: e.name)
    except OSError:
        tally.unreadable += 1
        ignores.pop(pushed)
        return
    for entry in entries:
        rel = entry.name if folder_rel == "." else f"{folder_rel}/{entry.name}"
        inside = False
        if resume is not None:
            place = position(rel)
            inside = resume[: len(place)] == place and len(place) < len(resume)
            if place <= resume and not inside:
                continue
        if entry.is_dir(follow_symlinks=False):
            if entry.name == ".git":
                continue
            if ignores.ignored(rel, True):
                tally.ignored += 1
                continue
            yield from _visit(
                workspace, Path(entry.path), rel, ignores, tally, resume if inside else None
            )
            continue
        found = _file(workspace, entry, rel, ignores, tally)
        if found is not None:
            yield found
    ignores.pop(pushed)


def _file(
    workspace: Workspace, entry: os.DirEntry[str], rel: str, ignores: _Ignores, tally: WalkTally
) -> WalkedFile | None:
    if ignores.ignored(rel, False):
        tally.ignored += 1
        return None
    if not entry.is_symlink():
        if not entry.is_file(follow_symlinks=False):
            return None  # a FIFO, socket or device would block or never end
        return WalkedFile(rel, Path(entry.path), workspace.is_secret(rel))
    if os.path.isdir(entry.path):
        return None
    try:
        target = workspace.resolve(rel)
    except OperatorError:
        tally.unreadable += 1
        return None
    if not target.is_file():
        return None
    secret = workspace.is_secret(rel) or workspace.is_secret(workspace.relative(target))
    return WalkedFile(rel, target, secret)
