"""One file's change, unified or side by side, with line numbers and changed words marked.

It renders a ``ChangePreview`` made by the session; it never diffs anything itself. Line
numbers sit in a gutter that stays put; long lines wrap to the view's width, and side by
side each old/new pair takes as many lines on both sides, so the two columns stay level
and scroll together. ``find`` searches the text as shown (every invisible character as its
marker), each row whole however it is wrapped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFontMetricsF,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import QSplitter, QStackedWidget, QTextEdit, QWidget

from ..highlight import ADDED_BG, GUTTER_FG, REMOVED_BG
from ..pages import Page, PageView
from .diff_pages import (
    TAB_WIDTH,
    Row,
    WrappedPage,
    matches,
    side_by_side_rows,
    unified_rows,
    wrap_side_by_side,
    wrap_unified,
)

if TYPE_CHECKING:
    from ...core.plan.preview import ChangePreview

MATCH_BG = "#fff3a0"
CURRENT_MATCH_BG = "#ffa657"
_GUTTER_BG = {"added": ADDED_BG, "removed": REMOVED_BG}


class Gutter(QWidget):
    """The line numbers of a ``DiffPage``, painted beside its text: they never scroll
    sideways."""

    def __init__(self, view: DiffPage) -> None:
        super().__init__(view)
        self.view = view

    def sizeHint(self) -> QSize:
        return QSize(self.view.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        view = self.view
        painter = QPainter(self)
        painter.fillRect(event.rect(), QColor("#f6f8fa"))
        painter.setFont(view.font())
        block = view.firstVisibleBlock()
        offset = view.contentOffset()
        height = self.height()
        while block.isValid():
            top = view.blockBoundingGeometry(block).translated(offset)
            if top.top() > height:
                break
            number = block.blockNumber()
            rows = view.page.rows
            kind = rows[number].kind if number < len(rows) else "text"
            box = QRect(0, round(top.top()), self.width(), round(top.height()))
            if kind in _GUTTER_BG:
                painter.fillRect(box, QColor(_GUTTER_BG[kind]))
            if number < len(view.gutters) and view.gutters[number]:
                painter.setPen(QColor(GUTTER_FG))
                painter.drawText(
                    box.adjusted(0, 0, -4, 0),
                    int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                    view.gutters[number],
                )
            block = block.next()
        painter.end()


class DiffPage(PageView):
    """A ``PageView`` whose line numbers are in a fixed gutter; it reports how many
    characters fit on a line, and wraps nothing itself (the rows come cut to fit)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.gutters: list[str] = []
        self.wrapped = WrappedPage()
        self.gutter = Gutter(self)
        self.setTabChangesFocus(True)  # Tab moves on; the text is read, never typed in
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.setTabStopDistance(self._char_width() * TAB_WIDTH)
        # Always there, so that wrapping a page never changes the width it was wrapped to.
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.updateRequest.connect(self._scroll_gutter)
        self._fit_gutter(1)

    def _char_width(self) -> float:
        return QFontMetricsF(self.font()).horizontalAdvance("0")

    def gutter_width(self) -> int:
        widest = max((len(text) for text in self.gutters), default=3)
        return round(self._char_width() * widest) + 10

    def _fit_gutter(self, _: int = 0) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)
        room = self.contentsRect()
        self.gutter.setGeometry(QRect(room.left(), room.top(), self.gutter_width(), room.height()))

    def _scroll_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_gutter()

    def columns(self) -> int:
        """How many characters fit on one line of the view as it is now."""
        margin = 2 * self.document().documentMargin() + self.cursorWidth() + 2
        return max(1, int((self.viewport().width() - margin) // self._char_width()))

    def show_wrapped(self, wrapped: WrappedPage) -> None:
        self.wrapped = wrapped
        self.gutters = wrapped.gutters
        self._fit_gutter()
        self.show_page(wrapped.page)
        self.gutter.update()

    def row_text(self) -> str:
        """The rows as shown, each whole (not cut to the width), one per line."""
        return "\n".join(row.text for row in self.wrapped.rows)

    def show_note(self, page: Page) -> None:
        self.show_wrapped(WrappedPage(page, [""] * len(page.lines)))


class DiffView(QStackedWidget):
    found = Signal()  # the matches or the current match changed

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.unified = DiffPage()
        self.unified.setObjectName("diff")
        self.left = DiffPage()
        self.left.setObjectName("diff-old")
        self.right = DiffPage()
        self.right.setObjectName("diff-new")
        self.columns = QSplitter(Qt.Orientation.Horizontal)
        self.columns.addWidget(self.left)
        self.columns.addWidget(self.right)
        self.addWidget(self.unified)
        self.addWidget(self.columns)
        for one, other in ((self.left, self.right), (self.right, self.left)):
            one.verticalScrollBar().valueChanged.connect(other.verticalScrollBar().setValue)
            one.horizontalScrollBar().valueChanged.connect(other.horizontalScrollBar().setValue)
        for view in (self.unified, self.left, self.right):
            view.viewport().installEventFilter(self)
        self.preview: ChangePreview | None = None
        self._side_by_side = False
        self._note = ""
        self._rows: list[Row] = []
        self._pairs: list[tuple[Row | None, Row | None]] = []
        self._laid_out_for: tuple[int, ...] = ()
        self.needle = ""
        self.hits: list[tuple[DiffPage, int, int]] = []  # view, start, end (document)
        self.current = -1

    # -- rendering -----------------------------------------------------------------

    @property
    def side_by_side(self) -> bool:
        return self._side_by_side

    def set_side_by_side(self, on: bool) -> None:
        self._side_by_side = on
        self._render()

    def show_preview(self, preview: ChangePreview | None, note: str = "") -> None:
        self.preview = preview
        self._note = note
        self.current = -1
        self._render()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and any(
            watched is view.viewport() for view in (self.unified, self.left, self.right)
        ):
            self._layout()
        return super().eventFilter(watched, event)

    def _render(self) -> None:
        preview = self.preview
        if preview is None:
            page = Page()
            page.add(self._note)
            self.unified.show_note(page)
            self._rows, self._pairs = [], []
            self.setCurrentWidget(self.unified)
        elif self._side_by_side:
            self._pairs = side_by_side_rows(preview)
            self.setCurrentWidget(self.columns)
        else:
            self._rows = unified_rows(preview)
            self.setCurrentWidget(self.unified)
        self._laid_out_for = ()
        self._layout()

    def _layout(self) -> None:
        """Cut the rows to the views' widths (again, when a width changed)."""
        if self.preview is None:
            self._search()
            return
        if self._side_by_side:
            key: tuple[int, ...] = (id(self._pairs), self.left.columns(), self.right.columns())
            if key != self._laid_out_for:
                left, right = wrap_side_by_side(self._pairs, key[1], key[2])
                at = self.left.verticalScrollBar().value()
                self.left.show_wrapped(left)
                self.right.show_wrapped(right)
                self.left.verticalScrollBar().setValue(at)
        else:
            key = (id(self._rows), self.unified.columns())
            if key != self._laid_out_for:
                at = self.unified.verticalScrollBar().value()
                self.unified.show_wrapped(wrap_unified(self._rows, key[1]))
                self.unified.verticalScrollBar().setValue(at)
        if key != self._laid_out_for:
            self._laid_out_for = key
            self._search()

    # -- search --------------------------------------------------------------------

    def visible_views(self) -> tuple[DiffPage, ...]:
        if self.currentWidget() is self.columns:
            return (self.left, self.right)
        return (self.unified,)

    def find_text(self, needle: str) -> None:
        """Mark every place ``needle`` is shown and go to the first one."""
        self.needle = needle
        self.current = -1
        self._search()
        if self.hits:
            self.go(0)

    def _search(self) -> None:
        found: list[tuple[int, int, int, DiffPage, int, int]] = []
        for side, view in enumerate(self.visible_views()):
            doc = view.document()
            for row, start, end in matches(view.wrapped, self.needle):
                line, column = view.wrapped.position(row, start)
                last_line, last_column = view.wrapped.position(row, end - 1)
                first = doc.findBlockByNumber(line).position() + column
                last = doc.findBlockByNumber(last_line).position() + last_column + 1
                found.append((line, side, column, view, first, last))
        found.sort(key=lambda hit: hit[:3])
        self.hits = [(view, first, last) for _, _, _, view, first, last in found]
        # A new file or layout keeps the place in the matches, or none ("7 matches").
        self.current = min(self.current, len(self.hits) - 1)
        self._mark()

    def go(self, index: int) -> None:
        if not self.hits:
            return
        self.current = index % len(self.hits)
        self._mark()
        view, start, end = self.hits[self.current]
        for other in self.visible_views():
            if other is not view:  # one match is the current one, on one side
                plain = other.textCursor()
                plain.clearSelection()
                other.setTextCursor(plain)
        cursor = QTextCursor(view.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        view.setTextCursor(cursor)
        view.ensureCursorVisible()

    def find_next(self) -> None:
        self.go(self.current + 1)

    def find_previous(self) -> None:
        self.go(self.current - 1 if self.current >= 0 else -1)

    def count_text(self) -> str:
        if not self.needle:
            return ""
        if not self.hits:
            return "no match"
        if self.current < 0:
            return f"{len(self.hits)} {'match' if len(self.hits) == 1 else 'matches'}"
        return f"{self.current + 1} of {len(self.hits)}"

    def _mark(self) -> None:
        for view in (self.unified, self.left, self.right):
            marks: list[QTextEdit.ExtraSelection] = []
            for number, (where, start, end) in enumerate(self.hits):
                if where is not view:
                    continue
                mark = QTextEdit.ExtraSelection()
                cursor = QTextCursor(view.document())
                cursor.setPosition(start)
                cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
                mark.cursor = cursor
                colour = CURRENT_MATCH_BG if number == self.current else MATCH_BG
                mark.format.setBackground(QColor(colour))
                mark.format.setProperty(QTextFormat.Property.FullWidthSelection, False)
                marks.append(mark)
            view.setExtraSelections(marks)
        self.found.emit()
