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
    start_undo: Callable[[Session], None]  # runs the undo in a worker; reports via on_undone
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

        if UndoQuestion.ask(self._parent, batches[-1].label):
            hooks.start_undo(session)
            hooks.run_state_changed()

    def on_undone(self, report: object) -> None:
        summary = str(getattr(report, "summary", report))
        problems = list(getattr(report, "problems", ()))
        text = "\n".join(["Undo report (not for the chat):", summary, *problems])
        self._results.show_error(text)
        self._results.status.setText("Undo had problems." if problems else "Undo finished.")
        self._hooks.show_status(summary, 0)
        from .panes.history import RunRecord

        self._hooks.history().add(RunRecord("undo", text))
        self._hooks.finish([])

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
        last = open_batches[-1]
        history.set_journal(
            f"Undo journal: {len(open_batches)} batch(es); last: {last.label} "
            f"({len(last.changes)} file(s), {last.created:%Y-%m-%d %H:%M})",
            True,
        )
