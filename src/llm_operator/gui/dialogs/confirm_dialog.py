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

A file that changes on disk while the dialog is open is flagged at once (``show_outside``,
fed by ``gui.live_review``), and Alt+O goes to it: its diff becomes the edit merged into
the file as it is now, or the header names the lines that overlap. An approval never goes
out for a merged change the dialog has not displayed: approving first shows it.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QGuiApplication,
    QKeySequence,
    QShortcut,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.visible import shown
from ...core.wording import counted
from ..plain_text import plain_tip
from ..status_log import status_logger
from .all_changes import AllChanges
from .diff_search import SearchBar
from .diff_view import DiffView
from .outside_review import OutsideChanges
from .review_edit import ChangeEditor
from .review_memory import keep_layout, restore_layout
from .review_state import APPROVED_FG, BADGE_STYLES, REJECTED_FG, CommandState
from .review_views import ReviewViews

if TYPE_CHECKING:
    from ...core.plan.outside_merge import Rebased
    from ...core.plan.preview import ChangePreview
    from ...core.plan.run import Decision, Pending


class Choice(enum.Enum):
    REJECT_ALL = "reject all"
    APPROVE_ALL = "approve all"  # every command without a typed reason
    PER_COMMAND = "per command"


class ConfirmDialog(QDialog, ReviewViews):
    # The slots of ReviewViews (a plain class) are reached through lambdas: PySide finds
    # no slot of a second base class by name once a first dialog has been deleted.

    def __init__(
        self,
        parent: QWidget | None,
        pending: Sequence[Pending],
        changed_outside: Collection[str] = (),
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"LLM Operator - confirm {counted(len(pending), 'command')}")
        self.choice = Choice.REJECT_ALL
        self.pending = tuple(pending)
        self.states = [
            CommandState(number, item, changed_outside)
            for number, item in enumerate(pending, start=1)
        ]
        self._current: CommandState | None = None
        self.outside = OutsideChanges()
        self.live: object = None  # what follows the files while the dialog is open
        self._edited_previews: dict[tuple[int, str], ChangePreview] = {}
        self._log = status_logger()
        self._editing: tuple[CommandState, str] | None = None
        self._build()
        self._fill_list()
        self._fit_to_screen(1280, 800)
        self._sized = restore_layout(self, self.splits, self.views)
        if self.file_rows:
            self.listing.setCurrentItem(self.file_rows[0])
        self.listing.setFocus()
        self._update_buttons()
        # The window that opens a review keeps it in step with its files on disk
        # (``MainWindow.follow_review``, ``gui.live_review``); a bare dialog is not followed.
        follow = getattr(parent, "follow_review", None)
        if callable(follow):
            follow(self)

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
            "<b>Alt+R</b> reject with a reason &nbsp; <b>Alt+V</b> all changes / one file "
            "&nbsp; <b>Alt+E</b> edit the new text &nbsp; <b>Alt+S</b> side by side &nbsp; "
            "<b>Ctrl+F</b> find"
        )
        intro.setWordWrap(True)
        self.outside_banner = QLabel()
        self.outside_banner.setObjectName("changed-outside-now")
        self.outside_banner.setWordWrap(True)
        self.outside_banner.setTextFormat(Qt.TextFormat.PlainText)
        self.outside_banner.setStyleSheet(f"color: {BADGE_STYLES['merged'][1]}; font-weight: bold")
        self.outside_banner.hide()
        self._build_list()
        right = self._build_right()
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setObjectName("review-split")
        split.addWidget(self.listing)
        split.addWidget(right)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 3)
        self.split = split
        self.splits = {"split": split, "edit_split": self.edit_split}
        buttons = self._build_buttons()
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.outside_banner)
        layout.addWidget(split, 1)
        layout.addLayout(buttons)
        self._bind_keys()

    def _build_list(self) -> None:
        self.listing = QTreeWidget()
        self.listing.setObjectName("review-list")
        # One column for the decision (command rows) and the badges (file rows), so both
        # stay in sight in a narrow list; long texts are elided, the tooltip has them.
        self.listing.setHeaderLabels(["command / file", "decision / badges"])
        self.listing.header().setStretchLastSection(True)
        # Long names keep their ends in sight: sixteen files under one folder differ there.
        self.listing.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.listing.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.listing.currentItemChanged.connect(self._on_selected)

    def _build_right(self) -> QWidget:
        """The one-file view, the page of all changes and the decision row."""
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
        self.edit_box = QCheckBox("Edit the new text (Alt+E)")
        self.edit_box.setObjectName("edit-new-text")
        self.edit_box.toggled.connect(lambda on: self._show_editor(on))
        decision = QHBoxLayout()
        decision.addWidget(self.approve)
        decision.addStretch(1)
        decision.addWidget(self.edit_box)
        decision.addWidget(self.side_by_side)
        self.editor = ChangeEditor()
        self.editor.edited.connect(lambda path, text: self._on_text_edited(path, text))
        self.editor.hide()
        self.edit_split = QSplitter(Qt.Orientation.Vertical)
        self.edit_split.addWidget(self.diff)
        self.edit_split.addWidget(self.editor)
        one_file = QWidget()
        one_layout = QVBoxLayout(one_file)
        one_layout.setContentsMargins(0, 0, 0, 0)
        one_layout.addWidget(self.header)
        one_layout.addWidget(self.edit_split, 1)
        one_layout.addWidget(self.search)
        self.all_changes = AllChanges(self._decision_of_file)
        self.all_changes.seen_file.connect(lambda index: self._on_seen_in_page(index))
        self.views = QTabWidget()
        self.views.setObjectName("review-views")
        self.views.addTab(one_file, "One file")
        self.views.addTab(self.all_changes, "All changes")
        self.views.tabBar().setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Alt+V switches
        self.views.currentChanged.connect(lambda index: self._on_view_changed(index))
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.views, 1)
        right_layout.addLayout(decision)
        right_layout.addWidget(self.reason)  # a row of its own: room to type at 800x600
        return right

    def _build_buttons(self) -> QHBoxLayout:
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
        return buttons

    def _bind_keys(self) -> None:
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
            "Alt+V": lambda: self.toggle_view(),
            "Alt+E": self.edit_box.toggle,
            "Ctrl+F": self.search.open_bar,
            "Alt+O": self.next_outside,
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
            self.editor.text,
            self.all_changes,
            self.approve,
            self.edit_box,
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
        self._file_of: dict[int, tuple[int, str, list[str]]] = {}  # row -> index, path, badges
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
                if preview is not None:
                    self._file_of[id(row)] = (state.item.index, path, badges)
            if state.item.previews:  # the command's row shows its first file
                first = state.item.previews[0]
                self._file_of[id(top)] = (
                    state.item.index,
                    first.path,
                    state.badges[-len(state.item.previews)],
                )
            if not files:
                self.file_rows.append(top)
            self._show_decision(state)
        self.listing.expandAll()
        self.listing.resizeColumnToContents(0)
        self.listing.resizeColumnToContents(1)
        self.listing.setColumnWidth(0, min(self.listing.columnWidth(0), 420))
        self.all_changes.set_sections(self._sections())

    # -- selection and navigation -------------------------------------------------

    def _on_selected(self, row: QTreeWidgetItem | None, _old: QTreeWidgetItem | None) -> None:
        if row is None:
            return
        self.editor.flush()  # the last keys typed belong to the file they were typed in
        state = self._state_of[id(row)]
        self._current = state
        at = self.file_rows.index(row) if row in self.file_rows else -1
        state.seen.add(at)
        self.header.setText(self._describe_row(row))
        rebased = self._rebased_at(row)
        if rebased is not None and rebased.preview is not None:
            self.outside.mark_shown(state.item.index, rebased.path)
        preview = self._shown_preview(row)
        self.diff.show_preview(preview, "" if preview else self._no_diff_note(state))
        if self.editor.isVisible():
            self._show_editor(True)
        if self.views.currentIndex() == 1 and at >= 0:
            self.all_changes.go_to(at)
        self.approve.blockSignals(True)
        self.approve.setChecked(state.approved)
        self.approve.blockSignals(False)
        self.reason.setText(state.reason)
        self._update_buttons()

    def _describe_row(self, row: QTreeWidgetItem) -> str:
        state = self._state_of[id(row)]
        rebased = self._rebased_at(row)
        if rebased is None:
            return state.describe()
        # What changed on disk comes first: it decides what approving does.
        text = shown(rebased.describe()) + "\n" + state.describe()
        if rebased.path in state.edits:  # the edit is of the old file: never merged
            text = (
                "You edited this change, then the file changed on disk: approving your "
                "edit is refused and nothing is written. Alt+E, Back to the proposed "
                "text, to take the merged change instead.\n" + text
            )
        return text

    @property
    def current(self) -> CommandState | None:
        return self._current

    def _move(self, step: int) -> None:
        if not self.file_rows:
            return
        row = self.listing.currentItem()
        at = self.file_rows.index(row) if row in self.file_rows else -1
        if self.views.currentIndex() == 1:
            at = self.all_changes.current()  # the page's own place: it may have scrolled
        if row is not None and row not in self.file_rows and step < 0:
            at = 0  # on a command row: its first file is "here"
        at = max(0, min(len(self.file_rows) - 1, at + step))
        self.listing.setCurrentItem(self.file_rows[at])
        self.listing.scrollToItem(self.file_rows[at])

    def next_outside(self) -> None:
        """Go to the next file that changed on disk while the review is open (Alt+O)."""
        flagged = [row for row in self.file_rows if self._rebased_at(row) is not None]
        if not flagged:
            return
        row = self.listing.currentItem()
        at = self.file_rows.index(row) if row in self.file_rows else -1
        later = [r for r in flagged if self.file_rows.index(r) > at]
        target = (later or flagged)[0]
        if target is row:
            self._on_selected(row, row)  # the newest finding, shown again
        self.listing.setCurrentItem(target)
        self.listing.scrollToItem(target)

    def _rebased_at(self, row: QTreeWidgetItem | None) -> Rebased | None:
        where = self._file_of.get(id(row)) if row is not None else None
        return self.outside.get(where[0], where[1]) if where is not None else None

    def show_outside(self, found: dict[int, tuple[Rebased, ...]]) -> None:
        """A comparison of the review's files with their plans: flag the files that
        changed on disk, and show the selected one's new diff at once."""
        changed = self.outside.update(found)
        for row in self.file_rows:
            where = self._file_of.get(id(row))
            if where is None:
                continue
            index, path, badges = where
            kind = self.outside.badge(index, path)
            self._badge_row(row, badges, kind, (index, path) in self._edited_previews)
        self._show_banner()
        current = self.listing.currentItem()
        where = self._file_of.get(id(current)) if current is not None else None
        if where is not None and (where[0], where[1]) in changed:
            self._on_selected(current, current)

    def say_outside(self, text: str) -> None:
        self.outside.note = text
        self._show_banner()

    def _show_banner(self) -> None:
        text = self.outside.banner()
        self.outside_banner.setText(text)
        self.outside_banner.setVisible(bool(text))

    def _show_unseen_merges(self) -> bool:
        """Before an approval goes out: show a merged change it would approve that the
        dialog has not displayed yet (True: one was shown, nothing is decided)."""
        for state in self.states:
            would = state.approved if self.choice is Choice.PER_COMMAND else True
            if not would or state.rejected_by_reason:
                continue
            for path in self.outside.unseen(state.item.index):
                row = next(
                    r
                    for r in self.file_rows
                    if self._file_of.get(id(r), (0, ""))[:2] == (state.item.index, path)
                )
                self.listing.setCurrentItem(row)
                self.listing.scrollToItem(row)
                self.say_outside(
                    f"{shown(path)} changed outside the app: its new diff is shown now. "
                    "Approve again to apply the edit merged into it."
                )
                return True
        return False

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
            text = state.decision_text()
            colour = APPROVED_FG if state.approved else REJECTED_FG
            top.setText(1, text)
            top.setToolTip(1, plain_tip(text, rendered=True))
            top.setForeground(1, QBrush(QColor(colour)))
        if self.views.currentIndex() == 1:
            self.all_changes.relayout()
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
        counts = (
            f"Ticked: {ticked} of {len(self.states)} approved. "
            f"Seen {seen} of {counted(rows, 'file')}."
        )
        if counts != self.counts.text() and self._log is not None:
            self._log(f"Review: {counts}")  # for scripts that drive the dialog by keys
        self.counts.setText(counts)

    def approve_all(self) -> None:
        self.editor.flush()
        if not any(not s.rejected_by_reason for s in self.states):
            return  # every command holds a rejection reason: Ctrl+Return approves nothing
        self.choice = Choice.APPROVE_ALL
        if not self._show_unseen_merges():
            self.accept()

    def apply_choices(self) -> None:
        self.editor.flush()
        self.choice = Choice.PER_COMMAND
        if not self._show_unseen_merges():
            self.accept()

    def reject(self) -> None:
        self.choice = Choice.REJECT_ALL
        super().reject()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._sized:  # the splits take sizes once the dialog has its own
            self._sized = True
            self._size_list()

    def done(self, result: int) -> None:
        keep_layout(self, self.splits, self.views)
        super().done(result)

    def decisions(self) -> dict[int, Decision]:
        from ...core.plan.run import Decision

        chosen: dict[int, Decision] = {}
        for state in self.states:
            if self.choice is Choice.APPROVE_ALL:
                approved = not state.rejected_by_reason
            elif self.choice is Choice.REJECT_ALL:
                approved = False
            else:
                approved = state.approved and not state.rejected_by_reason
            reason = "" if approved else state.reason.strip()
            merged = self.outside.merged_for(state.item.index) if approved else ()
            # A file the person edited lands as edited or not at all: never merged.
            merged = tuple(m for m in merged if m.path not in state.edits)
            edited = state.person_edits() if approved else ()
            chosen[state.item.index] = Decision(approved, reason, merged, edited)
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
