"""The session's runs (commands, decisions, diffs, decoded results) and the undo line."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QMessageBox,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ...core.visible import shown
from ...core.wording import counted
from ..pages import Page, PageView, ResultSource, change_page, result_page
from ..plain_text import plain_question, plain_tip, set_plain
from ..row_style import RowStyle

if TYPE_CHECKING:
    from ...core.plan.session import Decision, Run, RunItem
    from ...core.protocol.encoder import Result
    from ..undo_source import BatchSummary


@dataclass(frozen=True)
class RunRecord:
    title: str
    page: Page  # commands, decisions, diffs and results, as one readable page
    when: datetime = field(default_factory=datetime.now)

    @property
    def text(self) -> str:
        return self.page.text


@dataclass(frozen=True)
class RunCounts:
    ok: int
    failed: int
    rejected: int

    def describe(self) -> str:
        total = self.ok + self.failed + self.rejected
        counts = f"{self.ok} ok, {self.failed} failed, {self.rejected} rejected"
        return f"{counted(total, 'command')}: {counts}"


def rejected_by_user(item: RunItem, decisions: dict[int, Decision]) -> bool:
    """Whether ``item``'s result is the user's rejection.

    A declined secret-looking failure is not: its result is the failure itself, sent
    without the quoted text, so it counts (and reads) as that failure.
    """
    if item.pending is None:
        return False
    decision = decisions.get(item.index)
    if decision is not None and decision.approved:
        return False
    reveal = item.pending.reveal
    return reveal is None or reveal.rejected is None


def count_run(run: Run, decisions: dict[int, Decision]) -> RunCounts:
    """A command the user rejected is rejected, not failed."""
    ok = failed = rejected = 0
    for item in run.items:
        if item.result is None:
            continue
        if rejected_by_user(item, decisions):
            rejected += 1
        elif item.result.ok:
            ok += 1
        else:
            failed += 1
    return RunCounts(ok, failed, rejected)


def sources_of(run: Run, decisions: dict[int, Decision]) -> dict[str, ResultSource]:
    sources = {}
    for item in run.items:
        sources[item.id] = ResultSource(item.action, item.path, rejected_by_user(item, decisions))
    return sources


def record_run(run: Run, decisions: dict[int, Decision], results: list[Result]) -> RunRecord:
    page = Page()
    page.add("Commands", RowStyle("heading"))
    for item in run.items:
        page.add(f"  {item.index + 1}. {item.action or '(invalid)'} {item.path or ''} id {item.id}")
    for pending in run.pending:
        decision = decisions.get(pending.index)
        verdict = "approved" if decision and decision.approved else "rejected"
        if decision and decision.reason:
            verdict += f" ({decision.reason})"
        page.add("")
        page.add(
            f"{pending.action} {pending.id}: {verdict}",
            RowStyle("title-ok" if verdict == "approved" else "title-failed"),
        )
        if pending.held and pending.reveal is not None:
            page.add(f"asked before it read the file: {pending.reveal.reason}")
        elif pending.reveal is not None:
            what = (
                "file content"
                if pending.reveal.approved.ok
                else "an error message quoting the file"
            )
            page.add(f"wanted to send {what} to the chat: {pending.reveal.reason}")
        page.extend(change_page(pending.previews))
    page.add("")
    page.add("Results", RowStyle("heading"))
    page.extend(result_page(results, sources_of(run, decisions)))
    return RunRecord(count_run(run, decisions).describe(), page)


class HistoryPanel(QWidget):
    undo_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.records: list[RunRecord] = []
        self.runs = QListWidget()
        self.runs.setObjectName("history-runs")
        self.detail = PageView()
        self.detail.setObjectName("history-detail")
        self.journal = QLabel("Undo: no batches yet.")
        self.journal.setWordWrap(True)
        self.undo_button = QPushButton("Undo a batch... (Ctrl+Alt+Z)")
        self.undo_button.setToolTip(
            "Undo the newest batch of writes; it is named before anything changes"
        )
        self.undo_button.clicked.connect(self.undo_requested)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.runs)
        split.addWidget(self.detail)
        split.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Runs in this window"))
        layout.addWidget(split, 1)
        layout.addWidget(self.journal)
        layout.addWidget(self.undo_button)
        self.runs.currentRowChanged.connect(self._show)

    def add(self, record: RunRecord) -> None:
        self.records.append(record)
        self.runs.addItem(f"{record.when:%H:%M:%S}  {shown(record.title)}")
        self.runs.setCurrentRow(self.runs.count() - 1)

    def clear(self) -> None:
        self.records.clear()
        self.runs.clear()
        self.detail.clear()

    def set_journal(self, text: str, can_undo: bool) -> None:
        set_plain(self.journal, text)
        self.journal.setToolTip(plain_tip(text))
        self.undo_button.setEnabled(can_undo)

    def _show(self, row: int) -> None:
        if 0 <= row < len(self.records):
            self.detail.show_page(self.records[row].page)


class UndoQuestion:
    """Asks before undoing, naming the batch: undo rewrites files, never one stray key."""

    @classmethod
    def ask(cls, parent: QWidget | None, batch: BatchSummary) -> bool:
        answer = plain_question(
            parent,
            QMessageBox.Icon.Question,
            "Undo newest batch",
            batch.question(),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
            rendered=True,
        )
        return answer == QMessageBox.StandardButton.Yes


class ForceUndoQuestion:
    """The second confirmation: undo anyway, overwriting edits made after the batch."""

    @classmethod
    def ask(cls, parent: QWidget | None, paths: tuple[str, ...]) -> bool:
        listed = "\n".join(map(shown, paths[:15])) + (
            f"\n... and {len(paths) - 15} more" if len(paths) > 15 else ""
        )
        answer = plain_question(
            parent,
            QMessageBox.Icon.Warning,
            "Undo anyway?",
            f"These files were changed after the batch wrote them:\n\n{listed}\n\n"
            "Undo anyway? Their later changes are lost: they go back to what they held "
            "before the batch.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
            rendered=True,
        )
        return answer == QMessageBox.StandardButton.Yes
