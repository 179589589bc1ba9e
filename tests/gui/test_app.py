"""Start-up: the entry point, resources, and nothing heavy imported before the window shows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.gui.app import UI_SWITCH_INTERVAL, app_icon, run_app
from llm_operator.gui.assets import DESKTOP_FILE, ICON, ICON_PNG, asset_bytes
from llm_operator.gui.main_window import MainWindow


def test_run_app_shows_the_window_for_the_workspace(
    qtbot: QtBot, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    switched: list[float] = []
    monkeypatch.setattr(sys, "setswitchinterval", switched.append)  # process-wide: not here

    def look_and_close() -> None:
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
        for window in windows:
            if window.session is None:  # the workspace opens just after the window shows
                QTimer.singleShot(50, look_and_close)
                return
        seen.extend(window.windowTitle() for window in windows)
        assert all(not window.windowIcon().isNull() for window in windows)
        for window in windows:
            window.close()
            window.deleteLater()

    QTimer.singleShot(0, look_and_close)
    assert run_app(workspace) == 0
    assert seen == ["LLM Operator - project"]
    assert switched == [UI_SWITCH_INTERVAL]  # the watcher's threads yield to the UI quickly


def test_the_icon_and_the_desktop_file_ship_as_resources() -> None:
    assert ICON.endswith(".svg")
    assert not app_icon().isNull()
    assert asset_bytes(ICON).lstrip().startswith(b"<svg")
    assert asset_bytes(ICON_PNG).startswith(b"\x89PNG")
    desktop = asset_bytes(DESKTOP_FILE).decode()
    assert DESKTOP_FILE.endswith(".desktop")
    assert "\nExec=llm-operator\n" in desktop
    assert "\nType=Application\n" in desktop


STARTUP_PROBE = """
import sys
from pathlib import Path
from PySide6.QtWidgets import QApplication
from llm_operator.gui.main_window import MainWindow
from llm_operator.core.store.settings import Settings
app = QApplication([])
window = MainWindow(Settings.load(Path(sys.argv[1]) / "s.json"), state_dir=Path(sys.argv[1]),
                    workspace=Path(sys.argv[2]))
window.show()
heavy = ["watchdog", "llm_operator.core.engines.diffing", "llm_operator.core.plan.session",
         "llm_operator.core.actions.read", "llm_operator.core.actions.write", "pydantic",
         "llm_operator.gui.panes.history", "llm_operator.gui.highlight"]
print(",".join(name for name in heavy if name in sys.modules))
"""


def test_nothing_heavy_is_imported_before_the_window_shows(tmp_path: Path, workspace: Path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, "-c", STARTUP_PROBE, str(tmp_path), str(workspace)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == ""
