"""Undo notices: what the chat is told after the user undid a batch.

An undo queues one notice, for the conversation of the batch it undid (``conversations``):
the chat that sent those commands, never another. The next results of that conversation
(a paste in the window or ``exec`` for the paste channel's, the next tool result for an
MCP session's) begin with every notice of it not yet delivered, as a UI-generated
OPERATOR_RESULT with id ``undo-<n>``; the run that shows them marks them delivered in its
commit, and nothing else does: a notice copied at once (``llm-operator undo`` prints it,
the window puts it on the clipboard) still leads the next results (told twice rather
than never). An MCP run rides its notices on the first call the client did not cancel;
when it cancelled them all, nobody received them and ``pending_again`` gives them back.
A notice whose conversation gets no more results (an earlier chat, an MCP client that
went away) stays undelivered in the store; the undo's report says so.

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
    """A queued undo notice: its number (its result's id is ``undo-<n>``), summary and details."""

    n: int
    summary: str
    details: str  # JSON
    conversation: int = 0  # the conversation whose commands it is about

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


def partial_notice_text(
    undone: Iterable[BatchCommand], kept: Iterable[BatchCommand], changed: list[str]
) -> tuple[str, str]:
    """What the chat is told of an undo that stopped part way (an OS error): the commands
    whose changes are gone (and the paths that went back), and those still in effect."""
    gone = [{"id": c.id, "action": c.action, "path": c.path} for c in undone]
    still = [{"id": c.id, "action": c.action, "path": c.path} for c in kept]
    ids = ", ".join(item["id"] for item in gone) or "(commands of an earlier version)"
    summary = (
        f"The user's undo stopped part way: {counted(len(changed), 'path')} "
        f"({', '.join(changed)}) went back to what they held before "
        f"{'command' if len(gone) == 1 else 'commands'} {ids}. Treat "
        f"{'it' if len(gone) == 1 else 'those'} as not executed (sent again, a command is "
        "planned and asked again), and read those files again before editing them."
    )
    if still:
        summary += (
            f" {', '.join(item['id'] for item in still)} still "
            f"{'holds its' if len(still) == 1 else 'hold their'} changes."
        )
    details = json.dumps(
        {"undone": gone, "files": changed, "still_in_effect": still}, ensure_ascii=False
    )
    return summary, details


def queue_notice(
    db: sqlite3.Connection,
    batch: int,
    commands: Iterable[BatchCommand],
    files: list[str],
    text: tuple[str, str] | None = None,
) -> UndoNotice:
    """Queue a notice inside the caller's (undo) transaction, for the conversation of
    ``batch``: the notice of a finished undo of ``commands`` on ``files``, or ``text``
    (summary, details) when given."""
    from datetime import datetime, timezone  # lazy: only an undo queues a notice

    summary, details = text if text is not None else notice_text(commands, files)
    row = db.execute("SELECT conversation FROM batches WHERE id = ?", (batch,)).fetchone()
    conversation = int(row[0]) if row is not None else 0
    cursor = db.execute(
        "INSERT INTO notices (created, summary, details, conversation) VALUES (?, ?, ?, ?)",
        (datetime.now(timezone.utc).isoformat(), summary, details, conversation),
    )
    assert cursor.lastrowid is not None
    return UndoNotice(cursor.lastrowid, summary, details, conversation)


def undelivered(store: StateStore, conversation: int) -> list[UndoNotice]:
    """The notices of ``conversation`` that no results of it have carried yet."""
    with guarded("read the undo notices"), store.reading() as db:
        rows = db.execute(
            "SELECT n, summary, details FROM notices "
            "WHERE delivered = 0 AND conversation = ? ORDER BY n",
            (conversation,),
        ).fetchall()
    return [UndoNotice(int(n), str(s), str(d), conversation) for n, s, d in rows]


def mark_delivered(db: sqlite3.Connection, notices: Iterable[UndoNotice]) -> None:
    """Inside the caller's transaction: these notices lead results of their conversation."""
    db.executemany("UPDATE notices SET delivered = 1 WHERE n = ?", [(n.n,) for n in notices])


def pending_again(store: StateStore, ids: Iterable[str]) -> None:
    """Notices a run marked delivered whose results nobody received (an MCP client
    cancelled every call of the run): they lead that conversation's next results."""
    numbers = [(int(i.removeprefix("undo-")),) for i in ids if i.startswith("undo-")]
    with guarded("keep the undo notices for the next result"), store.transaction() as db:
        db.executemany("UPDATE notices SET delivered = 0 WHERE n = ?", numbers)
