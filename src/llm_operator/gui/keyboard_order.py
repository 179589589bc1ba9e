"""The window's Tab order: every pane a person reads is reachable from the keyboard.

workspace -> paste -> run -> command table -> results -> history. The read-only views
(the command table, the results, the history) take focus on Tab, so a long error can be
scrolled and selected without a mouse.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractScrollArea, QPlainTextEdit, QWidget


def chain_tab_order(widgets: Sequence[QWidget]) -> None:
    """Tab goes through ``widgets`` in this order; each view among them takes focus."""
    for widget in widgets:
        if isinstance(widget, QAbstractScrollArea):
            widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        if isinstance(widget, QPlainTextEdit) and widget.isReadOnly():
            widget.setTabChangesFocus(True)
            widget.setTextInteractionFlags(
                Qt.TextInteractionFlag.TextSelectableByMouse
                | Qt.TextInteractionFlag.TextSelectableByKeyboard
            )
    for first, second in itertools.pairwise(widgets):
        QWidget.setTabOrder(first, second)
