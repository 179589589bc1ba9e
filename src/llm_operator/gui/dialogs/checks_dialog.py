"""The workspace's checks, edited in the window: list, add, edit, remove.

The same checks ``llm-operator checks`` edits, in the workspace's state store
(``core/store/checks.py``), never in a file of the workspace. Every change is saved when
the person presses Save or Remove, so the dialog holds nothing the store does not.
Input is checked before it is saved, and a refusal says what to fix: the name, the
command line (a quote left open), the environment names a check keeps.
"""

from __future__ import annotations

import re
import shlex

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...core.errors import OperatorError
from ...core.store.checks import Check, add_check, check_name, list_checks, remove_check
from ...core.store.commands import DEFAULT_TIMEOUT, MAX_TIMEOUT
from ...core.store.database import StateStore
from ...core.visible import shown
from ..plain_text import set_plain

ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def check_from(name: str, line: str, shell: bool, timeout: int, keep: str) -> Check:
    """The check the form describes; OperatorError with what to fix when it is not one."""
    name = name.strip()
    if not name:
        raise OperatorError("ERR_INVALID_FIELD", "give the check a name, such as test or lint")
    check_name(name)
    if not line.strip():
        raise OperatorError(
            "ERR_INVALID_FIELD", "give the command line to run, such as python -m pytest -q"
        )
    names = tuple(keep.replace(",", " ").split())
    for env in names:
        if not ENV_NAME.match(env):
            raise OperatorError(
                "ERR_INVALID_FIELD",
                f"{shown(env)!r} is not an environment variable name (letters, digits and _, "
                "not starting with a digit); list the names separated by spaces",
            )
    check = Check(name, line.strip(), shell, timeout, names)
    check.argv  # noqa: B018 - a line that cannot be split is refused now
    if shell:
        try:  # /bin/sh would refuse it only when it runs
            shlex.split(check.command)
        except ValueError:
            raise OperatorError(
                "ERR_INVALID_FIELD",
                "the command line has a quote left open; close it, or escape it with a backslash",
            ) from None
    return check


class ChecksDialog(QDialog):
    def __init__(self, parent: QWidget | None, store: StateStore, workspace: str) -> None:
        super().__init__(parent)
        self.setObjectName("checks-dialog")
        self.setWindowTitle(f"LLM Operator - Checks of {shown(workspace)}")
        self.resize(760, 460)
        self._store = store
        self._editing: str | None = None  # the name of the check the form shows
        layout = QVBoxLayout(self)
        intro = QLabel(
            "A check is a command line the model may run without asking (run.check name: "
            "...), such as the tests or the linter. Checks are kept in the app's state for "
            "this workspace, never in a file of it."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        body = QHBoxLayout()
        self.checks = QListWidget()
        self.checks.setObjectName("checks-list")
        self.checks.currentItemChanged.connect(self._selected)
        body.addWidget(self.checks, 2)
        form_box = QVBoxLayout()
        form = QFormLayout()
        self.name = QLineEdit()
        self.name.setObjectName("check-name")
        self.name.setPlaceholderText("test")
        form.addRow("&Name:", self.name)
        self.line = QLineEdit()
        self.line.setObjectName("check-command")
        self.line.setPlaceholderText("python -m pytest -q")
        form.addRow("&Command line:", self.line)
        self.shell = QCheckBox("Run the line with /bin/sh -c (pipes, variables)")
        form.addRow("", self.shell)
        self.timeout = QSpinBox()
        self.timeout.setObjectName("check-timeout")
        self.timeout.setRange(1, MAX_TIMEOUT)
        self.timeout.setValue(DEFAULT_TIMEOUT)
        self.timeout.setSuffix(" s")
        form.addRow("&Timeout:", self.timeout)
        self.keep = QLineEdit()
        self.keep.setObjectName("check-keep")
        self.keep.setPlaceholderText("PYPI_TOKEN (names kept though they look secret)")
        form.addRow("&Keeps variables:", self.keep)
        form_box.addLayout(form)
        self.problem = QLabel()
        self.problem.setObjectName("check-problem")
        self.problem.setWordWrap(True)
        form_box.addWidget(self.problem)
        buttons = QHBoxLayout()
        self.new_button = QPushButton("&New")
        self.new_button.clicked.connect(self._new)
        self.save_button = QPushButton("&Save")
        self.save_button.setObjectName("save-check")
        self.save_button.clicked.connect(self.save)
        self.remove_button = QPushButton("&Remove")
        self.remove_button.setObjectName("remove-check")
        self.remove_button.clicked.connect(self.remove)
        for button in (self.new_button, self.save_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        form_box.addLayout(buttons)
        form_box.addStretch(1)
        body.addLayout(form_box, 3)
        layout.addLayout(body, 1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout.addWidget(close)
        self.reload()
        self._new()

    @classmethod
    def ask(cls, parent: QWidget | None, store: StateStore, workspace: str) -> None:
        dialog = cls(parent, store, workspace)
        try:
            dialog.exec()
        finally:
            dialog.deleteLater()

    def reload(self, select: str | None = None) -> None:
        """The list as the store holds it now (another process may have changed it)."""
        self.checks.blockSignals(True)
        self.checks.clear()
        try:
            found = list_checks(self._store)
        except OperatorError as error:
            self._say(f"The checks cannot be read ({error.code}): {error.message}", refused=True)
            found = ()
        for check in found:
            how = " (shell)" if check.shell else ""
            item = QListWidgetItem(f"{shown(check.name)}: {shown(check.command)}{how}")
            item.setData(Qt.ItemDataRole.UserRole, check)
            self.checks.addItem(item)
            if check.name == select:
                self.checks.setCurrentItem(item)
        self.checks.blockSignals(False)
        self.remove_button.setEnabled(self._editing is not None)

    def _selected(self, item: QListWidgetItem | None, _previous: object = None) -> None:
        if item is None:
            return
        check: Check = item.data(Qt.ItemDataRole.UserRole)
        self._editing = check.name
        self.name.setText(check.name)
        self.line.setText(check.command)
        self.shell.setChecked(check.shell)
        self.timeout.setValue(check.timeout)
        self.keep.setText(" ".join(check.keep))
        self.remove_button.setEnabled(True)
        self._say("")

    def _new(self) -> None:
        self._editing = None
        self.checks.setCurrentRow(-1)
        self.name.clear()
        self.line.clear()
        self.shell.setChecked(False)
        self.timeout.setValue(DEFAULT_TIMEOUT)
        self.keep.clear()
        self.remove_button.setEnabled(False)
        self._say("")
        self.name.setFocus()

    def _say(self, text: str, refused: bool = False) -> None:
        self.problem.setStyleSheet("color: #b00020" if refused else "")
        set_plain(self.problem, text, rendered=True)

    def save(self) -> bool:
        """Save the form as a check (replacing the one being edited); False with a reason
        shown when the form is not a check or the store refused it."""
        try:
            check = check_from(
                self.name.text(),
                self.line.text(),
                self.shell.isChecked(),
                self.timeout.value(),
                self.keep.text(),
            )
        except OperatorError as error:
            self._say(f"Not saved: {error.message}.", refused=True)
            return False
        taken = {c.name for c in self._listed()}
        if check.name != self._editing and check.name in taken:
            self._say(
                f"Not saved: a check named {shown(check.name)} exists; select it to edit it, "
                "or choose another name.",
                refused=True,
            )
            return False
        try:
            add_check(self._store, check)
            if self._editing is not None and self._editing != check.name:
                remove_check(self._store, self._editing)  # renamed
        except OperatorError as error:
            self._say(f"Not saved ({error.code}): {error.message}.", refused=True)
            return False
        self._editing = check.name
        self.reload(select=check.name)
        self._say(f"Saved: {shown(check.name)} runs {shown(check.command)}.")
        return True

    def remove(self) -> bool:
        name = self._editing
        if name is None:
            return False
        try:
            remove_check(self._store, name)
        except OperatorError as error:
            self._say(f"Not removed ({error.code}): {error.message}.", refused=True)
            return False
        self._new()
        self.reload()
        self._say(f"Removed {shown(name)}.")
        return True

    def _listed(self) -> list[Check]:
        return [
            self.checks.item(row).data(Qt.ItemDataRole.UserRole)
            for row in range(self.checks.count())
        ]
