"""The review of one run's writes (and secret-looking reads): one dialog, keyboard first.

Left, every command and its files with badges; right, the selected file's diff (line
numbers, changed words, unified or side by side) and the command's decision. Safe by
default: every command starts rejected. Ctrl+Return approves every command whose reason
box is empty (a typed reason always means reject) and its button says how many that is;
Esc (or closing) rejects all; Alt+A applies the ticked boxes. Everything is described in
the present tense: nothing has happened yet. The dialog returns decisions as data.

Keys: Alt+Down / Alt+Up (or F8 / Shift+F8) next / previous file, Alt+Y approve the
selected command (Space in the list ticks and unticks it), Alt+R reject it and type a
reason, Alt+S unified / side by side, Ctrl+F find in the diff (F3 / Shift+F3 next /
previous). Tab goes from the list to the diff, the search, the decision and the buttons.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.actions.base import Kind
from ...core.visible import shown
from ...core.wording import counted
from ..plain_text import plain_tip
from .diff_search import SearchBar
from .diff_view import DiffView

if TYPE_CHECKING:
    from ...core.plan.preview import ChangePreview
    from ...core.plan.session import Decision, Pending

BADGE_STYLES = {
    "new": ("new", "#1a7f37"),
    "deleted": ("deleted", "#cf222e"),
    "edited": ("edited", "#57606a"),
    "outside": ("changed outside", "#bc4c00"),
    "secret": ("secret", "#8250df"),
}
APPROVED_FG = "#1a7f37"
REJECTED_FG = "#cf222e"


class Choice(enum.Enum):
    REJECT_ALL = "reject all"
    APPROVE_ALL = "approve all"  # every command without a typed reason
    PER_COMMAND = "per command"


class CommandState:
    """The decision being made for one pending command."""

    def __init__(self, number: int, item: Pending, outside: Collection[str]) -> None:
        self.number = number
        self.item = item
        self.approved = False
        self.reason = ""
        self.seen: set[int] = set()  # file rows of this command shown on the right
        self.badges: list[list[str]] = []  # per file row
        if item.reveal is not None:
            self.badges.append(["secret"])
        for preview in item.previews:
            self.badges.append([preview.badge] + (["outside"] if preview.path in outside else []))

    @property
    def rejected_by_reason(self) -> bool:
        return bool(self.reason.strip())

    def describe(self) -> str:
        """What this command will do, as plain text: every reply's text through the one
        renderer, and the header that shows it is a plain-text label (no markup, ever)."""
        item = self.item
        lines = [f"{self.number}. {shown(item.action)}   id {shown(item.id)}"]
        if item.reveal is not None:
            paths = ", ".join(shown(path) for path in item.reveal.paths)
            if item.held and item.command.spec.kind is Kind.WRITE:
                lines.append(
                    f"Will read {paths} to plan the change; the change is shown for approval next."
                )
            else:
                lines.append(f"Will send the content of {paths} to the chat.")
            lines.append(f"Why it asks: {shown(item.reveal.reason)}")
            # What would leave, as the person must see it: size and first lines, each
            # already through the one renderer (store.secret_preview).
            lines += item.reveal.preview
        for preview in item.previews:
            lines += [shown(line) for line in preview.review]
        if item.plan is not None:
            lines += [f"note: {shown(note)}" for note in item.plan.notes]
        if item.builds_on:
            lines.append("Builds on an earlier command of this reply: approve both or neither.")
        return "\n".join(lines)


class ConfirmDialog(QDialog):
    def __init__(
        self,
        parent: QWidget | None,
        pending: Sequence[Pending],
        changed_outside: Collection[str] = (),
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"LLM Operator - confirm {counted(len(pending), 'command')}")
        self.choice = Choice.REJECT_ALL
        self.states = [
            CommandState(number, item, changed_outside)
            for number, item in enumerate(pending, start=1)
        ]
        self._current: CommandState | None = None
        self._build()
        self._fill_list()
        self._fit_to_screen(1280, 800)
        if self.file_rows:
            self.listing.setCurrentItem(self.file_rows[0])
        self.listing.setFocus()
        self._update_buttons()

    # -- layout ----------------------------------------------------------------

    def _fit_to_screen(self, width: int, height: int) -> None:
        """The preferred size, or nine tenths of a smaller screen (800x600 included)."""
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is not None:
            room = screen.availableGeometry()
            width = min(width, room.width() * 9 // 10)
            height = min(height, room.height() * 9 // 10)
        self.resize(width, height)

    def _build(self) -> None:
        intro = QLabel(
            f"{counted(len(self.states), 'command')} "
            f"{'needs' if len(self.states) == 1 else 'need'} "
            "your decision. Nothing runs unless approved. "
            "<b>Alt+Down/Up</b> next/previous file &nbsp; <b>Alt+Y</b> approve &nbsp; "
            "<b>Alt+R</b> reject with a reason &nbsp; <b>Alt+S</b> side by side &nbsp; "
            "<b>Ctrl+F</b> find"
        )
        intro.setWordWrap(True)
        self.listing = QTreeWidget()
        self.listing.setObjectName("review-list")
        # One column for the decision (command rows) and the badges (file rows), so both
        # stay in sight in a narrow list; long texts are elided, the tooltip has them.
        self.listing.setHeaderLabels(["command / file", "decision / badges"])
        self.listing.header().setStretchLastSection(True)
        self.listing.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.listing.currentItemChanged.connect(self._on_selected)
        self.header = QLabel()
        self.header.setObjectName("review-header")
        self.header.setTextFormat(Qt.TextFormat.PlainText)  # it shows a reply's text
        self.header.setWordWrap(True)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.diff = DiffView()
        self.search = SearchBar(self.diff)
        self.approve = QCheckBox("Approve this command (Alt+Y)")
        self.approve.setObjectName("approve")
        self.approve.toggled.connect(self._on_approve_toggled)
        self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText("Reason to reject (sent back to the LLM); typing rejects")
        self.reason.textEdited.connect(self._on_reason_edited)
        self.side_by_side = QCheckBox("Side by side (Alt+S)")
        self.side_by_side.toggled.connect(self.diff.set_side_by_side)
        decision = QHBoxLayout()
        decision.addWidget(self.approve)
        decision.addStretch(1)
        decision.addWidget(self.side_by_side)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.header)
        right_layout.addWidget(self.diff, 1)
        right_layout.addWidget(self.search)
        right_layout.addLayout(decision)
        right_layout.addWidget(self.reason)  # a row of its own: room to type at 800x600
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.listing)
        split.addWidget(right)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 3)
        split.setSizes([260, 1020])  # the diff gets the room: side by side stays readable
        self.reject_button = QPushButton("Reject all (Esc)")
        self.apply_button = QPushButton("Apply my choices (Alt+A)")
        self.approve_button = QPushButton()
        self.approve_button.setObjectName("approve-all")
        bold = QFont(self.approve_button.font())
        bold.setBold(True)
        self.approve_button.setFont(bold)
        buttons = QHBoxLayout()
        self.counts = QLabel()
        buttons.addWidget(self.counts, 1)
        for button in (self.reject_button, self.apply_button, self.approve_button):
            button.setAutoDefault(False)  # Return in a reason field must not decide anything
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(split, 1)
        layout.addLayout(buttons)
        self.reject_button.clicked.connect(self.reject)
        self.apply_button.clicked.connect(self.apply_choices)
        self.approve_button.clicked.connect(self.approve_all)
        shortcuts = {
            "Ctrl+Return": self.approve_all,
            "Ctrl+Enter": self.approve_all,
            "Alt+A": self.apply_choices,  # button mnemonics are off on some platforms
            "Alt+Down": self.next_file,
            "F8": self.next_file,
            "Alt+Up": self.previous_file,
            "Shift+F8": self.previous_file,
            "Alt+Y": self.approve_selected,
            "Alt+R": self.reject_selected,
            "Alt+S": self.side_by_side.toggle,
            "Ctrl+F": self.search.open_bar,
            "F3": self.find_next,
            "Shift+F3": self.find_previous,
        }
        for keys, slot in shortcuts.items():
            QShortcut(QKeySequence(keys), self, slot)
        chain = (
            self.listing,
            self.diff.unified,
            self.diff.left,
            self.diff.right,
            self.search.field,
            self.approve,
            self.side_by_side,
            self.reason,
            self.reject_button,
            self.apply_button,
            self.approve_button,
        )
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)
        # Space in the list ticks or unticks the selected command, as in a list of boxes.
        space = QShortcut(QKeySequence("Space"), self.listing, self.approve.toggle)
        space.setContext(Qt.ShortcutContext.WidgetShortcut)

    def _fill_list(self) -> None:
        self.file_rows: list[QTreeWidgetItem] = []
        self._state_of: dict[int, CommandState] = {}
        self._preview_of: dict[int, ChangePreview | None] = {}
        self.command_rows: list[QTreeWidgetItem] = []
        for state in self.states:
            title = f"{state.number}. {shown(state.item.action)}  {shown(state.item.id)}"
            top = QTreeWidgetItem([title])
            top.setToolTip(0, plain_tip(title, rendered=True))
            self.listing.addTopLevelItem(top)
            self.command_rows.append(top)
            self._state_of[id(top)] = state
            self._preview_of[id(top)] = state.item.previews[0] if state.item.previews else None
            files: list[tuple[str, ChangePreview | None]] = []
            if state.item.reveal is not None:
                files = [(path, None) for path in state.item.reveal.paths[:1]]
            files += [(p.path, p) for p in state.item.previews]
            for (path, preview), badges in zip(files, state.badges, strict=True):
                stats = f"  +{preview.added} -{preview.removed}" if preview else ""
                badge_text = " \u00b7 ".join(BADGE_STYLES[kind][0] for kind in badges)
                row = QTreeWidgetItem([shown(path) + stats, badge_text])
                row.setToolTip(0, plain_tip(path))
                row.setToolTip(1, plain_tip(badge_text))
                colour = BADGE_STYLES["outside" if "outside" in badges else badges[0]][1]
                row.setForeground(1, QBrush(QColor(colour)))
                top.addChild(row)
                self.file_rows.append(row)
                self._state_of[id(row)] = state
                self._preview_of[id(row)] = preview
            if not files:
                self.file_rows.append(top)
            self._show_decision(state)
        self.listing.expandAll()
        self.listing.resizeColumnToContents(0)
        self.listing.setColumnWidth(0, min(self.listing.columnWidth(0), 240))

    # -- selection and navigation -------------------------------------------------

    def _on_selected(self, row: QTreeWidgetItem | None, _old: QTreeWidgetItem | None) -> None:
        if row is None:
            return
        state = self._state_of[id(row)]
        self._current = state
        state.seen.add(self.file_rows.index(row) if row in self.file_rows else -1)
        self.header.setText(state.describe())
        preview = self._preview_of[id(row)]
        if preview is not None:
            note = ""
        elif state.item.reveal is not None:
            note = "No diff: this command sends a file's content to the chat."
        else:
            note = "No file changes."
        self.diff.show_preview(preview, note)
        self.approve.blockSignals(True)
        self.approve.setChecked(state.approved)
        self.approve.blockSignals(False)
        self.reason.setText(state.reason)
        self._update_buttons()

    @property
    def current(self) -> CommandState | None:
        return self._current

    def _move(self, step: int) -> None:
        if not self.file_rows:
            return
        row = self.listing.currentItem()
        at = self.file_rows.index(row) if row in self.file_rows else -1
        if row is not None and row not in self.file_rows and step < 0:
            at = 0  # on a command row: its first file is "here"
        at = max(0, min(len(self.file_rows) - 1, at + step))
        self.listing.setCurrentItem(self.file_rows[at])
        self.listing.scrollToItem(self.file_rows[at])

    def find_next(self) -> None:
        if self.search.isHidden():
            self.search.open_bar()
        else:
            self.diff.find_next()

    def find_previous(self) -> None:
        if self.search.isHidden():
            self.search.open_bar()
        else:
            self.diff.find_previous()

    def next_file(self) -> None:
        self._move(1)

    def previous_file(self) -> None:
        self._move(-1)

    # -- decisions ---------------------------------------------------------------

    def approve_selected(self) -> None:
        if self._current is not None:
            self.approve.setChecked(True)

    def reject_selected(self) -> None:
        if self._current is not None:
            self.approve.setChecked(False)
            self.reason.setFocus()
            self.reason.selectAll()

    def _on_approve_toggled(self, on: bool) -> None:
        state = self._current
        if state is None:
            return
        state.approved = on
        if on and state.reason:
            # Approving is the explicit opposite of a rejection reason: the reason goes.
            state.reason = ""
            self.reason.clear()
        self._show_decision(state)

    def _on_reason_edited(self, text: str) -> None:
        state = self._current
        if state is None:
            return
        state.reason = text
        if text.strip():
            state.approved = False
            self.approve.blockSignals(True)
            self.approve.setChecked(False)
            self.approve.blockSignals(False)
        self._show_decision(state)

    def _show_decision(self, state: CommandState) -> None:
        top = (
            self.command_rows[state.number - 1] if len(self.command_rows) >= state.number else None
        )
        if top is not None:
            if state.approved:
                text, colour = "approved", APPROVED_FG
            elif state.rejected_by_reason:
                text, colour = f"rejected: {shown(state.reason.strip())}", REJECTED_FG
            else:
                text, colour = "not approved", REJECTED_FG
            top.setText(1, text)
            top.setToolTip(1, plain_tip(text, rendered=True))
            top.setForeground(1, QBrush(QColor(colour)))
        self._update_buttons()

    def _update_buttons(self) -> None:
        if not hasattr(self, "approve_button"):
            return
        approvable = sum(1 for s in self.states if not s.rejected_by_reason)
        kept = len(self.states) - approvable
        if kept:
            verb = "stays" if kept == 1 else "stay"
            label = f"Approve {approvable}, {kept} {verb} rejected (Ctrl+Return)"
        else:
            label = f"Approve all {approvable} (Ctrl+Return)"
        self.approve_button.setText(label)
        self.approve_button.setEnabled(approvable > 0)
        ticked = sum(1 for s in self.states if s.approved)
        rows = len(self.file_rows)
        seen = len({n for s in self.states for n in s.seen if n >= 0})
        self.counts.setText(
            f"Ticked: {ticked} of {len(self.states)} approved. "
            f"Seen {seen} of {counted(rows, 'file')}."
        )

    def approve_all(self) -> None:
        if not any(not s.rejected_by_reason for s in self.states):
            return  # every command holds a rejection reason: Ctrl+Return approves nothing
        self.choice = Choice.APPROVE_ALL
        self.accept()

    def apply_choices(self) -> None:
        self.choice = Choice.PER_COMMAND
        self.accept()

    def reject(self) -> None:
        self.choice = Choice.REJECT_ALL
        super().reject()

    def decisions(self) -> dict[int, Decision]:
        from ...core.plan.session import Decision

        chosen: dict[int, Decision] = {}
        for state in self.states:
            if self.choice is Choice.APPROVE_ALL:
                approved = not state.rejected_by_reason
            elif self.choice is Choice.REJECT_ALL:
                approved = False
            else:
                approved = state.approved and not state.rejected_by_reason
            reason = "" if approved else state.reason.strip()
            chosen[state.item.index] = Decision(approved, reason)
        return chosen

    @classmethod
    def ask(
        cls,
        parent: QWidget | None,
        pending: Sequence[Pending],
        changed_outside: Collection[str] = (),
    ) -> dict[int, Decision]:
        dialog = cls(parent, pending, changed_outside)
        try:
            dialog.exec()
            return dialog.decisions()
        finally:
            dialog.deleteLater()
