"""Undo last batch: ask, undo in a worker, show the report; and the journal's state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from .panes.results_pane import ResultsPane

if TYPE_CHECKING:
    from ..core.plan.session import Session
    from ..core.store.journal import BatchInfo
    from .panes.history import HistoryPanel


@dataclass(frozen=True)
class UndoHooks:
    """What undo needs of the window, as plain callables (it never sees the window)."""

    session: Callable[[], Session | None]
    busy: Callable[[], bool]
    # Runs the undo in a worker (True: overwrite later edits); reports via on_undone.
    start_undo: Callable[[Session, bool], None]
    history: Callable[[], HistoryPanel]
    show_status: Callable[[str, int], None]  # message, milliseconds (0: until replaced)
    run_state_changed: Callable[[], None]
    finish: Callable[[list[str]], None]


class UndoControl:
    """Shares the command line's journal (``session.undo_last``), so either can undo."""

    def __init__(self, parent: QWidget, results: ResultsPane, hooks: UndoHooks) -> None:
        self._parent = parent
        self._results = results
        self._hooks = hooks

    def undo_last_batch(self) -> None:
        hooks = self._hooks
        session = hooks.session()
        if session is None or hooks.busy():
            return
        found = self._batches()
        if found is None:
            return  # the status bar already says the journal is unreadable
        batches = [batch for batch in found if not batch.undone]
        if not batches:
            hooks.show_status("Nothing to undo.", 5000)
            return
        from .panes.history import UndoQuestion

        if UndoQuestion.ask(self._parent, batches[0].label):  # newest first
            hooks.start_undo(session, False)
            hooks.run_state_changed()

    def on_undone(self, report: object) -> None:
        summary = str(getattr(report, "summary", report))
        problems = list(getattr(report, "problems", ()))
        text = "\n".join(["Undo report (not for the chat):", summary, *problems])
        self._results.show_error(text)
        notice = getattr(report, "notice", None)
        if notice is not None:
            self._offer_notice(text, notice)
        self._results.status.setText("Undo had problems." if problems else "Undo finished.")
        self._hooks.show_status(summary, 0)
        from .panes.history import RunRecord

        self._hooks.history().add(RunRecord("undo", text))
        self._hooks.finish([])
        conflicts = tuple(getattr(report, "conflicts", ()))
        session = self._hooks.session()
        if conflicts and session is not None and not self._hooks.busy():
            from .panes.history import ForceUndoQuestion

            if ForceUndoQuestion.ask(self._parent, conflicts):
                self._hooks.start_undo(session, True)
                self._hooks.run_state_changed()

    def _offer_notice(self, report_text: str, notice: object) -> None:
        """Show the undo notice for the chat; Copy results copies it (the next run's results
        begin with it too, until a run delivers it)."""
        from ..core.actions.base import Outcome
        from ..core.protocol.encoder import Result, encode_results

        outcome = Outcome(
            True, str(getattr(notice, "summary", "")), getattr(notice, "details", None)
        )
        block = encode_results([Result(str(getattr(notice, "id", "undo")), outcome, notice=True)])
        self._results.offer(f"{report_text}\n\nFor the chat:\n\n{block}", (block,))

    def _batches(self) -> list[BatchInfo] | None:
        """The journal's batches, None when unreadable: that costs the undo, not the window."""
        session = self._hooks.session()
        if session is None:
            return []
        try:
            return session.journal.batches()
        except Exception as error:
            self._hooks.history().set_journal(f"Undo journal unreadable: {error}", False)
            self._hooks.show_status(f"Undo journal unreadable: {error}", 10000)
            return None

    def refresh(self) -> None:
        history = self._hooks.history()
        if self._hooks.session() is None:
            history.set_journal("Undo journal: no workspace.", False)
            return
        batches = self._batches()
        if batches is None:
            return
        open_batches = [batch for batch in batches if not batch.undone]
        if not open_batches:
            history.set_journal("Undo journal: nothing to undo.", False)
            return
        last = open_batches[0]  # newest first
        history.set_journal(
            f"Undo journal: {len(open_batches)} batch(es); last: {last.label} "
            f"({len(last.changes)} file(s), {last.created:%Y-%m-%d %H:%M})",
            True,
        )
