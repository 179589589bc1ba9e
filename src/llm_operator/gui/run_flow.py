"""One run of a pasted reply: prepare in a worker, decide on the main thread, execute in a
worker. Also the undo of the last batch, which is disk work too.

Only one run or undo is in flight at a time; the window disables Run meanwhile. The
commands a run starts (run.command, run.check) are watched by the window's console
(``gui.command_console``): their output shows as it comes and Stop ends them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from .tasks import Progress, TaskFailure, TaskRunner

if TYPE_CHECKING:
    from ..core.plan.run import Decision, Pending, Run
    from ..core.plan.session import Session
    from ..core.protocol.encoder import Result
    from ..core.store.command_watch import CommandWatch
    from ..core.store.journal import UndoReport
    from .undo_source import BatchSummary, UndoSource

Decide = Callable[[list["Pending"]], dict[int, "Decision"]]


@dataclass(frozen=True)
class RunDone:
    """A finished run, as the window gets it: the run, the decisions, the results and the files
    it touched."""

    run: Run
    decisions: dict[int, Decision]
    results: list[Result]
    touched: list[str] = field(default_factory=list)  # files the run read or wrote


def touched_paths(session: Session, run: Run, decisions: dict[int, Decision]) -> list[str]:
    """Workspace-relative files this run read or wrote: the LLM has now seen them."""
    from ..core.errors import OperatorError

    seen: set[str] = set()
    for item in run.items:
        if item.pending is not None and item.pending.plan is not None:
            if decisions.get(item.index) and decisions[item.index].approved:
                seen.update(change.path for change in item.pending.changes)
            continue
        if item.path is None or item.result is None or not item.result.ok:
            continue
        try:
            real = session.workspace.resolve(item.path)
            if real.is_file():
                seen.add(session.workspace.relative(real))
        except (OperatorError, OSError):
            continue
    return sorted(seen)


class RunFlow(QObject):
    progress = Signal(int, int, str)
    finished = Signal(object)  # RunDone
    failed = Signal(str)
    undone = Signal(object)  # UndoReport

    def __init__(
        self, decide: Decide, parent: QObject | None = None, watch: CommandWatch | None = None
    ) -> None:
        super().__init__(parent)
        self._watch = watch
        self._prepare: TaskRunner[Run] = TaskRunner(self)
        self._open: TaskRunner[list[Pending]] = TaskRunner(self)
        self._execute: TaskRunner[RunDone] = TaskRunner(self)
        self._undo: TaskRunner[UndoReport] = TaskRunner(self)
        self._decide = decide
        self.busy = False

    def run(self, session: Session, text: str) -> None:
        self.busy = True
        session.shows_secrets = True  # the review shows what a secret read would send

        def prepare(progress: Progress) -> Run:
            return session.prepare(text, progress=progress).mark_words()

        self._prepare.start(
            prepare, lambda run: self._decided(session, run), self._failed, self.progress.emit
        )

    def _decided(self, session: Session, run: Run) -> None:
        try:
            decisions = self._decide(run.pending) if run.pending else {}
        except Exception as error:  # a broken dialog must not leave the window busy
            self._failed(TaskFailure(error))
            return
        let_in = [p for p in run.pending if p.held and (d := decisions.get(p.index)) and d.approved]
        if not let_in:
            self._execute_run(session, run, decisions)
            return

        # Writes on secret-looking files the user let in are planned now (disk work, in a
        # worker); their changes are then shown for approval like any other.
        def open_held(_progress: Progress) -> list[Pending]:
            shown = session.open_held(run, decisions)
            run.mark_words()  # the new previews' changed words, here in the worker
            return shown

        def shown(pending: list[Pending]) -> None:
            try:
                decisions.update(self._decide(pending) if pending else {})
            except Exception as error:
                self._failed(TaskFailure(error))
                return
            self._execute_run(session, run, decisions)

        self._open.start(open_held, shown, self._failed, self.progress.emit)

    def _execute_run(self, session: Session, run: Run, decisions: dict[int, Decision]) -> None:
        watch = self._watch

        def execute(progress: Progress) -> RunDone:
            from contextlib import nullcontext

            from ..core.store.command_watch import watching

            with nullcontext() if watch is None else watching(watch):
                results = session.execute(run, decisions, progress=progress)
            return RunDone(run, decisions, results, touched_paths(session, run, decisions))

        self._execute.start(execute, self._done, self._failed, self.progress.emit)

    def undo(self, source: UndoSource, expected: BatchSummary, force: bool = False) -> None:
        """Undo exactly ``expected`` (refused if it is no longer the newest batch);
        ``force`` overwrites files edited after it."""
        self.busy = True
        from ..core.plan.executing import WAITING

        # Another run (an exec, say) may hold the workspace's write lock: say so while waiting.
        source.on_wait(lambda: self.progress.emit(0, 1, WAITING))

        def undo(_progress: Progress) -> UndoReport:
            return source.undo(expected, force)

        self._undo.start(undo, self._undone, self._failed)

    def _done(self, done: RunDone) -> None:
        self.busy = False
        self.finished.emit(done)

    def _undone(self, report: UndoReport) -> None:
        self.busy = False
        self.progress.emit(1, 1, "done")
        self.undone.emit(report)

    def _failed(self, failure: TaskFailure) -> None:
        self.busy = False
        message = str(failure)
        code = getattr(failure.error, "code", None)
        if code:
            message = f"{code}: {getattr(failure.error, 'message', message)}"
        self.failed.emit(message)
