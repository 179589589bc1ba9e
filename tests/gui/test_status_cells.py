"""A status cell or a status bar message too long for its room ends in an ellipsis, and a
run's message takes a second line before it is cut."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.gui.panes.command_rows import fitted_lines
from llm_operator.gui.status_bar import ElidingStatusBar

from .conftest import WindowFactory


def test_a_long_status_ends_in_an_ellipsis_and_a_short_one_is_whole(qapp: QApplication) -> None:
    font = QFont(qapp.font())
    metrics = QFontMetrics(font)
    width = metrics.horizontalAdvance("x" * 30)
    long = (
        "ok: Listed . (4 entries: 1 folder, 3 files); folders end with /, symlinks with @; "
        "a name that could read as something else is in double quotes [repeat: this id "
        "already ran at 2026-11-29 03:48:05 UTC with identical content]"
    )
    lines = fitted_lines(long, font, width, 3)
    assert len(lines) == 3
    assert lines[-1].endswith("\u2026")
    assert all(metrics.horizontalAdvance(line) <= width for line in lines)
    assert " ".join(lines[:2]).split() == long.split()[: len(" ".join(lines[:2]).split())]
    short = "ok: Wrote a.txt"
    assert fitted_lines(short, font, width, 3) == [short]
    # A path longer than a line is broken inside it, not cut off at the edge.
    path = "src/" + "very_long_folder_name/" * 4 + "file.py"
    broken = fitted_lines(path, font, width, 6)
    assert "".join(broken) == path
    assert all(metrics.horizontalAdvance(line) <= width for line in broken)


def test_a_run_message_too_long_for_one_line_takes_two_and_keeps_its_end(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    window.resize(800, 600)
    window.show()
    qtbot.waitExposed(window)
    bar = window.statusBar()
    assert isinstance(bar, ElidingStatusBar)
    spacing = bar.fontMetrics().lineSpacing()
    message = (
        "Ran 29 commands: 27 ok, 1 failed, 1 rejected; 2 repeated, not run again; 1 asked "
        "again. Results copied: paste them into the chat."
    )
    bar.showMessage(message)
    qtbot.waitUntil(lambda: bar.height() >= 2 * spacing)  # room for both lines
    lines = bar.shown_lines()
    assert len(lines) == 2
    assert " ".join(" ".join(lines).split()) == message  # whole: what to do next included
    bar.showMessage(message * 4)  # too long for two lines: the second ends in "..."
    assert bar.shown_lines()[-1].endswith("\u2026")
    bar.showMessage("Ready.")
    assert bar.shown_lines() == ["Ready."]
    assert bar.minimumHeight() == 0  # one line: the bar's own height again
