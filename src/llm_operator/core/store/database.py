"""The state store: one SQLite database per workspace state folder.

Invariants:
- Everything the app remembers about a workspace (session memory, the undo journal, undo
  notices, run history) lives in ``state.sqlite3`` in the workspace's state folder, so the
  window and ``exec`` read the same truth at once. Nothing is cached across transactions:
  every lookup reads the database.
- WAL mode: readers never wait for a writer. ``synchronous=FULL`` makes every commit
  durable before the files it describes are touched.
- Every write happens inside ``transaction()`` (BEGIN IMMEDIATE ... COMMIT). A failure of
  SQLite or the OS becomes a ``StoreError`` carrying an ERR_ code, never a traceback.
- The schema has a version row; the first open of a folder that still holds the JSON files
  of earlier versions imports them, and the first open of a store of schema 1 gives it
  conversations (see ``migration``).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from ..errors import OperatorError

FILE_NAME = "state.sqlite3"
# 2: conversations (see conversations.py and migration.py); 3: checks (checks.py)
SCHEMA_VERSION = 3
BUSY_TIMEOUT_MS = 30_000
# What earlier versions kept in the state folder (``migration`` imports them): checked by
# name first, so a new store without them never loads the migration code.
LEGACY_STATE_NAMES = ("session-memory.json", "journal")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS memory (
    conversation INTEGER NOT NULL DEFAULT 0,
    id TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    ok INTEGER NOT NULL,
    summary TEXT NOT NULL,
    details TEXT,
    at REAL NOT NULL,
    batch INTEGER,
    PRIMARY KEY (conversation, id)
);
CREATE TABLE IF NOT EXISTS conversations (
    n INTEGER PRIMARY KEY AUTOINCREMENT,
    channel TEXT NOT NULL,
    started REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS batches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    label TEXT NOT NULL,
    created TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('open', 'committed', 'undone')),
    undone_at TEXT,
    conversation INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS entries (
    batch INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    command_id TEXT,
    action TEXT,
    path TEXT NOT NULL,
    kind TEXT NOT NULL,
    before TEXT,
    after TEXT,
    created_dirs TEXT NOT NULL DEFAULT '[]',
    trash TEXT,
    PRIMARY KEY (batch, seq)
);
CREATE TABLE IF NOT EXISTS blobs (
    batch INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE,
    digest TEXT NOT NULL,
    data BLOB NOT NULL,
    outside INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (batch, digest)
);
CREATE TABLE IF NOT EXISTS notices (
    n INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    summary TEXT NOT NULL,
    details TEXT NOT NULL,
    delivered INTEGER NOT NULL DEFAULT 0,
    conversation INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS checks (
    name TEXT PRIMARY KEY,
    command TEXT NOT NULL,
    shell INTEGER NOT NULL DEFAULT 0,
    timeout INTEGER NOT NULL,
    keep TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS runs (
    n INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL,
    commands INTEGER NOT NULL,
    failed INTEGER NOT NULL,
    results TEXT NOT NULL,
    batch INTEGER
);
"""


def has_batch_column(db: sqlite3.Connection) -> bool:
    """Whether the runs table names each run's batch (stores made before it did not)."""
    return any(row[1] == "batch" for row in db.execute("PRAGMA table_info(runs)"))


# Columns later versions added, with their definitions: ALTER TABLE adds them to an older
# store at its first open (each is nullable or has a default, so an older app keeps
# reading and writing the store). runs.batch: the batch of each run, for the history;
# blobs.outside: 1 where the copy is a file beside the database (see outside_copies);
# entries.trash: where a delete's entry went in the trash, and its times (see untrashing).
_ADDED_COLUMNS = (
    ("runs", "batch", "INTEGER"),
    ("blobs", "outside", "INTEGER NOT NULL DEFAULT 0"),
    ("entries", "trash", "TEXT"),
)


def _missing_columns(db: sqlite3.Connection) -> list[tuple[str, str, str]]:
    rows = db.execute(
        "SELECT m.name, p.name FROM sqlite_master AS m, pragma_table_info(m.name) AS p "
        "WHERE m.type = 'table' AND m.name IN ('runs', 'blobs', 'entries')"
    ).fetchall()
    have = {(str(table), str(column)) for table, column in rows}
    return [added for added in _ADDED_COLUMNS if (added[0], added[1]) not in have]


class StoreError(OperatorError):
    """The state store could not be opened, read or written."""

    # What could not be done ("be opened"), when ``store_error`` made it from an OS or
    # SQLite error (its ``__cause__``): ``interrupted.told`` says it again with what a
    # stopped run left on disk.
    doing: str | None = None
    folder: Path | None = None
    # Already says what the disk holds of a run that stopped mid-batch.
    tells_disk: bool = False


def _folder_state(folder: Path | None) -> str:
    """What the file system says about ``folder``, for errors SQLite words vaguely."""
    if folder is None:
        return ""
    try:
        info = os.statvfs(folder)
    except OSError:
        return ""
    if info.f_flag & os.ST_RDONLY:
        return "read-only"
    if info.f_bavail == 0:
        return "full"
    return ""


def _file_size_limit() -> int | None:
    """This process's file-size limit in bytes, or None when there is none."""
    try:
        import resource
    except ImportError:  # not on this system
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


NOTHING_WRITTEN = "nothing was written"


def store_error(
    exc: BaseException, doing: str, folder: Path | None = None, effect: str = NOTHING_WRITTEN
) -> StoreError:
    """Name what went wrong in the terms of the ERR_ registry (no absolute paths).

    ``effect``: what the failure left on disk, when "nothing was written" would not be the
    whole truth (a store that cannot be opened over a batch a stopped run left: see
    ``interrupted``)."""
    # An OS error's text names its file: only its reason is read, so a folder named
    # "fullstack" or "locked" says nothing about why the store failed.
    said = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
    text = f"{said} {_folder_state(folder)}".lower()
    error = _store_error(exc, doing, folder, effect, text)
    error.doing, error.folder = doing, folder
    return error


def _store_error(
    exc: BaseException, doing: str, folder: Path | None, effect: str, text: str
) -> StoreError:
    if isinstance(exc, sqlite3.DatabaseError) and (
        "not a database" in text or "malformed" in text or "corrupt" in text
    ):
        return StoreError(
            "ERR_STATE_STORE_DAMAGED",
            f"the app's state store is damaged and could not {doing} ({exc}); writes are "
            "refused so that nothing runs twice"
            + ("" if effect == NOTHING_WRITTEN else f"; {effect}")
            + f". The user can move the file {FILE_NAME} out of the workspace's state "
            "folder (a fresh one is made) and paste again.",
            {"reason": getattr(exc, "strerror", None) or str(exc)},
        )
    reason = getattr(exc, "strerror", None) or str(exc)
    if "full" in text or (isinstance(exc, OSError) and exc.errno == 28):
        why = "the disk holding it is full"
    elif "readonly" in text or "read-only" in text:
        why = "its folder is read-only"
    elif "permission" in text or (isinstance(exc, OSError) and exc.errno in (1, 13)):
        why = "the app may not write its folder (permission denied)"
    elif "locked" in text or "busy" in text:
        why = "another program holds it locked"
    else:
        why = getattr(exc, "strerror", None) or str(exc)
        limit = _file_size_limit()
        too_big = isinstance(exc, OSError) and exc.errno == 27  # EFBIG
        if limit is not None and ("i/o" in text or too_big):
            # SQLite reports a write past RLIMIT_FSIZE (EFBIG) as a plain I/O error; an
            # undo copy kept as a file (outside_copies) gets EFBIG itself.
            why += (
                f" (this process may not write files larger than {limit} bytes: its "
                "file-size limit, ulimit -f)"
            )
            reason = why  # the cause, wherever only the reason is shown
    return StoreError(
        "ERR_STATE_STORE_UNAVAILABLE",
        f"the app's state store could not {doing}: {why}; {effect}. The user "
        "can free space or fix the permissions of the state folder (--state-dir); then "
        "send the command again.",
        {"reason": reason},
    )


def _use_wal(db: sqlite3.Connection) -> None:
    """Switch to WAL (once per database file; the mode is stored in it). When two
    processes open a new store at once, one may switch while the other still sees the old
    mode: SQLite answers the second switch "locked" at once, busy timeout or not. So the
    mode is read again and the switch retried until the busy timeout."""
    if str(db.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal":
        return
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            mode = str(db.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc).lower() or time.monotonic() >= deadline:
                raise
        else:
            if mode == "wal":
                return
            if time.monotonic() >= deadline:
                raise sqlite3.OperationalError(f"database is locked (it stays in {mode} mode)")
        time.sleep(0.02)


class StateStore:
    """One open database; safe to share between the threads of one process."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / FILE_NAME
        self._guard = threading.RLock()
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            # The journal holds the previous bytes of every file a batch changed, secret-
            # looking ones included: only the user may read it (SQLite gives its WAL files
            # the database file's mode).
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600))
            self._db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=30
            )
        except (OSError, sqlite3.Error) as exc:
            raise store_error(exc, "be opened", folder) from exc
        try:
            self._setup()
        except (OSError, sqlite3.Error) as exc:
            self._db.close()
            raise store_error(exc, "be opened", folder) from exc

    def _setup(self) -> None:
        db = self._db
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        db.execute("PRAGMA foreign_keys = ON")
        _use_wal(db)
        db.execute("PRAGMA synchronous = FULL")
        row = None
        with contextlib.suppress(sqlite3.OperationalError):
            row = db.execute("SELECT version FROM schema_version").fetchone()
        if row is not None:
            if int(row[0]) > SCHEMA_VERSION:
                raise StoreError(
                    "ERR_STATE_STORE_UNAVAILABLE",
                    f"the state store was written by a newer version of the app (schema "
                    f"{row[0]}, this one knows {SCHEMA_VERSION}); update the app",
                )
            if int(row[0]) < SCHEMA_VERSION:
                from .migration import add_checks, add_conversations

                with self.transaction():
                    add_conversations(db, 2)
                    add_checks(db, SCHEMA_VERSION)
            self._add_columns()
            return
        with self.transaction():
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            if db.execute("SELECT count(*) FROM schema_version").fetchone()[0] == 0:
                db.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
                if any(os.path.lexists(self.folder / name) for name in LEGACY_STATE_NAMES):
                    from .migration import import_json_state

                    import_json_state(db, self.folder)

    def _add_columns(self) -> None:
        """Give a store made by an earlier version the columns added since. Where the
        store cannot be written, the history shows no undo state, and no write can
        happen anyway."""
        with contextlib.suppress(sqlite3.Error):
            with self.reading() as db:
                if not _missing_columns(db):
                    return
            with self.transaction() as db:
                for table, column, definition in _missing_columns(db):
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: BEGIN IMMEDIATE ... COMMIT, rolled back on any error."""
        with self._guard:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @contextlib.contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The connection for plain reads (each statement sees the newest commit)."""
        with self._guard:
            yield self._db

    def close(self) -> None:
        with self._guard, contextlib.suppress(sqlite3.Error):
            self._db.close()


@contextlib.contextmanager
def guarded(doing: str) -> Iterator[None]:
    """Turn SQLite, OS and encoding failures into a StoreError about ``doing``."""
    try:
        yield
    except StoreError:
        raise
    except (sqlite3.Error, OSError, UnicodeError, ValueError) as exc:
        raise store_error(exc, doing) from exc


def has_open_batch(store: StateStore) -> bool:
    """Whether a run left a batch uncommitted (or an undo unfinished): one lookup, cheap
    enough for every open, so the recovery code is loaded only when there is something to
    recover."""
    with guarded("read the undo journal"), store.reading() as db:
        # 'in progress': undo_progress.IN_PROGRESS, the mark of an undo not yet finished.
        row = db.execute(
            "SELECT 1 FROM batches WHERE state = 'open' "
            "OR (state = 'committed' AND undone_at = 'in progress') LIMIT 1"
        ).fetchone()
    return row is not None
