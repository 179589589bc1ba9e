"""Recovery of a batch a crashed run left uncommitted: all or nothing across a kill -9.

Runs only while the caller holds the workspace's write lock, so an ``open`` batch can only
belong to a run that died (a live run holds the lock until it commits). Every path of
such a batch that holds one of the states the batch planned goes back to what it held
before; a path that already holds that is left; a path someone else changed since is
left alone and reported. Temp files the killed write left beside those paths are
removed first, then the files are put back, then the folders the batch made are removed.
When any of that fails (an I/O error), the batch stays open and ``finished`` is False:
the caller refuses every write until a later run completes it. Then the batch is
deleted: its commands were never remembered (memory is committed with the batch), so
pasting the reply again runs each of them exactly once.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..wording import counted
from .database import StateStore, StoreError, guarded
from .leftovers import remove_temp_beside
from .outside_copies import sweep_outside
from .rewinding import Progress, load_blobs, load_stories, remove_created_dirs, rewind
from .workspace import Workspace

if TYPE_CHECKING:
    from .interrupted import LeftOnDisk
    from .undoing import UndoReport


@dataclass(frozen=True)
class Recovered:
    """What recovery did with one batch a killed run left (open, or half undone): the paths
    put back, those left alone, and what went wrong."""

    batch: str
    rewound: tuple[str, ...]
    left_alone: tuple[str, ...]
    problems: tuple[str, ...]
    # False while something of the batch could not be put back: it stays on record, and
    # the next run (under the write lock) finishes the job before any write.
    finished: bool = True
    temp_files: tuple[str, ...] = ()
    said: str = ""  # the whole text, when it is not a taken-back batch (a finished undo)

    def describe(self) -> str:
        if self.said:
            return self.said
        text = (
            f"a run that stopped mid-batch was taken back: {counted(len(self.rewound), 'path')} "
            f"restored to what they held before it"
        )
        if self.left_alone:
            text += (
                f"; changed by someone else since, left as they are: {', '.join(self.left_alone)}"
            )
        if self.temp_files:
            text += f"; temp files removed: {', '.join(self.temp_files)}"
        if self.problems:
            text += f"; problems: {'; '.join(self.problems)}"
        if not self.finished:
            text += (
                "; this is not finished: writes are refused until a later run completes it "
                "(fix the cause, then run again)"
            )
        return text


def recovery_failed(stuck: list[Recovered], left: LeftOnDisk) -> StoreError:
    """The refusal of every write while ``stuck`` is not taken back; ``left``: what its
    paths hold now (measured after the attempt, so the message names no path as back
    that is not, and none as changed that is back)."""
    problems = "; ".join(p for r in stuck for p in r.problems) or "unknown"
    details: dict[str, object] = {"problems": [p for r in stuck for p in r.problems]}
    if left.known and left.changed:
        disk = f": {left.still_hold()}"
        details |= {"still_changed": list(left.changed), "commands": list(left.commands)}
    elif left.known and left.open_batches:
        disk = ", though none of its files holds its changes any more"
        details["still_changed"] = []
    else:  # an undo stopped part way, or a store that could not be read again
        disk = ", so the files may still hold its changes"
    return StoreError(
        "ERR_RECOVERY_FAILED",
        "a run that stopped mid-batch could not be taken back completely "
        f"({problems}){disk}; every write is refused until it is. The user can fix the "
        "cause (free space, permissions, a failing disk) and run again: the next run "
        "finishes taking it back first",
        details,
    )


def finish_undos(
    store: StateStore, workspace: Workspace, reports: list[UndoReport]
) -> list[Recovered]:
    """Finish the undos a killed run left in progress; their reports go to ``reports``."""
    from .undoing import finish_started

    found = []
    for report in finish_started(store, workspace):
        reports.append(report)
        done = "could not be finished" if report.refused or not report.ok else "was finished"
        said = f"an undo that was stopped part way {done}: {report.summary}"
        problems = () if report.ok or report.refused else report.problems
        found.append(
            Recovered(
                report.batch.id if report.batch else "",
                (*report.restored, *report.removed),
                (),
                problems,
                finished=not problems,
                said=said,
            )
        )
    return found


def recover(store: StateStore, workspace: Workspace) -> list[Recovered]:
    """Roll back every open batch (the caller holds the write lock)."""
    with guarded("read the undo journal"), store.reading() as db:
        open_batches = [
            int(row[0])
            for row in db.execute("SELECT id FROM batches WHERE state = 'open' ORDER BY id DESC")
        ]
    return [_recover_one(store, workspace, batch) for batch in open_batches]


def _recover_one(store: StateStore, workspace: Workspace, batch: int) -> Recovered:
    with guarded("read the undo journal"), store.reading() as db:
        stories, damaged = load_stories(db, batch)
        blobs, bad = load_blobs(db, store.folder, batch, stories)
    damaged += bad
    broken = {problem.partition(":")[0] for problem in damaged}
    progress = Progress(problems=list(damaged))
    usable = [s for s in stories if s.path not in broken]
    # Temp files first (one may stand in a folder the batch made), then files, then the
    # folders, deepest first.
    temps, problems = remove_temp_beside(workspace, [s.path for s in stories])
    if problems:
        progress.failed = True
        progress.problems += problems
    for story in usable:
        rewind(workspace, story, blobs, progress)
    remove_created_dirs(workspace, usable, progress)
    if not progress.failed:
        # When the store cannot be written (a full disk), the batch stays open: its files
        # are back already, so the next recovery finds them so and forgets it.
        with (
            contextlib.suppress(StoreError),
            guarded("forget the taken-back batch"),
            store.transaction() as db,
        ):
            db.execute("DELETE FROM batches WHERE id = ?", (batch,))
        sweep_outside(store)
    return Recovered(
        str(batch),
        tuple(progress.restored + progress.removed),
        tuple(progress.left_alone),
        tuple(progress.problems),
        finished=not progress.failed,
        temp_files=tuple(temps),
    )
