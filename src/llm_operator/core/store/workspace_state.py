"""A workspace's state as a session sees it: the store, the write lock, memory, journal.

Opening never fails: a state store or write lock that cannot be opened (read-only or full
folder, a damaged file), or a crashed batch that cannot be taken back completely
(ERR_RECOVERY_FAILED), leaves ``problem`` set, reads still run, and every write is
refused with that problem's ERR_ code, so nothing can run twice unnoticed and nothing is
answered against a crashed batch's bytes. The next run that takes the lock tries again.
Opening also recovers a batch a crashed run left open, when no other run holds the lock
(a run that holds it is alive; the lock's next holder recovers instead).

Start-up: a read-only run needs none of the journal, recovery or undo code, so those
modules are imported only when a run writes, undoes, or when the one-row query
``has_open_batch`` finds a batch to recover. That query runs under the lock at every
open, exactly where recovery ran before, so a read still never sees a half-applied batch.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from .database import StateStore, StoreError, has_open_batch
from .lock import OnWait, WorkspaceLock
from .memory import SessionMemory
from .workspace import Workspace

RECOVERY_FAILED = "ERR_RECOVERY_FAILED"

if TYPE_CHECKING:
    from .journal import Journal
    from .notices import UndoNotice
    from .recovery import Recovered
    from .undoing import UndoReport


class WorkspaceState:
    def __init__(self, folder: Path, workspace: Workspace) -> None:
        self.folder = folder
        self.workspace = workspace
        self.problem: StoreError | None = None
        self.store: StateStore | None = None
        self.recovered: list[Recovered] = []
        # Undos a killed run left unfinished, finished by this one (see undo_progress).
        self.finished_undos: list[UndoReport] = []
        self.lock = WorkspaceLock(folder)
        try:
            self.store = StateStore(folder)
        except StoreError as error:
            self.problem = self._told(error)
        self.memory = SessionMemory(self.store)
        if self.store is not None:
            self._recover_if_free()

    def _told(self, error: StoreError) -> StoreError:
        """``error`` with what a run that stopped mid-batch left on disk, when it left
        something (a failure that stops recovery must not read "nothing was written")."""
        if error.doing is None:
            return error  # not an OS or SQLite failure: it says what it means
        from .interrupted import told

        return told(error, self.folder, self.workspace, self.lock)

    def _recover_if_free(self) -> None:
        try:
            if not self.lock.try_acquire():
                return
        except StoreError as error:
            # Without the lock nothing can be recovered, so the state of the workspace is
            # unknown: every write is refused with this (reads carry it as a notice).
            self.problem = self._told(error)
            return
        try:
            self._recover(self._open_store())
        except StoreError as error:
            self.problem = error  # told already (_recover)
        finally:
            self.lock.release()

    def _recover(self, store: StateStore) -> None:
        """Roll back what a crashed run left open (the caller holds the write lock).

        Raises ERR_RECOVERY_FAILED when something of it could not be put back: no write
        may be planned or answered against files that still hold a crashed batch's bytes.
        Any other failure is told with what such a batch left on disk.
        """
        try:
            self._recover_held(store)
        except StoreError as error:
            raise self._told(error) from error.__cause__

    def _recover_held(self, store: StateStore) -> None:
        if not has_open_batch(store):
            if self.problem is not None and self.problem.code == RECOVERY_FAILED:
                self.problem = None  # another run finished it meanwhile
            return
        from .recovery import finish_undos, recover, recovery_failed

        found = recover(store, self.workspace)
        found += finish_undos(store, self.workspace, self.finished_undos)
        self.recovered += found
        stuck = [r for r in found if not r.finished]
        if stuck:
            from .interrupted import left_on_disk

            self.problem = recovery_failed(
                stuck, left_on_disk(self.folder, self.workspace, self.lock)
            )
            raise self.problem
        if self.problem is not None and self.problem.code == RECOVERY_FAILED:
            self.problem = None

    def _open_store(self) -> StateStore:
        if self.store is None:
            assert self.problem is not None
            raise self.problem
        return self.store

    @property
    def journal(self) -> Journal:
        from .journal import Journal

        return Journal(self._open_store())

    @contextlib.contextmanager
    def writing(self, on_wait: OnWait | None = None) -> Iterator[StateStore]:
        """Hold the write lock (waiting for another run) and recover what it left."""
        store = self._open_store()
        self.lock.acquire(on_wait)
        try:
            self._recover(store)
            yield store
        finally:
            self.lock.release()

    def acquire(self, on_wait: OnWait | None = None) -> StateStore:
        """Take the write lock for a run's batch (``release`` gives it back)."""
        store = self._open_store()
        self.lock.acquire(on_wait)
        try:
            self._recover(store)
        except BaseException:
            self.lock.release()
            raise
        return store

    def release(self) -> None:
        self.lock.release()

    def take_recovered(self) -> list[Recovered]:
        found, self.recovered = self.recovered, []
        return found

    def undelivered_notices(self, conversation: int | None) -> list[UndoNotice]:
        """The notices that lead ``conversation``'s next results (None: unknown, none)."""
        if self.store is None or conversation is None:
            return []
        from .notices import undelivered

        try:
            return undelivered(self.store, conversation)
        except StoreError:
            return []
