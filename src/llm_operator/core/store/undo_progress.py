"""An undo in progress, kept on record so a killed undo is finished by the next run.

Before an undo touches its first file, its batch is marked (``undone_at`` holds
``in progress`` while the batch is still ``committed``). The mark goes when the batch is
marked undone, or when the undo stops with its problems reported to the person, who runs
it again. A mark still there at the next run means the undo was killed: that run, under
the write lock and before anything else, removes the temp files beside the batch's paths
and finishes the undo (its rewind is idempotent: a path already given back is left).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .database import StateStore, guarded

if TYPE_CHECKING:
    pass

IN_PROGRESS = "in progress"


def mark_started(store: StateStore, batch: int) -> None:
    with guarded("record the undo in progress"), store.transaction() as db:
        db.execute(
            "UPDATE batches SET undone_at = ? WHERE id = ? AND state = 'committed'",
            (IN_PROGRESS, batch),
        )


def mark_stopped(store: StateStore, batch: int) -> None:
    """The undo stopped and said why: the batch stays committed, ready to be undone again."""
    with guarded("record the stopped undo"), store.transaction() as db:
        db.execute(
            "UPDATE batches SET undone_at = NULL WHERE id = ? AND state = 'committed'",
            (batch,),
        )


def started_undos(store: StateStore) -> list[int]:
    with guarded("read the undo journal"), store.reading() as db:
        rows = db.execute(
            "SELECT id FROM batches WHERE state = 'committed' AND undone_at = ? ORDER BY id DESC",
            (IN_PROGRESS,),
        ).fetchall()
    return [int(row[0]) for row in rows]
