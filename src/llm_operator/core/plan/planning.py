"""The planning half of a session: a pasted reply scanned, validated, its reads run and
its writes planned on top of each other; the held writes the user let in planned next.

Invariants:
- Nothing is written here. Writes are planned against the files as this message's
  earlier writes would leave them (``Overlay``), so two edits of one file build on each
  other.
- A read that names a path an earlier write of the same message changes is deferred
  and runs after the writes (executing.py), so it sees what was really written.
- A command naming a secret-looking file is held: it is not run or planned in
  ``prepare``; approved, a write is planned in ``open_held`` and its change decided like
  any other write.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..actions.base import ActionContext, Kind, Reveal
from ..errors import OperatorError
from ..outcome import Outcome
from ..protocol.encoder import Result, invalid_outcome
from ..protocol.paste_notes import paste_notes
from ..protocol.scanner import BlockProblem, scan
from ..protocol.validator import Command, Invalid, validate
from ..work_budget import is_not_run, reply_budget
from .answers import internal_fault
from .overlay import Overlay, related
from .run import REJECT, Decision, Pending, Run, RunItem
from .secrecy import hold
from .session_base import Progress, SessionBase


class Planning(SessionBase):
    """``prepare`` and ``open_held``."""

    def prepare(
        self, text: str, progress: Progress | None = None, conversation: int | None = None
    ) -> Run:
        """``conversation``: an MCP session's; None: the paste channel's current one."""
        scanned = scan(text)
        run = Run(scanned, [])
        run.conversation = self._pasting(run, conversation)
        run.notices.extend(paste_notes(scanned))
        if scanned.truncated:
            run.notices.append("the reply is longer than 200,000 characters; only the end was read")
        run.notices += self.take_recovery_notes()
        if self.store_problem is not None:
            run.notices.append(
                f"writes are refused: {self.store_problem.code}: {self.store_problem.message}"
            )
        overlay = Overlay(self.workspace)
        context = self._context(overlay)
        seen: dict[str, int] = {}
        total = len(scanned.items)
        with reply_budget():
            for index, item in enumerate(scanned.items):
                if progress is not None:
                    progress(index, total, "checking commands")
                run.items.append(self._prepare_item(index, item, run, seen, overlay, context))
        if progress is not None:
            progress(total, total, "ready")
        return run

    def _pasting(self, run: Run, asked: int | None) -> int | None:
        """``asked``, or the paste channel's current conversation; None (and a note) if
        it is not known."""
        from ..store.conversations import pasting

        store = self.state.store if self.state is not None else None
        return pasting(store, run.notices, asked)

    def _prepare_item(
        self,
        index: int,
        item: object,
        run: Run,
        seen: dict[str, int],
        overlay: Overlay,
        context: ActionContext,
    ) -> RunItem:
        if isinstance(item, BlockProblem):
            related = item.id
            entry = RunItem(index, related or f"error-{index + 1}", None, None)
            entry.result = Result(entry.id, invalid_outcome(item.code, item.message, related))
            return entry
        try:
            checked = validate(item)  # type: ignore[arg-type]
        except Exception as error:  # a bug in one block's checks costs that block only
            get = getattr(item, "get", lambda key: None)
            entry = RunItem(index, get("id") or f"error-{index + 1}", None, None)
            action = str(get("action") or "OPERATOR_CMD")
            entry.result = Result(entry.id, internal_fault(action, error, entry.id, quiet=True))
            return entry
        if isinstance(checked, Invalid):
            return self._invalid_item(index, checked)
        command = checked
        entry = RunItem(
            index, command.id, command.action, command.path, fingerprint=command.block.fingerprint
        )
        if self._repeat(entry, run, seen, command):
            return entry
        seen[command.id] = index
        self._plan_or_run(entry, command, overlay, context)
        return entry

    def _invalid_item(self, index: int, invalid: Invalid) -> RunItem:
        entry = RunItem(index, invalid.id or f"error-{index + 1}", None, None)
        outcome = invalid_outcome(invalid.code, invalid.message, invalid.id)
        entry.result = Result(entry.id, outcome)
        return entry

    def _repeat(self, entry: RunItem, run: Run, seen: dict[str, int], command: Command) -> bool:
        """Handle an id used before; True when ``entry`` is settled by that."""
        earlier_index = seen.get(entry.id)
        if earlier_index is not None:
            earlier = run.items[earlier_index]
            if earlier.fingerprint != entry.fingerprint:
                entry.result = self._duplicate(entry, "earlier in this reply")
            elif command.spec.kind is Kind.READ:
                entry.read_again = True  # runs again: a read has no effect to protect
            else:
                entry.repeat_of = earlier_index
            return entry.result is not None or entry.repeat_of is not None
        remembered = self._remembered(entry, run.conversation)
        if remembered is None:
            return False
        if command.spec.kind is Kind.READ and remembered.fingerprint == entry.fingerprint:
            # A read has no effect to protect: it runs again, on the files as they are now.
            entry.read_again = True
            entry.first_ran_at = remembered.at
            return False
        return self._settle_remembered(entry, remembered)

    def _plan_or_run(
        self,
        entry: RunItem,
        command: Command,
        overlay: Overlay,
        context: ActionContext,
        consented: bool = False,
    ) -> None:
        spec = command.spec
        if spec.kind is Kind.READ and (spec.runs or self._touches_pending(command, overlay)):
            entry.deferred = command  # a process runs after the reply's writes, locked
            return
        if not consented:
            held = hold(self.workspace, command, self.shows_secrets)
            if held is not None:
                # A command to run is held for its review, not for a secret: its output
                # stays in the run history.
                entry.private = not held.runs
                entry.pending = Pending(entry.index, command, reveal=held, held=True)
                if spec.kind is Kind.WRITE:
                    overlay.held.update(self._targets(command))
                return
        produced = self._guarded(command, context)
        if consented and isinstance(produced, Reveal):
            produced = produced.approved  # the user agreed to what it reveals
        if isinstance(produced, Outcome):
            if not produced.ok:
                produced = self._on_planned_content(produced, command, overlay)
            if (
                spec.kind is Kind.WRITE
                and self.state is not None
                and not is_not_run(produced.summary)
            ):
                # "Already holds this content" is a claim about the files: it is only
                # true once a crashed run's batch is known to be taken back. (A write the
                # reply's budget stopped claims nothing about them: planning it again
                # under the lock would only spend a second budget.)
                entry.gated = (command, produced)
                return
            entry.result = Result(command.id, produced)
        elif isinstance(produced, Reveal):
            entry.pending = Pending(entry.index, command, reveal=produced)
            self._asked_again(entry)
        else:
            builds_on = tuple(
                sorted(set().union(*(overlay.owners(c.path) for c in produced.changes.changes)))
            )
            for change in produced.changes.changes:
                overlay.planned[change.path] = (change.after, entry.index)
            overlay.ids[entry.index] = command.id
            from .preview import preview_change  # lazy: exec of reads never needs the diffs

            previews = tuple(preview_change(change) for change in produced.changes.changes)
            entry.pending = Pending(
                entry.index, command, plan=produced, builds_on=builds_on, previews=previews
            )
            self._asked_again(entry)

    def _asked_again(self, entry: RunItem) -> None:
        """Mark a pending command the user rejected before (same id and content); its
        review says so (a note of the plan: the review shows a plan's notes)."""
        from ..store.rejections import earlier_rejection

        store = self.state.store if self.state is not None else None
        found = earlier_rejection(store, entry.id, entry.fingerprint)
        if found is None or entry.pending is None:
            return

        entry.rejected_before = found
        plan = entry.pending.plan
        if plan is not None:
            plan = replace(plan, notes=(*plan.notes, found.describe()))
        entry.pending = replace(entry.pending, plan=plan, rejected_before=found)

    def _targets(self, command: Command) -> set[str]:
        """The files ``command`` names (path and destination), resolved; none that fail."""
        found = set()
        for name in ("path", "dest_path"):
            value = getattr(command.fields, name, None)
            if isinstance(value, str):
                try:
                    found.add(self.workspace.relative(self.workspace.resolve(value)))
                except OperatorError:
                    continue
        return found

    def open_held(self, run: Run, decisions: dict[int, Decision]) -> list[Pending]:
        """Plan the held writes the user approved (``decisions`` of ``run.pending``), in
        message order, each on top of the earlier writes of the reply; returns their new
        pending items (the change to approve), which replace the held ones in ``run``.
        Their approvals are taken out of ``decisions``: a change needs its own, given
        seeing it, or it is rejected.
        A plan that fails, or has nothing to change, is that command's result, sent whole
        (the user agreed to what it says of the file). Held reads wait for ``execute``."""
        overlay = Overlay(self.workspace)
        context = self._context(overlay)
        shown: list[Pending] = []
        for item in run.items:
            pending = item.pending
            if pending is None:
                continue
            if pending.plan is not None:
                for change in pending.plan.changes.changes:
                    overlay.planned[change.path] = (change.after, item.index)
                overlay.ids[item.index] = pending.id
            elif (
                pending.held
                and pending.command.spec.kind is Kind.WRITE
                and pending.command.spec.review is None  # runs in execute, under the lock
                and decisions.get(item.index, REJECT).approved
            ):
                item.pending = None
                del decisions[item.index]
                self._plan_or_run(item, pending.command, overlay, context, consented=True)
                if item.pending is not None:
                    shown.append(item.pending)
        return shown

    def _on_planned_content(self, outcome: Outcome, command: Command, overlay: Overlay) -> Outcome:
        """A failure checked against what earlier, not yet approved writes of this reply
        would leave says so: the file on disk may still hold what the message says is
        missing, and those writes may yet be rejected."""
        if not overlay.planned or command.path is None:
            return outcome
        from ..protocol.primer import ERROR_GROUPS, READ_AGAIN

        code = re.search(r"\((ERR_[A-Z_]+)\)", outcome.summary)
        if code is None or code.group(1) not in ERROR_GROUPS[READ_AGAIN]:
            return outcome  # a fault of the command itself, whatever the file holds
        try:
            rel = self.workspace.relative(self.workspace.resolve(command.path))
        except OperatorError:
            return outcome
        owners = sorted(
            {index for path, (_, index) in overlay.planned.items() if related(rel, path)}
        )
        if not owners:
            return outcome
        names = ", ".join(overlay.ids.get(index, "?") for index in owners)
        note = (
            f" [checked against {rel} as the earlier write(s) {names} of this reply would "
            "leave it, not as it is on disk now]"
        )
        return replace(outcome, summary=outcome.summary + note)

    def _touches_pending(self, command: Command, overlay: Overlay) -> bool:
        if not (overlay.planned or overlay.held) or command.path is None:
            return False
        try:
            rel = self.workspace.relative(self.workspace.resolve(command.path))
        except OperatorError:
            return False
        return any(related(rel, planned) for planned in [*overlay.planned, *overlay.held])
