"""The rows of the command list: what each command's status says after a run (ok,
failed, rejected, a repeat not run again, asked again after an earlier rejection), the
blocks an unclosed block swallowed, and the details box showing a selected row whole.

Every text from a reply goes through the one renderer (``core.visible``); the verdicts
come from the core (``core.plan.earlier``) as data, never parsed from result text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import (
    QApplication,
    QHeaderView,
    QPlainTextEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from ...core.visible import shown, shown_lines
from ..plain_text import plain_tip

if TYPE_CHECKING:
    from ...core.plan.earlier import ItemVerdict
    from ...core.protocol.detect import Detected
    from ...core.store.rejections import Rejection

PROBLEM_FG = "#cf222e"
WRITE_FG = "#9a6700"
OK_FG = "#1a7f37"
REPEAT_FG = "#57606a"  # a repeat is not news: grey and italic, never the green of a run
INDEX_ROLE = Qt.ItemDataRole.UserRole  # the command's index in the reply; None: swallowed

VERDICT_FG = {"ok": OK_FG, "rejected": WRITE_FG, "repeated": REPEAT_FG, "undone": WRITE_FG}


def verdict_status(verdict: ItemVerdict) -> str:
    """The status cell's text: the verdict, the summary, and the earlier rejection on a
    line of its own. Shown: the reply's text marked where invisible."""
    from ...core.plan.earlier import REPEATED

    if verdict.verdict == REPEATED:
        lines = [f"repeat, not run again (first ran {verdict.first_ran})", shown(verdict.summary)]
    else:
        lines = [f"{verdict.verdict}: " + shown_lines(verdict.summary)]
    if verdict.rejected_before is not None:
        lines.append("asked again: " + shown(verdict.rejected_before.describe()))
    return "\n".join(lines)


def style_status(item: QTreeWidgetItem, verdict: str, text: str) -> None:
    """Set a row's status (already shown) and how it looks."""
    item.setText(1, text)
    item.setToolTip(1, plain_tip(text, rendered=True))
    item.setForeground(1, QBrush(QColor(VERDICT_FG.get(verdict, PROBLEM_FG))))
    font = QFont(item.font(1))
    font.setItalic(verdict == "repeated")
    item.setFont(1, font)


def asked_again_status(rejection: Rejection) -> str:
    return "needs approval again: " + shown(rejection.describe())


def swallowed_rows(found: Detected) -> list[QTreeWidgetItem]:
    """A row for each block ``found`` swallowed: named, with its line, and why."""
    rows = []
    outer = f"block {found.id}" + (f" (line {found.line})" if found.line else "")
    for block in found.swallowed:
        name = block.id or "(no id)"
        status = f"not run: swallowed by {outer}, whose END_OPERATOR_CMD line is missing"
        what = f"block {name} from line {block.line}"
        row = QTreeWidgetItem(["", shown(status), shown(what)])
        row.setData(0, INDEX_ROLE, None)
        row.setToolTip(1, plain_tip(status))
        row.setToolTip(2, plain_tip(what))
        row.setForeground(1, QBrush(QColor(PROBLEM_FG)))
        rows.append(row)
    return rows


_MARGIN = 3
MAX_ROW_LINES = 6  # taller rows would push the others away: the details box has it all

Index = QModelIndex | QPersistentModelIndex


class WrappingDelegate(QStyledItemDelegate):
    """Cells whose text wraps at the column's width, long words (paths) included, so a
    row grows with its status (up to MAX_ROW_LINES lines) instead of being cut."""

    def __init__(self, table: QTreeWidget) -> None:
        super().__init__(table)
        self._table = table
        table.header().sectionResized.connect(lambda *_: table.doItemsLayout())

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        hint = super().sizeHint(option, index)
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        width = self._table.header().sectionSize(index.column()) - 2 * _MARGIN
        lines = fitted_lines(opt.text, opt.font, width, MAX_ROW_LINES)
        height = QFontMetrics(opt.font).lineSpacing() * len(lines)
        return QSize(hint.width(), max(hint.height(), height + 2 * _MARGIN))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text = opt.text
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        foreground = index.data(Qt.ItemDataRole.ForegroundRole)
        if selected:
            colour = opt.palette.color(QPalette.ColorRole.HighlightedText)
        elif isinstance(foreground, QBrush):
            colour = foreground.color()
        else:
            colour = opt.palette.color(QPalette.ColorRole.Text)
        painter.save()
        painter.setFont(opt.font)
        painter.setPen(colour)
        area = opt.rect.adjusted(_MARGIN, _MARGIN, -_MARGIN, -_MARGIN)
        painter.setClipRect(opt.rect)
        rows = max(1, area.height() // QFontMetrics(opt.font).lineSpacing())
        painter.drawText(
            area, _TOP_LEFT, "\n".join(fitted_lines(text, opt.font, area.width(), rows))
        )
        painter.restore()


_TOP_LEFT = int(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)


def _wrapped(paragraph: str, font: QFont, width: int) -> list[str]:
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout = QTextLayout(paragraph, font)
    layout.setTextOption(option)
    layout.beginLayout()
    lines: list[str] = []
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(max(width, 10))
        lines.append(paragraph[line.textStart() : line.textStart() + line.textLength()].rstrip())
    layout.endLayout()
    return lines or [""]


def fitted_lines(text: str, font: QFont, width: int, rows: int) -> list[str]:
    """``text`` wrapped to ``width`` (at words, or inside a word longer than a line) in at
    most ``rows`` lines; a text that needs more ends its last line in "..." (an ellipsis),
    so a cell never looks whole when it is cut: the details box below has it all."""
    lines = [line for paragraph in text.split("\n") for line in _wrapped(paragraph, font, width)]
    if len(lines) <= rows:
        return lines
    rest = " ".join(" ".join(lines[rows - 1 :]).split())
    last = QFontMetrics(font).elidedText(rest + " \u2026", Qt.TextElideMode.ElideRight, width)
    if not last.endswith("\u2026"):
        last += "\u2026"
    return [*lines[: rows - 1], last]


class CommandColumnShare(QObject):
    """Keeps the command column at ``share`` of the list's width, so the status column
    (what happened) gets the most room; the user may still drag the divider."""

    def __init__(self, table: QTreeWidget, share: float = 0.36) -> None:
        super().__init__(table)
        self._table = table
        self._share = share
        table.header().setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
        table.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        table.header().setStretchLastSection(False)
        table.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            width = self._table.viewport().width()
            self._table.header().resizeSection(2, max(80, int(width * self._share)))
        return False


class RowDetails(QPlainTextEdit):
    """The selected row's whole text, wrapped: a long status is cut in the list."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("command-details")
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        # About five lines: enough to read a long status, small enough to keep the list.
        self.setMaximumHeight(self.fontMetrics().lineSpacing() * 5 + 12)
        self.setPlaceholderText("Select a command to read its whole status here.")
        self.hide()

    def show_row(self, item: QTreeWidgetItem | None) -> None:
        if item is None:
            self.clear()
            self.hide()
            return
        number = item.text(0)
        head = f"#{number}  " if number else ""
        # The cells hold shown text already: nothing of the reply reaches here unmarked.
        self.setPlainText(f"{head}{item.text(2)}\n{item.text(1)}")
        self.show()
