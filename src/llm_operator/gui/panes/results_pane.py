"""The OPERATOR_RESULT text of the last run, and the buttons that copy it part by part."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..clipboard import ClipboardBridge

if TYPE_CHECKING:
    from ...core.protocol.encoder import Result
    from ...core.protocol.parts import Parts


class ResultsPane(QWidget):
    def __init__(self, clipboard: ClipboardBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._clipboard = clipboard
        self.parts: tuple[str, ...] = ()
        self.copied = 0  # how many parts went to the clipboard, in order
        self.title = QLabel("Results")
        self.status = QLabel("No results yet.")
        self.view = QPlainTextEdit()
        self.view.setObjectName("results")
        self.view.setReadOnly(True)
        self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.view.setPlaceholderText(
            "The OPERATOR_RESULT blocks of each run appear here and go to the clipboard: "
            "paste them into the chat."
        )
        self.copy_button = QPushButton("Copy results")
        self.copy_button.setToolTip("Copy the current part again (Ctrl+Shift+C)")
        self.next_button = QPushButton("Copy next part")
        self.next_button.setToolTip("Copy the next part of long results (Ctrl+Shift+N)")
        self.copy_button.clicked.connect(self.copy_current)
        self.next_button.clicked.connect(self.copy_next)
        row = QHBoxLayout()
        row.addWidget(self.title)
        row.addWidget(self.status, 1)
        row.addWidget(self.copy_button)
        row.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.view, 1)
        self._refresh()

    def show_results(self, results: list[Result], part_size: int, auto_copy: bool) -> Parts:
        from ...core.protocol.parts import split_results

        parts = split_results(results, part_size)
        self.parts = parts.texts
        self.copied = 0
        self.view.setPlainText(parts.whole)
        if auto_copy and self.parts:
            self.copy_next()
        else:
            self._refresh()
        if parts.too_long:
            names = ", ".join(parts.too_long)
            self.status.setText(
                f"{self.status.text()} Too long for one part even when split: {names}. "
                "Raise the part size or ask the LLM for smaller reads."
            )
        return parts

    def show_error(self, message: str) -> None:
        self.parts = ()
        self.copied = 0
        self.view.setPlainText(message)
        self._refresh()
        self.status.setText("The run failed: nothing was copied.")

    def offer(self, text: str, parts: tuple[str, ...]) -> None:
        """Show ``text`` and make ``parts`` what the copy buttons copy (not copied yet)."""
        self.parts = parts
        self.copied = 0
        self.view.setPlainText(text)
        self._refresh()

    def copy_current(self) -> None:
        if not self.parts:
            return
        index = max(self.copied, 1) - 1
        self._clipboard.copy(self.parts[index])
        self.copied = max(self.copied, 1)
        self._refresh()

    def copy_next(self) -> None:
        if self.copied >= len(self.parts):
            return
        self._clipboard.copy(self.parts[self.copied])
        self.copied += 1
        self._refresh()

    @property
    def has_next(self) -> bool:
        return self.copied < len(self.parts)

    def _refresh(self) -> None:
        n = len(self.parts)
        self.copy_button.setEnabled(n > 0)
        self.next_button.setEnabled(n > 1 and self.has_next)
        self.next_button.setVisible(n > 1)
        if n == 0:
            self.status.setText("No results yet.")
        elif n == 1:
            self.status.setText("Copied to the clipboard." if self.copied else "Not copied yet.")
        elif self.copied == 0:
            self.status.setText(f"{n} parts, none copied yet.")
        else:
            more = " Paste it, then Copy next part." if self.has_next else " That was the last."
            self.status.setText(f"Part {self.copied} of {n} copied.{more}")
