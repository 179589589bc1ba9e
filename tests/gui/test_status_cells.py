"""A status cell too long for its row ends in an ellipsis, never cut mid-line unseen."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication

from llm_operator.gui.panes.command_rows import fitted_lines


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
