"""A workspace session: one pasted reply in, OPERATOR_RESULT blocks out.

The window and ``llm-operator exec`` drive it the same way:

    run = session.prepare(text)        # scan, validate, run reads, plan writes
    decisions = ask_somebody(run.pending)   # data in, data out: no callbacks
    shown = session.open_held(run, decisions)  # plan the secret writes the user let in
    decisions |= ask_somebody(shown)           # ... and show their changes
    results = session.execute(run, decisions)  # apply approved plans, deferred reads

Invariants:
- Every command block gets exactly one result, in message order.
- Nothing is written in ``prepare``. Writes are planned against the files as this
  message's earlier writes would leave them, so two edits of one file build on each
  other; at apply time a plan whose file no longer holds those bytes is refused.
- A read that names a path an earlier write of the same message changes is deferred
  and runs after the writes, so it sees what was really written.
- A command naming a secret-looking file (``secrecy.hold``) is held: it is not run or
  planned in ``prepare``; its pending item asks the user with a text made from the path
  and the action only. Approved, a read runs in ``execute`` (in message order) and a
  write is planned in ``open_held``, its change then decided like any other write; so
  no change lands that the user has not seen, and rejected, every such command gets the
  same answer whatever the file holds.
- A write whose id already succeeded (earlier in this message or in an earlier message
  of this conversation, ``store.conversations``) is not run again when its content is
  identical; with different content it is ERR_DUPLICATE_ID, for reads too. A read is
  never answered from memory: sent again, it runs again and its result says it repeats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import OperatorError
from ..outcome import Outcome
from ..protocol.encoder import Result
from .executing import Executing
from .planning import Planning

if TYPE_CHECKING:
    from ..store.history import RunEntry, StoredRun
    from ..store.undoing import UndoReport


class Session(Planning, Executing):
    """One workspace's runs: ``prepare``, ``open_held``, ``execute``, and the store's
    housekeeping, undo and history."""

    # -- housekeeping ------------------------------------------------------------

    def clean_leftovers(self) -> tuple[str, ...]:
        """Remove temp files a killed write left behind (``.<name>.llmop-<hex>.tmp``).

        Walks the workspace, so the window calls it once, off the UI thread, when a
        workspace is opened; ``exec`` does not, to keep its start-up fast.
        """
        from ..store.applying import clean_stale_temp_files

        return clean_stale_temp_files(self.workspace)

    # -- undo --------------------------------------------------------------------

    def undo_last(self, force: bool = False, expected: str | None = None) -> UndoReport:
        """Undo the newest batch under the write lock; ``force`` overwrites later edits.
        ``expected``: the batch the user was shown; refused if another is newest by the
        time the lock is held."""
        from ..store.undoing import undo_last

        if self.state is None:
            raise OperatorError("ERR_NO_STATE_DIR", "this session keeps no undo journal")
        with self.state.writing(self.on_wait) as store:
            if self.state.finished_undos:
                # An undo killed part way was just finished: that is the undo asked for
                # (undoing the batch before it too would undo one batch too many).
                return self.state.finished_undos.pop()
            return undo_last(store, self.workspace, force=force, expected=expected)

    def recent_runs(self, limit: int = 20) -> list[RunEntry]:
        """The workspace's newest runs, from the window and ``exec`` alike, oldest first."""
        from ..store.history import recent_runs

        if self.state is None or self.state.store is None:
            return []
        return recent_runs(self.state.store, limit)

    def stored_runs(self) -> list[StoredRun]:
        """Every kept run of the workspace, oldest first, with its batch's undo state."""
        from ..store.history import stored_runs

        if self.state is None or self.state.store is None:
            return []
        return stored_runs(self.state.store)

    def run_results(self, number: int) -> str | None:
        from ..store.history import run_results

        if self.state is None or self.state.store is None:
            return None
        return run_results(self.state.store, number)

    def undo_notices(self, conversation: int) -> list[Result]:
        """The undo notices of ``conversation`` not yet delivered, as the results that
        will lead its next results."""
        if self.state is None:
            return []
        return [
            Result(n.id, Outcome(True, n.summary, n.details), notice=True)
            for n in self.state.undelivered_notices(conversation)
        ]
