"""Run history: the results of every run of a workspace, newest last, shared by the window
and ``exec``. A run's entry is written in the transaction that commits its batch, so the
history never shows results of writes that were taken back.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass

from ..protocol.encoder import without_surrogates
from .database import StateStore, guarded

MAX_RUNS = 200


@dataclass(frozen=True)
class RunEntry:
    at: float
    commands: int
    failed: int
    results: str  # the OPERATOR_RESULT blocks as copied


def record_run(db: sqlite3.Connection, commands: int, failed: int, results: str) -> None:
    """Inside the caller's transaction."""
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
