"""The review's two views of a batch and the editor of a change's new text.

Beside the list, the review shows either one file's diff or the page of every change
(``all_changes``), and under the one-file diff the person may edit the new text
(``review_edit``). This part of ``ConfirmDialog`` keeps the three in step with the list
and with the decisions: what each row shows is the person's edit if there is one, else
the merge into a file that changed outside, else the change as planned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QCheckBox, QLabel, QSplitter, QTabWidget, QTreeWidget

from ...core.visible import shown
from ..plain_text import plain_tip
from .all_changes import AllChanges, Section, section_title
from .review_edit import ChangeEditor, try_preview
from .review_state import BADGE_STYLES, CommandState

if TYPE_CHECKING:
    from PySide6.QtWidgets import QTreeWidgetItem

    from ...core.plan.outside_merge import Rebased
    from ...core.plan.preview import ChangePreview
    from .diff_view import DiffView
    from .outside_review import OutsideChanges


class ReviewViews:
    """The views and the editor; ``ConfirmDialog`` builds the widgets and the list."""

    listing: QTreeWidget
    states: list[CommandState]
    file_rows: list[QTreeWidgetItem]
    command_rows: list[QTreeWidgetItem]
    _state_of: dict[int, CommandState]
    _preview_of: dict[int, ChangePreview | None]
    _file_of: dict[int, tuple[int, str, list[str]]]
    _edited_previews: dict[tuple[int, str], ChangePreview]
    _editing: tuple[CommandState, str] | None
    _current: CommandState | None
    outside: OutsideChanges
    views: QTabWidget
    all_changes: AllChanges
    editor: ChangeEditor
    edit_box: QCheckBox
    header: QLabel
    diff: DiffView
    split: QSplitter
    edit_split: QSplitter

    def _rebased_at(self, row: QTreeWidgetItem | None) -> Rebased | None:
        raise NotImplementedError

    def _show_decision(self, state: CommandState) -> None:
        raise NotImplementedError

    def _describe_row(self, row: QTreeWidgetItem) -> str:
        raise NotImplementedError

    def _update_buttons(self) -> None:
        raise NotImplementedError

    def _size_list(self) -> None:
        """The list as wide as its two columns, up to two fifths of the dialog: a name
        and its decision both in sight without dragging the divider."""
        wanted = self.listing.columnWidth(0) + self.listing.columnWidth(1) + 40
        dialog = self.listing.window()
        width = max(300, min(wanted, dialog.width() * 2 // 5))
        self.split.setSizes([width, max(400, dialog.width() - width)])
        self.edit_split.setSizes([dialog.height() // 2, dialog.height() // 2])

    def _sections(self) -> list[Section]:
        made = []
        for row in self.file_rows:
            state = self._state_of[id(row)]
            where = self._file_of.get(id(row))
            preview = self._shown_preview(row)
            command = f"{state.number}. {shown(state.item.action)}  {shown(state.item.id)}"
            path = where[1] if where is not None else ""
            title = section_title(path, preview) if where is not None else ""
            badges = row.text(1) if row not in self.command_rows else ""
            made.append(Section(title, command, badges, preview, self._no_diff_note(state)))
        return made

    def _shown_preview(self, row: QTreeWidgetItem) -> ChangePreview | None:
        """What the row's diff is now: the person's edit, or the merge into the file as
        it is now, or the change as planned."""
        where = self._file_of.get(id(row))
        if where is not None and (where[0], where[1]) in self._edited_previews:
            return self._edited_previews[(where[0], where[1])]
        rebased = self._rebased_at(row)
        if rebased is not None and rebased.preview is not None:
            return rebased.preview
        return self._preview_of[id(row)]

    @staticmethod
    def _no_diff_note(state: CommandState) -> str:
        if state.item.reveal is not None:
            return "No diff: this command sends a file's content to the chat."
        return "No file changes."

    def _decision_of_file(self, index: int) -> str:
        return self._state_of[id(self.file_rows[index])].decision_text()

    def _on_seen_in_page(self, index: int) -> None:
        self._state_of[id(self.file_rows[index])].seen.add(index)
        self._update_buttons()

    # -- the two views and the editor ----------------------------------------------

    def toggle_view(self) -> None:
        self.views.setCurrentIndex(1 - self.views.currentIndex())

    def _on_view_changed(self, index: int) -> None:
        if index == 1:
            self.edit_box.setChecked(False)
            self.all_changes.set_sections(self._sections())
            row = self.listing.currentItem()
            if row in self.file_rows:
                self.all_changes.go_to(self.file_rows.index(row))
            self.all_changes.setFocus()
        elif self.file_rows:
            row = self.file_rows[self.all_changes.current()]
            self.listing.setCurrentItem(row)
            self.listing.scrollToItem(row)

    def _show_editor(self, on: bool) -> None:
        self.editor.flush()
        if on and self.views.currentIndex() != 0:
            self.views.setCurrentIndex(0)
        self.editor.setVisible(on)
        self._editing = None
        row = self.listing.currentItem()
        where = self._file_of.get(id(row)) if on and row is not None else None
        if where is None or self._current is None:
            self.editor.load(None, None)
            return
        state, path = self._current, where[1]
        change = state.change(path)
        why_not = ""
        if self._rebased_at(row) is not None and path not in state.edits:
            why_not = "This file changed on disk during the review: its change is not edited."
        elif any(state.item.index in other.item.builds_on for other in self.states):
            # The later command was planned on this change's new text: an edit would
            # only get that one refused.
            why_not = "A later command of this reply builds on this change: edit that one."
        if self.editor.load(change, state.edits.get(path), why_not):
            self._editing = (state, path)
            self.editor.text.setFocus()

    def _on_text_edited(self, path: str, text: str) -> None:
        editing = self._editing
        if editing is None or editing[1] != path:
            return
        state = editing[0]
        change = state.change(path)
        assert change is not None
        key = (state.item.index, path)
        made = try_preview(change, text) if text != change.after_text else None
        if made is None or isinstance(made, str):
            state.edits.pop(path, None)
            state.edited_previews.pop(path, None)
            self._edited_previews.pop(key, None)
            if isinstance(made, str):
                self.editor.note.setText(made)
        else:
            state.edits[path] = text
            state.edited_previews[path] = made
            self._edited_previews[key] = made
        for row in self.file_rows:
            where = self._file_of.get(id(row))
            if where is not None and (where[0], where[1]) == key and row not in self.command_rows:
                self._badge_row(
                    row, where[2], self.outside.badge(*key), key in self._edited_previews
                )
        current = self.listing.currentItem()
        if current is not None and self._state_of[id(current)] is state:
            self.header.setText(self._describe_row(current))
            self.diff.show_preview(self._shown_preview(current))
        self._show_decision(state)

    def _badge_row(
        self, row: QTreeWidgetItem, badges: list[str], kind: str | None, yours: bool
    ) -> None:
        """A file row's counts and badges: changed outside first (the column is narrow),
        then the person's own edit, then what the change is."""
        kinds = ([kind] if kind else []) + (["yours"] if yours else []) + badges
        preview = self._shown_preview(row)
        where = self._file_of[id(row)]
        assert preview is not None
        row.setText(0, f"{shown(where[1])}  +{preview.added} -{preview.removed}")
        badge_text = " \u00b7 ".join(BADGE_STYLES[k][0] for k in kinds)
        row.setText(1, badge_text)
        row.setToolTip(1, plain_tip(badge_text))
        colour = BADGE_STYLES[kind or ("outside" if "outside" in badges else kinds[0])][1]
        row.setForeground(1, QBrush(QColor(colour)))
        # The name itself takes the colour too, so the flag is seen in a narrow list.
        row.setData(0, Qt.ItemDataRole.ForegroundRole, QColor(colour) if kind else None)
