"""Undo notices: what the chat is told after the user undid a batch.

An undo queues one notice. The next results the user copies (from the window or from
``exec``) begin with every notice not yet delivered, as a UI-generated OPERATOR_RESULT
with id ``undo-<n>``; the run that shows them marks them delivered in its commit.
``llm-operator undo`` prints the same block at once.

    details_b64 JSON: {"undone": [{"id", "action", "path"}, ...], "files": [...]}
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..wording import counted
from .database import StateStore, guarded

if TYPE_CHECKING:
    from .batch_records import BatchCommand


@dataclass(frozen=True)
class UndoNotice:
    n: int
    summary: str
    details: str  # JSON

    @property
    def id(self) -> str:
        return f"undo-{self.n}"


def notice_text(commands: Iterable[BatchCommand], files: list[str]) -> tuple[str, str]:
    undone = [{"id": c.id, "action": c.action, "path": c.path} for c in commands]
    ids = ", ".join(item["id"] for item in undone) or "(commands of an earlier version)"
    summary = (
        f"The user undid {counted(len(undone), 'command') if undone else 'the commands'} "
        f"{ids}: their changes to {counted(len(files), 'file')} are no longer on disk. "
        "Treat those commands as not executed, and read the files again before editing them."
    )
    details = json.dumps({"undone": undone, "files": files}, ensure_ascii=False)
    return summary, details


def queue_notice(
    db: sqlite3.Connection, commands: Iterable[BatchCommand], files: list[str]
) -> UndoNotice:
    """Queue a notice inside the caller's (undo) transaction."""
    from datetime import datetime, timezone  # lazy: only an undo queues a notice

    summary, details = notice_text(commands, files)
    cursor = db.execute(
        "INSERT INTO notices (created, summary, details) VALUES (?, ?, ?)",
        (datetime.now(timezone.utc).isoformat(), summary, details),
    )
    assert cursor.lastrowid is not None
    return UndoNotice(cursor.lastrowid, summary, details)


def undelivered(store: StateStore) -> list[UndoNotice]:
    with guarded("read the undo notices"), store.reading() as db:
        rows = db.execute(
            "SELECT n, summary, details FROM notices WHERE delivered = 0 ORDER BY n"
        ).fetchall()
    return [UndoNotice(int(n), str(s), str(d)) for n, s, d in rows]


def mark_delivered(db: sqlite3.Connection, notices: Iterable[UndoNotice]) -> None:
    """Inside the caller's transaction: these notices reached copied results."""
    db.executemany("UPDATE notices SET delivered = 1 WHERE n = ?", [(n.n,) for n in notices])
