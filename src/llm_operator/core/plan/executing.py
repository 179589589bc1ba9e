"""The applying half of a session: the approved plans written in one batch under the
workspace's write lock, deferred reads run after them, every item given its result.

Invariants:
- A change planned on top of an earlier command of the reply that was not applied is
  refused (ERR_STALE_FILE), as is a plan whose file no longer holds the bytes it was
  planned on (the store's apply step).
- A write that changes nothing is answered only under the lock, after the recovery of a
  crashed run: never ok against bytes a recovery would still take back.
- When the batch cannot be committed, the files written are taken back, and each result
  says what happened to its own files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..actions import get_spec
from ..actions.base import Kind, Plan, Reveal
from ..errors import OperatorError
from ..outcome import Outcome
from ..protocol.encoder import Result, failure_outcome
from ..protocol.validator import Command
from ..store.database import StoreError
from ..work_budget import reply_budget
from .answers import as_repeat, decided, internal_fault, with_notes
from .batch_writer import BatchWriter, taken_back, with_warning
from .overlay import Overlay
from .run import REJECT, Decision, Pending, Run, RunItem, rejected_by_user
from .secrecy import hold
from .session_base import Progress, SessionBase

WAITING = "waiting for another run on this workspace"


class Executing(SessionBase):
    """``execute``."""

    def execute(
        self,
        run: Run,
        decisions: Mapping[int, Decision],
        progress: Progress | None = None,
    ) -> list[Result]:
        """Apply the approved plans and finish every item; unknown decisions reject.

        Returns the run's results, after the undo notices not yet delivered (the results
        the user copies begin with them).
        """
        if run.executed:
            raise RuntimeError("a run is executed once")
        if any(
            p.held
            and p.command.spec.kind is Kind.WRITE
            and p.command.spec.review is None
            and decisions.get(p.index, REJECT).approved
            for p in run.pending
        ):
            # Its change was never planned, so never shown: nothing of it may land.
            raise RuntimeError("approved held writes are planned by open_held first")
        run.executed = True
        # The label names the commands the batch holds: the approved writes only.
        ids = [
            p.id
            for p in run.pending
            if p.plan is not None and decisions.get(p.index, REJECT).approved
        ]
        label = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")

        def waiting() -> None:
            if self.on_wait is not None:
                self.on_wait()
            if progress is not None:
                progress(0, len(run.items), WAITING)

        writer = BatchWriter(self.state, label, waiting, run.conversation)
        try:
            with reply_budget():
                self._execute_items(run, decisions, writer, progress)
            results = self._commit(run, writer)
        finally:
            writer.release()
        self._keep_rejections(run, decisions)
        return results

    def _keep_rejections(self, run: Run, decisions: Mapping[int, Decision]) -> None:
        """Remember the commands the user rejected in ``run`` (a later run asks them again
        saying so); forget those that now ran ok."""
        store = self.state.store if self.state is not None else None
        if store is None:
            return
        from ..store.rejections import update

        rejected: list[tuple[str, str, str]] = []
        done: list[str] = []
        for item in run.items:
            if item.result is None or item.result.repeat or not item.fingerprint:
                continue
            if rejected_by_user(item, decisions):
                decision = decisions.get(item.index)
                rejected.append((item.id, item.fingerprint, decision.reason if decision else ""))
            elif item.result.ok:
                done.append(item.id)
        try:
            update(store, rejected, done)
        except StoreError:
            return  # only the "rejected before" note of a later run is lost

    def _execute_items(
        self,
        run: Run,
        decisions: Mapping[int, Decision],
        writer: BatchWriter,
        progress: Progress | None,
    ) -> None:
        applied: set[int] = set()
        total = len(run.items)
        for item in run.items:
            if progress is not None:
                progress(item.index, total, f"{item.action or 'command'} {item.id}")
            wrote = False
            if item.pending is not None:
                decision = decisions.get(item.index, REJECT)
                if item.pending.held and decision.approved:
                    item.result = Result(item.id, self._held_approved(item.pending, writer))
                elif item.pending.plan is not None and decision.approved:
                    item.result = self._apply(item, writer, applied, decision)
                    wrote = item.index in applied
                else:
                    item.result = Result(item.id, decided(item.pending, decision))
            elif item.deferred is not None:
                item.result = Result(item.id, self._deferred_locked(item.deferred, writer))
            elif item.gated is not None:
                item.result = self._run_gated(item, *item.gated, writer)
            elif item.repeat_of is not None:
                first = run.items[item.repeat_of].result
                assert first is not None
                item.result = Result(item.id, as_repeat(first.outcome), repeat=True)
            asked = item.pending is not None and not decisions.get(item.index, REJECT).approved
            if item.read_again and item.result is not None and not asked:  # it ran again
                outcome = as_repeat(item.result.outcome, item.first_ran_at, read=True)
                item.result = Result(item.id, outcome)
            if item.result is not None and not item.result.repeat and item.action:
                private = item.private or (
                    item.pending is not None and item.pending.reveal is not None
                )
                read = get_spec(item.action).kind is Kind.READ
                writer.remember(
                    item.id, item.fingerprint, item.result.outcome, private, wrote, read
                )
        if progress is not None:
            progress(total, total, "done")

    def _commit(self, run: Run, writer: BatchWriter) -> list[Result]:
        notices = (
            self.state.undelivered_notices(run.conversation) if self.state and run.items else []
        )
        notice_results = [
            Result(n.id, Outcome(True, n.summary, n.details), notice=True) for n in notices
        ]
        private = frozenset(
            item.id
            for item in run.items
            if item.id
            and (
                item.private
                or (
                    item.pending is not None
                    and item.pending.reveal is not None
                    and not item.pending.reveal.runs
                )
            )
        )
        error = writer.commit(notice_results + run.results, notices, private)
        if error is not None and writer.written:
            restored, left = writer.take_back(error)
            for index in writer.written:
                item = run.items[index]
                assert item.result is not None
                pending = item.pending
                paths = {c.path for c in pending.changes} if pending is not None else set()
                # Each result says what happened to its own files: taken back only when
                # every one of them was restored.
                if left and not (paths and paths <= restored):
                    item.result = Result(item.id, with_warning(item.result.outcome, error, left))
                else:
                    outcome = taken_back(item.action or "command", item.id, error)
                    item.result = Result(item.id, outcome)
        run.notice_results = notice_results
        return notice_results + run.results

    def _apply(
        self, item: RunItem, writer: BatchWriter, applied: set[int], decision: Decision
    ) -> Result:
        from ..store.applying import apply_changeset
        from ..store.atomic import watching_folder_syncs
        from .durability import unsynced_warning
        from .outside_merge import explain_stale, merged_plan, previews_after
        from .person_edit import edited_plan, withheld_paths

        merged, edited = decision.merged, decision.edited
        withheld: frozenset[str] = frozenset()
        pending = item.pending
        assert pending is not None
        plan = pending.plan
        assert plan is not None
        missing = [i for i in pending.builds_on if i not in applied]
        try:
            if missing:
                raise OperatorError(
                    "ERR_STALE_FILE",
                    "this change was planned on top of an earlier command of the same reply "
                    "that was not applied; read the file again and resend",
                )
            recorder = writer.begin_write()
            if recorder is not None:
                # Under the lock: a run this one waited for may have done it already.
                remembered = self._remembered(item, writer.conversation, strict=True)
                if remembered is not None and self._settle_remembered(item, remembered):
                    assert item.result is not None
                    return item.result
                recorder.begin_command(pending.id, pending.action)
            elif self.store_problem is not None:
                raise self.store_problem
            if merged:  # under the lock: the file as it is right before the write
                plan = merged_plan(self.workspace, plan, merged)
            if edited:  # the person's text, checked against the change they edited
                withheld = withheld_paths(edited, self._looks_secret)
                plan = edited_plan(plan, edited, withheld)
            with watching_folder_syncs() as unsynced:
                notes = apply_changeset(self.workspace, plan.changes, recorder)
        except OperatorError as error:
            error = explain_stale(self.workspace, pending.command, plan.changes.changes, error)
            return Result(pending.id, failure_outcome(pending.action, error, pending.id))
        except Exception as error:
            return Result(pending.id, internal_fault(pending.action, error, pending.id))
        applied.add(pending.index)
        writer.wrote(pending.index)
        if merged or edited:  # the history shows what landed: the merged or edited change
            assert pending.plan is not None
            shown = previews_after(pending.previews, pending.plan, plan)
            item.pending = replace(pending, plan=plan, previews=shown)
        from .landed import with_landed

        landed = with_landed(plan.outcome, plan.changes, withheld)
        return Result(pending.id, unsynced_warning(with_notes(landed, notes), unsynced))

    def _looks_secret(self, path: str) -> bool:
        return self.workspace.is_secret(path) or self.workspace.secret_match(path) is not None

    def _held_approved(self, pending: Pending, writer: BatchWriter) -> Outcome:
        """A held command the user approved; one that runs a process (``spec.review``)
        runs under the write lock, so never while a batch writes."""
        refused = _not_locked(pending.command, writer)
        return refused if refused is not None else self._run_approved(pending.command)

    def _deferred_locked(self, command: Command, writer: BatchWriter) -> Outcome:
        """A deferred read; one that runs a process (run.check) runs under the write lock."""
        refused = _not_locked(command, writer)
        return refused if refused is not None else self._run_deferred(command)

    def _run_approved(self, command: Command) -> Outcome:
        """A held read the user approved: run now, its result (or failure) sent whole."""
        context = self._context(Overlay(self.workspace))
        produced = self._guarded(command, context)
        if isinstance(produced, Reveal):
            return produced.approved
        if isinstance(produced, Plan):  # no read plans; never sent unseen all the same
            raise RuntimeError(f"{command.action} planned a change as a read")
        return produced

    def _run_gated(
        self, item: RunItem, command: Command, planned: Outcome, writer: BatchWriter
    ) -> Result:
        """A write that changes nothing, answered only under the write lock, after the
        recovery of a crashed run and the store check: never ok against bytes a
        recovery would still take back, and never remembered when the store is unusable."""
        try:
            writer.hold()
            remembered = self._remembered(item, writer.conversation, strict=True)
            if remembered is not None and self._settle_remembered(item, remembered):
                assert item.result is not None
                return item.result
        except OperatorError as error:
            return Result(command.id, failure_outcome(command.action, error, command.id))
        context = self._context(Overlay(self.workspace))
        produced = self._guarded(command, context)
        if isinstance(produced, Outcome):
            return Result(command.id, produced)
        if not planned.ok:
            # What was found when it was checked (it now needs a change, or consent to
            # show what it quotes: either way not something to do unasked).
            return Result(command.id, planned)
        stale = OperatorError(
            "ERR_STALE_FILE",
            "the file changed on disk just before this command was answered (or an earlier "
            "command of the reply that it builds on was not applied), so it would change "
            "the file now and the user did not see that change; nothing was written. Read "
            "it again and resend",
        )
        return Result(command.id, failure_outcome(command.action, stale, command.id))

    def _run_deferred(self, command: Command) -> Outcome:
        context = self._context(Overlay(self.workspace))
        # A secret-looking file is not even opened: the answer depends on its path alone.
        produced = hold(self.workspace, command) or self._guarded(command, context)
        if isinstance(produced, Reveal):
            if produced.rejected is not None:
                return produced.rejected
            # The user was never asked, so this is not their rejection.
            return failure_outcome(
                command.action,
                OperatorError(
                    "ERR_SECRET_READ_NOT_ASKED",
                    "this reads a secret-looking file after a write of the same reply, so "
                    "the app did not ask the user and sent nothing; send the read again in "
                    "a new message",
                ),
                command.id,
            )
        assert isinstance(produced, Outcome)
        return produced


def _not_locked(command: Command, writer: BatchWriter) -> Outcome | None:
    """For a command that runs a process, the write lock taken (None), or the failure that
    answers it when the lock cannot be had; None for any other command."""
    if not command.spec.runs:
        return None
    try:
        writer.hold()
    except OperatorError as error:
        return failure_outcome(command.action, error, command.id)
    return None
