"""The status bar: messages elided to the room there is (full text as tooltip), the file
watcher's state (click it for the files changed outside) and the clipboard watch; and the
tray notice that tells of a copied reply run while the window stayed behind."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QMouseEvent, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import (
    QLabel,
    QMessageBox,
    QStatusBar,
    QSystemTrayIcon,
    QToolButton,
    QWidget,
)

from ..core.visible import shown
from ..core.wording import counted
from .plain_text import plain_question, plain_tip

if TYPE_CHECKING:
    from .watcher import WorkspaceWatcher


class ElidingStatusBar(QStatusBar):
    """A status bar whose messages never push the window wider: a message too long for one
    line takes a second (the end of a run's message says what to do next), and one too
    long for two ends in "..."; the tooltip has it whole."""

    MAX_LINES = 2

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.messageChanged.connect(lambda message: self.setToolTip(plain_tip(message)))
        self.messageChanged.connect(lambda _: self._fit())
        from .status_log import status_logger

        logger = status_logger()
        if logger is not None:
            self.messageChanged.connect(logger)

    _MARGIN = 6

    def _room(self) -> int:
        right = self.width()
        for child in self.findChildren(QWidget):
            if child.parent() is self and child.isVisible() and child.x() > 0:
                right = min(right, child.x())
        return max(0, right - 2 * self._MARGIN)

    def shown_lines(self) -> list[str]:
        """The message as painted: one or two lines, the last cut with "..." if need be."""
        from .panes.command_rows import fitted_lines

        message = self.currentMessage()
        if not message:
            return []
        return fitted_lines(shown(message), self.font(), self._room(), self.MAX_LINES)

    def _fit(self) -> None:
        """As tall as the message's lines (never less than the bar's own height)."""
        rows = max(1, len(self.shown_lines()))
        self.setMinimumHeight(rows * self.fontMetrics().lineSpacing() + 6 if rows > 1 else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def paintEvent(self, event: QPaintEvent) -> None:
        lines = self.shown_lines()
        if not lines:
            super().paintEvent(event)
            return
        painter = QPainter(self)
        painter.setPen(self.palette().windowText().color())
        painter.drawText(
            self._MARGIN,
            0,
            self._room(),
            self.height(),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            "\n".join(lines),
        )


class WatchButton(QToolButton):
    """The file watcher in a word or two; clicking lists the files changed outside."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("watch")
        self.setAutoRaise(True)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)

    def show_state(self, watcher: WorkspaceWatcher | None) -> None:
        if watcher is None:
            self.setText("")
            self.setToolTip("")
            return
        if not watcher.running:
            self.setText("watcher off")
            self.setToolTip(plain_tip(f"File watcher off: {watcher.error}"))
            return
        count = len(watcher.changed_outside())
        if watcher.behind:
            text = "watcher behind: rechecking"
        elif count:
            text = f"{count} changed outside"
        else:
            text = "watching files"
        self.setText(text)
        self.setToolTip(
            f"{counted(watcher.events_seen, 'file event')} seen, "
            f"{counted(watcher.flushes, 'update')}, "
            f"{counted(watcher.overflows, 'overflow')}; "
            f"{counted(watcher.tracked, 'file')} the LLM has seen. "
            + ("Click to list the files changed outside since the LLM saw them." if count else "")
        )


class ChangedOutsideList:
    """The files changed outside since the LLM saw them, in a plain message box."""

    @classmethod
    def ask(cls, parent: QWidget | None, names: list[str]) -> None:
        if not names:
            text = "No file the LLM has seen was changed outside the app."
        else:
            more = f"\n... and {len(names) - 40} more" if len(names) > 40 else ""
            text = (
                f"{counted(len(names), 'file')} changed outside the app since a run read or "
                "wrote them "
                "(the LLM's copy may be stale):\n\n" + "\n".join(map(shown, names[:40])) + more
            )
        plain_question(
            parent,
            QMessageBox.Icon.Information,
            "Files changed outside",
            text,
            QMessageBox.StandardButton.Ok,
            QMessageBox.StandardButton.Ok,
            rendered=True,  # one name a line, each already shown
        )


class ClipboardIndicator(QLabel):
    """Shows whether copied replies are picked up; a click switches the watch."""

    clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("clipboard-watch")
        self.set_on(False)

    def set_on(self, on: bool) -> None:
        self.setText("clipboard: watching" if on else "clipboard: not watched")
        colour = "#1a7f37" if on else "#6e7781"
        self.setStyleSheet(f"QLabel {{ color: {colour}; padding: 0 4px; }}")
        self.setToolTip(
            "Copied replies with OPERATOR_CMD blocks run by themselves (click to stop)"
            if on
            else "Replies run only when pasted here (click to watch the clipboard)"
        )

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.clicked.emit()


class TrayNotice:
    """A desktop notice from a tray icon, where the desktop has a system tray; clicking it
    (or the icon) brings the window forward. The icon is made at the first notice."""

    def __init__(self, window: QWidget, clicked: Callable[[], None]) -> None:
        self._window = window
        self._clicked = clicked
        self._icon: QSystemTrayIcon | None = None

    def show(self, text: str) -> bool:
        """Show ``text`` (the app's own words: tray notices may read markup); False when
        there is no system tray."""
        if not QSystemTrayIcon.isSystemTrayAvailable():
            return False
        if self._icon is None:
            self._icon = QSystemTrayIcon(self._window.windowIcon(), self._window)
            self._icon.setToolTip("LLM Operator")
            self._icon.messageClicked.connect(self._clicked)
            self._icon.activated.connect(lambda _reason: self._clicked())
            self._icon.show()
        self._icon.showMessage("LLM Operator", text, QSystemTrayIcon.MessageIcon.Information)
        return True
