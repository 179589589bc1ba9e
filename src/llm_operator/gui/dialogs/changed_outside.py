"""The files changed outside the app since the LLM last saw them, and a note for the chat.

"Copy note for the chat" puts a short plain-text note on the clipboard: it names each
file, tells the LLM to read it again before editing it, and shows what changed where the
app kept the earlier bytes (``core.store.seen_copies``; a secret-looking file is only
named).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...core.visible import shown
from ...core.wording import counted
from ..plain_text import plain_tip


class ChangedOutsideDialog(QDialog):
    def __init__(
        self,
        parent: QWidget | None,
        names: list[str],
        make_note: Callable[[], str],
        copy: Callable[[str], None],
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Files changed outside")
        self._make_note = make_note
        self._copy = copy
        self.copied = ""
        if names:
            text = (
                f"{counted(len(names), 'file')} changed outside the app since a run read or "
                "wrote them (the LLM's copy may be stale):"
            )
        else:
            text = "No file the LLM has seen was changed outside the app."
        intro = QLabel(text)
        intro.setWordWrap(True)
        intro.setTextFormat(Qt.TextFormat.PlainText)
        self.listing = QListWidget()
        self.listing.setObjectName("changed-outside")
        for name in names:
            self.listing.addItem(shown(name))
            self.listing.item(self.listing.count() - 1).setToolTip(plain_tip(name))
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = QPushButton("&Copy note for the chat")
        self.copy_button.setToolTip(
            "Names these files and what changed, so the LLM reads them before it edits"
        )
        self.copy_button.setEnabled(bool(names))
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.copy_note)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.listing, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        self.resize(560, 380)
        if names:
            self.copy_button.setFocus()

    def copy_note(self) -> None:
        self.copied = self._make_note()
        self._copy(self.copied)
        self.status.setText("Copied: paste the note into the chat.")

    @classmethod
    def ask(
        cls,
        parent: QWidget | None,
        names: list[str],
        make_note: Callable[[], str],
        copy: Callable[[str], None],
    ) -> None:
        dialog = cls(parent, names, make_note, copy)
        try:
            dialog.exec()
        finally:
            dialog.deleteLater()
