"""The person's own text for a change, typed in the review before approving it.

A plain text editor over the proposed new content of one file; as it is typed, the diff
shows the change that would land: the file's old bytes to the edited text in the proposed
content's BOM and line breaks (``core.plan.person_edit``), previewed by the core's own
``preview_change`` so its notes (invisible characters, look-alike letters, line breaks)
hold for the person's text as for the model's. Only the new side of a text change can be
edited: a delete, a folder, a link or bytes that are not UTF-8 cannot. The text sent is
the editor's lines exactly (``typed_text``): opening a change in the editor and typing
nothing is no edit, whatever characters it holds, and a text the editor cannot show as it
is (a U+2029) is not offered for editing.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from ...core.changes import FileChange
from ...core.errors import OperatorError
from ...core.plan.person_edit import editable, edited_bytes
from ...core.plan.preview import ChangePreview, mark_words, preview_change
from ...core.visible import shown

TYPING_PAUSE_MS = 150  # the diff follows the text once typing pauses this long


def edited_preview(change: FileChange, text: str) -> ChangePreview:
    """The preview of what lands when ``change`` gets the person's ``text``."""
    after = edited_bytes(change, text)
    made = preview_change(
        FileChange(change.path, change.before, after, executable=change.executable)
    )
    mark_words((made,))
    return made


def typed_text(editor: QPlainTextEdit) -> str:
    """The editor's text exactly as shown: its lines joined by LF. ``toPlainText`` is not
    that: it turns every no-break space into a space and every U+2028 into a line break,
    so a change holding one would be "edited" by merely opening it in the editor."""
    lines: list[str] = []
    block = editor.document().begin()
    while block.isValid():
        lines.append(block.text())
        block = block.next()
    return "\n".join(lines)


class ChangeEditor(QWidget):
    """The editor of one file's new text; ``edited`` carries the text once typing pauses."""

    edited = Signal(str, str)  # path, text

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("change-editor")
        self.path = ""
        self.proposed = ""
        self._sent = ""  # the text last sent (or loaded): flushing it again says nothing
        self.note = QLabel()
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setObjectName("edit-text")
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setTabChangesFocus(True)
        self.revert = QPushButton("Back to the proposed text")
        self.revert.setAutoDefault(False)
        self.revert.clicked.connect(self.back_to_proposed)
        row = QHBoxLayout()
        row.addWidget(self.note, 1)
        row.addWidget(self.revert)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.text, 1)
        self._pause = QTimer(self)
        self._pause.setSingleShot(True)
        self._pause.setInterval(TYPING_PAUSE_MS)
        self._pause.timeout.connect(self.flush)
        self.text.textChanged.connect(self._pause.start)

    def load(self, change: FileChange | None, text: str | None, why_not: str = "") -> bool:
        """Edit ``change``'s new text (``text``: the person's earlier edit); False when the
        change has no text to edit, or ``why_not`` says why it may not be edited (the
        editor then says why and takes nothing)."""
        self._pause.stop()
        self.text.blockSignals(True)
        if why_not or change is None or not editable(change) or change.after_text is None:
            self.path, self.proposed = "", ""
            self.text.setPlainText("")
            self.text.setReadOnly(True)
            self.note.setText(
                why_not
                or "This change has no new text to edit (a delete, a folder, a link or "
                "bytes that are not UTF-8 text)."
            )
            self.revert.setEnabled(False)
            self.text.blockSignals(False)
            return False
        self._sent = change.after_text if text is None else text
        self.text.setPlainText(self._sent)
        if typed_text(self.text) != self._sent:
            # The editor would change characters nobody typed (a paragraph separator
            # becomes a line break, a leading U+FEFF is dropped): no edit of this text.
            self.path, self.proposed = "", ""
            self.text.setReadOnly(True)
            self.note.setText(
                "This text holds characters the editor cannot keep as they are (a "
                "paragraph separator U+2029, or a U+FEFF at its start): approve or reject "
                "it as proposed."
            )
            self.revert.setEnabled(False)
            self.text.blockSignals(False)
            return False
        self.path, self.proposed = change.path, change.after_text
        self.text.setReadOnly(False)
        self.text.blockSignals(False)
        self.revert.setEnabled(True)
        self.note.setText(
            f"Your text for {shown(change.path)}: the diff shows what lands if you approve. "
            "Line breaks and the BOM stay the file's."
        )
        return True

    def back_to_proposed(self) -> None:
        if self.path:
            self.text.setPlainText(self.proposed)
            self.flush()

    def flush(self) -> None:
        """Send the text now (a decision must never miss the last keys typed); a text
        already sent is not sent again."""
        self._pause.stop()
        text = typed_text(self.text)
        if self.path and not self.text.isReadOnly() and text != self._sent:
            self._sent = text
            self.edited.emit(self.path, text)


def try_preview(change: FileChange, text: str) -> ChangePreview | str:
    """The preview of the edit, or why there is none."""
    try:
        return edited_preview(change, text)
    except OperatorError as error:
        return shown(error.message)
