"""One dialog for every write (and secret-looking read) of a run.

Safe by default: every command starts rejected. The user either presses Approve all
(Ctrl+Return), Reject all (Esc, or closing the dialog), or ticks the commands to approve
and presses Apply my choices (Alt+A). An optional reason per command goes back to the LLM
in the result of a rejected command. The dialog returns decisions as data; it never runs
anything itself.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontDatabase, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ..highlight import DiffHighlighter

if TYPE_CHECKING:
    from ...core.plan.session import Decision, Pending

BADGE_STYLES = {
    "new": ("new file", "#1a7f37"),
    "deleted": ("deleted", "#cf222e"),
    "edited": ("edited", "#57606a"),
    "outside": ("changed outside since read", "#bc4c00"),
    "secret": ("sends a secret-looking file", "#8250df"),
}
DIFF_STYLE = "QPlainTextEdit { background: #ffffff; color: #1f2328; }"


class Choice(enum.Enum):
    REJECT_ALL = "reject all"
    APPROVE_ALL = "approve all"
    PER_COMMAND = "per command"


def badge(kind: str) -> QLabel:
    text, colour = BADGE_STYLES[kind]
    label = QLabel(text)
    label.setObjectName(f"badge-{kind}")
    label.setStyleSheet(
        f"QLabel {{ color: white; background: {colour}; border-radius: 4px; padding: 1px 6px; }}"
    )
    return label


class CommandCard(QFrame):
    """One pending command: what it does, its diffs, approve box and reason field."""

    def __init__(self, number: int, item: Pending, changed_outside: Collection[str]) -> None:
        super().__init__()
        from ...core.plan.preview import preview_change  # lazy: pulls in the diff engine

        self.item = item
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        title = QLabel(f"<b>{number}. {item.action}</b> &nbsp; id <code>{item.id}</code>")
        self.approve = QCheckBox("Approve")
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("Reason if rejected (sent back to the LLM)")
        # Typing a reason means "reject this one"; approving again keeps the text harmlessly.
        self.reason.textEdited.connect(lambda _text: self.approve.setChecked(False))
        top = QHBoxLayout()
        top.addWidget(title)
        top.addStretch(1)
        top.addWidget(self.approve)
        layout.addLayout(top)
        self.badges: list[str] = []
        if item.reveal is not None:
            self._add_reveal(layout)
        else:
            assert item.plan is not None
            layout.addWidget(QLabel(item.plan.outcome.summary))
            for note in item.plan.notes:
                layout.addWidget(QLabel(f"note: {note}"))
            if item.builds_on:
                layout.addWidget(
                    QLabel("builds on an earlier command of this reply: approve both or neither")
                )
            for change in item.changes:
                self._add_change(layout, preview_change(change), change.path in changed_outside)
        layout.addWidget(self.reason)

    def _add_reveal(self, layout: QVBoxLayout) -> None:
        assert self.item.reveal is not None
        row = QHBoxLayout()
        row.addWidget(badge("secret"))
        self.badges.append("secret")
        row.addWidget(QLabel(", ".join(self.item.reveal.paths)))
        row.addStretch(1)
        layout.addLayout(row)
        reason = QLabel(f"Wants to send file content to the chat: {self.item.reveal.reason}")
        reason.setWordWrap(True)
        layout.addWidget(reason)

    def _add_change(self, layout: QVBoxLayout, preview: object, outside: bool) -> None:
        from ...core.plan.preview import ChangePreview

        assert isinstance(preview, ChangePreview)
        row = QHBoxLayout()
        path = QLabel(f"<code>{preview.path}</code> &nbsp; +{preview.added} -{preview.removed}")
        row.addWidget(path)
        kinds = [preview.badge] + (["outside"] if outside else [])
        for kind in kinds:
            row.addWidget(badge(kind))
            self.badges.append(kind)
        row.addStretch(1)
        layout.addLayout(row)
        view = QPlainTextEdit()
        view.setObjectName("diff")
        view.setReadOnly(True)
        view.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # Tab moves between decisions only
        view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        view.setStyleSheet(DIFF_STYLE)
        view.highlighter = DiffHighlighter(view.document(), preview.path)  # type: ignore[attr-defined]
        view.setPlainText(preview.diff)
        lines = max(3, min(preview.diff.count("\n") + 2, 24))
        view.setFixedHeight(view.fontMetrics().lineSpacing() * lines + 12)
        layout.addWidget(view)


class ConfirmDialog(QDialog):
    def __init__(
        self,
        parent: QWidget | None,
        pending: Sequence[Pending],
        changed_outside: Collection[str] = (),
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"LLM Operator - confirm {len(pending)} command(s)")
        self.choice = Choice.REJECT_ALL
        layout = QVBoxLayout(self)
        intro = QLabel(
            f"{len(pending)} command(s) need your decision. Nothing runs unless approved.<br>"
            "<b>Ctrl+Return</b> approve all &nbsp; <b>Esc</b> reject all &nbsp; "
            "<b>Alt+A</b> apply the ticked boxes (unticked are rejected)"
        )
        layout.addWidget(intro)
        cards = QWidget()
        cards_layout = QVBoxLayout(cards)
        self.cards = [
            CommandCard(number, item, changed_outside)
            for number, item in enumerate(pending, start=1)
        ]
        for card in self.cards:
            cards_layout.addWidget(card)
        cards_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(cards)
        layout.addWidget(scroll, 1)
        buttons = QHBoxLayout()
        self.reject_button = QPushButton("Reject all (Esc)")
        self.apply_button = QPushButton("Apply my choices (Alt+A)")
        self.approve_button = QPushButton("Approve all (Ctrl+Return)")
        for button in (self.reject_button, self.apply_button, self.approve_button):
            button.setAutoDefault(False)  # Return in a reason field must not decide anything
            buttons.addWidget(button)
        buttons.insertStretch(1, 1)
        layout.addLayout(buttons)
        self.reject_button.clicked.connect(self.reject)
        self.apply_button.clicked.connect(self.apply_choices)
        self.approve_button.clicked.connect(self.approve_all)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, self.approve_all)
        # An explicit shortcut: button mnemonics are off on some platforms and themes.
        QShortcut(QKeySequence("Alt+A"), self, self.apply_choices)
        bold = QFont(self.approve_button.font())
        bold.setBold(True)
        self.approve_button.setFont(bold)
        self.resize(960, 680)
        if self.cards:
            self.cards[0].approve.setFocus()

    def approve_all(self) -> None:
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
        for card in self.cards:
            if self.choice is Choice.APPROVE_ALL:
                approved = True
            elif self.choice is Choice.REJECT_ALL:
                approved = False
            else:
                approved = card.approve.isChecked()
            reason = "" if approved else card.reason.text().strip()
            chosen[card.item.index] = Decision(approved, reason)
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
