"""What both halves of a session hold: the workspace, its state store and memory, and the
running of one command with its secrets guarded (planning.py and executing.py build on it).

Invariants:
- A bug in one command costs that command only (``_guarded`` answers ERR_INTERNAL).
- A command's memory that cannot be read counts as none while planning, and refuses the
  write under the lock (``_remembered(strict=True)``): a command never runs twice because
  its memory could not be read.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..actions.base import ActionContext, OutlineMemo, Plan, Reveal
from ..errors import OperatorError
from ..outcome import Outcome
from ..protocol.encoder import Result, failure_outcome, invalid_outcome
from ..protocol.validator import Command
from ..store.database import StoreError
from ..store.memory import Remembered, SessionMemory
from ..store.state import workspace_state_dir
from ..store.workspace import Workspace
from ..store.workspace_state import WorkspaceState
from ..work_budget import charge_details, not_run
from .answers import as_repeat, internal_fault
from .overlay import KeptOutlines, Overlay
from .run import RunItem
from .secrecy import guard_failure, guard_result, secret_paths

if TYPE_CHECKING:
    from ..store.journal import Journal

Progress = Callable[[int, int, str], None]


class SessionBase:
    """The workspace and its state; running one command guarded."""

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
        return KeptOutlines(self.state.store)

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
            note = as_repeat(remembered.outcome, remembered.at)
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
            return internal_fault(command.action, error, command.id, self._quiet(command))

    def _context(self, overlay: Overlay) -> ActionContext:
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
