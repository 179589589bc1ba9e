"""What a batch a stopped run left open still holds on disk, told when it cannot be taken back.

A run that stops between its first file and its commit leaves its batch open; the next
run takes it back before anything else. When that cannot happen (the store cannot be
opened, the write lock cannot be taken, or the take-back fails part way), every write is
refused, and the refusal must not claim "nothing was written" while files hold changes the
app made: the model would take its commands for never run on files that show them, and
the person would not know a half-made batch is on disk.

Invariants:
- Read only: nothing here writes the store or a workspace file.
- The store's rows are read through a connection of their own, opened read-only. When
  the log (``-wal``) holds frames, SQLite's ``readonly_shm`` reads it into private memory
  instead of the shared-memory file (``-shm``) that could not be written; when the log is
  absent or empty, the database file alone holds every commit and is read ``immutable``,
  which creates no file beside it.
- What is said is measured: each path of an open batch is looked at now. Only a path
  holding one of the states the batch planned for it counts as holding its change.
- An open batch belongs to a stopped run only while nobody holds the write lock (a live
  run holds it until its commit): while another run holds it, its batch is its own.
- When the rows cannot be read, ``known`` is False and the answer says it cannot tell,
  never that nothing was written.
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import OperatorError
from .database import FILE_NAME, StoreError, store_error
from .lock import WorkspaceLock
from .workspace import Workspace

if TYPE_CHECKING:
    from .rewinding import PathStory

SHOWN_PATHS = 20  # paths named in a message; the details list them all


@dataclass(frozen=True)
class LeftOnDisk:
    """What the batches stopped runs left open hold on disk now (``known`` False: the
    store could not be read to tell)."""

    known: bool
    open_batches: int = 0
    changed: tuple[str, ...] = ()  # paths that still hold one of their batch's changes
    commands: tuple[str, ...] = ()  # the ids of the commands whose changes those are

    def effect(self) -> str | None:
        """What to say instead of "nothing was written", or None when that is the truth."""
        if not self.known:
            return (
                "no write runs until it opens, and whether a run that stopped mid-batch left "
                "changes on disk cannot be read either (the first run that opens the store "
                "takes any such changes back before anything else)"
            )
        if not self.changed:
            return None
        return (
            f"no write runs until it opens, and {self.still_hold()}; the first run that opens "
            "the store takes them back before anything else"
        )

    def still_hold(self) -> str:
        """ "<paths> still hold the changes of a run that stopped mid-batch (...)"."""
        names = ", ".join(self.changed[:SHOWN_PATHS])
        if len(self.changed) > SHOWN_PATHS:
            names += f" and {len(self.changed) - SHOWN_PATHS} more"
        verb = "holds" if len(self.changed) == 1 else "hold"
        of = ""
        if self.commands:
            ids = ", ".join(self.commands[:SHOWN_PATHS])
            of = f" (of command{'s' if len(self.commands) > 1 else ''} {ids}, never "
            of += "remembered as run)"
        return f"{names} still {verb} the changes of a run that stopped mid-batch{of}"


def left_on_disk(folder: Path, workspace: Workspace, lock: WorkspaceLock) -> LeftOnDisk:
    """Read the open batches of the store in ``folder`` without writing anything, and
    look at their paths. ``lock``: the workspace's write lock, held by the caller or not
    (then it is taken for the look, and given back)."""
    if lock.held:
        return _read(folder, workspace)  # the caller's own: no other run is writing
    try:
        free = lock.try_acquire()
    except StoreError:
        # The lock cannot be looked at: what the store records is told (the files do
        # hold those changes, whoever made them).
        free = True
    if not free:
        return LeftOnDisk(True)  # a live run's batch: it commits or takes it back itself
    try:
        return _read(folder, workspace)
    finally:
        lock.release()


def told(error: StoreError, folder: Path, workspace: Workspace, lock: WorkspaceLock) -> StoreError:
    """``error`` (the store or the write lock could not be opened, or the journal not
    read) said again with what a stopped run left on disk: the same error when nothing
    of one is there."""
    cause = error.__cause__
    if error.tells_disk or error.doing is None or not isinstance(cause, (OSError, sqlite3.Error)):
        return error
    found = left_on_disk(folder, workspace, lock)
    effect = found.effect()
    if effect is None:
        return error
    again = store_error(cause, error.doing, error.folder, effect)
    details = dict(again.details)
    if found.known:
        details["still_changed"] = list(found.changed)
        details["commands"] = list(found.commands)
    said = StoreError(again.code, again.message, details)
    said.doing, said.folder, said.tells_disk = error.doing, error.folder, True
    said.__cause__ = cause
    return said


def _uri(path: Path, query: str) -> str:
    return f"file:{urllib.parse.quote(os.fsencode(path))}?{query}"


def _connect(path: Path) -> sqlite3.Connection:
    wal = path.with_name(FILE_NAME + "-wal")
    try:
        logged = wal.stat().st_size > 0
    except FileNotFoundError:
        logged = False  # other errors: the store cannot be read (the caller's except)
    # No frames in the log: the file holds every commit and is read as it is (creating no
    # -wal or -shm beside it). Frames: the log is read into private memory, not the -shm.
    query = "mode=ro&readonly_shm=1" if logged else "mode=ro&immutable=1"
    return sqlite3.connect(_uri(path, query), uri=True, timeout=5)


def _read(folder: Path, workspace: Workspace) -> LeftOnDisk:
    path = folder / FILE_NAME
    try:
        if os.stat(path).st_size == 0:
            return LeftOnDisk(True)  # a store never set up holds no batch
    except FileNotFoundError:
        return LeftOnDisk(True)  # no store, no batch
    except OSError:
        return LeftOnDisk(False)  # a folder on the way that may not be entered
    from .rewinding import load_stories

    stories: list[PathStory] = []
    owners: list[tuple[str, str]] = []  # (path, command id), in the order they ran
    try:
        db = _connect(path)
        try:
            batches = [
                int(row[0])
                for row in db.execute("SELECT id FROM batches WHERE state = 'open' ORDER BY id")
            ]
            for batch in batches:
                stories += load_stories(db, batch)[0]
                owners += db.execute(
                    "SELECT path, command_id FROM entries WHERE batch = ? "
                    "AND command_id IS NOT NULL ORDER BY seq",
                    (batch,),
                ).fetchall()
        finally:
            db.close()
    except (sqlite3.Error, OSError, ValueError):
        return LeftOnDisk(False)
    changed = {story.path for story in stories if _holds_change(workspace, story)}
    return LeftOnDisk(
        True,
        len(batches),
        tuple(dict.fromkeys(path for path, _ in owners if path in changed))
        + tuple(sorted(changed - {path for path, _ in owners})),
        tuple(dict.fromkeys(str(command) for path, command in owners if path in changed)),
    )


def _holds_change(workspace: Workspace, story: PathStory) -> bool:
    """Whether ``story.path`` holds a state its batch planned (and not its old one)."""
    from .rewinding import fingerprint_of, node_fingerprint

    try:
        _, current = fingerprint_of(workspace, story.path)
    except (OSError, OperatorError):
        return True  # it cannot be looked at: never claimed to be back
    return current in story.afters and current != node_fingerprint(story.before)
