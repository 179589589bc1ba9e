"""Putting a batch's paths back as they were: shared by undo and crash recovery.

A path touched several times in one batch is handled once: back to what it held before
the batch's first change. It is rewound only while it holds one of the states the batch
left there (its planned digests); a path that already holds its previous content is
left as it is, and anything else was changed by someone else and is reported.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sqlite3
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..changes import digest
from ..errors import OperatorError
from .batch_records import blob_names
from .entries import restore_entry, unlink_entry
from .oserrors import reason_of
from .outside_copies import read as read_outside
from .saved import (
    SavedDir,
    SavedEntry,
    SavedFile,
    SavedLink,
    SavedTooLarge,
    SavedUnsupported,
    read_file_at,
)
from .workspace import Workspace


@dataclass(frozen=True)
class PathStory:
    """One path's whole story in a batch: what it held first, what the batch put there."""

    path: str
    before: dict[str, Any] | None
    afters: tuple[str, ...]  # every digest the batch planned for it, the last one last
    created_dirs: tuple[str, ...]
    trash: dict[str, Any] | None = None  # where its first change, a delete, put it (untrashing)

    @property
    def last_after(self) -> str:
        return self.afters[-1]


@dataclass
class Progress:
    """How far a rewind has got: the paths restored, removed, already right or left alone, and
    its problems."""

    restored: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    left_alone: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # restored, but not as it might have been
    failed: bool = False  # an OS error: the batch stays as it is so it can be retried


def load_stories(db: sqlite3.Connection, batch: int) -> tuple[list[PathStory], list[str]]:
    """The batch's paths, changed last first, and what is wrong with its record."""
    rows = db.execute(
        "SELECT path, before, after, created_dirs FROM entries WHERE batch = ? ORDER BY seq",
        (batch,),
    ).fetchall()
    damaged: list[str] = []
    first: dict[str, dict[str, Any] | None] = {}
    afters: dict[str, list[str]] = {}
    dirs: dict[str, list[str]] = {}
    for path, before, after, created in rows:
        try:
            node = None if before is None else json.loads(before)
            made = [str(d) for d in json.loads(created or "[]")]
        except ValueError:
            damaged.append(f"{path}: its saved state is not readable")
            continue
        if not after:
            damaged.append(f"{path}: the record of what the batch wrote there is missing")
            continue
        first.setdefault(path, node)
        afters.setdefault(path, [])
        afters[path].append(str(after))
        dirs.setdefault(path, []).extend(made)
    order = list(dict.fromkeys(path for path, *_ in reversed(rows)))
    trashed = _trash_records(db, batch)
    stories = [
        PathStory(path, first[path], tuple(afters[path]), tuple(dirs[path]), trashed.get(path))
        for path in order
        if path in first
    ]
    return stories, damaged


def _trash_records(db: sqlite3.Connection, batch: int) -> dict[str, dict[str, Any]]:
    """Where the batch's deletes put each path in the trash, for a path whose first change
    in the batch was that delete (a store without the column, or a damaged record: none)."""
    try:
        rows = db.execute(
            "SELECT path, trash FROM entries WHERE batch = ? ORDER BY seq", (batch,)
        ).fetchall()
    except sqlite3.Error:
        return {}
    found: dict[str, dict[str, Any]] = {}
    seen: set[str] = set()
    for path, trash in rows:
        if path not in seen and trash:
            with contextlib.suppress(ValueError):
                record = json.loads(trash)
                if isinstance(record, dict):
                    found[path] = record
        seen.add(path)
    return found


def load_blobs(
    db: sqlite3.Connection, state_folder: Path, batch: int, stories: list[PathStory]
) -> tuple[dict[str, bytes], list[str]]:
    """The saved bytes the stories need (from the database, or from a file beside it:
    ``outside_copies``), each checked against its digest."""
    blobs: dict[str, bytes] = {}
    damaged: list[str] = []
    for story in stories:
        for name in blob_names(story.before):
            row = db.execute(
                "SELECT data, outside FROM blobs WHERE batch = ? AND digest = ?", (batch, name)
            ).fetchone()
            data = None if row is None else bytes(row[0])
            if row is not None and row[1]:
                try:
                    data = read_outside(state_folder, batch, name)
                except OSError as exc:
                    why = reason_of(exc)
                    damaged.append(f"{story.path}: its saved copy cannot be read ({why})")
                    continue
            if data is None:
                damaged.append(f"{story.path}: its saved copy is missing")
            elif digest(data) != name:
                damaged.append(f"{story.path}: its saved copy does not match its digest")
            else:
                blobs[name] = data
    return blobs, damaged


def node_from_json(node: dict[str, Any], blobs: dict[str, bytes]) -> SavedEntry:
    kind = node["type"]
    if kind == "file":
        return SavedFile(blobs[node["blob"]], int(node["mode"]))
    if kind == "symlink":
        return SavedLink(str(node["target"]))
    if kind == "dir":
        children = tuple((str(n), node_from_json(c, blobs)) for n, c in node["children"])
        return SavedDir(int(node["mode"]), children)
    if kind == "too_large":
        return SavedTooLarge(int(node["size"]))
    mode = node.get("mode")
    return SavedUnsupported(
        str(node.get("kind", "special file")), int(mode) if isinstance(mode, int) else None
    )


def node_fingerprint(node: dict[str, Any] | None) -> str | None:
    """What the path held before, in ``fingerprint``'s terms; None if not cheaply comparable."""
    if node is None:
        return "absent"
    if node["type"] == "file":
        return str(node["blob"])
    if node["type"] == "symlink":
        return "symlink:" + str(node["target"])
    return None


def fingerprint_of(workspace: Workspace, path: str) -> tuple[Path, str]:
    """(the entry's absolute name, what it holds: "absent", "folder", "symlink:<target>",
    a file's digest or "special file"), reached by descriptors from the
    root: a path longer than the system's limit for one name (PATH_MAX) is read as well."""
    with workspace.locate(path, follow_last=False) as spot:
        real = workspace.root / spot.rel if spot.rel != "." else workspace.root
        info = spot.info
        if info is None:
            return real, "absent"
        if stat.S_ISLNK(info.st_mode):
            return real, "symlink:" + os.readlink(spot.name, dir_fd=spot.dir_fd)
        if stat.S_ISDIR(info.st_mode):
            return real, "folder"
        if stat.S_ISREG(info.st_mode):
            return real, digest(read_file_at(spot.dir_fd, spot.name))
        return real, "special file"


def describe(found: str) -> str:
    if found == "absent":
        return "nothing"
    if found.startswith("sha256:"):
        return f"a file ({found[:19]}...)"
    if found.startswith("symlink:"):
        return f"a symlink to {found.removeprefix('symlink:')}"
    return f"a {found}"


def holds_folder(workspace: Workspace, path: str, node: dict[str, Any]) -> bool:
    """Whether the folder at ``path`` holds just what ``node`` (a saved folder) held: the
    same names, files of the same bytes, links to the same targets, folders alike to any
    depth. An undo stopped part way (an I/O error, a kill) gives a deleted folder back so,
    and that is no later edit to refuse the next undo for; anything else is."""
    from .files import open_dir

    if node["type"] != "dir":
        return False
    stack = [(path, node)]
    while stack:
        rel, saved = stack.pop()
        try:
            with open_dir(workspace, rel) as (_, fd):
                names = set(os.listdir(fd))
        except (OSError, OperatorError):
            return False
        children = {str(name): child for name, child in saved["children"]}
        if names != set(children):
            return False
        for name, child in children.items():
            try:
                _, current = fingerprint_of(workspace, f"{rel}/{name}")
            except (OSError, OperatorError):
                return False
            if child["type"] == "dir":
                if current != "folder":
                    return False
                stack.append((f"{rel}/{name}", child))
            elif current != node_fingerprint(child):  # too large or special: never alike
                return False
    return True


def conflict(workspace: Workspace, story: PathStory) -> str | None:
    """Why ``story.path`` may not be rewound: it holds neither the batch's nor its old state."""
    try:
        _, current = fingerprint_of(workspace, story.path)
    except OSError as exc:
        return f"{story.path}: cannot be reached any more ({reason_of(exc)})"
    except OperatorError as exc:  # the jail refuses: the path moved away
        return f"{story.path}: cannot be reached any more ({exc.message})"
    if current in story.afters or current == node_fingerprint(story.before):
        return None
    if (
        current == "folder"
        and story.before is not None
        and holds_folder(workspace, story.path, story.before)
    ):
        return None  # the folder the batch deleted, given back by an undo stopped part way
    return (
        f"{story.path}: holds {describe(current)} now, but the batch left "
        f"{describe(story.last_after)} there"
    )


def rewind(
    workspace: Workspace,
    story: PathStory,
    blobs: dict[str, bytes],
    progress: Progress,
    force: bool = False,
) -> None:
    """Give ``story.path`` back what it held before the batch (see the module's rules)."""
    try:
        real, current = fingerprint_of(workspace, story.path)
        if current == node_fingerprint(story.before):
            progress.already.append(story.path)
            return
        if current not in story.afters and not force:
            if story.before is not None and story.before["type"] == "dir" and current == "folder":
                progress.already.append(story.path)  # a folder delete that never happened
            else:
                progress.left_alone.append(story.path)
            return
        if story.before is None:
            if current != "absent":
                unlink_entry(workspace, story.path)
            progress.removed.append(story.path)
            return
        saved = node_from_json(story.before, blobs)
        if current != "absent" and not isinstance(saved, SavedFile):
            unlink_entry(workspace, story.path)  # the batch's file stands where a folder was
        problems = restore_entry(real, saved, workspace)
        if story.trash is not None and isinstance(saved, SavedFile):
            from .untrashing import take_back  # lazy: only an undone delete needs it

            note = take_back(workspace, story.path, story.trash, saved.data)
            if note is not None:
                progress.notes.append(note)
    except OSError as exc:
        progress.failed = True
        progress.problems.append(f"{story.path}: {reason_of(exc)}")
        return
    except OperatorError as exc:  # the jail refuses the way there (a folder became a link)
        progress.failed = True
        progress.problems.append(f"{story.path}: {exc.message}")
        return
    progress.problems += [f"{story.path}: {p}" for p in problems]
    if not isinstance(saved, SavedTooLarge):
        progress.restored.append(story.path)


def remove_created_dirs(workspace: Workspace, stories: list[PathStory], progress: Progress) -> None:
    """Remove the folders the batch made, deepest first, once their files are gone.

    A folder that holds something else now (someone put a file there) is kept: it is
    theirs now. One that cannot be removed for another reason (an I/O error) fails the
    rewind, so its batch stays on record and the next attempt removes it."""
    folders = {folder for story in stories for folder in story.created_dirs}
    for folder in sorted(folders, key=lambda f: f.count("/"), reverse=True):
        # By descriptor: rmdir removes only an empty folder, and never through a symlink.
        try:
            with workspace.locate(folder, follow_last=False) as spot:
                if not spot.is_dir or spot.is_link:
                    continue
                os.rmdir(spot.name, dir_fd=spot.dir_fd)
        except OperatorError:
            continue  # the way there is no folder of the workspace any more: not ours
        except FileNotFoundError:
            continue
        except OSError as exc:
            if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                progress.failed = True
                progress.problems.append(
                    f"{folder}: a folder the batch made could not be removed ({reason_of(exc)})"
                )
            continue
        progress.removed.append(folder)
