"""Recovery of a batch a crashed run left uncommitted: all or nothing across a kill -9.

Runs only while the caller holds the workspace's write lock, so an ``open`` batch can only
belong to a run that died (a live run holds the lock until it commits). Every path of
such a batch that holds one of the states the batch planned goes back to what it held
before; a path that already holds that is left; a path someone else changed since is
left alone and reported. Temp files the killed write left beside those paths are
removed. Then the batch is deleted: its commands were never remembered (memory is
committed with the batch), so pasting the reply again runs each of them exactly once.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass

from ..errors import OperatorError
from ..wording import counted
from .applying import TEMP_NAME
from .database import StateStore, StoreError, guarded
from .files import open_dir
from .rewinding import PathStory, Progress, load_blobs, load_stories, remove_created_dirs, rewind
from .workspace import Workspace


@dataclass(frozen=True)
class Recovered:
    batch: str
    rewound: tuple[str, ...]
    left_alone: tuple[str, ...]
    problems: tuple[str, ...]

    def describe(self) -> str:
        text = (
            f"a run that stopped mid-batch was taken back: {counted(len(self.rewound), 'path')} "
            f"restored to what they held before it"
        )
        if self.left_alone:
            text += (
                f"; changed by someone else since, left as they are: {', '.join(self.left_alone)}"
            )
        if self.problems:
            text += f"; problems: {'; '.join(self.problems)}"
        return text


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
        blobs, bad = load_blobs(db, batch, stories)
    damaged += bad
    broken = {problem.partition(":")[0] for problem in damaged}
    progress = Progress(problems=list(damaged))
    usable = [s for s in stories if s.path not in broken]
    for story in usable:
        rewind(workspace, story, blobs, progress)
    remove_created_dirs(workspace, usable, progress)
    _remove_temp_files(workspace, stories)
    if not progress.failed:
        # When the store cannot be written (a full disk), the batch stays open: its files
        # are back already, so the next recovery finds them so and forgets it.
        with (
            contextlib.suppress(StoreError),
            guarded("forget the taken-back batch"),
            store.transaction() as db,
        ):
            db.execute("DELETE FROM batches WHERE id = ?", (batch,))
    return Recovered(
        str(batch),
        tuple(progress.restored + progress.removed),
        tuple(progress.left_alone),
        tuple(progress.problems),
    )


def _remove_temp_files(workspace: Workspace, stories: list[PathStory]) -> None:
    """Temp files (``.<name>.llmop-<hex>.tmp``) of a write killed before its rename."""
    for story in stories:
        folder, _, name = story.path.rpartition("/")
        prefix = f".{name[:200]}.llmop-"
        # By descriptor, so a folder swapped for a symlink is never searched or cleaned.
        with (
            contextlib.suppress(OSError, OperatorError),
            open_dir(workspace, folder or ".") as (
                _,
                fd,
            ),
        ):
            for entry in os.scandir(fd):
                if entry.name.startswith(prefix) and TEMP_NAME.fullmatch(entry.name):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.name, dir_fd=fd)
