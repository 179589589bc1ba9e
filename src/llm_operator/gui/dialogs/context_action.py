"""The menu action that opens the context builder, beside "Copy LLM primer"."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget


def add_context_action(window: QWidget, beside: QAction, run: Callable[[], None]) -> QAction:
    """A "Build context for chat" action in the menu that holds ``beside`` (the primer)."""
    action = QAction("Build &context for chat...", window)
    action.setShortcut(QKeySequence("Ctrl+Shift+B"))
    action.setIconText("Build context")
    action.setToolTip("Tick files, write the task and copy them with the primer (Ctrl+Shift+B)")
    action.triggered.connect(run)
    for menu in beside.associatedObjects():
        if isinstance(menu, QMenu):
            following = menu.actions()
            at = following.index(beside) + 1
            if at < len(following):
                menu.insertAction(following[at], action)
            else:
                menu.addAction(action)
    window.addAction(action)
    return action
