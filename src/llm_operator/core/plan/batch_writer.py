"""The store side of one executed run: the write lock, the batch, memory, the commit.

Invariants:
- The workspace write lock is taken before the stale check of the run's first approved
  change and given back after the batch's commit (or its rollback): no other run, in
  this process or another, writes the workspace in between.
- Under the lock, each approved command is looked up in the session memory again: a run
  that waited may find that the other run already did it (then it is a repeat).
- Memory entries of the run's commands, the batch's "committed" mark, the delivery of
  undo notices and the run's history entry are one transaction (on a full disk tried once
  more with the history entry holding summaries only). When it fails after
  files changed, the batch is taken back (as crash recovery would) and those commands
  report ok: false; a write that cannot be taken back keeps its result with a warning.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ..errors import OperatorError
from ..outcome import Outcome
from ..protocol.encoder import Result, encode_results, failure_outcome
from ..store.database import StoreError
from ..store.history import record_run
from ..store.memory import DROPPED_NOTE, MemoryEntry, entry_for, store_entries
from ..store.notices import UndoNotice, mark_delivered
from ..store.workspace_state import WorkspaceState

if TYPE_CHECKING:
    # Loaded when a run writes (through WorkspaceState.journal): a read-only run never does.
    from ..store.journal import BatchRecorder

# Test seam: seconds to sleep after each applied command, so a test can kill a run
# in the middle of a batch. Never set outside tests.
APPLY_DELAY_ENV = "LLM_OPERATOR_TEST_APPLY_DELAY"

Wait = Callable[[], None]


@dataclass
class BatchWriter:
    """One run's dealings with the store: the write lock, the batch it writes, the memory
    entries its commit keeps."""

    state: WorkspaceState | None
    label: str
    on_wait: Wait | None = None
    conversation: int | None = 0  # whose memory and batch; None: unknown, nothing is written
    recorder: BatchRecorder | None = None
    locked: bool = False
    entries: list[MemoryEntry] = field(default_factory=list)
    written: list[int] = field(default_factory=list)  # indexes of items whose writes landed
    delay: float = field(default_factory=lambda: float(os.environ.get(APPLY_DELAY_ENV) or 0))

    def hold(self) -> None:
        """Take the write lock (recovering what a crashed run left); raises StoreError."""
        if self.state is not None and self.conversation is None:
            from ..store.conversations import unknown

            raise unknown()
        if self.state is not None and not self.locked:
            self.state.acquire(self.on_wait)
            self.locked = True

    def begin_write(self) -> BatchRecorder | None:
        """Lock and open the batch before the first approved change; raises StoreError."""
        if self.state is None:
            return None
        self.hold()
        if self.recorder is None:
            self.recorder = self.state.journal.begin_batch(self.label, self.conversation or 0)
        return self.recorder

    def wrote(self, index: int) -> None:
        self.written.append(index)
        if self.delay:
            time.sleep(self.delay)

    def remember(
        self,
        command_id: str,
        fingerprint: str,
        outcome: Outcome,
        private: bool,
        wrote: bool,
        read: bool = False,
    ) -> None:
        from ..work_budget import is_not_run

        if is_not_run(outcome.summary):
            return  # a command the work budget stopped must run when it is sent again
        batch = self.recorder.batch if wrote and self.recorder is not None else None
        entry = entry_for(command_id, fingerprint, outcome, private, batch, read)
        if entry is not None:
            self.entries.append(entry)

    def commit(
        self,
        results: list[Result],
        notices: list[UndoNotice],
        private: frozenset[str] = frozenset(),
    ) -> StoreError | None:
        """One transaction for everything the run leaves in the store; the error if any.
        The run history keeps the results of the ``private`` ids (reads the user approved
        of secret-looking files) without their details, as the session memory does. On a
        full disk the history is the first to give way: the commit is tried once more with
        the run's history entry holding summaries only, so a big read result never costs
        the run's writes."""
        if self.state is None or self.state.store is None:
            return None
        kept = [
            _without_details(r, DROPPED_NOTE) if r.id in private and not r.notice else r
            for r in results
        ]
        error = self._commit(kept, len(results), notices)
        if error is None or not _disk_full(error):
            return error
        bare = [_without_details(result, HISTORY_FULL_NOTE) for result in kept]
        return self._commit(bare, len(results), notices)

    def _commit(
        self, kept: list[Result], commands: int, notices: list[UndoNotice]
    ) -> StoreError | None:
        assert self.state is not None
        assert self.state.store is not None
        text = encode_results(kept)
        failed = sum(not r.ok for r in kept)

        def also(db: sqlite3.Connection) -> None:
            if self.conversation is not None:
                store_entries(db, self.entries, time.time(), self.conversation)
            mark_delivered(db, notices)
            batch = self.recorder.batch if self.recorder is not None else None
            record_run(db, commands, failed, text, batch)

        try:
            if self.recorder is not None:
                self.recorder.commit(also)
            else:
                with self.state.store.transaction() as db:
                    also(db)
        except StoreError as error:
            return error
        except (sqlite3.Error, OSError) as exc:
            from ..store.database import store_error

            return store_error(exc, "save this run")
        return None

    def take_back(self, error: StoreError) -> tuple[frozenset[str], tuple[str, ...]]:
        """Roll the uncommitted batch back; returns the paths restored and what could not be."""
        if self.state is None or self.state.store is None or not self.written:
            return frozenset(), ()
        from ..store.recovery import recover

        try:
            found = recover(self.state.store, self.state.workspace)
        except StoreError:
            return frozenset(), ("(the batch's record could not be read)",)
        restored = frozenset(p for r in found for p in r.rewound)
        return restored, tuple(p for r in found for p in (*r.left_alone, *r.problems))

    def release(self) -> None:
        if self.locked and self.state is not None:
            self.state.release()
            self.locked = False


HISTORY_FULL_NOTE = " [details not kept in the run history: the state folder's disk was full]"


def _disk_full(error: StoreError) -> bool:
    reason = str(error.details.get("reason", "")).lower()
    return "full" in reason or "no space" in reason


def _without_details(result: Result, note: str) -> Result:
    """``result`` as the run history keeps it when its details may not be kept."""
    outcome = result.outcome
    if outcome.details is None:
        return result
    summary = outcome.summary + note
    return Result(result.id, Outcome(outcome.ok, summary, None), result.repeat, result.notice)


def taken_back(action: str, command_id: str, error: StoreError) -> Outcome:
    # Only what is true after the rollback: the files are as before; the store's own
    # message ("...; nothing was written") is about its record, so only its reason is used.
    reason = error.details.get("reason") or error.code
    wrapped = OperatorError(
        "ERR_STATE_STORE_FAILED",
        f"the app's state store could not record this change ({reason}), so the change was "
        "taken back: its files are as they were before. Send the command again once the "
        "state store works (free space on its disk or fix its folder, --state-dir).",
        {"reason": error.details.get("reason", "")},
    )
    return failure_outcome(action, wrapped, command_id)


def with_warning(outcome: Outcome, error: StoreError, left: tuple[str, ...]) -> Outcome:
    note = (
        f" [warning: the state store could not record this run ({error.code}), so its changes "
        f"were taken back, except where that was not possible: {'; '.join(left)}; undo does "
        "not know those, and sending the same id again may run it again]"
    )
    return replace(outcome, summary=outcome.summary + note)
