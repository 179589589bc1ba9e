"""Every change of a batch in one scrolling page, as a code review shows a pull request.

Each file has a header row (its number, the command, the path, its counts, its badges and
the command's decision) and then its diff, unified, with line numbers and changed words
marked; a header can be folded to one line (Space folds or unfolds the file at the top).
The page only renders the previews the session made, through the same rows as the one-file
view (``pages.unified_page``): every reply's text through the one renderer.

A file counts as seen once its header and its last row have both been on screen, so a
person who scrolls the page through has seen every change, and one who jumped past a file
has not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QResizeEvent, QShowEvent, QTextCursor
from PySide6.QtWidgets import QWidget

from ...core.plan.preview import ChangePreview
from ...core.visible import shown
from ..pages import Page, PageView, unified_page
from ..row_style import RowStyle

OPEN = "\u25be"  # a header whose diff is shown
# The most characters of diff one page lays out (each file's diff is capped on its own
# too): past it a file shows its header and a note, and is seen in the one-file view.
MAX_PAGE_CHARS = 2_000_000
TOO_LONG = "This page is full: Alt+V shows this file's diff on its own."
FOLDED = "\u25b8"  # a header folded to its one line


@dataclass(frozen=True)
class Section:
    """One file of the page: what its header says and its diff (None: a note instead)."""

    title: str  # the path and counts, already shown
    command: str  # "3. fs.write w3", already shown
    badges: str
    preview: ChangePreview | None
    note: str = ""


class AllChanges(PageView):
    """The page of all changes; ``seen_file`` tells the review which file was seen."""

    seen_file = Signal(int)

    def __init__(self, decision_of: Callable[[int], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("all-changes")
        self.setTabChangesFocus(True)
        self.decision_of = decision_of  # a file's index -> its command's decision
        self.sections: list[Section] = []
        self.folded: set[int] = set()
        self.starts: list[int] = []  # the header line of each section
        self.ends: list[int] = []  # one past its last line
        self._tops: set[int] = set()
        self._tails: set[int] = set()
        self.seen: set[int] = set()
        self.too_long: set[int] = set()  # files whose diff did not fit on the page
        self.verticalScrollBar().valueChanged.connect(self._look)

    def set_sections(self, sections: Sequence[Section]) -> None:
        self.sections = list(sections)
        self.relayout()

    def relayout(self) -> None:
        """Lay the page out again (decisions and folds changed), keeping the place."""
        at = self.verticalScrollBar().value()
        page = Page()
        self.starts, self.ends = [], []
        self.too_long = set()
        chars = 0
        for index, section in enumerate(self.sections):
            self.starts.append(len(page.lines))
            folded = index in self.folded
            mark = FOLDED if folded else OPEN
            decision = self.decision_of(index)
            parts = [section.title, section.badges, section.command, decision]
            header = f"{mark} " + "   ".join(part for part in parts if part)
            page.lines.append(header)
            # The decision colours the header: approved ones stand apart when scrolling.
            kind = "title-ok" if decision.startswith("approved") else "heading"
            page.rows.append(
                RowStyle("title-rejected" if decision.startswith("rejected") else kind)
            )
            if not folded:
                if section.preview is not None and chars <= MAX_PAGE_CHARS:
                    diff = unified_page(section.preview)
                    chars += sum(len(line) for line in diff.lines)
                    page.extend(diff)
                elif section.preview is not None:
                    self.too_long.add(index)
                    page.add(TOO_LONG, RowStyle("note"))
                else:
                    page.add(section.note, RowStyle("note"))
            self.ends.append(len(page.lines))
        self.show_page(page)
        self.verticalScrollBar().setValue(at)
        self._look()

    def current(self) -> int:
        """The section at the top of the page."""
        top = self.verticalScrollBar().value()
        return max((i for i, start in enumerate(self.starts) if start <= top), default=0)

    def go_to(self, index: int) -> None:
        """Put file ``index``'s header at the top of the page."""
        if not 0 <= index < len(self.starts):
            return
        block = self.document().findBlockByNumber(self.starts[index])
        cursor = QTextCursor(block)
        self.setTextCursor(cursor)
        self.verticalScrollBar().setValue(self.starts[index])
        self._look()

    def toggle_fold(self, index: int | None = None) -> None:
        index = self.current() if index is None else index
        if not self.sections:
            return
        self.folded.symmetric_difference_update({index})
        self.relayout()
        self.go_to(index)

    def _visible_lines(self) -> tuple[int, int]:
        first = self.verticalScrollBar().value()
        height = max(1, self.fontMetrics().lineSpacing())
        shown_lines = max(1, self.viewport().height() // height)
        return first, first + shown_lines - 1

    def _look(self, _: int = 0) -> None:
        if not self.isVisible():
            return
        first, last = self._visible_lines()
        for index, (start, end) in enumerate(zip(self.starts, self.ends, strict=True)):
            if index in self.folded or index in self.too_long:
                continue  # its diff is not on the page: not seen here
            if first <= start <= last:
                self._tops.add(index)
            if first <= end - 1 <= last:
                self._tails.add(index)
            if index in self._tops and index in self._tails and index not in self.seen:
                self.seen.add(index)
                self.seen_file.emit(index)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._look()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._look()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.modifiers():
            self.toggle_fold()
            return
        super().keyPressEvent(event)


def section_title(path: str, preview: ChangePreview | None) -> str:
    counts = f"  +{preview.added} -{preview.removed}" if preview is not None else ""
    return shown(path) + counts
