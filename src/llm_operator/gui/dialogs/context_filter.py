"""The context builder's filter: the box above the tree and what it matches.

A part of a path matches in any case; a text with ``*``, ``?`` or ``[`` is a glob over the
whole path, or over the file name alone when it has no ``/``. Down in the box goes on to
the tree; Escape clears the filter (the dialog stays open).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit, QTreeWidget


def path_matcher(text: str) -> Callable[[str], bool]:
    """Whether a path is shown for the filter ``text``: a part of the path, in any case;
    a glob (``*``, ``?``, ``[``) matches the whole path, or the file name when it has no
    ``/``."""
    needle = text.strip().casefold()
    if not needle:
        return lambda rel: True
    if not any(char in needle for char in "*?["):
        return lambda rel: needle in rel.casefold()
    pattern = needle.rstrip("/")
    if "/" in pattern:
        return lambda rel: fnmatch.fnmatchcase(rel.casefold(), pattern)
    return lambda rel: fnmatch.fnmatchcase(rel.rpartition("/")[2].casefold(), pattern)


class FilterBox(QLineEdit):
    """Down goes on to the tree; Escape clears the filter (the dialog stays open)."""

    def __init__(self, tree: QTreeWidget) -> None:
        super().__init__()
        self.tree = tree

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Down:
            self.tree.setFocus()
            first = next(
                (
                    item
                    for item in (
                        self.tree.topLevelItem(n) for n in range(self.tree.topLevelItemCount())
                    )
                    if item is not None and not item.isHidden()
                ),
                None,
            )
            if first is not None and self.tree.currentItem() is None:
                self.tree.setCurrentItem(first)
            event.accept()
            return
        if event.key() == Qt.Key.Key_Escape and self.text():
            self.clear()
            event.accept()
            return
        super().keyPressEvent(event)
