"""The last run's results: readable for the person, exact protocol text for the chat.

The pane shows each result decoded (its summary, then its details as text, coloured as
code when it is a file's content). The clipboard always gets the exact OPERATOR_RESULT
text, part by part; "Show protocol text" shows that text, and the parts line says which
parts are copied and which are still pending.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ...core.visible import shown_lines
from ...core.wording import counted
from ..clipboard import ClipboardBridge
from ..pages import PageView, ResultSource, result_page
from ..plain_text import plain_tip, set_plain
from .wrapping import wrap_to_width

if TYPE_CHECKING:
    from ...core.protocol.encoder import Result
    from ...core.protocol.parts import Parts


def _ids_in(part: str) -> list[str]:
    return [line[4:] for line in part.split("\n") if line.startswith("id: ")]


class ResultsPane(QWidget):
    def __init__(self, clipboard: ClipboardBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._clipboard = clipboard
        self.parts: tuple[str, ...] = ()
        self.copied = 0  # how many parts went to the clipboard, in order
        self.stale = False  # a new reply was pasted since these results
        self.title = QLabel("<b>Results</b>")
        self.status = QLabel("No results yet.")
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.status.setMinimumWidth(1)  # cut at narrow widths; the tooltip has it all
        self.parts_line = QLabel("")
        self.parts_line.setObjectName("parts")
        self.parts_line.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.parts_line.setMinimumWidth(1)
        self.view = PageView()
        self.view.setObjectName("results")
        wrap_to_width(self.view)  # long results wrap at the window's width: nothing is cut
        self.view.setPlaceholderText(
            "Each command's result appears here, decoded; the exact OPERATOR_RESULT text "
            "goes to the clipboard: paste it into the chat."
        )
        self.raw = QPlainTextEdit()
        self.raw.setObjectName("results-protocol")
        self.raw.setReadOnly(True)
        self.raw.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        wrap_to_width(self.raw)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.view)
        self.stack.addWidget(self.raw)
        self.show_protocol = QCheckBox("Protocol text")
        self.show_protocol.setToolTip("Show the exact text that is copied for the chat")
        self.show_protocol.toggled.connect(
            lambda on: self.stack.setCurrentWidget(self.raw if on else self.view)
        )
        self.copy_button = QPushButton("Copy results")
        self.copy_button.setToolTip("Copy the current part again (Ctrl+Shift+C)")
        self.next_button = QPushButton("Copy next part")
        self.next_button.setToolTip("Copy the next part of long results (Ctrl+Shift+N)")
        self.copy_button.clicked.connect(self.copy_current)
        self.next_button.clicked.connect(self.copy_next)
        row = QHBoxLayout()
        row.addWidget(self.title)
        row.addWidget(self.status, 1)
        row.addWidget(self.show_protocol)
        row.addWidget(self.copy_button)
        row.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.parts_line)
        layout.addWidget(self.stack, 1)
        self._refresh()

    def show_results(
        self,
        results: list[Result],
        part_size: int,
        auto_copy: bool,
        sources: dict[str, ResultSource] | None = None,
        form: str = "readable",
    ) -> Parts:
        from ...core.protocol.encoder import ResultForm
        from ...core.protocol.parts import split_results

        parts = split_results(results, part_size, ResultForm(form))
        self.parts = parts.texts
        self.copied = 0
        self.stale = False
        # What is copied, exactly; shown with anything invisible in it marked.
        self.raw.setPlainText(shown_lines(parts.whole))
        self.view.show_page(result_page(results, sources or {}))
        if auto_copy and self.parts:
            self.copy_next()
        else:
            self._refresh()
        if parts.too_long:
            names = ", ".join(parts.too_long)
            self._set_status(
                f"{self.status.text()} Too long for one part even when split: {names}. "
                "Raise the part size or ask the LLM for smaller reads."
            )
        return parts

    def show_error(self, message: str, status: str = "The run failed: nothing was copied.") -> None:
        self.parts = ()
        self.copied = 0
        self.stale = False
        self.raw.setPlainText(shown_lines(message))
        from ..pages import Page

        page = Page()
        page.add(message)
        self.view.show_page(page)
        self._refresh()
        self._set_status(status)

    def mark_stale(self) -> None:
        """A new reply was pasted: the shown results belong to the previous one."""
        if self.stale or not self.view.page.lines:
            return
        self.stale = True
        self._refresh()

    def offer(self, text: str, parts: tuple[str, ...], status: str) -> None:
        """Show ``text`` and make ``parts`` what the copy buttons copy (not copied yet)."""
        self.show_error(text, status)
        self.parts = parts
        self._refresh()
        self._set_status(status)

    def copy_current(self) -> None:
        if not self.parts:
            return
        index = max(self.copied, 1) - 1
        self._clipboard.copy(self.parts[index])
        self.copied = max(self.copied, 1)
        self._refresh()

    def copy_next(self) -> None:
        if self.copied >= len(self.parts):
            return
        self._clipboard.copy(self.parts[self.copied])
        self.copied += 1
        self._refresh()

    @property
    def has_next(self) -> bool:
        return self.copied < len(self.parts)

    def _set_status(self, text: str) -> None:
        set_plain(self.status, text)
        self.status.setToolTip(plain_tip(text))

    def _refresh(self) -> None:
        n = len(self.parts)
        self.copy_button.setEnabled(n > 0)
        self.next_button.setEnabled(n > 1 and self.has_next)
        self.next_button.setVisible(n > 1)
        self.parts_line.setVisible(n > 1)
        if n > 1:
            marks = [
                f"part {i} {'copied' if i <= self.copied else 'pending'} "
                f"({counted(len(_ids_in(p)), 'result')})"
                for i, p in enumerate(self.parts, start=1)
            ]
            set_plain(self.parts_line, " \u00b7 ".join(marks))
            self.parts_line.setToolTip(
                plain_tip(
                    "\n".join(
                        f"part {i}: {', '.join(dict.fromkeys(_ids_in(p)))}"
                        for i, p in enumerate(self.parts, start=1)
                    )
                )
            )
        if self.stale:
            text = "Results of the previous reply (a new reply was pasted; run it)."
        elif n == 0:
            text = "No results yet."
        elif n == 1:
            text = (
                "Copied to the clipboard: paste it into the chat."
                if self.copied
                else "Not copied yet (Ctrl+Shift+C)."
            )
        elif self.copied == 0:
            text = f"{n} parts, none copied yet."
        else:
            more = " Paste it, then Copy next part." if self.has_next else " That was the last."
            text = f"Part {self.copied} of {n} copied.{more}"
        self._set_status(text)
