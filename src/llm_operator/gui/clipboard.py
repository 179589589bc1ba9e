"""The system clipboard: copying results out, and (optionally) picking replies up.

With the watch on, copied text that reads as an assistant reply is handed to the window,
so a read-only round trip costs two actions: copy the reply, paste the results. What is
not a reply never runs (core/protocol/copied.py says what is): text holding no command,
the app's own material (the primer, the served spec, a context message) wherever it was
copied from, and any text the app itself put on the clipboard during the window's life,
known by a digest that line ends and trailing spaces do not change. A text that quotes
the primer's examples is handed over with its verdict, so the window asks first.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QClipboard, QGuiApplication

from ..core.protocol.copied import text_digest

_MARKER = "OPERATOR_CMD"


class ClipboardBridge(QObject):
    reply_copied = Signal(str, object)  # the text and its CopiedText verdict (RUN or ASK)
    not_a_reply = Signal(str)  # why a copied text with command blocks was left alone

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._clipboard: QClipboard = QGuiApplication.clipboard()
        # Digests of every text the app copied: 64 characters each, kept for the window's
        # life, so no number of result parts in between makes an old copy look new.
        self._own: set[str] = set()
        self._last_seen = ""
        self._watching = False
        self._clipboard.dataChanged.connect(self._on_changed)

    def copy(self, text: str) -> None:
        # Remember it first: setText emits dataChanged before it returns.
        self._own.add(text_digest(text))
        self._clipboard.setText(text)

    def copied_here(self, text: str) -> bool:
        """Whether the app itself put ``text`` (or it with clipboard damage) there."""
        return text_digest(text) in self._own

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
        if not text or text == self._last_seen:
            return
        self._last_seen = text
        if _MARKER not in text or self.copied_here(text):
            return  # cheap test first: most copies are not replies, the own ones never
        from ..core.protocol.copied import CopiedAction, classify_copied

        verdict = classify_copied(text)
        if verdict.action is CopiedAction.IGNORE:
            if verdict.why:
                self.not_a_reply.emit(verdict.why)
            return
        self.reply_copied.emit(text, verdict)
