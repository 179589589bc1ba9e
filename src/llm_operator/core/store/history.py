"""Run history: the results of every run of a workspace, newest last, shared by the window
and ``exec``. A run's entry is written in the transaction that commits its batch, so the
history never shows results of writes that were taken back. A run that wrote names its
batch, so the history can say whether its writes are still undoable.

What a run's entry keeps is what went to the chat, minus the content of the secret-looking
files the user let through (the batch writer drops those details before recording).
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..encodable_text import without_surrogates
from .database import StateStore, guarded, has_batch_column

if TYPE_CHECKING:
    from collections.abc import Iterator

MAX_RUNS = 200


@dataclass(frozen=True)
class RunEntry:
    """One run in the history: when it ran, its command and failure counts, its results."""

    at: float
    commands: int
    failed: int
    results: str  # the OPERATOR_RESULT blocks as copied


class UndoState:
    """What became of a run's writes, in the undo journal's words."""

    NONE = "wrote nothing"
    UNDOABLE = "undoable"
    UNDONE = "undone"
    GONE = "no longer undoable (the journal keeps only the newest batches)"


@dataclass(frozen=True)
class StoredRun:
    """One run as the store keeps it, with the state of its batch read at the same time."""

    number: int  # grows with every run of the workspace, from any process
    at: float
    commands: int
    failed: int
    batch: int | None
    undo: str  # an UndoState value
    newest_undoable: bool = False  # the batch an undo would undo now


def record_run(
    db: sqlite3.Connection, commands: int, failed: int, results: str, batch: int | None = None
) -> None:
    """Inside the caller's transaction (the one that commits ``batch``, if the run wrote:
    a batch that changed nothing is gone by then and is not named)."""
    if batch is not None and db.execute("SELECT 1 FROM batches WHERE id = ?", (batch,)).fetchone():
        named: int | None = batch
    else:
        named = None
    if has_batch_column(db):
        db.execute(
            "INSERT INTO runs (at, commands, failed, results, batch) VALUES (?, ?, ?, ?, ?)",
            (time.time(), commands, failed, without_surrogates(results), named),
        )
    else:
        db.execute(
            "INSERT INTO runs (at, commands, failed, results) VALUES (?, ?, ?, ?)",
            (time.time(), commands, failed, without_surrogates(results)),
        )
    db.execute(
        "DELETE FROM runs WHERE n NOT IN (SELECT n FROM runs ORDER BY n DESC LIMIT ?)",
        (MAX_RUNS,),
    )


def recent_runs(store: StateStore, limit: int = 20) -> list[RunEntry]:
    """The newest ``limit`` runs, oldest first."""
    with guarded("read the run history"), store.reading() as db:
        rows = db.execute(
            "SELECT at, commands, failed, results FROM runs ORDER BY n DESC LIMIT ?", (limit,)
        ).fetchall()
    return [RunEntry(float(a), int(c), int(f), str(r)) for a, c, f, r in reversed(rows)]


def _stored(rows: Iterator[tuple[object, ...]], newest: int | None) -> list[StoredRun]:
    runs = []
    for n, at, commands, failed, batch, state in rows:
        if batch is None:
            undo = UndoState.NONE
        elif state is None:
            undo = UndoState.GONE
        elif state == "undone":
            undo = UndoState.UNDONE
        else:
            undo = UndoState.UNDOABLE
        number = int(str(n))
        runs.append(
            StoredRun(
                number,
                float(str(at)),
                int(str(commands)),
                int(str(failed)),
                int(str(batch)) if batch is not None else None,
                undo,
                batch is not None and batch == newest,
            )
        )
    return runs


def stored_runs(store: StateStore, limit: int = MAX_RUNS, after: int = 0) -> list[StoredRun]:
    """The newest ``limit`` runs numbered above ``after``, oldest first, each with the
    state of its batch (from any window or ``exec`` run of the workspace); their results
    are read one at a time with ``run_results``."""
    with guarded("read the run history"), store.reading() as db:
        batch = "runs.batch" if has_batch_column(db) else "NULL"
        rows = db.execute(
            f"SELECT runs.n, runs.at, runs.commands, runs.failed, {batch}, "
            f"batches.state FROM runs LEFT JOIN batches ON batches.id = {batch} "
            "WHERE runs.n > ? ORDER BY runs.n DESC LIMIT ?",
            (after, limit),
        ).fetchall()
        newest = db.execute(
            "SELECT id FROM batches WHERE state = 'committed' ORDER BY id DESC LIMIT 1"
        ).fetchone()
    return _stored(iter(reversed(rows)), int(newest[0]) if newest else None)


def run_results(store: StateStore, number: int) -> str | None:
    """The results run ``number`` sent to the chat, as kept (None once it was dropped)."""
    with guarded("read the run history"), store.reading() as db:
        row = db.execute("SELECT results FROM runs WHERE n = ?", (number,)).fetchone()
    return str(row[0]) if row else None
