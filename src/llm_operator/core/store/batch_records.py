"""What the journal says of one batch, as values: read by the journal, undo and notices."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

ChangeKind = Literal["edited", "created", "deleted"]


@dataclass(frozen=True)
class BatchChange:
    """One path a batch changed, and how: edited, created or deleted."""

    path: str
    kind: ChangeKind


@dataclass(frozen=True)
class BatchCommand:
    """A command of a batch: its id, action and the first path it wrote."""

    id: str
    action: str
    path: str


@dataclass(frozen=True)
class BatchInfo:
    """One batch as the journal records it: its label, time, changes and commands, and state."""

    id: str
    label: str
    created: datetime
    changes: tuple[BatchChange, ...]
    complete: bool  # False while its run has not committed it (or it crashed)
    undone: bool
    commands: tuple[BatchCommand, ...] = ()


def batch_label(ids: list[str]) -> str:
    """A batch's label: the ids of its commands (five, then how many more)."""
    return ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")


def label_by_entries(db: sqlite3.Connection, batch: int) -> None:
    """Inside the caller's (commit) transaction: label ``batch`` by the commands whose
    changes it holds. It was labelled by the approved writes before they ran; one that
    failed (nothing written) must not be named by the undo's question and report."""
    ids = [
        str(command_id)
        for (command_id,) in db.execute(
            "SELECT command_id FROM entries WHERE batch = ? AND command_id IS NOT NULL "
            "GROUP BY command_id ORDER BY min(seq)",
            (batch,),
        )
    ]
    if ids:
        db.execute("UPDATE batches SET label = ? WHERE id = ?", (batch_label(ids), batch))


def read_info(db: sqlite3.Connection, row: tuple[Any, ...]) -> BatchInfo:
    batch, label, created, state = row
    entries = db.execute(
        "SELECT path, kind, command_id, action FROM entries WHERE batch = ? ORDER BY seq",
        (batch,),
    ).fetchall()
    commands: dict[str, BatchCommand] = {}
    for path, _kind, command_id, action in entries:
        if command_id is not None and command_id not in commands:
            commands[command_id] = BatchCommand(command_id, action or "", path)
    return BatchInfo(
        id=str(batch),
        label=str(label),
        created=datetime.fromisoformat(created),
        changes=tuple(BatchChange(path, kind) for path, kind, _, _ in entries),
        complete=state != "open",
        undone=state == "undone",
        commands=tuple(commands.values()),
    )


def blob_names(node: dict[str, Any] | None) -> list[str]:
    """The digests of the saved file bytes a JSON node (and its children) needs."""
    if node is None:
        return []
    if node.get("type") == "file":
        return [str(node.get("blob"))]
    return [name for _, child in node.get("children", []) for name in blob_names(child)]
