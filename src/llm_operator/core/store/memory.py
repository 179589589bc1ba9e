"""Which command ids a conversation has already carried out, and what they returned.

Ids are remembered per conversation (``conversations``): a new chat may use ``read-1``
again. A write's result is kept to answer a repeat; a read is never answered from
memory (its answer must be the file as it is now), so only its fingerprint and time are
kept, to tell a repeat from a reused id. Only successful results are remembered: an id
whose command failed or was rejected may be sent again (fixed) without tripping
ERR_DUPLICATE_ID. The memory lives in the state store,
so pasting the same reply twice, into the window and ``exec`` or two ``exec`` runs, writes
once. Nothing is cached: every lookup reads the store, so what another process committed
a moment ago counts at once. A command that belongs to a batch of writes is remembered in
the batch's commit transaction, and forgotten when that batch is undone.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from ..encodable_text import without_surrogates as storable
from ..outcome import Outcome
from .database import StateStore, guarded

MAX_ENTRIES = 1000
# Details larger than this, and anything read from a secret-looking file, are not kept on
# disk: a repeat then says so instead of replaying them.
MAX_KEPT_DETAILS = 64_000
DROPPED_NOTE = " [details not kept; send the command again under a new id to get them]"


@dataclass(frozen=True)
class Remembered:
    """What the memory holds of a command id: its content's fingerprint, result and time."""

    fingerprint: str
    outcome: Outcome
    at: float  # seconds since the epoch


@dataclass(frozen=True)
class MemoryEntry:
    """A result waiting to be remembered when its run commits."""

    id: str
    fingerprint: str
    outcome: Outcome
    batch: int | None  # the journal batch whose writes this command made


def entry_for(
    command_id: str,
    fingerprint: str,
    outcome: Outcome,
    private: bool = False,
    batch: int | None = None,
    read: bool = False,
) -> MemoryEntry | None:
    """What to remember of one result; None for a result that is not remembered. A
    ``read``'s details are not kept: a repeated read runs again."""
    if not outcome.ok:
        return None
    details = outcome.details
    if read:
        return MemoryEntry(command_id, fingerprint, Outcome(True, outcome.summary, None), batch)
    if details is not None and (private or len(details) > MAX_KEPT_DETAILS):
        outcome = Outcome(outcome.ok, outcome.summary + DROPPED_NOTE, None)
    return MemoryEntry(command_id, fingerprint, outcome, batch)


def store_entries(
    db: sqlite3.Connection, entries: list[MemoryEntry], now: float, conversation: int
) -> None:
    """Write ``entries`` of ``conversation`` inside the caller's transaction and keep the
    newest MAX_ENTRIES (of all conversations) of the commands that changed files, and as
    many of the others."""
    for entry in entries:
        db.execute(
            "INSERT OR REPLACE INTO memory "
            "(conversation, id, fingerprint, ok, summary, details, at, batch) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                conversation,
                storable(entry.id),
                entry.fingerprint,
                int(entry.outcome.ok),
                storable(entry.outcome.summary),
                None if entry.outcome.details is None else storable(entry.outcome.details),
                now,
                entry.batch,
            ),
        )
    # Commands that changed files (a batch) and the rest are kept apart: a reply of a
    # thousand reads must not make a write unknown, or that write's reply pasted again
    # would run it a second time.
    for kind in ("batch IS NOT NULL", "batch IS NULL"):
        db.execute(
            f"DELETE FROM memory WHERE {kind} AND rowid NOT IN "
            f"(SELECT rowid FROM memory WHERE {kind} ORDER BY at DESC LIMIT ?)",
            (MAX_ENTRIES,),
        )


class SessionMemory:
    """The memory of one workspace; ``store`` None keeps nothing (no state dir)."""

    def __init__(self, store: StateStore | Path | None) -> None:
        self._store = StateStore(store) if isinstance(store, Path) else store

    def lookup(self, command_id: str, conversation: int | None) -> Remembered | None:
        """The memory of ``command_id`` in ``conversation``; raises StoreError when it
        cannot be read, or when the conversation is not known (None)."""
        if self._store is None:
            return None
        if conversation is None:
            from .conversations import unknown

            raise unknown()
        with guarded("read the session memory"), self._store.reading() as db:
            row = db.execute(
                "SELECT fingerprint, ok, summary, details, at FROM memory "
                "WHERE conversation = ? AND id = ?",
                (conversation, storable(command_id)),
            ).fetchone()
        if row is None:
            return None
        return Remembered(str(row[0]), Outcome(bool(row[1]), row[2], row[3]), float(row[4]))

    def remember(
        self,
        command_id: str,
        fingerprint: str,
        outcome: Outcome,
        private: bool = False,
        conversation: int = 0,
    ) -> None:
        """Remember one result at once (outside any batch)."""
        entry = entry_for(command_id, fingerprint, outcome, private)
        if entry is None or self._store is None:
            return
        with guarded("save the session memory"), self._store.transaction() as db:
            store_entries(db, [entry], time.time(), conversation)

    def save(self) -> None:
        """Kept for callers of the JSON era: every change is already committed."""

    def __len__(self) -> int:
        if self._store is None:
            return 0
        with guarded("read the session memory"), self._store.reading() as db:
            return int(db.execute("SELECT count(*) FROM memory").fetchone()[0])
