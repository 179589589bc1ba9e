"""Diff colours and the light syntax highlighting keyed on the file extension."""

from __future__ import annotations

from PySide6.QtGui import QTextDocument
from pytestqt.qtbot import QtBot

from llm_operator.gui.highlight import (
    ADDED_BG,
    COMMENT_FG,
    HUNK_FG,
    KEYWORD_FG,
    REMOVED_BG,
    STRING_FG,
    DiffHighlighter,
    language_for,
)

DIFF = """--- a/app.py
+++ b/app.py
@@ -1,2 +1,2 @@
 def main():
-    return "hi"  # old
+    return "bye"
"""


def colours(document: QTextDocument) -> dict[str, list[tuple[int, str, str]]]:
    found: dict[str, list[tuple[int, str, str]]] = {}
    block = document.begin()
    while block.isValid():
        found[block.text()] = [
            (r.start, r.format.foreground().color().name(), r.format.background().color().name())
            for r in block.layout().formats()
        ]
        block = block.next()
    return found


def test_languages_are_chosen_by_extension() -> None:
    assert language_for("src/app.py") == language_for("x.pyi")
    assert language_for("web/main.ts") == language_for("lib.rs")
    assert language_for("src/app.py") != language_for("lib.rs")
    assert language_for("Makefile") is not None
    assert language_for("notes") is None
    assert language_for("data.unknown") is None


def test_diff_lines_and_code_are_coloured(qtbot: QtBot) -> None:
    document = QTextDocument()
    highlighter = DiffHighlighter(document, "app.py")
    document.setPlainText(DIFF)
    highlighter.rehighlight()
    found = colours(document)
    assert found["@@ -1,2 +1,2 @@"][0][1] == HUNK_FG
    removed = found['-    return "hi"  # old']
    assert {background for _, _, background in removed} == {REMOVED_BG}
    assert (5, KEYWORD_FG, REMOVED_BG) in removed
    assert (12, STRING_FG, REMOVED_BG) in removed
    assert (18, COMMENT_FG, REMOVED_BG) in removed
    added = found['+    return "bye"']
    assert {background for _, _, background in added} == {ADDED_BG}
    assert (1 + 4, KEYWORD_FG, ADDED_BG) in added
    assert any(foreground == KEYWORD_FG for _, foreground, _ in found[" def main():"])


def test_a_comment_marker_inside_a_string_is_not_a_comment(qtbot: QtBot) -> None:
    document = QTextDocument()
    highlighter = DiffHighlighter(document, "x.js")
    document.setPlainText('+let url = "http://example.com";\n')
    highlighter.rehighlight()
    formats = colours(document)['+let url = "http://example.com";']
    assert any(foreground == STRING_FG for _, foreground, _ in formats)  # it is painted
    assert not any(foreground == COMMENT_FG for _, foreground, _ in formats)


def test_an_unclosed_string_runs_to_the_end_of_its_line(qtbot: QtBot) -> None:
    document = QTextDocument()
    highlighter = DiffHighlighter(document, "x.py")
    document.setPlainText('+say("unclosed # not a comment\n+x = 1  # a comment\n')
    highlighter.rehighlight()
    found = colours(document)
    first = found['+say("unclosed # not a comment']
    assert (5, STRING_FG, ADDED_BG) in first
    assert not any(foreground == COMMENT_FG for _, foreground, _ in first)
    assert any(foreground == COMMENT_FG for _, foreground, _ in found["+x = 1  # a comment"])


def test_a_line_of_escaped_quotes_is_one_string_found_in_one_scan(qtbot: QtBot) -> None:
    # '\"' 32,000 times: a string pattern that needed its closing quote failed at each
    # quote after scanning the rest of the line (quadratic: 64,000 characters took 23 s
    # on the window's thread). Every quote now starts a string that runs to the end.
    line = '+x = \\"' + '\\"' * 32_000
    document = QTextDocument()
    highlighter = DiffHighlighter(document, "x.py")
    document.setPlainText(line + "\n")
    highlighter.rehighlight()
    formats = colours(document)[line]
    strings = [start for start, foreground, _ in formats if foreground == STRING_FG]
    assert strings == [line.index('"')]
