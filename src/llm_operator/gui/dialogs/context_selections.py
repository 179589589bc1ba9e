"""Named selections of the context builder: the ticked files kept under a name, recalled
with one click (as saved selections in other context tools), from a menu button.

The button only talks to the builder through two callables (the ticked files; tick
exactly these) and to the workspace's ``ContextMemory``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtWidgets import QInputDialog, QMenu, QPushButton, QWidget

from ...core.visible import shown
from ...core.wording import counted
from .context_memory import ContextMemory


class SelectionsButton(QPushButton):
    """ "Selections" with its menu: save the ticked files, recall or remove a selection."""

    def __init__(
        self,
        memory: ContextMemory,
        ticked: Callable[[], list[str]],
        tick_only: Callable[[list[str]], str],
        told: Callable[[str], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__("&Selections", parent)
        self.setObjectName("context-selections")
        self.memory = memory
        self._ticked = ticked
        self._tick_only = tick_only
        self._told = told
        self.menu_ = QMenu(self)
        self.menu_.aboutToShow.connect(self._fill)
        self.setMenu(self.menu_)
        self.setToolTip("Keep the ticked files under a name, and tick them again later")

    def _fill(self) -> None:
        menu = self.menu_
        menu.clear()
        menu.addAction("Save the ticked files as...", self.ask_and_save)
        names = self.memory.names()
        if names:
            menu.addSeparator()
        for name in names:
            count = len(self.memory.state.selections[name])
            menu.addAction(f"{shown(name)} ({counted(count, 'file')})", partial(self.recall, name))
        if names:
            remove = menu.addMenu("Remove")
            for name in names:
                remove.addAction(shown(name), partial(self.remove, name))

    def ask_and_save(self) -> None:
        name, ok = QInputDialog.getText(self, "Save selection", "Name for the ticked files:")
        if ok:
            self.save(name)

    def save(self, name: str) -> None:
        ticked = self._ticked()
        try:
            kept = self.memory.save_selection(name, ticked)
        except ValueError as error:
            self._told(f"Not saved: {error}.")
            return
        self._told(f"Saved {counted(len(ticked), 'file')} as \u201c{shown(kept)}\u201d.")

    def recall(self, name: str) -> None:
        paths = self.memory.state.selections.get(name)
        if paths is None:
            return
        note = self._tick_only(list(paths))
        self._told(f"Ticked the files of \u201c{shown(name)}\u201d.{note}")

    def remove(self, name: str) -> None:
        self.memory.remove_selection(name)
        self._told(f"Removed the selection \u201c{shown(name)}\u201d.")
