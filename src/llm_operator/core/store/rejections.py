"""Which commands the user rejected, so a command sent again is asked again with its
earlier rejection in sight.

A rejected command is never remembered as done (``memory`` keeps successful results
only): sent again, it is planned and asked again. This table keeps, per command id, the
content fingerprint, the reason typed (if any) and when; the window shows "rejected
before at HH:MM" for a command with the same id and content. Once the command runs ok
its rejection is forgotten. The table is made on first use, so stores of earlier
versions need no migration; losing it costs only that note.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from dataclasses import dataclass
from datetime import datetime

from ..encodable_text import without_surrogates as storable
from .database import StateStore, guarded

MAX_REJECTIONS = 1000

_TABLE = (
    "CREATE TABLE IF NOT EXISTS rejections ("
    "id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, reason TEXT NOT NULL, at REAL NOT NULL)"
)


def digest(fingerprint: str) -> str:
    """What is kept of a command's content: its hash, never the text itself."""
    return hashlib.sha256(storable(fingerprint).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Rejection:
    """The user's rejection of a command id: a digest of its content, the reason, the time."""

    fingerprint: str  # ``digest`` of the command's content
    reason: str  # as the user typed it; "" for none
    at: float  # seconds since the epoch

    @property
    def when(self) -> str:
        """The local time of day it was rejected, HH:MM."""
        return datetime.fromtimestamp(self.at).astimezone().strftime("%H:%M")

    def describe(self) -> str:
        why = f" ({self.reason.strip()})" if self.reason.strip() else " (no reason given)"
        return f"rejected before at {self.when}{why}"


def lookup(store: StateStore, command_id: str) -> Rejection | None:
    """The newest rejection of ``command_id``, or None (also when none was ever kept)."""
    with guarded("read the rejected commands"), store.reading() as db:
        try:
            row = db.execute(
                "SELECT fingerprint, reason, at FROM rejections WHERE id = ?",
                (storable(command_id),),
            ).fetchone()
        except sqlite3.OperationalError as error:
            if "no such table" in str(error):
                return None
            raise
    return None if row is None else Rejection(str(row[0]), str(row[1]), float(row[2]))


def update(
    store: StateStore,
    rejected: list[tuple[str, str, str]],
    done: list[str],
    now: float | None = None,
) -> None:
    """Keep ``rejected`` (id, content fingerprint, reason) and forget the ids in ``done``."""
    if not rejected and not done:
        return
    at = time.time() if now is None else now
    with guarded("save the rejected commands"), store.transaction() as db:
        db.execute(_TABLE)
        for command_id in done:
            db.execute("DELETE FROM rejections WHERE id = ?", (storable(command_id),))
        for command_id, fingerprint, reason in rejected:
            db.execute(
                "INSERT OR REPLACE INTO rejections (id, fingerprint, reason, at) "
                "VALUES (?, ?, ?, ?)",
                (storable(command_id), digest(fingerprint), storable(reason), at),
            )
        db.execute(
            "DELETE FROM rejections WHERE id NOT IN "
            "(SELECT id FROM rejections ORDER BY at DESC LIMIT ?)",
            (MAX_REJECTIONS,),
        )


def earlier_rejection(
    store: StateStore | None, command_id: str, fingerprint: str
) -> Rejection | None:
    """The user's kept rejection of this very command (same id, same content), if any. A
    store that cannot be read costs only the "rejected before" note."""
    if store is None or not fingerprint:
        return None
    from .database import StoreError

    try:
        found = lookup(store, command_id)
    except StoreError:
        return None
    return found if found is not None and found.fingerprint == digest(fingerprint) else None
