"""The context builder's fit options (the box and the parts line), on a real file."""

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
    assert dialog.fit.box.isChecked()  # on by default, as pack is
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    fitted = build_context(Workspace(root), ["utils.go"], task=TASK, limit=30_000)
    assert dialog.parts == fitted.message.parts
    assert "lines 124-129, 135-145 shown, the rest as its outline" in dialog.parts[0]
    dialog.fit.box.setChecked(False)
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    whole = build_context(Workspace(root), ["utils.go"], task=TASK, limit=30_000, fit=False)
    assert dialog.parts == whole.message.parts
    assert "=== FILE: utils.go (187 lines) ===" in dialog.parts[0]


def test_the_parts_line_sends_those_parts_and_says_what_names_nothing(
    qtbot: QtBot, tmp_path: Path
) -> None:
    root = tmp_path / "gin"
    root.mkdir()
    shutil.copy(GIN, root / "utils.go")
    shutil.copy(GIN.parent / "gin-utils_test.go", root / "utils_test.go")
    dialog = ContextBuilder(Workspace(root), ClipboardBridge(), lambda: 30_000)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.loaded)
    for rel in ("utils.go", "utils_test.go"):
        dialog.set_ticked(rel, True)
    dialog.outline_box.setChecked(False)
    dialog.fit.parts.setText("utils.go:10-20, utils_test.go::TestLastChar, missing.go:1-2")
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    asked = ["utils.go:10-20", "utils_test.go::TestLastChar"]
    assert dialog.parts == build_context(Workspace(root), asked, limit=30_000).message.parts
    assert dialog.fit.note.text() == "missing.go is not ticked"
    dialog.fit.parts.setText("utils.go::lastCharacter\x1b[2J")
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    note = dialog.fit.note.text()
    assert note.startswith("utils.go has no definition 'lastCharacter<U+001B>[2J'; its symbols:")
    assert "\x1b" not in note
    assert "=== FILE: utils.go (187 lines) ===" in dialog.parts[0]  # no task: whole
