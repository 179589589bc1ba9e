"""The context builder dialog: ticks, secret files, the live estimate, copying in parts."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.core.store.workspace import Workspace
from llm_operator.gui.clipboard import ClipboardBridge
from llm_operator.gui.dialogs.context_builder import ContextBuilder
from support.context_parts import outline_of, unpack
from support.paths import ROOT

from ..conftest import WindowFactory, command, paste_and_run, reply


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """This repository's src/ plus a .env and a key, and an ignored build folder."""
    root = tmp_path / "project"
    shutil.copytree(
        ROOT / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    (root / "src" / ".env").write_text("TOKEN=never-send-this\n")
    (root / "src" / "llm_operator" / "server.key").write_text("KEY never-send-this\n")
    (root / ".gitignore").write_text("build/\n")
    (root / "build").mkdir()
    (root / "build" / "gen.py").write_text("X = 1\n")
    return root


def builder(qtbot: QtBot, root: Path, part_size: int = 30_000) -> ContextBuilder:
    dialog = ContextBuilder(Workspace(root), ClipboardBridge(), lambda: part_size)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.waitUntil(lambda: dialog.loaded)  # the tree is listed in a worker
    return dialog


def click_check(qtbot: QtBot, dialog: ContextBuilder, rel: str) -> None:
    """Tick or untick an item as a keyboard user does: select it, press Space."""
    item = dialog.item_for(rel)
    before = item.checkState(0)
    dialog.tree.setFocus()
    dialog.tree.setCurrentItem(item)
    qtbot.keyClick(dialog.tree, Qt.Key.Key_Space)
    assert item.checkState(0) != before, f"Space did not toggle {rel}"


def test_tree_respects_gitignore_and_marks_secret_files(qtbot: QtBot, project: Path) -> None:
    dialog = builder(qtbot, project)
    names = {item.data(0, Qt.ItemDataRole.UserRole) for item in dialog.all_files()}
    assert "src/llm_operator/cli.py" in names
    assert "build/gen.py" not in names
    env = dialog.item_for("src/.env")
    assert env.checkState(0) == Qt.CheckState.Unchecked
    assert "secret-looking" in env.text(2)
    assert "left out by .gitignore" in dialog.tree_note.text()


def test_ticking_a_folder_ticks_its_files_but_not_secret_ones(qtbot: QtBot, project: Path) -> None:
    dialog = builder(qtbot, project)
    click_check(qtbot, dialog, "src/")
    ticked = dialog.ticked()
    assert "src/llm_operator/cli.py" in ticked
    assert "src/.env" not in ticked
    assert "src/llm_operator/server.key" not in ticked
    assert dialog.item_for("src/").checkState(0) == Qt.CheckState.PartiallyChecked
    click_check(qtbot, dialog, "src/")
    assert dialog.ticked() == []


def test_copy_for_chat_holds_exactly_the_ticked_files_and_parts_fit(
    qtbot: QtBot, project: Path
) -> None:
    limit = 8000
    dialog = builder(qtbot, project, part_size=limit)
    core = "src/llm_operator/core/"
    for rel in (f"{core}errors.py", f"{core}protocol/parts.py", "src/llm_operator/cli.py"):
        click_check(qtbot, dialog, rel)
    qtbot.keyClicks(dialog.task, "Explain the part splitting")
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    parts = dialog.parts
    assert len(parts) > 1
    assert all(len(part) <= limit for part in parts)
    assert QApplication.clipboard().text() == parts[0]
    copied = [QApplication.clipboard().text()]
    while dialog.next_button.isEnabled():
        qtbot.mouseClick(dialog.next_button, Qt.MouseButton.LeftButton)
        copied.append(QApplication.clipboard().text())
    assert tuple(copied) == parts
    files = unpack(copied)
    assert set(files) == {f"{core}errors.py", f"{core}protocol/parts.py", "src/llm_operator/cli.py"}
    assert files["src/llm_operator/cli.py"] == (project / "src/llm_operator/cli.py").read_text()
    whole = "\n".join(copied)
    assert "## Task\nExplain the part splitting" in whole
    assert "never-send-this" not in whole
    assert f"Part {len(parts)} of {len(parts)} copied" in dialog.status.text()


def test_a_secret_file_goes_in_only_when_ticked_itself(qtbot: QtBot, project: Path) -> None:
    dialog = builder(qtbot, project)
    dialog.outline_box.setChecked(False)
    click_check(qtbot, dialog, "src/.env")
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    assert "TOKEN=never-send-this" in QApplication.clipboard().text()
    assert set(unpack(dialog.parts)) == {"src/.env"}


def test_the_estimate_follows_ticks_and_typing(qtbot: QtBot, project: Path) -> None:
    dialog = builder(qtbot, project)
    dialog.outline_box.setChecked(False)
    qtbot.waitUntil(lambda: "0 files ticked" in dialog.estimate.text())
    start = dialog.message.chars if dialog.message else 0
    click_check(qtbot, dialog, "src/llm_operator/cli.py")
    qtbot.waitUntil(lambda: "1 file ticked" in dialog.estimate.text())
    assert dialog.message is not None
    grown = dialog.message.chars
    assert grown > start + (project / "src/llm_operator/cli.py").stat().st_size
    assert f"about {dialog.message.tokens:,} tokens" in dialog.estimate.text()
    qtbot.keyClicks(dialog.task, "abc")
    qtbot.waitUntil(lambda: dialog.message is not None and dialog.message.chars > grown)


def test_a_binary_ticked_file_is_reported_as_left_out(qtbot: QtBot, project: Path) -> None:
    (project / "logo.png").write_bytes(b"\x89PNG\0\0")
    dialog = builder(qtbot, project)
    click_check(qtbot, dialog, "logo.png")
    dialog.refresh()
    assert "Left out: logo.png (binary)" in dialog.estimate.text()


def test_the_window_opens_the_builder_from_its_menu(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    qtbot.keyClick(
        window,
        Qt.Key.Key_B,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    qtbot.waitUntil(lambda: getattr(window, "context_builder", None) is not None)
    dialog = window.context_builder
    assert dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.loaded)
    assert {dialog_item for dialog_item in dialog.ticked()} == set()
    names = {item.data(0, Qt.ItemDataRole.UserRole) for item in dialog.all_files()}
    assert names == {"a.txt", "src/app.py"}
    dialog.close()


def test_the_live_command_list_knows_outline_and_it_runs_at_once(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(command("o1", "fs.outline", path="src", depth="1")))
    row = [window.paste.table.topLevelItem(0).text(c) for c in range(3)]
    assert row == ["1", "ok: Outlined 1 file under src", "fs.outline src  (id o1)"]
    copied = QApplication.clipboard().text()
    assert copied.startswith("OPERATOR_RESULT\nid: o1\nok: true\n")


@pytest.mark.slow
def test_the_outline_is_made_in_the_background_then_counted(qtbot: QtBot, project: Path) -> None:
    dialog = builder(qtbot, project)
    dialog.refresh()
    if dialog.outline_pending:
        assert "the outline is being made" in dialog.estimate.text()
    qtbot.waitUntil(
        lambda: not dialog.outline_pending and "being made" not in dialog.estimate.text(),
        timeout=60_000,
    )
    assert dialog.message is not None
    assert "## Outline of the rest of the workspace" in dialog.message.whole
    # The outline's first file (which one ranks first follows the source; any will do):
    # once ticked, it is sent whole and leaves the outline.
    outline = dialog.message.whole.split("## Outline of the rest of the workspace", 1)[1]
    first = re.search(r"^\|? ?(src/\S+\.py) \(python", outline, re.MULTILINE)
    assert first is not None, outline[:2000]
    path = first.group(1)
    dialog.set_ticked(path, True)
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    whole = "\n".join(dialog.parts)
    assert f"{path} (python" not in whole.split("## Outline", 1)[1]


def test_reopening_keeps_ticks_and_task_and_lists_new_files(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    window.show_context_builder()
    first = window.context_builder
    assert first is not None
    qtbot.waitUntil(lambda: first.loaded)
    first.set_ticked("src/app.py", True)
    first.task.setPlainText("keep me")
    first.close()
    (workspace / "new.py").write_text("def fresh():\n    pass\n")
    (workspace / "a.txt").unlink()
    window.show_context_builder()
    again = window.context_builder
    assert again is first
    qtbot.waitUntil(lambda: again.loaded)
    names = {item.data(0, Qt.ItemDataRole.UserRole) for item in again.all_files()}
    assert names == {"new.py", "src/app.py"}
    assert again.ticked() == ["src/app.py"]
    assert again.task.toPlainText() == "keep me"
    again.close()


def test_the_window_copies_what_pack_builds_for_the_same_choice(
    qtbot: QtBot, project: Path
) -> None:
    from llm_operator.core.plan.context import build_context

    dialog = builder(qtbot, project, part_size=9000)
    ticked = ["src/llm_operator/cli.py", "src/.env", "src/llm_operator/core/errors.py"]
    for rel in ticked:
        dialog.set_ticked(rel, True)
    dialog.task.setPlainText("Same message")
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    packed = build_context(
        Workspace(project),
        dialog.ticked(),
        task="Same message",
        map_tokens=2000,
        include_secrets=True,  # ticking a secret-looking file is the consent
        limit=9000,
    )
    assert dialog.parts == packed.message.parts


def test_a_link_retargeted_after_listing_is_left_out_and_the_copy_outlines_it_anew(
    qtbot: QtBot, tmp_path: Path
) -> None:
    root = tmp_path / "linked"
    root.mkdir()
    (root / "ok.py").write_text("def harmless():\n    pass\n")
    (root / ".env.py").write_text("def leak_secret_name():\n    TOKEN = 'never-send-this'\n")
    (root / "notes.py").symlink_to("ok.py")
    (root / "other.py").symlink_to("ok.py")
    dialog = builder(qtbot, root)
    assert dialog.item_for("notes.py").checkState(0) == Qt.CheckState.Unchecked
    click_check(qtbot, dialog, "notes.py")  # listed as a harmless link to ok.py
    dialog.refresh()
    qtbot.waitUntil(lambda: dialog.message is not None and not dialog.outline_pending)
    dialog.refresh()  # the outline made in the worker, counted
    assert "other.py (python" in dialog.message.whole  # outlined as the harmless ok.py
    for name in ("notes.py", "other.py"):
        (root / "spare").symlink_to(".env.py")
        (root / "spare").replace(root / name)  # both retargeted at the secret
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    whole = "\n".join(dialog.parts)
    assert "never-send-this" not in whole
    assert "leak_secret_name" not in whole
    assert "other.py (python" not in whole  # the outline of the rest was made anew
    assert "notes.py" not in unpack(dialog.parts)
    (left,) = dialog.left_out
    assert left.rel == "notes.py"
    assert "now leads to a secret-looking file" in left.reason
    assert "now leads to a secret-looking file" in dialog.estimate.text()


@pytest.fixture
def big_project(project: Path) -> Path:
    """The project with the click sample and notes: at least 166 files to filter."""
    shutil.copytree(ROOT / "tests" / "data" / "pack_real" / "click", project / "click")
    for n in range(40):
        (project / "notes" / f"n{n // 10}").mkdir(parents=True, exist_ok=True)
        (project / "notes" / f"n{n // 10}" / f"note{n}.md").write_text(f"# Note {n}\n")
    return project


def test_typing_in_the_filter_box_shows_only_the_matching_files(
    qtbot: QtBot, big_project: Path
) -> None:
    dialog = builder(qtbot, big_project)
    every = [item.data(0, Qt.ItemDataRole.UserRole) for item in dialog.all_files()]
    assert len(every) >= 166
    assert dialog.shown_files() == every
    dialog.filter.setFocus()
    qtbot.keyClicks(dialog.filter, "PARSER")  # any case
    shown = dialog.shown_files()
    assert shown == [rel for rel in every if "parser" in rel.lower()]
    assert "click/src/click/parser.py" in shown
    assert "src/llm_operator/cli.py" not in shown
    item = dialog.item_for("click/src/click/parser.py")
    assert not item.isHidden()
    assert item.parent() is not None
    assert item.parent().isExpanded()  # found without opening folders by hand
    assert dialog.item_for("notes/").isHidden()  # no file in it matches
    qtbot.keyClicks(dialog.filter, "-nothing-has-this")
    assert dialog.shown_files() == []
    dialog.filter.clear()
    assert dialog.shown_files() == every
    assert not dialog.item_for("notes/").isHidden()


def test_ticking_a_folder_while_filtered_ticks_only_the_files_shown(
    qtbot: QtBot, big_project: Path
) -> None:
    dialog = builder(qtbot, big_project)
    qtbot.keyClicks(dialog.filter, "note1")  # note1.md and note10..note19.md
    click_check(qtbot, dialog, "notes/")
    ticked = dialog.ticked()
    assert ticked == [rel for rel in dialog.shown_files() if rel.startswith("notes/")]
    assert len(ticked) == 11
    assert dialog.item_for("notes/").checkState(0) == Qt.CheckState.PartiallyChecked
    dialog.filter.clear()
    assert dialog.ticked() == ticked  # clearing the filter keeps the ticks


@pytest.mark.slow
def test_the_outline_follows_the_budget_and_the_estimate_shows_it(
    qtbot: QtBot, big_project: Path
) -> None:
    from llm_operator.core.plan.context import build_context

    dialog = builder(qtbot, big_project, part_size=100_000)
    assert dialog.budget.value() == 2000
    dialog.set_ticked("click/src/click/formatting.py", True)
    qtbot.waitUntil(lambda: "Outline: about" in dialog.estimate.text(), timeout=20_000)
    assert "of 2,000 tokens" in dialog.estimate.text()
    shown = dialog.outline_shown
    assert shown is not None
    assert 0 < len(shown.text) <= 2000 * 4
    dialog.budget.setFocus()
    dialog.budget.selectAll()
    qtbot.keyClicks(dialog.budget, "300")
    assert dialog.budget.value() == 300
    qtbot.waitUntil(lambda: "of 300 tokens" in dialog.estimate.text(), timeout=20_000)
    assert dialog.outline_shown is not None
    assert len(dialog.outline_shown.text) <= 300 * 4
    qtbot.keyClicks(dialog.task, "Make convert_type accept tuples")
    qtbot.waitUntil(
        lambda: dialog.outline_shown is not None and "convert_type" in dialog.outline_shown.text,
        timeout=20_000,
    )
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    packed = build_context(
        Workspace(big_project),
        ["click/src/click/formatting.py"],
        task="Make convert_type accept tuples",
        map_tokens=300,
        limit=100_000,
    )
    assert dialog.parts == packed.message.parts
    outline = outline_of(dialog.parts[0])
    assert outline is not None
    assert "def convert_type(" in outline
    assert len(outline) <= 300 * 4


def test_the_tree_note_names_what_the_listing_passes_over(
    qtbot: QtBot, project: Path, tmp_path: Path
) -> None:
    import os

    os.mkfifo(project / "pipe")
    (project / "null").symlink_to("/dev/null")
    (tmp_path / "elsewhere.txt").write_text("x\n")
    (project / "out").symlink_to(tmp_path / "elsewhere.txt")
    (project / "gone").symlink_to("missing")
    (project / "odd\rname").write_text("x\n")
    dialog = builder(qtbot, project)
    note = dialog.tree_note.text()
    assert "Not listed: " in note
    for said in (
        "pipe (a FIFO (named pipe), not a regular file)",
        "null (a link leading out of the workspace)",
        "out (a link leading out of the workspace)",
        "gone (a dangling link (its target does not exist))",
        "odd\\rname (a name that cannot be shown on one line)",
    ):
        assert said in note, (said, note)
    assert "\r" not in note
    assert str(tmp_path) not in note
