"""The window prints and copies no raw byte of a hostile file line that a failure quotes:
results pane, protocol view, clipboard, the command rows and the history."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from support.hostile_lines import raw_characters, reply, write_files

from .conftest import WindowFactory, paste_and_run


@pytest.mark.usefixtures("approve_everything")
def test_no_raw_byte_reaches_a_widget_or_the_clipboard(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    write_files(workspace)
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply())
    copied = QApplication.clipboard().text()
    assert copied.split("\n").count("OPERATOR_RESULT") == 3
    assert raw_characters(copied) == []
    summaries = [line for line in copied.split("\n") if line.startswith("summary: ")]
    assert len(summaries) == 3
    assert not [line for line in summaries if "aGVsbG8" in line]
    assert raw_characters(window.results.raw.toPlainText()) == []
    assert raw_characters(window.results.view.toPlainText()) == []
    listing = window.paste.table
    for row in range(listing.topLevelItemCount()):
        item = listing.topLevelItem(row)
        for column in range(listing.columnCount()):
            assert raw_characters(item.text(column)) == [], item.text(column)
    window.history_dock.show()
    runs = window.history.runs
    qtbot.waitUntil(lambda: runs.count() == 1)
    runs.setCurrentRow(0)
    assert "aGVsbG8" in window.history.detail.toPlainText()
    assert raw_characters(window.history.detail.toPlainText()) == []
