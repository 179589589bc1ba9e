"""Undo copies too big for the state store's database, kept as files beside it.

SQLite writes a big value twice (into its log, then into the database when the log is
checkpointed) in page-sized pieces, so the copy of a 3 MB file cost a run more than
everything else it did. Such a copy is a plain file instead, written once.

Invariants:
- A saved copy of ``OUTSIDE_MIN`` bytes or more is the file
  ``undo-copies/<batch>-<sha256 hex>`` in the workspace's state folder (folder 0700, file
  0600: it may hold a secret file's bytes). Its ``blobs`` row has ``outside`` 1 and no
  data.
- The file is written under a temporary name, synced, renamed into place and its folder
  synced before the row that names it is committed: a committed row always names a
  durable file, so a copy is never lost to a crash or a power cut.
- A file that no row names (a crash between the file and its row, a batch that was
  forgotten or pruned) is removed by ``sweep``. Files of an ``open`` batch are never
  swept: its run may be between writing one and committing its row.
- Reading a copy checks it against its digest, as copies in the database are checked.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from pathlib import Path

from .database import StateStore, StoreError, guarded

FOLDER = "undo-copies"
OUTSIDE_MIN = 256 * 1024
# Patterns, not compiled ones: ``re`` compiles each at its first use, so a run that never
# keeps a copy outside never pays for them.
_DIGEST = r"sha256:([0-9a-f]{64})"
_NAME = r"(\d+)-([0-9a-f]{64})(\.tmp-\d+)?"


def _file_name(batch: int, name: str) -> str:
    found = re.fullmatch(_DIGEST, name)
    if found is None:  # never a path from the database: only digests name files
        raise ValueError("a saved copy's digest is not a sha256 digest")
    return f"{batch}-{found.group(1)}"


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def save(state_folder: Path, batch: int, copies: dict[str, bytes]) -> None:
    """Make each copy durable as a file (see the module's invariants); raises OSError."""
    folder = state_folder / FOLDER
    folder.mkdir(mode=0o700, exist_ok=True)
    for name, data in copies.items():
        final = _file_name(batch, name)
        temp = f"{final}.tmp-{os.getpid()}"
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(folder / temp, flags, 0o600)
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(folder / temp, folder / final)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(folder / temp)
            raise
    _sync_folder(folder)


def read(state_folder: Path, batch: int, name: str) -> bytes | None:
    """The copy's bytes, or None when there is no such file."""
    try:
        path = state_folder / FOLDER / _file_name(batch, name)
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except (FileNotFoundError, ValueError):
        return None
    with os.fdopen(fd, "rb") as handle:
        return handle.read()


def sweep_outside(store: StateStore) -> None:
    """``sweep`` the store's folder; a store that cannot be read now is swept later."""
    with contextlib.suppress(StoreError), guarded("tidy the undo copies"), store.reading() as db:
        sweep(db, store.folder)


def sweep(db: sqlite3.Connection, state_folder: Path) -> list[str]:
    """Remove the files no committed row names, and temporary ones of finished runs;
    returns their names. Silent about files it cannot remove: the next sweep tries again."""
    try:
        names = os.listdir(state_folder / FOLDER)
    except OSError:  # no copy was ever kept outside (or the folder is unreadable)
        return []
    if not names:
        return []
    open_batches = {int(b) for (b,) in db.execute("SELECT id FROM batches WHERE state = 'open'")}
    named = {
        (int(batch), str(name).removeprefix("sha256:"))
        for batch, name in db.execute("SELECT batch, digest FROM blobs WHERE outside = 1")
    }
    removed = []
    for entry in names:
        found = re.fullmatch(_NAME, entry)
        if found is None:
            continue  # not ours: left alone
        batch, hexdigest, temp = int(found.group(1)), found.group(2), found.group(3)
        if batch in open_batches or (not temp and (batch, hexdigest) in named):
            continue
        with contextlib.suppress(OSError):
            os.unlink(state_folder / FOLDER / entry)
            removed.append(entry)
    return removed
