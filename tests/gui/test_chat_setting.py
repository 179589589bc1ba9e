"""Options > Chat the parts are for: the chat's preset sizes the results parts."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from llm_operator.core.store.settings import Settings
from llm_operator.gui.main_window import MainWindow
from llm_operator.gui.window_actions import ChatQuestion, PartSizeQuestion

from .conftest import WindowFactory, command, paste_and_run, reply


def _trigger(window: MainWindow, starts: str) -> None:
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Settings")
    next(a for a in menu.actions() if a.text().startswith(starts)).trigger()


def test_the_chat_is_asked_saved_and_sizes_the_parts(
    qtbot: QtBot,
    make_window: WindowFactory,
    workspace: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (workspace / "big.txt").write_text("0123456789\n" * 4000)  # 44,000 characters
    window = make_window(workspace)
    window.settings.part_size = 5000
    monkeypatch.setattr(ChatQuestion, "ask", lambda parent, current: "claude")
    _trigger(window, "C&hat the parts")
    assert window.settings.chat == "claude"
    assert Settings.load(tmp_path / "config" / "settings.json").chat == "claude"
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="big.txt")))
    assert len(window.results.parts) == 1  # 60,000 a part: one part, not nine of 5,000
    # A size of one's own makes the chat custom again.
    monkeypatch.setattr(PartSizeQuestion, "ask", lambda parent, current: 5000)
    _trigger(window, "Characters per")
    assert (window.settings.chat, window.settings.chat_part_size) == ("custom", 5000)
    paste_and_run(qtbot, window, reply(command("r2", "fs.read", path="big.txt")))
    assert len(window.results.parts) > 8
