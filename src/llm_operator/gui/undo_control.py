"""Undo last batch: ask, undo in a worker, show the report; and the journal's state."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.store.journal import BatchInfo
    from .main_window import MainWindow


class UndoControl:
    """Shares the command line's journal (``session.undo_last``), so either can undo."""

    def __init__(self, window: MainWindow) -> None:
        self._window = window

    def undo_last_batch(self) -> None:
        window = self._window
        if window.session is None or window.flow.busy:
            return
        found = self._batches()
        if found is None:
            return  # the status bar already says the journal is unreadable
        batches = [batch for batch in found if not batch.undone]
        if not batches:
            window.statusBar().showMessage("Nothing to undo.", 5000)
            return
        from .panes.history import UndoQuestion

        if UndoQuestion.ask(window, batches[-1].label):
            window.flow.undo(window.session)
            window.update_run_state()

    def on_undone(self, report: object) -> None:
        window = self._window
        summary = str(getattr(report, "summary", report))
        problems = list(getattr(report, "problems", ()))
        text = "\n".join(["Undo report (not for the chat):", summary, *problems])
        window.results.show_error(text)
        window.results.status.setText("Undo had problems." if problems else "Undo finished.")
        window.statusBar().showMessage(summary)
        from .panes.history import RunRecord

        window.history.add(RunRecord("undo", text))
        window.finish([])

    def _batches(self) -> list[BatchInfo] | None:
        """The journal's batches, None when unreadable: that costs the undo, not the window."""
        window = self._window
        if window.session is None:
            return []
        try:
            return window.session.journal.batches()
        except Exception as error:
            window.history.set_journal(f"Undo journal unreadable: {error}", False)
            window.statusBar().showMessage(f"Undo journal unreadable: {error}", 10000)
            return None

    def refresh(self) -> None:
        history = self._window.history
        if self._window.session is None:
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
