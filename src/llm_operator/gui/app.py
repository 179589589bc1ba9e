"""Start the window: ``llm-operator`` and ``llm-operator gui [--workspace DIR]``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import QByteArray
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import QApplication

STATE_ENV = "LLM_OPERATOR_STATE_DIR"  # scripts and tests keep their journal elsewhere


def app_icon() -> QIcon:
    from .assets import ICON, asset_bytes

    pixmap = QPixmap()
    try:
        pixmap.loadFromData(QByteArray(asset_bytes(ICON)), "SVG")
    except OSError:
        return QIcon()
    return QIcon(pixmap)


# The file watcher's threads run Python code through an event storm (a build, a checkout);
# the UI thread must get the interpreter back within a millisecond or two, not the default 5
# ms per waiting thread (measured in benchmarks/bench_gui_responsiveness.py).
UI_SWITCH_INTERVAL = 0.001


def keep_the_ui_thread_responsive() -> None:
    sys.setswitchinterval(UI_SWITCH_INTERVAL)


def make_application() -> QApplication:
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    app = QApplication(sys.argv[:1])
    app.setApplicationName("LLM Operator")
    app.setDesktopFileName("llm-operator")
    return app


def run_app(workspace: Path | None) -> int:
    from ..core.store.settings import Settings
    from .main_window import MainWindow

    keep_the_ui_thread_responsive()
    app = make_application()
    app.setWindowIcon(app_icon())
    state = os.environ.get(STATE_ENV)
    window = MainWindow(
        Settings.load(), state_dir=Path(state) if state else None, workspace=workspace
    )
    window.setWindowIcon(app.windowIcon())
    window.show()
    return app.exec()
