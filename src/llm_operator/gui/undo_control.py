"""Undo last batch: name it exactly, ask, undo in a worker, show the report."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .undo_source import BatchSummary, UndoSource

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from ..core.plan.session import Session
    from ..core.store.journal import UndoReport


@dataclass(frozen=True)
class UndoHooks:
    """What the undo needs from the window, as narrow callables."""

    parent: QWidget
    session: Callable[[], Session | None]
    busy: Callable[[], bool]
    start_undo: Callable[[UndoSource, BatchSummary], None]
    say: Callable[[str], None]  # a status line
    show_journal: Callable[[str, bool], None]  # the history panel's undo line, can undo
    show_report: Callable[[str, bool], None]  # report text, had problems


class UndoControl:
    """Shares the command line's journal, so either can undo, and both name one batch."""

    def __init__(self, hooks: UndoHooks) -> None:
        self._hooks = hooks

    def undo_last_batch(self) -> None:
        hooks = self._hooks
        session = hooks.session()
        if session is None or hooks.busy():
            return
        source = UndoSource(session)
        readable, newest = self._newest(source)
        if not readable:
            return  # the status bar already says the journal is unreadable
        if newest is None:
            hooks.say("Nothing to undo.")
            return
        from .panes.history import UndoQuestion

        if UndoQuestion.ask(hooks.parent, newest):
            hooks.start_undo(source, newest)

    def report_text(self, report: UndoReport) -> str:
        lines = ["Undo report (not for the chat):", report.summary]
        lines += [f"restored {path}" for path in report.restored]
        lines += [f"removed {path}" for path in report.removed]
        lines += list(report.problems)
        return "\n".join(lines)

    def on_undone(self, report: UndoReport) -> None:
        problems = bool(report.problems) or report.refused
        self._hooks.show_report(self.report_text(report), problems)
        self._hooks.say(report.summary)

    def _newest(self, source: UndoSource) -> tuple[bool, BatchSummary | None]:
        """(readable, the newest open batch): an unreadable journal costs the undo only."""
        try:
            return True, source.newest()
        except Exception as error:
            self._hooks.show_journal(f"Undo journal unreadable: {error}", False)
            self._hooks.say(f"Undo journal unreadable: {error}")
            return False, None

    def refresh(self) -> None:
        session = self._hooks.session()
        if session is None:
            self._hooks.show_journal("Undo: no workspace.", False)
            return
        readable, newest = self._newest(UndoSource(session))
        if not readable:
            return
        if newest is None:
            self._hooks.show_journal("Undo: nothing to undo.", False)
            return
        self._hooks.show_journal(
            f"Undo (Ctrl+Alt+Z) undoes the newest of {newest.open_batches} batch(es): "
            f"{newest.short()}",
            True,
        )
