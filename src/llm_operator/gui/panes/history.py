"""The session's runs (commands, diffs, results) and the undo journal, in a side panel."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from PySide6.QtGui import QSyntaxHighlighter

    from ...core.plan.session import Decision, Run
    from ...core.protocol.encoder import Result


@dataclass(frozen=True)
class RunRecord:
    title: str
    text: str  # commands, decisions, diffs and results, as one readable page
    when: datetime = field(default_factory=datetime.now)


def record_run(run: Run, decisions: dict[int, Decision], results: list[Result]) -> RunRecord:
    from ...core.plan.preview import describe_pending
    from ...core.protocol.encoder import encode_results

    lines = ["Commands:"]
    for item in run.items:
        lines.append(
            f"  {item.index + 1}. {item.action or '(invalid)'} {item.path or ''} id {item.id}"
        )
    for pending in run.pending:
        decision = decisions.get(pending.index)
        verdict = "approved" if decision and decision.approved else "rejected"
        if decision and decision.reason:
            verdict += f" ({decision.reason})"
        lines += ["", f"{verdict}:", describe_pending(pending)]
    lines += ["", "Results:", encode_results(results)]
    failed = sum(1 for result in results if not result.ok)
    title = f"{len(results)} command(s), {failed} failed"
    return RunRecord(title, "\n".join(lines))


class HistoryPanel(QWidget):
    undo_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.records: list[RunRecord] = []
        self.runs = QListWidget()
        self.runs.setObjectName("history-runs")
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.detail.setStyleSheet("QPlainTextEdit { background: #ffffff; color: #1f2328; }")
        # Made on the first run shown: the highlighter is not needed to get the window up.
        self._highlighter: QSyntaxHighlighter | None = None
        self.journal = QLabel("Undo journal: no batches yet.")
        self.journal.setWordWrap(True)
        self.undo_button = QPushButton("Undo last batch (Ctrl+Z)")
        self.undo_button.clicked.connect(self.undo_requested)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.runs)
        split.addWidget(self.detail)
        split.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Runs of this session"))
        layout.addWidget(split, 1)
        layout.addWidget(self.journal)
        layout.addWidget(self.undo_button)
        self.runs.currentRowChanged.connect(self._show)

    def add(self, record: RunRecord) -> None:
        self.records.append(record)
        self.runs.addItem(f"{record.when:%H:%M:%S}  {record.title}")
        self.runs.setCurrentRow(self.runs.count() - 1)

    def clear(self) -> None:
        self.records.clear()
        self.runs.clear()
        self.detail.clear()

    def set_journal(self, text: str, can_undo: bool) -> None:
        self.journal.setText(text)
        self.undo_button.setEnabled(can_undo)

    def _show(self, row: int) -> None:
        if 0 <= row < len(self.records):
            if self._highlighter is None:
                from ..highlight import DiffHighlighter

                # describe_pending() heads each command with "== " and each file with "-- ".
                headers = ("+++ ", "--- ", "-- ", "== ")
                self._highlighter = DiffHighlighter(self.detail.document(), "", headers)
            self.detail.setPlainText(self.records[row].text)


class UndoQuestion:
    """Asks before undoing: undo rewrites files, so it is never one stray keystroke."""

    @classmethod
    def ask(cls, parent: QWidget | None, label: str) -> bool:
        answer = QMessageBox.question(
            parent,
            "Undo last batch",
            f"Undo the last batch of writes ({label})?\n\nFiles go back to what they held "
            "before it; files it created are removed.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes


class ForceUndoQuestion:
    """The second confirmation: undo anyway, overwriting edits made after the batch."""

    @classmethod
    def ask(cls, parent: QWidget | None, paths: tuple[str, ...]) -> bool:
        shown = "\n".join(paths[:15]) + (
            f"\n... and {len(paths) - 15} more" if len(paths) > 15 else ""
        )
        answer = QMessageBox.warning(
            parent,
            "Undo anyway?",
            f"These files were changed after the batch wrote them:\n\n{shown}\n\n"
            "Undo anyway? Their later changes are lost: they go back to what they held "
            "before the batch.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes
