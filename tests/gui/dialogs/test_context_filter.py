"""The context builder's filter box over a 166-file tree: part of a path or a glob, the
count of files shown, and the keyboard (Ctrl+F / Alt+F, Down to the tree, Escape clears)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from .test_context_builder import builder, click_check


@pytest.fixture
def tree166(tmp_path: Path) -> Path:
    """166 files: 100 modules in pkg/m0..m9, 40 notes, 20 tests, 6 at the top."""
    root = tmp_path / "tree166"
    for n in range(100):
        folder = root / "pkg" / f"m{n // 10}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"mod{n:03}.py").write_text(f"VALUE = {n}\n")
    for n in range(40):
        folder = root / "notes" / f"n{n // 10}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"note{n}.md").write_text(f"# Note {n}\n")
    (root / "tests").mkdir()
    for n in range(20):
        (root / "tests" / f"test_mod{n:03}.py").write_text("def test(): pass\n")
    for name in ("README.md", "setup.py", "Makefile", "LICENSE", "notes.txt", "CHANGES.md"):
        (root / name).write_text("x\n")
    return root


def test_a_substring_or_a_glob_filters_the_166_files_and_the_count_follows(
    qtbot: QtBot, tree166: Path
) -> None:
    dialog = builder(qtbot, tree166)
    every = dialog.shown_files()
    assert len(every) == 166
    assert dialog.filter_count.text() == "166 files"
    qtbot.keyClicks(dialog.filter, "MOD04")  # part of a path, any case
    assert dialog.shown_files() == [f"pkg/m4/mod{n:03}.py" for n in range(40, 50)]
    assert dialog.filter_count.text() == "10 of 166 files"
    dialog.filter.setText("*.md")  # a glob without "/" matches names at any depth
    assert len(dialog.shown_files()) == 42
    assert "README.md" in dialog.shown_files()
    assert "notes/n3/note39.md" in dialog.shown_files()
    assert dialog.filter_count.text() == "42 of 166 files"
    dialog.filter.setText("tests/test_mod00?.py")  # with "/": the whole path
    assert dialog.shown_files() == [f"tests/test_mod{n:03}.py" for n in range(10)]
    dialog.filter.setText("pkg/m[12]/*")
    assert len(dialog.shown_files()) == 20
    assert dialog.item_for("notes/").isHidden()
    assert not dialog.item_for("pkg/m1/").isHidden()
    dialog.filter.setText("*.nothing")
    assert dialog.shown_files() == []
    assert dialog.filter_count.text() == "0 of 166 files"
    dialog.filter.clear()
    assert dialog.shown_files() == every
    assert dialog.filter_count.text() == "166 files"


def test_the_filter_is_reached_and_left_by_the_keyboard(qtbot: QtBot, tree166: Path) -> None:
    dialog = builder(qtbot, tree166)
    dialog.task.setFocus()
    qtbot.keyClick(dialog.task, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert dialog.focusWidget() is dialog.filter
    dialog.task.setFocus()
    qtbot.keyClick(dialog.task, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
    assert dialog.focusWidget() is dialog.filter
    qtbot.keyClicks(dialog.filter, "note2")  # note2.md and note20..note29.md
    assert dialog.filter_count.text() == "11 of 166 files"
    qtbot.keyClick(dialog.filter, Qt.Key.Key_Down)
    assert dialog.focusWidget() is dialog.tree
    assert dialog.tree.currentItem() is dialog.item_for("notes/")
    click_check(qtbot, dialog, "notes/")  # ticks the files shown
    assert len(dialog.ticked()) == 11
    # Tab from the filter goes to the tree, then the task.
    dialog.filter.setFocus()
    qtbot.keyClick(dialog.filter, Qt.Key.Key_Tab)
    assert dialog.focusWidget() is dialog.tree
    # Escape clears the filter and keeps the dialog open; the ticks stay.
    dialog.filter.setFocus()
    qtbot.keyClick(dialog.filter, Qt.Key.Key_Escape)
    assert dialog.filter.text() == ""
    assert dialog.isVisible()
    assert len(dialog.shown_files()) == 166
    assert len(dialog.ticked()) == 11
