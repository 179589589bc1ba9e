"""The first-run hint offers clipboard watching once; accepted or dismissed, it is gone
for good (the flag is kept in the settings file)."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from llm_operator.core.store.settings import Settings

from .conftest import WindowFactory


def _settings(tmp_path: Path) -> Settings:
    return Settings.load(tmp_path / "config" / "settings.json")


def test_accepting_the_hint_turns_watching_on_and_it_never_comes_back(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    window = make_window()
    hint = window.first_run_hint
    assert hint.isVisible()
    assert "watch the clipboard" in hint.text.text()
    assert window.clipboard_indicator.text() == "clipboard: not watched"
    qtbot.mouseClick(hint.accept_button, Qt.MouseButton.LeftButton)
    assert not hint.isVisible()
    assert window.clipboard_indicator.text() == "clipboard: watching"
    assert window.window_actions.watch.isChecked()
    assert window.clipboard_indicator.text() == "clipboard: watching"
    saved = json.loads((tmp_path / "config" / "settings.json").read_text())
    assert saved["clipboard_hint_seen"] is True
    assert saved["clipboard_watch"] is True
    window.close()
    again = make_window(settings=_settings(tmp_path))
    assert not again.first_run_hint.isVisible()


def test_dismissing_the_hint_leaves_watching_off_and_it_never_comes_back(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    window = make_window()
    qtbot.mouseClick(window.first_run_hint.dismiss_button, Qt.MouseButton.LeftButton)
    assert not window.first_run_hint.isVisible()
    assert window.clipboard_indicator.text() == "clipboard: not watched"
    window.close()
    settings = _settings(tmp_path)
    assert settings.clipboard_hint_seen
    assert not settings.clipboard_watch
    again = make_window(settings=settings)
    assert not again.first_run_hint.isVisible()


def test_turning_watching_on_from_the_menu_retires_the_hint(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    window = make_window()
    window.window_actions.watch.trigger()
    assert window.clipboard_indicator.text() == "clipboard: watching"
    assert not window.first_run_hint.isVisible()
    assert _settings(tmp_path).clipboard_hint_seen
