"""A block whose END line is missing names what it swallowed; long text wraps."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from .conftest import WindowFactory, command, paste_and_run, reply


def _unclosed_then_two() -> str:
    first = command("a1", "fs.read", path="a.txt").replace("END_OPERATOR_CMD", "")
    return reply(
        first,
        command("b2", "fs.read", path="src/app.py"),
        command("c3", "fs.read", path="a.txt"),
    )


def test_a_swallowed_block_has_its_own_row_and_is_named_in_the_results(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    text = _unclosed_then_two()
    window.paste.set_text(text)
    table = window.paste.table
    rows = [
        [table.topLevelItem(i).text(c) for c in range(3)] for i in range(table.topLevelItemCount())
    ]
    assert len(rows) == 3  # a1, the swallowed b2, c3
    number, status, what = rows[1]
    assert number == ""
    assert "swallowed by block a1 (line 3)" in status
    assert "END_OPERATOR_CMD line is missing" in status
    assert what.startswith("block b2 from line ")
    assert "1 more block swallowed (an END line is missing)." in window.paste.summary.text()
    paste_and_run(qtbot, window, text)
    # After the run the rows still line up: a1 failed, b2 named, c3 ran.
    assert table.topLevelItem(0).text(1).startswith("failed: Invalid OPERATOR_CMD")
    assert "swallowed by block a1" in table.topLevelItem(1).text(1)
    assert table.topLevelItem(2).text(1).startswith("ok: ")
    shown = window.results.view.toPlainText()
    assert "its END line is missing, so it swallowed the block b2 (from line" in shown


def test_results_and_the_list_wrap_at_the_window_width(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    window.resize(800, 600)
    long_line = " ".join(f"word{i}" for i in range(200))
    (workspace / "long.txt").write_text(long_line + "\n")
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="long.txt")))
    view = window.results.view
    assert view.lineWrapMode() == QPlainTextEdit.LineWrapMode.WidgetWidth
    qtbot.waitUntil(lambda: view.document().documentLayout().documentSize().width() > 0)
    # No horizontal scrolling: the long line is laid out on several visual lines.
    assert view.horizontalScrollBar().maximum() == 0
    block = view.document().findBlock(view.toPlainText().index("word199"))
    assert block.layout().lineCount() > 1
    assert window.results.raw.lineWrapMode() == QPlainTextEdit.LineWrapMode.WidgetWidth
    # A long status in the list wraps: its row is taller than a one-line row.
    missing = "deep/" * 40 + "missing.txt"
    paste_and_run(qtbot, window, reply(command("r2", "fs.read", path=missing)))
    table = window.paste.table
    item = table.topLevelItem(0)
    qtbot.waitUntil(lambda: table.visualItemRect(item).height() > table.fontMetrics().height() * 2)


BLOCK = "OPERATOR_CMD\nversion: 1\nid: {n}\naction: fs.read\npath: a.txt\nEND_OPERATOR_CMD\n"


@pytest.mark.parametrize(
    "text",
    [
        "OPERATOR_CMD\n" * 5,
        "OPERATOR_CMD\nid: x\n" + "OPERATOR_CMD\nid: \u202ey\n" * 3 + "END_OPERATOR_CMD\n",
        "END_OPERATOR_CMD\n" + BLOCK.format(n="a").replace("END_OPERATOR_CMD\n", "") * 3,
        "OPERATOR\\_CMD\nid: e\n" + BLOCK.format(n="b"),
        "OPERATOR_RESULT\nid: r\n" + BLOCK.format(n="c").replace("END_", "") + BLOCK.format(n="d"),
    ],
)
def test_any_mix_of_unclosed_blocks_lists_every_block_once(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, text: str
) -> None:
    window = make_window(workspace)
    window.paste.set_text(text)
    found = window.paste.detected
    table = window.paste.table
    assert table.topLevelItemCount() == len(found) + sum(len(f.swallowed) for f in found)
    for row in range(table.topLevelItemCount()):
        assert "\u202e" not in table.topLevelItem(row).text(1) + table.topLevelItem(row).text(2)
        table.setCurrentItem(table.topLevelItem(row))
        assert "\u202e" not in window.paste.details.toPlainText()
    if found:
        paste_and_run(qtbot, window, text)
