"""Where a reply is pasted, and the live list of the commands found in it.

The list is rebuilt by ``detect`` (pure, no file is read) 150 ms after the last keystroke
or paste, so the user sees what will run, and what the validator refuses, before running.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFontDatabase, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

if TYPE_CHECKING:
    from ...core.protocol.detect import Detected

DEBOUNCE_MS = 150
PROBLEM_FG = "#cf222e"
WRITE_FG = "#9a6700"
OK_FG = "#1a7f37"


class PasteEditor(QPlainTextEdit):
    """A plain text box that leaves Ctrl+Z to the window (Undo last batch).

    Text undo in a box that holds one pasted reply is worth little; one shortcut meaning
    two things would be worse.
    """

    def event(self, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.matches(QKeySequence.StandardKey.Undo)
        ):
            event.ignore()
            return False
        return super().event(event)


class PastePane(QWidget):
    detected_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.detected: list[Detected] = []
        self.result_blocks = 0
        self.notes: tuple[str, ...] = ()
        self.editor = PasteEditor()
        self.editor.setObjectName("paste")
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setPlaceholderText(
            "Paste the LLM's reply here (Ctrl+V), then run it (Ctrl+Return).\n\n"
            "Reads run at once; every write waits for your approval in one dialog."
        )
        self.summary = QLabel("No commands yet.")
        self.summary.setWordWrap(True)
        self.table = QTreeWidget()
        self.table.setObjectName("detected")
        self.table.setHeaderLabels(["#", "action", "path", "id", "status"])
        self.table.setRootIsDecorated(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        listing = QWidget()
        listing_layout = QVBoxLayout(listing)
        listing_layout.setContentsMargins(0, 0, 0, 0)
        listing_layout.addWidget(self.summary)
        listing_layout.addWidget(self.table, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.editor)
        self.splitter.addWidget(listing)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.refresh)
        self.editor.textChanged.connect(self._timer.start)

    def text(self) -> str:
        return self.editor.toPlainText()

    def set_text(self, text: str) -> None:
        self.editor.setPlainText(text)
        self.refresh()

    def focus_editor(self, select_all: bool = False) -> None:
        """Focus the box; after a run, select all so the next Ctrl+V replaces the reply."""
        self.editor.setFocus(Qt.FocusReason.OtherFocusReason)
        if select_all:
            self.editor.selectAll()

    def refresh(self) -> None:
        self._timer.stop()
        text = self.text()
        if "OPERATOR" in text:  # also OPERATOR\_CMD, as markdown escapes it
            from ...core.protocol.detect import detect_paste  # lazy: only once pasted

            found = detect_paste(text)
            self.detected, self.result_blocks = found.commands, found.result_blocks
            self.notes = found.notes
        else:
            self.detected, self.result_blocks, self.notes = [], 0, ()
        self._fill()
        self.detected_changed.emit()

    def _fill(self) -> None:
        self.table.clear()
        for found in self.detected:
            if found.problem:
                status, colour = found.problem, PROBLEM_FG
            elif found.writes:
                status, colour = "needs approval", WRITE_FG
            else:
                status, colour = "runs at once", None
            row = QTreeWidgetItem(
                [str(found.index + 1), found.action or "?", found.path or "", found.id, status]
            )
            row.setToolTip(4, status)
            if colour:
                row.setForeground(4, QBrush(QColor(colour)))
            self.table.addTopLevelItem(row)
        for column in range(4):
            self.table.resizeColumnToContents(column)
        self.summary.setText(self.describe())

    def mark_outcomes(self, outcomes: dict[int, tuple[bool, str]]) -> None:
        """After a run: each listed command's status becomes what happened to it."""
        for row in range(self.table.topLevelItemCount()):
            item = self.table.topLevelItem(row)
            found = outcomes.get(int(item.text(0)) - 1) if item is not None else None
            if item is None or found is None:
                continue
            ok, summary = found
            item.setText(4, ("ok: " if ok else "failed: ") + summary)
            item.setToolTip(4, summary)
            item.setForeground(4, QBrush(QColor(OK_FG if ok else PROBLEM_FG)))

    def describe(self) -> str:
        if not self.detected:
            base = "No OPERATOR_CMD blocks found." if self.text().strip() else "No commands yet."
        else:
            writes = sum(1 for f in self.detected if f.writes and not f.problem)
            invalid = sum(1 for f in self.detected if f.problem)
            base = f"{len(self.detected)} command(s): {writes} need approval, {invalid} invalid."
        for note in self.notes:
            base += f" Warning: {note[:1].upper()}{note[1:]}."
        return base
