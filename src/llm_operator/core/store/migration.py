"""Bring the state of earlier versions into the current state store, once.

Schema 2 to 3 (``add_checks``): the table of the workspace's checks, empty.

Schema 1 to 2 (``add_conversations``): command ids became per conversation. The memory
table is rebuilt with the key (conversation, id); batches and notices get a
conversation column; everything an earlier version kept belongs to conversation 0, the
paste channel's conversation until a primer or pack starts a new one. One transaction
(the caller's): an older store is either migrated whole or left as it was.

The JSON files of still earlier versions:

Earlier versions kept ``session-memory.json`` and ``journal/<seq>-<time>/manifest.json``
(with a ``blobs/`` folder) in the workspace's state folder. The first open of the SQLite
store copies them in, inside the transaction that creates the schema, then renames the
memory file to ``session-memory.json.imported`` and the journal folder to
``journal.imported`` so they are never imported twice. A file that cannot be parsed is
left where it is and skipped: it cost only repeat detection or an old undo before too.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path
from typing import Any

from .batch_records import blob_names

MEMORY_FILE = "session-memory.json"
JOURNAL_FOLDER = "journal"


def import_json_state(db: sqlite3.Connection, folder: Path) -> None:
    memory = folder / MEMORY_FILE
    if memory.is_file():
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError, AttributeError):
            _import_memory(db, json.loads(memory.read_text("utf-8")))
            memory.rename(memory.with_name(MEMORY_FILE + ".imported"))
    journal = folder / JOURNAL_FOLDER
    if journal.is_dir():
        manifests = sorted(journal.glob("*/manifest.json"), key=lambda p: p.parent.name)
        for manifest in manifests:
            db.execute("SAVEPOINT one_batch")
            try:
                _import_batch(db, manifest)
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                db.execute("ROLLBACK TO one_batch")  # a damaged manifest: skip it whole
            db.execute("RELEASE one_batch")
        with contextlib.suppress(OSError):
            journal.rename(folder / (JOURNAL_FOLDER + ".imported"))


def add_conversations(db: sqlite3.Connection, version: int) -> None:
    """Inside the caller's transaction: schema 1 to ``version`` (2). Checked again under
    the transaction, so two processes opening an old store at once migrate it once."""
    row = db.execute("SELECT version FROM schema_version").fetchone()
    if row is not None and int(row[0]) >= version:
        return
    db.execute(
        "CREATE TABLE memory_by_conversation ("
        "conversation INTEGER NOT NULL DEFAULT 0, id TEXT NOT NULL, "
        "fingerprint TEXT NOT NULL, ok INTEGER NOT NULL, summary TEXT NOT NULL, "
        "details TEXT, at REAL NOT NULL, batch INTEGER, PRIMARY KEY (conversation, id))"
    )
    db.execute(
        "INSERT INTO memory_by_conversation "
        "(conversation, id, fingerprint, ok, summary, details, at, batch) "
        "SELECT 0, id, fingerprint, ok, summary, details, at, batch FROM memory"
    )
    db.execute("DROP TABLE memory")
    db.execute("ALTER TABLE memory_by_conversation RENAME TO memory")
    for table in ("batches", "notices"):
        db.execute(f"ALTER TABLE {table} ADD COLUMN conversation INTEGER NOT NULL DEFAULT 0")
    db.execute(
        "CREATE TABLE IF NOT EXISTS conversations (n INTEGER PRIMARY KEY AUTOINCREMENT, "
        "channel TEXT NOT NULL, started REAL NOT NULL)"
    )
    db.execute("UPDATE schema_version SET version = ?", (version,))


def _import_memory(db: sqlite3.Connection, raw: dict[str, Any]) -> None:
    for key, item in raw.get("ids", {}).items():
        db.execute(
            "INSERT OR REPLACE INTO memory (id, fingerprint, ok, summary, details, at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                str(key),
                str(item["fingerprint"]),
                int(bool(item["ok"])),
                str(item["summary"]),
                item.get("details"),
                float(item["at"]),
            ),
        )


def _import_batch(db: sqlite3.Connection, manifest: Path) -> None:
    data = json.loads(manifest.read_text("utf-8"))
    if data.get("state") not in ("committed", "undone") or not data.get("entries"):
        return  # an open batch of an old version: nothing says which writes happened
    cursor = db.execute(
        "INSERT INTO batches (label, created, state, undone_at) VALUES (?, ?, ?, ?)",
        (str(data["label"]), str(data["created"]), data["state"], data.get("undone_at")),
    )
    batch = cursor.lastrowid
    blobs = manifest.parent / "blobs"
    for seq, entry in enumerate(data["entries"]):
        if not entry.get("applied", True):
            continue
        before = entry.get("before")
        for blob in blob_names(before):
            db.execute(
                "INSERT OR IGNORE INTO blobs (batch, digest, data) VALUES (?, ?, ?)",
                (batch, "sha256:" + blob, (blobs / blob).read_bytes()),
            )
        db.execute(
            "INSERT INTO entries (batch, seq, path, kind, before, after, created_dirs) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                batch,
                seq,
                str(entry["path"]),
                str(entry["kind"]),
                None if before is None else json.dumps(_renamed_blobs(before)),
                entry.get("after"),
                json.dumps(list(entry.get("created_dirs", []))),
            ),
        )


def _renamed_blobs(node: dict[str, Any]) -> dict[str, Any]:
    """Old manifests name a blob by its bare hex digest; the store keys it as sha256:<hex>."""
    if node["type"] == "file":
        return {**node, "blob": "sha256:" + str(node["blob"])}
    if node["type"] == "dir":
        children = [[name, _renamed_blobs(child)] for name, child in node["children"]]
        return {**node, "children": children}
    return node


def add_checks(db: sqlite3.Connection, version: int) -> None:
    """Inside the caller's transaction: schema 2 to ``version`` (3), once."""
    row = db.execute("SELECT version FROM schema_version").fetchone()
    if row is not None and int(row[0]) >= version:
        return
    db.execute(
        "CREATE TABLE IF NOT EXISTS checks (name TEXT PRIMARY KEY, command TEXT NOT NULL, "
        "shell INTEGER NOT NULL DEFAULT 0, timeout INTEGER NOT NULL, "
        "keep TEXT NOT NULL DEFAULT '')"
    )
    db.execute("UPDATE schema_version SET version = ?", (version,))
