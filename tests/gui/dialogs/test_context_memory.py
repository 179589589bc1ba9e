"""The context builder keeps its ticks, filter and budget per workspace across restarts,
and named selections to recall; secret-looking files are never ticked again unasked."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from llm_operator.core.store.settings import Settings
from llm_operator.core.store.workspace import Workspace
from llm_operator.gui.clipboard import ClipboardBridge
from llm_operator.gui.dialogs.context_builder import ContextBuilder
from llm_operator.gui.dialogs.context_memory import ContextMemory

from .test_context_builder import click_check


class Window(QWidget):
    """What the builder reads of the window: its settings and their saving."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.settings = Settings.load(path)

    def save_settings(self) -> None:
        self.settings.save()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "api").mkdir(parents=True)
    (root / "web").mkdir()
    (root / "api" / "routes.py").write_text("ROUTES = []\n")
    (root / "api" / "models.py").write_text("class User: ...\n")
    (root / "web" / "app.js").write_text("render();\n")
    (root / "api" / ".env").write_text("TOKEN=never\n")
    return root


def started(qtbot: QtBot, settings: Path, root: Path) -> ContextBuilder:
    """The app started anew: settings read from their file, the builder opened."""
    window = Window(settings)
    qtbot.addWidget(window)
    dialog = ContextBuilder(Workspace(root), ClipboardBridge(), lambda: 30_000, window)
    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.waitUntil(lambda: dialog.loaded)
    return dialog


def settled(qtbot: QtBot, dialog: ContextBuilder) -> None:
    dialog.refresh()  # what the debounce timer does after each change
    qtbot.waitUntil(lambda: not dialog.outline_pending, timeout=20_000)


def test_ticks_filter_and_budget_come_back_after_a_restart(
    qtbot: QtBot, project: Path, tmp_path: Path
) -> None:
    settings = tmp_path / "config" / "settings.json"
    dialog = started(qtbot, settings, project)
    click_check(qtbot, dialog, "api/routes.py")
    click_check(qtbot, dialog, "web/app.js")
    click_check(qtbot, dialog, "api/.env")  # by hand: sent this time only
    dialog.budget.setValue(3500)
    dialog.outline_box.setChecked(False)
    dialog.filter.setText("api")
    settled(qtbot, dialog)
    dialog.close()

    again = started(qtbot, settings, project)
    assert again.ticked() == ["api/routes.py", "web/app.js"]
    assert again.filter.text() == "api"
    assert again.budget.value() == 3500
    assert not again.outline_box.isChecked()
    settled(qtbot, again)  # a refresh later, the note is still there to read
    assert "1 secret-looking file left unticked" in again.kept.text()
    assert "web/app.js" not in again.shown_files()  # the filter applies again too


def test_a_named_selection_is_saved_recalled_and_kept_across_restarts(
    qtbot: QtBot, project: Path, tmp_path: Path
) -> None:
    settings = tmp_path / "config" / "settings.json"
    dialog = started(qtbot, settings, project)
    click_check(qtbot, dialog, "api/")  # a folder tick leaves .env out
    assert dialog.ticked() == ["api/models.py", "api/routes.py"]
    dialog.selections.save("  the   api ")
    assert "Saved 2 files as" in dialog.kept.text()
    click_check(qtbot, dialog, "api/")
    click_check(qtbot, dialog, "web/app.js")
    settled(qtbot, dialog)
    dialog.close()

    again = started(qtbot, settings, project)
    assert again.ticked() == ["web/app.js"]
    assert again.memory.names() == ["the api"]
    (project / "api" / "models.py").unlink()  # gone since: said, not ticked
    again.load_tree()
    qtbot.waitUntil(lambda: again.loaded)
    again.selections.recall("the api")
    assert again.ticked() == ["api/routes.py"]
    settled(qtbot, again)
    assert "1 file no longer there" in again.kept.text()
    again.selections.remove("the api")
    assert again.memory.names() == []


def test_damaged_memory_is_dropped_value_by_value() -> None:
    store = {
        "/w": {
            "ticked": ["a.py", 3, None, "", "b\x00c", "b.py"],
            "filter": 7,
            "budget": True,
            "outline": "yes",
            "selections": {"ok": ["a.py"], "": ["x"], "bad": "a.py", 4: ["y"]},
        },
        "/other": "nonsense",
    }
    memory = ContextMemory(store, "/w", lambda: None)
    state = memory.state
    assert state.ticked == ["a.py", "b.py"]
    assert (state.filter, state.budget, state.outline) == ("", 0, True)
    assert state.selections == {"ok": ["a.py"], "bad": []}
    assert ContextMemory(store, "/other", lambda: None).state.ticked == []
