"""Where a reply is pasted, and the live list of the commands found in it.

The list is rebuilt by ``detect`` (pure, no file is read) 150 ms after the last keystroke
or paste, so the user sees what will run, and what the validator refuses, before running.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFontDatabase, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.visible import shown
from ...core.wording import counted
from ..plain_text import plain_tip, set_plain
from .command_rows import (
    INDEX_ROLE,
    PROBLEM_FG,
    WRITE_FG,
    CommandColumnShare,
    RowDetails,
    WrappingDelegate,
    asked_again_status,
    style_status,
    swallowed_rows,
    verdict_status,
)
from .read_status import read_status

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ...core.plan.earlier import ItemVerdict
    from ...core.protocol.detect import Detected
    from ...core.store.rejections import Rejection

DEBOUNCE_MS = 150


class PasteEditor(QPlainTextEdit):
    """The reply box. Ctrl+Z undoes typing here (batch undo is Ctrl+Alt+Z, in the window).

    Tab moves the focus on, as everywhere else in the window, so a Tab after a run cannot
    replace the selected reply; Ctrl+Tab types a literal tab (or Tab itself, when the
    setting ``tab_inserts_tab`` is on).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)

    def set_tab_inserts_tab(self, on: bool) -> None:
        self.setTabChangesFocus(not on)

    def event(self, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Tab
            and event.modifiers() == Qt.KeyboardModifier.ControlModifier
        ):
            event.accept()  # Ctrl+Tab is the literal tab here, not a window shortcut
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if (
            event.key() == Qt.Key.Key_Tab
            and event.modifiers() == Qt.KeyboardModifier.ControlModifier
        ):
            self.insertPlainText("\t")
            return
        super().keyPressEvent(event)


class PastePane(QWidget):
    detected_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.detected: list[Detected] = []
        self.result_blocks = 0
        self.notes: tuple[str, ...] = ()
        self.outcomes: dict[int, tuple[str, str]] = {}
        self.rows: dict[int, QTreeWidgetItem] = {}  # a command's index -> its row
        # Set by the window: whether a path (as written) looks secret, so a read of it is
        # listed as needing approval, as it will.
        self.secret_check: Callable[[str], bool] | None = None
        self.editor = PasteEditor()
        self.editor.setObjectName("paste")
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setPlaceholderText(
            "Paste the LLM's reply here (Ctrl+V, from anywhere in the window), then run it "
            "(Ctrl+Return).\n\n"
            "Reads run at once; every write waits for your approval in one dialog."
        )
        self.summary = QLabel("No commands yet.")
        self.summary.setWordWrap(True)
        self.table = QTreeWidget()
        self.table.setObjectName("detected")
        # The status comes before the command, so it stays in sight in a narrow window;
        # long texts wrap (rows grow), the full text is the row's tooltip and, for the
        # selected row, the details box below.
        self.table.setHeaderLabels(["#", "status", "command"])
        header = self.table.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setWordWrap(True)
        self.table.setUniformRowHeights(False)
        self.table.setAlternatingRowColors(True)  # each row's lines stay apart from the next
        self.table.setItemDelegate(WrappingDelegate(self.table))
        CommandColumnShare(self.table)
        self.table.setRootIsDecorated(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        listing = QWidget()
        listing_layout = QVBoxLayout(listing)
        listing_layout.setContentsMargins(0, 0, 0, 0)
        listing_layout.addWidget(self.summary)
        listing_layout.addWidget(self.table, 1)
        self.details = RowDetails()
        self.table.currentItemChanged.connect(lambda item, _old: self.details.show_row(item))
        listing_layout.addWidget(self.details)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.editor)
        self.splitter.addWidget(listing)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.refresh)
        self.editor.textChanged.connect(self._timer.start)

    def text(self) -> str:
        return self.editor.toPlainText()

    def set_text(self, text: str) -> None:
        self.editor.setPlainText(text)
        self.refresh()

    def focus_editor(self, select_all: bool = False) -> None:
        """Focus the box; after a run, select all so the next Ctrl+V replaces the reply."""
        self.editor.setFocus(Qt.FocusReason.OtherFocusReason)
        if select_all:
            self.editor.selectAll()

    def refresh(self) -> None:
        self._timer.stop()
        text = self.text()
        if "OPERATOR" in text:  # also OPERATOR\_CMD, as markdown escapes it
            from ...core.protocol.detect import detect_paste  # lazy: only once pasted

            found = detect_paste(text)
            self.detected, self.result_blocks = found.commands, found.result_blocks
            self.notes = found.notes
        else:
            self.detected, self.result_blocks, self.notes = [], 0, ()
        self.outcomes = {}
        self._fill()
        self.detected_changed.emit()

    def _fill(self) -> None:
        self.table.clear()
        self.rows = {}
        self.details.show_row(None)
        writes_before = False
        for found in self.detected:
            if found.problem:
                status, colour = found.problem, PROBLEM_FG
            elif found.writes:
                status, colour = "needs approval", WRITE_FG
            elif self._secret_read(found):
                status, colour = "needs approval (secret-looking file)", WRITE_FG
            else:
                status, colour = read_status(found.action, writes_before), None
            writes_before = writes_before or (found.writes and not found.problem)
            what = f"{found.action or '?'} {found.path or ''}".rstrip() + f"  (id {found.id})"
            row = QTreeWidgetItem([str(found.index + 1), shown(status), shown(what)])
            row.setToolTip(1, plain_tip(status))
            row.setToolTip(2, plain_tip(what))
            if colour:
                row.setForeground(1, QBrush(QColor(colour)))
            row.setData(0, INDEX_ROLE, found.index)
            self.rows[found.index] = row
            self.table.addTopLevelItem(row)
            self.table.addTopLevelItems(swallowed_rows(found))
        self._show_summary()

    def _show_summary(self) -> None:
        text = self.describe()
        set_plain(self.summary, text)
        self.summary.setToolTip(plain_tip(text))

    def _secret_read(self, found: Detected) -> bool:
        """A valid read that sends a secret-looking file's content waits for approval."""
        if found.problem or found.writes or not found.path or not found.action:
            return False
        if self.secret_check is None or not self.secret_check(found.path):
            return False
        from ...core.actions import get_spec
        from ...core.actions.base import Secrecy

        return get_spec(found.action).secrecy is Secrecy.CONTENT  # as plan.secrecy.hold

    def mark_verdicts(self, verdicts: Mapping[int, ItemVerdict]) -> None:
        """After a run, from the core's verdicts: a repeat is said to be one (grey, with
        when it first ran), a command asked again shows its earlier rejection."""
        for index, verdict in verdicts.items():
            item = self.rows.get(index)
            if item is not None:
                style_status(item, verdict.verdict, verdict_status(verdict))
        self.outcomes = {i: (v.verdict, v.summary) for i, v in verdicts.items()}
        self.details.show_row(self.table.currentItem())
        self._show_summary()

    def mark_asked_again(self, rejected: Mapping[int, Rejection]) -> None:
        """While the review is open: the commands asked again, with their rejection."""
        for index, rejection in rejected.items():
            item = self.rows.get(index)
            if item is not None:
                style_status(item, "rejected", asked_again_status(rejection))

    def mark_undone(self, ids: set[str]) -> None:
        """After an undo: a listed command that ran ok under one of ``ids`` is shown as
        undone, so the list never claims a change that is no longer on disk."""
        for row, found in enumerate(self.detected):
            item = self.rows.get(found.index)
            if item is None or found.id not in ids or not item.text(1).startswith("ok: "):
                continue
            status = "undone: " + item.text(1).removeprefix("ok: ")  # already shown
            tip = status
            if row in self.outcomes:
                self.outcomes[row] = ("undone", self.outcomes[row][1])
                tip = "undone: " + self.outcomes[row][1]
            item.setText(1, status)
            item.setToolTip(1, plain_tip(tip))
            item.setForeground(1, QBrush(QColor(WRITE_FG)))
        self._show_summary()

    def describe(self) -> str:
        if not self.detected:
            base = "No OPERATOR_CMD blocks found." if self.text().strip() else "No commands yet."
        else:
            base = counted(len(self.detected), "command") + self._counts() + "."
            swallowed = sum(len(found.swallowed) for found in self.detected)
            if swallowed:
                base += f" {counted(swallowed, 'more block')} swallowed (an END line is missing)."
        for note in self.notes:
            base += f" Warning: {note[:1].upper()}{note[1:]}."
        return base

    def _counts(self) -> str:
        """Before a run, what will need approval; after it, what happened."""
        if self.outcomes:  # invalid commands ran too, and failed
            verdicts = [verdict for verdict, _summary in self.outcomes.values()]
            ran = ", ".join(f"{verdicts.count(v)} {v}" for v in ("ok", "failed", "rejected"))
            undone = verdicts.count("undone")
            repeated = verdicts.count("repeated")
            said = f" ran: {ran}" + (f", {undone} undone since" if undone else "")
            if repeated:
                fresh = len(verdicts) - repeated
                said = f", {fresh}{said}; {repeated} repeated, not run again"
            return said
        invalid = sum(1 for f in self.detected if f.problem)
        asking = sum(
            1 for f in self.detected if not f.problem and (f.writes or self._secret_read(f))
        )
        verb = "needs" if asking == 1 else "need"
        return f": {asking} {verb} approval, {invalid} invalid"
