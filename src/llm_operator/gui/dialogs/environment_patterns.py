"""The secret-looking environment variable names, edited in the window's Settings menu.

A command the model asks for (run.command, run.check) starts without the environment
variables whose names match one of these patterns (any case), unless a check keeps them
by name. The list is the setting ``secret_environment``, shared with ``exec`` and ``mcp``.
A pattern is a name with ``*`` and ``?`` wildcards; anything else is refused with what
to fix, and the dialog stays open.
"""

from __future__ import annotations

import re

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from ...core.store.workspace import DEFAULT_SECRET_ENVIRONMENT
from ...core.visible import shown
from ..plain_text import set_plain

PATTERN = re.compile(r"[A-Za-z0-9_*?]+\Z")


def parse_patterns(text: str) -> list[str]:
    """The patterns of ``text`` (one per line, blank lines skipped); ValueError saying
    which line is not a pattern."""
    patterns: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        pattern = line.strip()
        if not pattern:
            continue
        if not PATTERN.match(pattern):
            raise ValueError(
                f"line {number}, {shown(pattern)}, is not a name pattern: use letters, "
                "digits, _ and the wildcards * and ?, one pattern per line"
            )
        if pattern not in patterns:
            patterns.append(pattern)
    return patterns


class EnvironmentPatternsDialog(QDialog):
    def __init__(self, parent: QWidget | None, current: list[str]) -> None:
        super().__init__(parent)
        self.setObjectName("environment-patterns")
        self.setWindowTitle("Secret-looking environment variables")
        self.resize(560, 380)
        self.patterns: list[str] = list(current)
        layout = QVBoxLayout(self)
        intro = QLabel(
            "Commands the model asks for (run.command, run.check) start without the "
            "environment variables whose names match one of these patterns (one per line, "
            "* and ? as wildcards, any case), unless a check keeps them by name. The "
            f"defaults are {', '.join(DEFAULT_SECRET_ENVIRONMENT)}."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.editor = QPlainTextEdit("\n".join(current))
        self.editor.setObjectName("environment-patterns-text")
        layout.addWidget(self.editor, 1)
        self.problem = QLabel()
        self.problem.setObjectName("environment-patterns-problem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b00020")
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.RestoreDefaults
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        defaults = buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults)
        defaults.clicked.connect(
            lambda: self.editor.setPlainText("\n".join(DEFAULT_SECRET_ENVIRONMENT))
        )
        layout.addWidget(buttons)

    def accept(self) -> None:
        try:
            self.patterns = parse_patterns(self.editor.toPlainText())
        except ValueError as error:
            set_plain(self.problem, f"Not saved: {error}.", rendered=True)
            return
        super().accept()

    @classmethod
    def ask(cls, parent: QWidget | None, current: list[str]) -> list[str] | None:
        dialog = cls(parent, current)
        try:
            return dialog.patterns if dialog.exec() == QDialog.DialogCode.Accepted else None
        finally:
            dialog.deleteLater()
