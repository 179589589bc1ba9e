"""The context builder's "send only the definitions the task names" box, on a real file."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.context import build_context
from llm_operator.core.store.workspace import Workspace
from llm_operator.gui.clipboard import ClipboardBridge
from llm_operator.gui.dialogs.context_builder import ContextBuilder
from support.paths import ROOT

GIN = ROOT / "tests" / "data" / "structure_real" / "go" / "gin-utils.go"
TASK = "lastChar panics on an empty string; make it return 0 instead."


def test_the_box_sends_what_pack_sends_and_off_sends_the_file_whole(
    qtbot: QtBot, tmp_path: Path
) -> None:
    root = tmp_path / "gin"
    root.mkdir()
    shutil.copy(GIN, root / "utils.go")
    dialog = ContextBuilder(Workspace(root), ClipboardBridge(), lambda: 30_000)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.loaded)
    dialog.set_ticked("utils.go", True)
    dialog.outline_box.setChecked(False)
    dialog.task.setPlainText(TASK)
    assert dialog.fit_box.isChecked()  # on by default, as pack is
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    fitted = build_context(Workspace(root), ["utils.go"], task=TASK, limit=30_000)
    assert dialog.parts == fitted.message.parts
    assert "lines 124-129, 135-145 shown, the rest as its outline" in dialog.parts[0]
    dialog.fit_box.setChecked(False)
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    whole = build_context(Workspace(root), ["utils.go"], task=TASK, limit=30_000, fit=False)
    assert dialog.parts == whole.message.parts
    assert "=== FILE: utils.go (187 lines) ===" in dialog.parts[0]
