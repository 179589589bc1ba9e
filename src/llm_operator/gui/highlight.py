"""Colours for unified diffs, with light syntax highlighting keyed on the file extension.

Diff lines get a background (+ green, - red) and hunk headers a blue foreground; the code
after the first column is coloured by a few regular expressions per language family
(keywords, strings, comments). It is a reading aid, not a parser: a string that spans
lines is only coloured on its first line.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from ..core.visible import MARKER

if TYPE_CHECKING:
    from .row_style import RowStyle

ADDED_BG = "#dafbe1"
REMOVED_BG = "#ffebe9"
HUNK_FG = "#0550ae"
HUNK_BG = "#ddf4ff"
HEADER_FG = "#57606a"
KEYWORD_FG = "#8250df"
STRING_FG = "#0a3069"
COMMENT_FG = "#6e7781"


@dataclass(frozen=True)
class Language:
    """What the diff highlighter colours in one language family: its keywords and comments."""

    keywords: frozenset[str]
    line_comment: str | None
    block_comment: tuple[str, str] | None = None


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_C_LIKE = _words(
    "if else for while do return break continue switch case default new delete class struct "
    "public private protected static const let var function fn func import export from package "
    "interface enum extends implements try catch finally throw throws void int char bool "
    "boolean true false null nil None this self async await yield match impl trait pub mut "
    "use mod type go defer range map chan select typedef sizeof goto using namespace"
)
_PYTHON = _words(
    "and as assert async await break class continue def del elif else except False finally "
    "for from global if import in is lambda None nonlocal not or pass raise return True try "
    "while with yield match case self"
)
_SHELL = _words("if then else elif fi for in do done while case esac function return export local")
_SQL = _words(
    "select from where insert into update delete create table drop alter join left right "
    "inner outer on group by order having limit values set and or not null as"
)

_LANGUAGES: dict[str, Language] = {}
for _ext in _words("py pyi pyw"):
    _LANGUAGES[_ext] = Language(_PYTHON, "#")
for _ext in _words("c h cc cpp hpp cxx java js jsx ts tsx mjs cjs go rs cs kt swift scala php"):
    _LANGUAGES[_ext] = Language(_C_LIKE, "//", ("/*", "*/"))
for _ext in _words("sh bash zsh yml yaml toml ini cfg conf rb pl r dockerfile mk"):
    _LANGUAGES[_ext] = Language(_SHELL, "#")
for _ext in _words("html htm xml svg vue md"):
    _LANGUAGES[_ext] = Language(frozenset(), None, ("<!--", "-->"))
_LANGUAGES["sql"] = Language(_SQL, "--", ("/*", "*/"))
_LANGUAGES["css"] = Language(frozenset(), None, ("/*", "*/"))

# A string runs to its closing quote or, unclosed, to the end of the line (as editors show
# it): every quote starts a match, so a line is scanned once. A pattern that needed the
# closing quote failed at each quote of a line of escaped ones after scanning the rest of
# it, quadratic in the line (64,000 characters took 23 s on the window's thread).
_STRING = re.compile(r"\"(?:[^\"\\]|\\.)*+(?:\"|\\?$)|'(?:[^'\\]|\\.)*+(?:'|\\?$)|`[^`]*+(?:`|$)")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def language_for(path: str) -> Language | None:
    name = path.rsplit("/", 1)[-1].lower()
    if name in ("makefile", "dockerfile"):
        return _LANGUAGES["sh"]
    if "." not in name:
        return None
    return _LANGUAGES.get(name.rsplit(".", 1)[1])


@functools.lru_cache(maxsize=256)
def _cached_language(path: str) -> Language | None:
    return language_for(path)


def _format(foreground: str | None = None, background: str | None = None) -> QTextCharFormat:
    fmt = QTextCharFormat()
    if foreground:
        fmt.setForeground(QColor(foreground))
    if background:
        fmt.setBackground(QColor(background))
    return fmt


class DiffHighlighter(QSyntaxHighlighter):
    def __init__(
        self, document: QTextDocument, path: str, headers: tuple[str, ...] = ("+++ ", "--- ")
    ) -> None:
        super().__init__(document)
        self._headers = headers
        self._language = language_for(path)
        self._added = _format(background=ADDED_BG)
        self._removed = _format(background=REMOVED_BG)
        self._hunk = _format(HUNK_FG, HUNK_BG)
        self._hunk.setFontWeight(QFont.Weight.Bold)
        self._header = _format(HEADER_FG)
        self._keyword = _format(KEYWORD_FG)
        self._string = _format(STRING_FG)
        self._comment = _format(COMMENT_FG)
        self._comment.setFontItalic(True)

    def highlightBlock(self, text: str) -> None:
        if text.startswith(self._headers):
            self.setFormat(0, len(text), self._header)
            return
        if text.startswith("@@"):
            self.setFormat(0, len(text), self._hunk)
            return
        background = {"+": ADDED_BG, "-": REMOVED_BG}.get(text[:1])
        if background:
            self.setFormat(0, len(text), self._added if text[0] == "+" else self._removed)
        if self._language is not None and text[:1] in ("+", "-", " "):
            self._highlight_code(text, 1, background)

    def _layer(self, start: int, length: int, base: QTextCharFormat, bg: str | None) -> None:
        fmt = QTextCharFormat(base)
        if bg:
            fmt.setBackground(QColor(bg))
        self.setFormat(start, length, fmt)

    def _highlight_code(self, text: str, offset: int, bg: str | None) -> None:
        language = self._language
        assert language is not None
        code = text[offset:]
        for word in _WORD.finditer(code):
            if word.group() in language.keywords:
                self._layer(offset + word.start(), len(word.group()), self._keyword, bg)
        strings = [(m.start(), m.end()) for m in _STRING.finditer(code)]
        for start, end in strings:
            self._layer(offset + start, end - start, self._string, bg)
        comment_at = self._comment_start(code, strings)
        if comment_at is not None:
            self._layer(offset + comment_at, len(code) - comment_at, self._comment, bg)

    def _comment_start(self, code: str, strings: list[tuple[int, int]]) -> int | None:
        language = self._language
        assert language is not None
        openers = [language.line_comment]
        if language.block_comment:
            openers.append(language.block_comment[0])
        found = [code.find(opener) for opener in openers if opener]
        for at in sorted(i for i in found if i >= 0):
            if not any(start <= at < end for start, end in strings):
                return at
        return None


# -- rows: one style per line, for pages built from preview and result data -------------

ADDED_WORD_BG = "#abf2bc"
REMOVED_WORD_BG = "#ffb3b0"
GUTTER_FG = "#8c959f"
TITLE_OK_FG = "#1a7f37"
TITLE_REPEAT_FG = "#57606a"  # a result shown again from memory
TITLE_FAILED_FG = "#cf222e"
TITLE_REJECTED_FG = "#9a6700"
NOTE_FG = "#57606a"
MARKER_FG = "#ffffff"  # an invisible character, shown as <U+XXXX>
MARKER_BG = "#bc4c00"

_ROW_BG = {"added": ADDED_BG, "removed": REMOVED_BG}
_WORD_BG = {"added": ADDED_WORD_BG, "removed": REMOVED_WORD_BG}


class RowHighlighter(DiffHighlighter):
    """Colours a page line by line from its ``RowStyle``s (set them before the text)."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document, "")
        self.rows: list[RowStyle] = []
        self._gutter = _format(GUTTER_FG)
        self._note = _format(NOTE_FG)
        self._note.setFontItalic(True)
        self._heading = _format()
        self._heading.setFontWeight(QFont.Weight.Bold)
        self._title_ok = _format(TITLE_OK_FG)
        self._title_ok.setFontWeight(QFont.Weight.Bold)
        self._title_failed = _format(TITLE_FAILED_FG)
        self._title_failed.setFontWeight(QFont.Weight.Bold)
        self._title_rejected = _format(TITLE_REJECTED_FG)
        self._title_rejected.setFontWeight(QFont.Weight.Bold)
        self._title_repeat = _format(TITLE_REPEAT_FG)
        self._title_repeat.setFontItalic(True)
        self._marker = _format(MARKER_FG, MARKER_BG)

    def highlightBlock(self, text: str) -> None:
        number = self.currentBlock().blockNumber()
        if not 0 <= number < len(self.rows):
            return
        row = self.rows[number]
        whole = {
            "hunk": self._hunk,
            "note": self._note,
            "heading": self._heading,
            "title-ok": self._title_ok,
            "title-failed": self._title_failed,
            "title-rejected": self._title_rejected,
            "title-repeat": self._title_repeat,
        }.get(row.kind)
        if whole is not None:
            self.setFormat(0, len(text), whole)
            self._show_markers(text)
            return
        background = _ROW_BG.get(row.kind)
        if background:
            self.setFormat(0, len(text), self._added if row.kind == "added" else self._removed)
        if row.code_at:
            self._layer(0, row.code_at, self._gutter, background)
        language = _cached_language(row.language) if row.language else None
        if language is not None:
            self._language = language
            self._highlight_code(text, row.code_at, background)
        word = _WORD_BG.get(row.kind)
        if word:
            for start, end in row.spans:
                self._layer(row.code_at + start, end - start, _format(), word)
        self._show_markers(text)

    def _show_markers(self, text: str) -> None:
        """Each ``<U+XXXX>`` that stands for an invisible character stands out."""
        if "<" not in text:
            return
        for found in MARKER.finditer(text):
            self.setFormat(found.start(), found.end() - found.start(), self._marker)
