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

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..actions import get_spec
from ..actions.base import ActionContext, FileSource, Kind, OutlineMemo, Plan, Reveal
from ..errors import OperatorError
from ..outcome import Outcome
from ..protocol.encoder import Result, failure_outcome, invalid_outcome, rejected_outcome
from ..protocol.paste_notes import paste_notes
from ..protocol.scanner import BlockProblem, scan
from ..protocol.validator import Command, Invalid, validate
from ..store.database import StateStore, StoreError
from ..store.memory import Remembered, SessionMemory
from ..store.state import workspace_state_dir
from ..store.workspace import Workspace
from ..store.workspace_state import WorkspaceState
from ..work_budget import charge_details, is_not_run, not_run, reply_budget
from .batch_writer import BatchWriter, taken_back, with_warning
from .run import REJECT, Decision, Pending, Run, RunItem, rejected_by_user
from .secrecy import guard_failure, guard_result, hold, secret_paths

if TYPE_CHECKING:
    from ..store.history import RunEntry, StoredRun
    from ..store.journal import Journal
    from ..store.undoing import UndoReport
    from .outside_merge import ShownMerge

Progress = Callable[[int, int, str], None]
WAITING = "waiting for another run on this workspace"


class _Overlay(FileSource):
    """Files as the pending writes of this message would leave them."""

    def __init__(self, workspace: Workspace) -> None:
        self._workspace = workspace
        self.planned: dict[str, tuple[bytes | None, int]] = {}
        self.ids: dict[int, str] = {}  # index of a pending item -> its command id
        self.held: set[str] = set()  # files that held writes (not planned yet) may change

    def read(self, rel: str) -> bytes | None:
        if rel in self.planned:
            return self.planned[rel][0]
        from ..store.files import read_if_file

        return read_if_file(self._workspace, rel)

    def plans_folder(self, rel: str) -> bool:
        prefix = rel.rstrip("/") + "/"
        return any(
            path.startswith(prefix) and after is not None
            for path, (after, _) in self.planned.items()
        )

    def owners(self, rel: str) -> set[int]:
        """The earlier pending items whose planned changes are at ``rel`` or inside it."""
        prefix = rel.rstrip("/") + "/"
        return {
            index
            for path, (_, index) in self.planned.items()
            if path == rel or path.startswith(prefix)
        }


def _related(a: str, b: str) -> bool:
    if a == "." or b == "." or a == b:
        return True
    return a.startswith(b + "/") or b.startswith(a + "/")


class _KeptOutlines:
    """The state store's outlines, its module loaded on first use (a run that outlines
    nothing, most runs, never loads it)."""

    def __init__(self, store: StateStore) -> None:
        self._store = store
        self._memo: OutlineMemo | None = None

    def _kept(self) -> OutlineMemo:
        if self._memo is None:
            from ..store.outline_cache import StoredOutlines

            self._memo = StoredOutlines(self._store)
        return self._memo

    def get(self, key: str) -> tuple[list[str], str] | None:
        return self._kept().get(key)

    def put(self, key: str, made: tuple[list[str], str]) -> None:
        self._kept().put(key, made)

    def flush(self) -> None:
        if self._memo is not None:
            self._memo.flush()


class Session:
    def __init__(
        self,
        workspace: Workspace,
        state_dir: Path | None,
    ) -> None:
        self._state_dir = state_dir
        self.workspace = workspace
        self.state_folder = (
            workspace_state_dir(state_dir, workspace.root) if state_dir is not None else None
        )
        self.state = (
            WorkspaceState(self.state_folder, workspace) if self.state_folder is not None else None
        )
        self.memory = self.state.memory if self.state is not None else SessionMemory(None)
        # Called (from the thread running ``execute`` or ``undo_last``) when another run
        # holds the workspace's write lock and this one starts to wait for it.
        self.on_wait: Callable[[], None] | None = None
        # A person reviews this session's runs (a window, a terminal prompt): a held read
        # of a secret-looking file then carries its size and first lines for them
        # (``Reveal.preview``). Off, such a file is not even opened before approval.
        self.shows_secrets = False

    @property
    def workspace(self) -> Workspace:
        return self._workspace

    @workspace.setter
    def workspace(self, workspace: Workspace) -> None:
        # The app's own state folder, when it lies in the workspace, is protected like .git:
        # a command deleting it would lose the undo journal and the memory of what ran.
        if self._state_dir is not None:
            workspace = workspace.with_app_state(self._state_dir)
        self._workspace = workspace

    @property
    def state_dir(self) -> Path | None:
        """The app's state folder (holding every workspace's), as given."""
        return self._state_dir

    @property
    def journal(self) -> Journal:
        if self.state is None:
            raise OperatorError("ERR_NO_STATE_DIR", "this session keeps no undo journal")
        return self.state.journal

    @property
    def store_problem(self) -> StoreError | None:
        """Why the state store cannot be used (writes are refused), or None."""
        return self.state.problem if self.state is not None else None

    def outline_memo(self) -> OutlineMemo | None:
        """Where outlines are kept between runs: the state store, when there is one."""
        if self.state is None or self.state.store is None:
            return None
        return _KeptOutlines(self.state.store)

    def take_recovery_notes(self) -> list[str]:
        """What recovering a crashed run changed since the last call, for people to read."""
        if self.state is None:
            return []
        self.state.finished_undos.clear()  # told here: no later undo answers with them
        # A batch left open that touched nothing (its run took its files back itself, or
        # died before the first file) is forgotten quietly: "taken back: 0 path(s)" would
        # tell of a rollback that did not happen.
        return [
            found.describe()
            for found in self.state.take_recovered()
            if found.rewound or found.left_alone or found.problems
        ]

    # -- prepare -----------------------------------------------------------------

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
        overlay = _Overlay(self.workspace)
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
        overlay: _Overlay,
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
            entry.result = Result(entry.id, _internal(action, error, entry.id, quiet=True))
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

    def _remembered(
        self, entry: RunItem, conversation: int | None, strict: bool = False
    ) -> Remembered | None:
        """The memory of ``entry``'s id in ``conversation``. Unreadable memory counts as
        none for planning (``strict`` False); before a write (``strict``) it refuses the
        write instead, so a command can never run twice because its memory could not be
        read."""
        try:
            return self.memory.lookup(entry.id, conversation)
        except StoreError:
            if strict:
                raise
            return None

    def _settle_remembered(self, entry: RunItem, remembered: Remembered) -> bool:
        if remembered.fingerprint == entry.fingerprint:
            note = _as_repeat(remembered.outcome, remembered.at)
            entry.first_ran_at = remembered.at
            entry.result = Result(entry.id, note, repeat=True)
        else:
            entry.result = self._duplicate(entry, "by an earlier message of this conversation")
        return True

    def _duplicate(self, entry: RunItem, where: str) -> Result:
        message = (
            f"id {entry.id!r} was already used {where} for a different command; give every "
            "command a new id"
        )
        return Result(entry.id, invalid_outcome("ERR_DUPLICATE_ID", message, entry.id))

    def _plan_or_run(
        self,
        entry: RunItem,
        command: Command,
        overlay: _Overlay,
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
                entry.private = True
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
        from dataclasses import replace

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
        overlay = _Overlay(self.workspace)
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

    def _on_planned_content(self, outcome: Outcome, command: Command, overlay: _Overlay) -> Outcome:
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
            {index for path, (_, index) in overlay.planned.items() if _related(rel, path)}
        )
        if not owners:
            return outcome
        names = ", ".join(overlay.ids.get(index, "?") for index in owners)
        note = (
            f" [checked against {rel} as the earlier write(s) {names} of this reply would "
            "leave it, not as it is on disk now]"
        )
        return replace(outcome, summary=outcome.summary + note)

    def _guarded(self, command: Command, context: ActionContext) -> Outcome | Reveal | Plan:
        """Run ``command``; what it would reveal of secret-looking files waits for consent
        (``secrecy``). A bug costs this one command, never the run."""
        from ..store.files import recording_reads

        refused = not_run()  # the reply's work budget is spent: not run at all
        if refused is not None:
            return failure_outcome(command.action, refused, command.id)
        try:
            with recording_reads() as opened:
                try:
                    produced = command.spec.execute(context, command.fields)
                except OperatorError as error:
                    return guard_failure(self.workspace, command, error, opened)
            guarded = guard_result(self.workspace, command, produced, opened)
            shown = guarded.approved if isinstance(guarded, Reveal) else guarded
            if isinstance(shown, Outcome):
                charge_details(len(shown.details or ""))
            return guarded
        except Exception as error:
            return _internal(command.action, error, command.id, self._quiet(command))

    def _context(self, overlay: _Overlay) -> ActionContext:
        checks = None
        if self.state is not None and self.state.store is not None:
            from ..store.checks import list_checks

            store = self.state.store
            checks = lambda: list_checks(store)  # noqa: E731 - read only when asked
        return ActionContext(self.workspace, overlay, self.outline_memo(), checks)

    def _quiet(self, command: Command) -> bool:
        """Whether a fault's own text must stay out of the result (a secret-looking file)."""
        try:
            return bool(secret_paths(self.workspace, command))
        except Exception:
            return True

    def _touches_pending(self, command: Command, overlay: _Overlay) -> bool:
        if not (overlay.planned or overlay.held) or command.path is None:
            return False
        try:
            rel = self.workspace.relative(self.workspace.resolve(command.path))
        except OperatorError:
            return False
        return any(_related(rel, planned) for planned in [*overlay.planned, *overlay.held])

    # -- execute -----------------------------------------------------------------

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
                    item.result = self._apply(item, writer, applied, decision.merged)
                    wrote = item.index in applied
                else:
                    item.result = Result(item.id, _decided(item.pending, decision))
            elif item.deferred is not None:
                item.result = Result(item.id, self._deferred_locked(item.deferred, writer))
            elif item.gated is not None:
                item.result = self._run_gated(item, *item.gated, writer)
            elif item.repeat_of is not None:
                first = run.items[item.repeat_of].result
                assert first is not None
                item.result = Result(item.id, _as_repeat(first.outcome), repeat=True)
            asked = item.pending is not None and not decisions.get(item.index, REJECT).approved
            if item.read_again and item.result is not None and not asked:  # it ran again
                outcome = _as_repeat(item.result.outcome, item.first_ran_at, read=True)
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
            and (item.private or (item.pending is not None and item.pending.reveal is not None))
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
        self, item: RunItem, writer: BatchWriter, applied: set[int], merged: tuple[ShownMerge, ...]
    ) -> Result:
        from ..store.applying import apply_changeset
        from ..store.atomic import watching_folder_syncs
        from .durability import unsynced_warning
        from .outside_merge import explain_stale, merged_plan, previews_after

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
            with watching_folder_syncs() as unsynced:
                notes = apply_changeset(self.workspace, plan.changes, recorder)
        except OperatorError as error:
            error = explain_stale(self.workspace, pending.command, plan.changes.changes, error)
            return Result(pending.id, failure_outcome(pending.action, error, pending.id))
        except Exception as error:
            return Result(pending.id, _internal(pending.action, error, pending.id))
        applied.add(pending.index)
        writer.wrote(pending.index)
        if merged:  # the history shows what landed: the merged change
            assert pending.plan is not None
            shown = previews_after(pending.previews, pending.plan, plan)
            item.pending = replace(pending, plan=plan, previews=shown)
        from .landed import with_landed

        landed = with_landed(plan.outcome, plan.changes)
        return Result(pending.id, unsynced_warning(_with_notes(landed, notes), unsynced))

    def _held_approved(self, pending: Pending, writer: BatchWriter) -> Outcome:
        """A held command the user approved; one that runs a process (``spec.review``)
        runs under the write lock, so never while a batch writes."""
        command = pending.command
        if command.spec.runs:
            try:
                writer.hold()
            except OperatorError as error:
                return failure_outcome(command.action, error, command.id)
        return self._run_approved(command)

    def _deferred_locked(self, command: Command, writer: BatchWriter) -> Outcome:
        """A deferred read; one that runs a process (run.check) runs under the write lock."""
        if command.spec.runs:
            try:
                writer.hold()
            except OperatorError as error:
                return failure_outcome(command.action, error, command.id)
        return self._run_deferred(command)

    def _run_approved(self, command: Command) -> Outcome:
        """A held read the user approved: run now, its result (or failure) sent whole."""
        context = self._context(_Overlay(self.workspace))
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
        context = self._context(_Overlay(self.workspace))
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
        context = self._context(_Overlay(self.workspace))
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


def _decided(pending: Pending, decision: Decision) -> Outcome:
    if pending.reveal is not None:
        if decision.approved:
            return pending.reveal.approved
        if pending.reveal.rejected is not None:
            return pending.reveal.rejected
    return rejected_outcome(pending.action, decision.reason)


def _with_notes(outcome: Outcome, notes: tuple[str, ...] | None) -> Outcome:
    """Where the apply step learnt something the plan could not know (a trash folder
    inside the workspace), the summary says it."""
    if not notes:
        return outcome
    summary = outcome.summary
    for note in notes:
        if "moved to the trash)" in summary:
            summary = summary.replace("moved to the trash)", f"moved to {note})", 1)
        else:
            summary = f"{summary.rstrip('.')} (moved to {note})"
    return Outcome(outcome.ok, summary, outcome.details)


def _as_repeat(outcome: Outcome, at: float | None = None, read: bool = False) -> Outcome:
    when = "earlier in this reply"
    if at is not None:
        from datetime import datetime, timezone  # lazy: only a repeat shows a time

        when = "at " + datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    what = (
        "a read runs again, so this is what the files hold now"
        if read
        else "not run again. Use a new id to run it again"
    )
    note = f" [repeat: this id already ran {when} with identical content; {what}]"
    return replace(outcome, summary=outcome.summary + note)


def _internal(action: str, error: Exception, command_id: str, quiet: bool = False) -> Outcome:
    if isinstance(error, OSError):
        # An operating-system fault is not a fault of the app: name it, without its
        # absolute file name.
        from ..store.oserrors import named_os_error

        return failure_outcome(action, named_os_error(error, "", "use"), command_id)
    said = "" if quiet else f": {error}"  # a fault's text may quote a secret-looking file
    wrapped = OperatorError(
        "ERR_INTERNAL", f"unexpected {type(error).__name__}{said}; nothing was written"
    )
    return failure_outcome(action, wrapped, command_id)
