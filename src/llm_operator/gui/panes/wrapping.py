"""Long text wraps at the widget's width, so nothing runs off the right edge."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextOption
from PySide6.QtWidgets import QPlainTextEdit


def wrap_to_width(view: QPlainTextEdit) -> None:
    """Wrap at word boundaries, or anywhere in a word longer than the line (a path, a
    base64 run): no horizontal scrolling, no cut."""
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    view.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
