"""Undo last batch: name it exactly, ask, undo in a worker, show the report."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.wording import counted
from .undo_source import BatchSummary, UndoSource

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from ..core.plan.session import Session
    from ..core.store.journal import UndoReport
    from ..core.store.notices import UndoNotice


@dataclass(frozen=True)
class UndoHooks:
    """What the undo needs from the window, as narrow callables."""

    parent: QWidget
    session: Callable[[], Session | None]
    busy: Callable[[], bool]
    start_undo: Callable[[UndoSource, BatchSummary, bool], None]  # True: force
    say: Callable[[str], None]  # a status line
    show_journal: Callable[[str, bool], None]  # the history panel's undo line, can undo
    show_report: Callable[[str, bool], None]  # report text, had problems
    # Report text, the undo notice's OPERATOR_RESULT block (the copy buttons copy it) and
    # the notice; True when it went on the clipboard at once.
    offer_notice: Callable[[str, str, UndoNotice], bool] = lambda text, block, notice: False
    results_form: Callable[[], str] = lambda: "readable"  # the form results are sent in


class UndoControl:
    """Shares the command line's journal, so either can undo, and both name one batch."""

    def __init__(self, hooks: UndoHooks) -> None:
        self._hooks = hooks
        self._expected: tuple[UndoSource, BatchSummary] | None = None

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
            self._expected = (source, newest)
            hooks.start_undo(source, newest, False)

    def report_text(self, report: UndoReport) -> str:
        lines = ["Undo report (not for the chat):", report.summary]
        lines += [f"restored {path}" for path in report.restored]
        lines += [f"removed {path}" for path in report.removed]
        lines += list(report.problems)
        return "\n".join(lines)

    def on_undone(self, report: UndoReport) -> None:
        problems = bool(report.problems) or report.refused
        self._hooks.show_report(self.report_text(report), problems)
        copied = False
        if report.notice is not None:
            block = _notice_block(report, self._hooks.results_form())
            copied = self._hooks.offer_notice(self.report_text(report), block, report.notice)
        said = report.summary
        if copied:
            said = (
                said.rstrip(".") + ". Undo notice copied to the clipboard: paste it into the "
                "chat (the next results begin with it too)."
            )
        self._hooks.say(said)
        expected, self._expected = self._expected, None
        if report.conflicts and expected is not None and not self._hooks.busy():
            from .panes.history import ForceUndoQuestion

            # The second confirmation: the user sees exactly which later edits are lost.
            if ForceUndoQuestion.ask(self._hooks.parent, report.conflicts):
                self._hooks.start_undo(*expected, True)

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
            "Undo (Ctrl+Alt+Z) undoes the newest of "
            f"{counted(newest.open_batches, 'batch', 'batches')}: "
            f"{newest.short()}",
            True,
        )


def _notice_block(report: UndoReport, form: str = "readable") -> str:
    """The undo notice as the OPERATOR_RESULT block the next copied results begin with."""
    from ..core.outcome import Outcome
    from ..core.protocol.encoder import Result, ResultForm, encode_results

    notice = report.notice
    assert notice is not None
    outcome = Outcome(True, notice.summary, notice.details)
    return encode_results([Result(notice.id, outcome, notice=True)], ResultForm(form))
