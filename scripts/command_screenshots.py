"""The pictures of running commands, for scripts/screenshots.py:

- docs/images/command-output.png: a run.command running, its output live, with Stop;
- docs/images/checks-dialog.png: the workspace's checks (Run > Checks of this workspace);
- docs/images/environment-patterns.png: Settings > Secret-looking environment variables.

Each is the main window at 1280x800 with the dialog drawn over it where it would open.
The running command is a real child that prints test-like lines, then waits for a gate
file, so the picture is taken while it still runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QPoint
from PySide6.QtGui import QColor, QPainter, QPixmap
from PySide6.QtWidgets import QWidget
from qt_waiting import settle, wait_for

TEST_RUN = """\
import os, sys, time
print("============================= test session starts ==============================")
print("platform linux -- Python 3.11.7, pytest-8.3.3")
print("collected 42 items")
print()
for name, dots in (("tests/test_app.py", 12), ("tests/test_greet.py", 9)):
    print(f"{name} " + "." * dots, flush=True)
print("\\x1b[31mtests/test_slow.py F\\x1b[0m", flush=True)
while not os.path.exists(sys.argv[1]):
    time.sleep(0.02)
"""


def _over(window: QWidget, dialog: QWidget, path: Path) -> None:
    """The window with ``dialog`` drawn centred over it, saved to ``path``."""
    picture = window.grab()
    top = dialog.grab()
    painter = QPainter(picture)
    painter.fillRect(picture.rect(), QColor(0, 0, 0, 64))  # the window behind a dialog, dimmed
    at = QPoint((picture.width() - top.width()) // 2, (picture.height() - top.height()) // 3)
    painter.drawPixmap(at, top)
    painter.end()
    QPixmap(picture).save(str(path))


def command_shots(workspace: Path, state: Path, out: Path) -> None:
    from llm_operator.core.plan.run import APPROVE
    from llm_operator.core.store.checks import Check, add_check
    from llm_operator.core.store.settings import Settings
    from llm_operator.gui.dialogs.checks_dialog import ChecksDialog
    from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog
    from llm_operator.gui.dialogs.environment_patterns import EnvironmentPatternsDialog
    from llm_operator.gui.main_window import MainWindow

    approve_all = classmethod(
        lambda cls, parent, pending, outside=(): {item.index: APPROVE for item in pending}
    )
    original = ConfirmDialog.ask
    ConfirmDialog.ask = approve_all  # type: ignore[method-assign, assignment]
    script = state.parent / "test_run.py"
    script.write_text(TEST_RUN)
    gate = state.parent / "gate"
    try:
        settings = Settings.load()
        settings.clipboard_hint_seen = True
        window = MainWindow(settings, state_dir=state, workspace=workspace)
        window.resize(1280, 800)
        window.show()
        wait_for(lambda: window.session is not None, 15)
        line = f"{sys.executable} {script} {gate}"
        window.paste.set_text(
            "Let me run the tests.\n\nOPERATOR_CMD\nversion: 1\nid: run-1\n"
            f"action: run.command\ncommand: {line}\ntimeout: 300\nEND_OPERATOR_CMD\n"
        )
        window.run_reply()
        dialog = window.console.dialog
        wait_for(lambda: "test_slow.py" in dialog.output.toPlainText(), 15)
        settle()
        _over(window, dialog, out / "command-output.png")
        gate.write_text("go")
        wait_for(lambda: not window.flow.busy, 15)
        dialog.hide()

        session = window.session
        assert session is not None
        assert session.state is not None
        store = session.state.store
        assert store is not None
        add_check(store, Check("test", "python -m pytest -q", timeout=600))
        add_check(store, Check("lint", "ruff check src tests"))
        add_check(store, Check("publish-dry", "twine check dist/*", True, 60, ("PYPI_TOKEN",)))
        checks = ChecksDialog(window, store, workspace.name)
        checks.show()
        checks.checks.setCurrentRow(2)
        checks.line.setText("python -m pytest -q 'tests dir")
        checks.save()  # the refusal shows under the form
        settle()
        _over(window, checks, out / "checks-dialog.png")
        checks.close()
        checks.deleteLater()

        patterns = EnvironmentPatternsDialog(window, [*settings.secret_environment, "DEPLOY_*"])
        patterns.show()
        settle()
        _over(window, patterns, out / "environment-patterns.png")
        patterns.close()
        patterns.deleteLater()
        window.close()
    finally:
        ConfirmDialog.ask = original  # type: ignore[method-assign]
        if not gate.exists():
            gate.write_text("go")


NAMES = ("command-output.png", "checks-dialog.png", "environment-patterns.png")
