"""The review's search bar: Ctrl+F opens it, Enter / Shift+Enter (or F3 / Shift+F3) go to
the next / previous match, Escape closes it (and only it: the review stays open)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

if TYPE_CHECKING:
    from .diff_view import DiffView


class SearchField(QLineEdit):
    def __init__(self, bar: SearchBar) -> None:
        super().__init__(bar)
        self.bar = bar

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.bar.diff.find_previous()
            else:
                self.bar.diff.find_next()
            event.accept()  # never the dialog's default button
            return
        if key == Qt.Key.Key_Escape:
            self.bar.close_bar()
            event.accept()  # closing the search never rejects the review
            return
        super().keyPressEvent(event)


class SearchBar(QWidget):
    def __init__(self, diff: DiffView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("diff-search")
        self.diff = diff
        self.field = SearchField(self)
        self.field.setObjectName("diff-search-field")
        self.field.setPlaceholderText("Find in the diff (Enter next, Shift+Enter previous)")
        self.field.textChanged.connect(diff.find_text)
        self.count = QLabel()
        self.count.setObjectName("diff-search-count")
        self.count.setMinimumWidth(80)
        self.previous = QPushButton("Previous")
        self.previous.clicked.connect(diff.find_previous)
        self.next = QPushButton("Next (F3)")
        self.next.clicked.connect(diff.find_next)
        self.close_button = QPushButton("Close (Esc)")
        self.close_button.clicked.connect(self.close_bar)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("Find:"))
        layout.addWidget(self.field, 1)
        layout.addWidget(self.count)
        for button in (self.previous, self.next, self.close_button):
            button.setAutoDefault(False)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes on to the decision
            layout.addWidget(button)
        diff.found.connect(self._show_count)
        self.hide()

    def open_bar(self) -> None:
        self.show()
        self.field.setFocus()
        self.field.selectAll()
        if self.field.text() and self.diff.needle != self.field.text():
            self.diff.find_text(self.field.text())

    def close_bar(self) -> None:
        self.hide()
        self.diff.find_text("")
        self.diff.visible_views()[0].setFocus()

    def _show_count(self) -> None:
        self.count.setText(self.diff.count_text())
