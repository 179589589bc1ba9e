"""Untrusted text into Qt widgets as plain text, never as markup.

Qt guesses: a ``QLabel``, a tooltip or a message box shows text that looks like HTML
(``<b>``, ``<span style=display:none>``) as rich text, and a text layout applies bidi
controls. Every text that comes from a reply or a file goes through ``core.visible``
(invisible characters marked) and then into a widget here: labels and message boxes are
set to ``Qt.PlainText``; a tooltip, which has no format setting, always gets escaped rich
text, so nothing in it can be read as a tag.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget

from ..core.visible import is_plain, shown_lines, shown_markup


def set_plain(label: QLabel, text: str, rendered: bool = False) -> None:
    """``text`` (lines kept, invisible characters marked) on ``label``, as plain text."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(text if rendered else shown_lines(text))


def plain_tip(text: str, rendered: bool = False) -> str:
    """A tooltip showing ``text`` literally (an empty text stays empty: no tooltip)."""
    if "<" not in text and (rendered or is_plain(text, one_line=False)):
        return text  # without a "<" Qt never takes it for markup: it shows as it is
    return f"<p style='white-space:pre-wrap'>{shown_markup(text, rendered)}</p>"


def plain_question(
    parent: QWidget | None,
    icon: QMessageBox.Icon,
    title: str,
    text: str,
    buttons: QMessageBox.StandardButton,
    default: QMessageBox.StandardButton,
    rendered: bool = False,
) -> QMessageBox.StandardButton:
    """A modal message box whose text is plain text; the button pressed."""
    box = QMessageBox(icon, title, text if rendered else shown_lines(text), buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setDefaultButton(default)
    try:
        return QMessageBox.StandardButton(box.exec())
    finally:
        box.deleteLater()
