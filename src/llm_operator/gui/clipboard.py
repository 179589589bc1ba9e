"""The system clipboard: copying results out, and (optionally) picking replies up.

With the watch on, text copied anywhere that holds OPERATOR_CMD blocks is handed to the
window, so a read-only round trip costs two actions: copy the reply, paste the results.
Text the app copied itself is never picked up, nor text holding no command.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QClipboard, QGuiApplication

_MARKER = "OPERATOR_CMD"
_OWN_KEPT = 20  # recent texts the app copied (result parts, primer)


class ClipboardBridge(QObject):
    reply_copied = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._clipboard: QClipboard = QGuiApplication.clipboard()
        self._own: list[str] = []
        self._last_seen = ""
        self._watching = False
        self._clipboard.dataChanged.connect(self._on_changed)

    def copy(self, text: str) -> None:
        # Remember it first: setText emits dataChanged before it returns.
        self._own.append(text)
        del self._own[:-_OWN_KEPT]
        self._clipboard.setText(text)

    def text(self) -> str:
        return self._clipboard.text()

    def set_watching(self, on: bool) -> None:
        self._watching = on
        if on:
            # What was on the clipboard before the watch started is not a new reply.
            self._last_seen = self._clipboard.text()

    def _on_changed(self) -> None:
        if not self._watching:
            return
        text = self._clipboard.text()
        if not text or text == self._last_seen or text in self._own:
            return
        self._last_seen = text
        if _MARKER not in text:
            return  # cheap test first: most copies are not replies
        from ..core.protocol.detect import detect

        found, _results = detect(text)
        if found:
            self.reply_copied.emit(text)
