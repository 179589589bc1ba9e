"""LLM_OPERATOR_STATUS_LOG: scripts that drive the window read its status messages."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from llm_operator.gui.status_log import STATUS_LOG_ENV

from .conftest import WindowFactory


def test_status_messages_are_appended_to_the_log_file(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "status.log"
    monkeypatch.setenv(STATUS_LOG_ENV, str(log))
    window = make_window()
    window.statusBar().showMessage("Ran 1 command\u202e: 1 ok")
    assert log.read_text(encoding="utf-8").splitlines()[-1] == "Ran 1 command<U+202E>: 1 ok"


def test_without_the_variable_nothing_is_written(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(STATUS_LOG_ENV, raising=False)
    window = make_window()
    window.statusBar().showMessage("hello")
    assert not list(tmp_path.glob("*.log"))
