"""Outlines remembered across runs, in the state store.

An outline is a function of a file's bytes, its grammar, the depth asked for and the
code that makes it, so it is kept under a key made of exactly those (see
``actions.outline.outline_key``): a changed file has a new key and is parsed again, so a
remembered outline is never stale, whatever the file's times say. A new version of the
app makes new keys.

Invariants:
- Only outlines of files that do not look secret are kept (the caller decides; the store
  already holds such bytes in the undo journal, but an outline needs no such exception).
- New outlines are written in one transaction per run (``flush``), never one per file.
- The table holds at most ``MAX_ROWS`` outlines; the oldest go first.
- A cache never takes the space an approved write needs: nothing is written while the
  state folder's disk has less than ``KEEP_FREE_BYTES`` free (the undo journal keeps the
  previous bytes of every file a batch changes, in the same store).
- It is a cache: when the store cannot be read or written, outlines are made again and
  nothing is reported (the outline itself is complete and true either way).
- The table is made by the first write, so a store made by an earlier version gains it
  without a schema change, and an earlier version opening this store ignores it.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

from .database import StateStore, StoreError

MAX_ROWS = 20_000
KEEP_FREE_BYTES = 64 * 1024 * 1024
MAX_TEXT = 256_000  # characters of one outline; a larger one is not kept

_TABLE = """
CREATE TABLE IF NOT EXISTS outlines (
    key TEXT PRIMARY KEY,
    lines TEXT NOT NULL,
    note TEXT NOT NULL,
    made REAL NOT NULL
) WITHOUT ROWID
"""

Made = tuple[list[str], str]


def _free_bytes(folder: Path) -> int:
    try:
        info = os.statvfs(folder)
    except (OSError, AttributeError):  # no statvfs (Windows): the disk is not looked at
        return KEEP_FREE_BYTES
    return info.f_bavail * info.f_frsize


class StoredOutlines:
    """The ``OutlineMemo`` the actions use, kept in a workspace's state store."""

    def __init__(self, store: StateStore) -> None:
        self._store = store
        self._new: dict[str, Made] = {}

    def get(self, key: str) -> Made | None:
        found = self._new.get(key)
        if found is not None:
            return found
        try:
            with self._store.reading() as db:
                row = db.execute("SELECT lines, note FROM outlines WHERE key = ?", (key,))
                got = row.fetchone()
        except sqlite3.Error:
            return None  # no table yet (nothing kept), or the store cannot be read
        if got is None:
            return None
        try:
            lines = json.loads(got[0])
        except ValueError:
            return None
        if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
            return None
        return lines, str(got[1])

    def put(self, key: str, made: Made) -> None:
        if sum(len(line) for line in made[0]) <= MAX_TEXT:
            self._new[key] = made

    def flush(self) -> None:
        """Write the outlines made since the last flush; a failure keeps none of them."""
        if not self._new:
            return
        if _free_bytes(self._store.folder) < KEEP_FREE_BYTES:
            self._new.clear()
            return
        rows = [
            (key, json.dumps(lines), note, time.time()) for key, (lines, note) in self._new.items()
        ]
        self._new.clear()
        try:
            with self._store.transaction() as db:
                db.execute(_TABLE)
                db.executemany("INSERT OR REPLACE INTO outlines VALUES (?, ?, ?, ?)", rows)
                extra = db.execute("SELECT count(*) FROM outlines").fetchone()[0] - MAX_ROWS
                if extra > 0:
                    db.execute(
                        "DELETE FROM outlines WHERE key IN "
                        "(SELECT key FROM outlines ORDER BY made LIMIT ?)",
                        (extra,),
                    )
        except (sqlite3.Error, StoreError, OSError):
            return
