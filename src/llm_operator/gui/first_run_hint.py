"""The first-run hint: a banner above the reply box that offers clipboard watching (copied
replies then run by themselves: reads need nothing done in the window). Accepted or
dismissed, it never comes back (``Settings.clipboard_hint_seen``)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from ..core.store.settings import Settings


class FirstRunHint(QFrame):
    def __init__(
        self,
        settings: Settings,
        turn_on: Callable[[], None],
        save: Callable[[], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("first-run-hint")
        self._settings = settings
        self._turn_on = turn_on
        self._save = save
        self.setStyleSheet(
            "QFrame#first-run-hint { background: #ddf4ff; border: 1px solid #54aeff; "
            "border-radius: 4px; } QFrame#first-run-hint QLabel { color: #0a3069; }"
        )
        self.text = QLabel(
            "Tip: watch the clipboard, and a reply you copy in the chat runs by itself "
            "(reads at once, writes still ask). You can switch it in Settings at any time."
        )
        self.text.setWordWrap(True)
        self.accept_button = QPushButton("Watch the clipboard")
        self.accept_button.setObjectName("hint-accept")
        self.dismiss_button = QPushButton("No, thanks")
        self.dismiss_button.setObjectName("hint-dismiss")
        self.accept_button.clicked.connect(self.accept)
        self.dismiss_button.clicked.connect(self.dismiss)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 4, 4)
        row.addWidget(self.text, 1)
        row.addWidget(self.accept_button)
        row.addWidget(self.dismiss_button)
        self.setVisible(self.wanted(settings))

    @staticmethod
    def wanted(settings: Settings) -> bool:
        return not settings.clipboard_hint_seen and not settings.clipboard_watch

    def watch_changed(self, on: bool) -> None:
        """Watching turned on another way (the menu, the status bar): the hint is done."""
        if on and not self.isHidden():
            self._done()

    def accept(self) -> None:
        self._turn_on()
        self._done()

    def dismiss(self) -> None:
        self._done()

    def _done(self) -> None:
        self._settings.clipboard_hint_seen = True
        self.hide()
        self._save()
