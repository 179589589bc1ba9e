"""The undo journal: what each approved batch changed, kept in the state store.

Invariants:
- A batch is a row of ``batches`` (state ``open``, ``committed`` or ``undone``) with one
  ``entries`` row per recorded change and the previous bytes in ``blobs``, keyed by their
  digest. The intent of a ChangeSet (what each path held, the digest it is planned to
  hold) is committed before ``apply_changeset`` touches its first file.
- A ChangeSet that was rolled back leaves no entry, except for a path whose rollback
  failed (it still holds the change, so undo must know it). Entries the store could not
  forget at once are forgotten by the batch's commit, in its own transaction: a committed
  batch never holds an entry for a change that is not on disk.
- A batch stays ``open`` until the run commits it, in one transaction with the session
  memory of its commands. An ``open`` batch whose run is not holding the workspace lock
  was left by a crash and is rolled back by ``recovery`` before anything else.
- Only the newest MAX_BATCHES committed or undone batches are kept; older ones are
  deleted (with their saved bytes) when a batch begins.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Collection
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..changes import FileChange, digest
from ..encodable_text import without_surrogates
from .applying import Recorder, Times
from .batch_records import (
    BatchChange,
    BatchCommand,
    BatchInfo,
    ChangeKind,
    blob_names,
    label_by_entries,
    read_info,
)
from .database import StateStore, guarded
from .outside_copies import OUTSIDE_MIN, sweep_outside
from .outside_copies import save as save_outside
from .saved import SavedDir, SavedEntry, SavedFile, SavedLink, SavedTooLarge
from .workspace import Workspace

if TYPE_CHECKING:
    from .undoing import UndoReport

__all__ = ["BatchChange", "BatchCommand", "BatchInfo", "BatchRecorder", "Journal", "UndoReport"]

MAX_BATCHES = 50

Commit = Callable[[sqlite3.Connection], None]


def node_to_json(
    saved: SavedEntry, blobs: dict[str, bytes], planned: FileChange | None = None
) -> dict[str, Any]:
    """``saved`` as JSON; the bytes of its files go to ``blobs`` under their digest.
    ``planned``: the change whose ``before`` the saved file was found to hold, if any (its
    digest is then not worked out again)."""
    if isinstance(saved, SavedFile):
        if planned is not None and planned.before == saved.data:
            name = planned.before_digest
        else:
            name = digest(saved.data)
        blobs[name] = saved.data
        return {"type": "file", "mode": saved.mode, "blob": name}
    if isinstance(saved, SavedLink):
        return {"type": "symlink", "target": saved.target}
    if isinstance(saved, SavedDir):
        children = [[name, node_to_json(child, blobs)] for name, child in saved.children]
        return {"type": "dir", "mode": saved.mode, "children": children}
    if isinstance(saved, SavedTooLarge):
        return {"type": "too_large", "size": saved.size}
    if saved.mode is None:
        return {"type": "unsupported", "kind": saved.kind}
    return {"type": "unsupported", "kind": saved.kind, "mode": saved.mode}


# -- recording ------------------------------------------------------------------------------


class BatchRecorder(Recorder):
    """Records one approved run as it happens; ``apply_changeset`` calls it per ChangeSet."""

    def __init__(self, store: StateStore, batch: int) -> None:
        self._store = store
        self.batch = batch
        self._pending: list[tuple[int, str]] = []  # (seq, path) of the current ChangeSet
        self._unforgotten: list[int] = []  # entries of taken-back changes still in the store
        self._seq = 0
        self._command: tuple[str, str] | None = None
        self._closed = False

    @property
    def batch_id(self) -> str:
        return str(self.batch)

    def begin_command(self, command_id: str, action: str) -> None:
        """Name the command whose ChangeSet comes next (the undo notice lists it)."""
        self._command = (without_surrogates(command_id), action)

    def record_before(
        self,
        change: FileChange,
        *,
        saved: SavedEntry | None,
        created_dirs: tuple[str, ...] = (),
    ) -> None:
        """Commit what ``change.path`` holds before it is touched (``saved`` None: nothing)."""
        if self._closed:
            raise RuntimeError("this batch is already committed")
        kind: ChangeKind = (
            "deleted" if change.is_delete else "created" if saved is None else "edited"
        )
        blobs: dict[str, bytes] = {}
        node = None if saved is None else node_to_json(saved, blobs, change)
        self._seq += 1
        shown = without_surrogates(change.path)
        big = {name: data for name, data in blobs.items() if len(data) >= OUTSIDE_MIN}
        with guarded(f"save the undo copy of {shown}"):
            if big:
                save_outside(self._store.folder, self.batch, big)  # durable before its row
            with self._store.transaction() as db:
                self._insert(db, blobs, big, shown, kind, node, change, created_dirs)
        self._pending.append((self._seq, change.path))

    def _insert(
        self,
        db: sqlite3.Connection,
        blobs: dict[str, bytes],
        big: dict[str, bytes],
        shown: str,
        kind: ChangeKind,
        node: dict[str, Any] | None,
        change: FileChange,
        created_dirs: tuple[str, ...],
    ) -> None:
        command_id, action = self._command or (None, None)
        for name, data in blobs.items():
            db.execute(
                "INSERT OR IGNORE INTO blobs (batch, digest, data, outside) VALUES (?, ?, ?, ?)",
                (self.batch, name, b"", 1) if name in big else (self.batch, name, data, 0),
            )
        db.execute(
            "INSERT INTO entries (batch, seq, command_id, action, path, kind, before, "
            "after, created_dirs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                self.batch,
                self._seq,
                command_id,
                action,
                shown,
                kind,
                None if node is None else json.dumps(node, ensure_ascii=True),
                change.after_digest,
                json.dumps(list(created_dirs), ensure_ascii=True),
            ),
        )

    def record_trashed(
        self,
        change: FileChange,
        files: str,
        info: str,
        times: Times,
        identity: tuple[int, int, int] | None = None,
    ) -> None:
        seq = next((seq for seq, path in reversed(self._pending) if path == change.path), None)
        if seq is None:
            return
        record: dict[str, object] = {
            "files": files,
            "info": info,
            "atime_ns": times[0],
            "mtime_ns": times[1],
        }
        if identity is not None:
            record["identity"] = list(identity)
        # ASCII JSON: a name's bytes that are not UTF-8 survive as \udcXX escapes.
        text = json.dumps(record, ensure_ascii=True)
        with guarded("note where a deleted file went"), self._store.transaction() as db:
            db.execute(
                "UPDATE entries SET trash = ? WHERE batch = ? AND seq = ?",
                (text, self.batch, seq),
            )

    def changeset_applied(self) -> None:
        self._pending = []

    def changeset_failed(self, kept: Collection[str] = ()) -> None:
        """Forget the entries of a ChangeSet that was rolled back; the entries of the
        ``kept`` paths stay (their rollback failed, so undo must still know them). When
        the store cannot forget them now, ``commit`` does, in its own transaction: a
        batch is never committed with an entry for a change that is not on disk."""
        pending, self._pending = self._pending, []
        gone = [seq for seq, path in pending if path not in kept]
        if not gone:
            return
        self._unforgotten += gone
        with guarded("forget a taken-back change"), self._store.transaction() as db:
            _forget(db, self.batch, self._unforgotten)
        self._unforgotten = []

    def commit(self, also: Commit | None = None) -> BatchInfo | None:
        """End the run in one transaction with ``also`` (session memory, notices...).

        A batch that changed nothing is not kept (returns None).
        """
        with guarded("commit the batch"), self._store.transaction() as db:
            if self._unforgotten:
                _forget(db, self.batch, self._unforgotten)
            used = db.execute("SELECT 1 FROM entries WHERE batch = ?", (self.batch,)).fetchone()
            if used is None:
                db.execute("DELETE FROM batches WHERE id = ?", (self.batch,))
            else:
                db.execute("UPDATE batches SET state = 'committed' WHERE id = ?", (self.batch,))
                label_by_entries(db, self.batch)
            if also is not None:
                also(db)
        self._closed = True
        self._unforgotten = []
        sweep_outside(self._store)  # copies of changes taken back, now named by no row
        if used is None:
            return None
        return Journal(self._store).info(self.batch)


def _forget(db: sqlite3.Connection, batch: int, seqs: list[int]) -> None:
    db.executemany("DELETE FROM entries WHERE batch = ? AND seq = ?", [(batch, s) for s in seqs])
    _drop_unused_blobs(db, batch)


def _drop_unused_blobs(db: sqlite3.Connection, batch: int) -> None:
    used: set[str] = set()
    for (before,) in db.execute(
        "SELECT before FROM entries WHERE batch = ? AND before IS NOT NULL", (batch,)
    ):
        used.update(blob_names(json.loads(before)))
    for (name,) in db.execute("SELECT digest FROM blobs WHERE batch = ?", (batch,)).fetchall():
        if name not in used:
            db.execute("DELETE FROM blobs WHERE batch = ? AND digest = ?", (batch, name))


# -- the journal ------------------------------------------------------------------------------


class Journal:
    """The approved batches of one workspace, newest first in lists."""

    def __init__(self, store: StateStore | Path) -> None:
        self.store = StateStore(store) if isinstance(store, Path) else store

    def begin_batch(self, label: str, conversation: int = 0) -> BatchRecorder:
        now = datetime.now(timezone.utc).isoformat()
        with guarded("begin an undo batch"), self.store.transaction() as db:
            kept = db.execute(
                "SELECT id FROM batches WHERE state != 'open' ORDER BY id DESC LIMIT -1 OFFSET ?",
                (MAX_BATCHES - 1,),
            ).fetchall()
            db.executemany("DELETE FROM batches WHERE id = ?", kept)
            cursor = db.execute(
                "INSERT INTO batches (label, created, state, conversation) "
                "VALUES (?, ?, 'open', ?)",
                (without_surrogates(label), now, conversation),
            )
        sweep_outside(self.store)  # the copies of the batches just dropped
        assert cursor.lastrowid is not None
        return BatchRecorder(self.store, cursor.lastrowid)

    def info(self, batch: int) -> BatchInfo:
        with guarded("read the undo journal"), self.store.reading() as db:
            row = db.execute(
                "SELECT id, label, created, state FROM batches WHERE id = ?", (batch,)
            ).fetchone()
            return read_info(db, row)

    def batches(self) -> list[BatchInfo]:
        """Every kept batch that changed something, newest first (undone ones included)."""
        with guarded("read the undo journal"), self.store.reading() as db:
            rows = db.execute(
                "SELECT id, label, created, state FROM batches ORDER BY id DESC"
            ).fetchall()
            infos = [read_info(db, row) for row in rows]
        return [info for info in infos if info.changes]

    def last_batch(self) -> BatchInfo | None:
        """The batch ``undo_last`` would undo: the newest one not yet undone."""
        return next((b for b in self.batches() if not b.undone), None)

    def undo_last(self, workspace: Workspace, force: bool = False) -> UndoReport:
        from .undoing import undo_last  # lazy: a run that writes never undoes

        return undo_last(self.store, workspace, force=force)
