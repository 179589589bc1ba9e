"""The current workspace, always visible, with the recent ones one keystroke away."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QFileDialog, QHBoxLayout, QLabel, QPushButton, QWidget

from ...core.visible import shown
from ..plain_text import plain_tip


class FolderQuestion:
    """The platform's folder dialog: the one place a workspace is picked from disk."""

    @classmethod
    def ask(cls, parent: QWidget | None, start: str) -> Path | None:
        chosen = QFileDialog.getExistingDirectory(parent, "Open a workspace folder", start)
        return Path(chosen) if chosen else None


class WorkspaceBar(QWidget):
    chosen = Signal(Path)  # a recent workspace picked in the combo
    open_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.combo = QComboBox()
        self.combo.setObjectName("workspace")
        self.combo.setMinimumContentsLength(6)  # fits at 800x600; the tooltip has the path
        self.combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.combo.setToolTip("The workspace: commands can only touch files inside this folder")
        label = QLabel("Wor&kspace:")  # Alt+K; Alt+W opens the Workspace menu
        label.setBuddy(self.combo)
        self.open_button = QPushButton("Open... (Ctrl+O)")
        self.open_button.setToolTip("Open a workspace folder (Ctrl+O)")
        self.open_button.clicked.connect(self.open_requested)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(label)
        layout.addWidget(self.combo, 1)
        layout.addWidget(self.open_button)
        self._filling = False
        self.combo.activated.connect(self._on_activated)

    def show_workspaces(self, current: Path | None, recent: list[str]) -> None:
        self._filling = True
        try:
            self.combo.clear()
            if current is None:
                self.combo.addItem("No workspace: open a folder (Ctrl+O)", None)
            for folder in recent:
                self.combo.addItem(shown(folder), folder)
            if current is not None:
                at = self.combo.findData(str(current))
                if at < 0:
                    self.combo.insertItem(0, shown(str(current)), str(current))
                    at = 0
                self.combo.setCurrentIndex(at)
                self.combo.setToolTip(
                    plain_tip(f"The workspace: {current}\nCommands can only touch files inside it")
                )
        finally:
            self._filling = False

    def _on_activated(self, index: int) -> None:
        folder = self.combo.itemData(index)
        if not self._filling and folder:
            self.chosen.emit(Path(folder))
