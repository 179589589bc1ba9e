"""A diff as rows wrapped to a width, line numbers kept apart in a gutter.

The review shows a ``ChangePreview`` in views that wrap long lines themselves: every row
keeps its sign ("+", "-" or " ") in its text and its line numbers in a gutter that does
not scroll; a row too long for the view continues on the next lines, indented under its
code. Side by side, each pair of rows takes as many lines on both sides, so the old and
the new line stay level. Searching looks at each row's shown text whole, however it is
wrapped. Nothing here diffs anything: it lays out what the session planned.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...core.visible import MARKER, marker, shown_lines
from ..pages import Page, laid_out, shown_diff_line
from ..row_style import RowStyle

if TYPE_CHECKING:
    from ...core.plan.diff_rows import DiffLine
    from ...core.plan.preview import ChangePreview

TAB_WIDTH = 4
MIN_COLUMNS = 16
CONTINUED = "\u21aa"  # in the gutter of a line that goes on from the line above
_SIGN = {"added": "+", "removed": "-", "context": " "}


@dataclass(frozen=True)
class Row:
    """One line of the diff as shown: its gutter, its text (sign first) and its look."""

    gutter: str
    text: str
    style: RowStyle


@dataclass
class WrappedPage:
    """Rows laid out in lines: the page, a gutter per line, and where each row's pieces
    start (line number and offset in the row's text) so a match can be found again."""

    page: Page = field(default_factory=Page)
    gutters: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    pieces: list[list[tuple[int, int]]] = field(default_factory=list)  # per row

    def add(self, row: Row | None, lines: list[tuple[int, int]], height: int) -> None:
        """``row`` cut at ``lines`` (start, end offsets), padded to ``height`` lines."""
        at = len(self.page.lines)
        starts: list[tuple[int, int]] = []
        if row is not None and len(lines) == 1:  # the common case: the row fits
            starts.append((at, 0))
            self.page.lines.append(row.text)
            self.page.rows.append(row.style)
            self.gutters.append(row.gutter)
        for number, (start, end) in enumerate(lines if len(lines) > 1 else ()):
            assert row is not None
            style = row.style
            if number == 0:
                text = row.text[start:end]
                spans = _clip(style.spans, style.code_at, start, end, 0)
            else:
                text = " " * style.code_at + row.text[start:end]
                spans = _clip(style.spans, style.code_at, start, end, style.code_at)
            starts.append((at + number, start))
            self.page.lines.append(text)
            self.page.rows.append(RowStyle(style.kind, style.code_at, spans, style.language))
            self.gutters.append(row.gutter if number == 0 else CONTINUED)
        kind = row.style.kind if row is not None and row.style.kind in _SIGN else "text"
        for _ in range(height - len(lines)):
            self.page.lines.append("")
            self.page.rows.append(RowStyle(kind if lines else "text"))
            self.gutters.append("")
        if row is not None:
            self.rows.append(row)
            self.pieces.append(starts)

    def position(self, row: int, offset: int) -> tuple[int, int]:
        """Line and column where offset ``offset`` of row ``row``'s text is shown."""
        line, start, indent = self.pieces[row][0][0], 0, 0
        for number, (piece_line, piece_start) in enumerate(self.pieces[row]):
            if piece_start <= offset:
                line, start = piece_line, piece_start
                indent = self.rows[row].style.code_at if number else 0
        return line, offset - start + indent


def _clip(
    spans: tuple[tuple[int, int], ...], code_at: int, start: int, end: int, shift: int
) -> tuple[tuple[int, int], ...]:
    """The parts of ``spans`` (relative to the code) inside [start, end) of the row's
    text, relative to where the piece's code begins on its line."""
    if not spans:
        return ()
    out: list[tuple[int, int]] = []
    for a, b in spans:
        lo, hi = max(a + code_at, start), min(b + code_at, end)
        if lo < hi:
            out.append((lo - start + shift - code_at, hi - start + shift - code_at))
    return tuple(out)


def _width(char: str, column: int) -> int:
    if char == "\t":
        return TAB_WIDTH - column % TAB_WIDTH
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 2
    return 1


def cut(text: str, code_at: int, columns: int) -> list[tuple[int, int]]:
    """Where ``text`` is cut to fit ``columns``: (start, end) offsets, never inside a
    marker; continuation lines are indented by ``code_at`` columns."""
    columns = max(columns, MIN_COLUMNS)
    simple = text.isascii() and "\t" not in text and "<" not in text  # one column a char
    if simple and len(text) <= columns:
        return [(0, len(text))]
    if simple:
        step = max(1, columns - code_at)
        starts = [0, *range(columns, len(text), step)]
        return [
            (start, min(len(text), nxt))
            for start, nxt in zip(starts, [*starts[1:], len(text)], strict=True)
        ]
    markers = {m.start(): m.end() for m in MARKER.finditer(text)}
    lines: list[tuple[int, int]] = []
    start = at = 0
    column = 0
    while at < len(text):
        end = markers.get(at, at + 1)
        width = end - at if end > at + 1 else _width(text[at], column)
        if column + width > columns and at > start:
            lines.append((start, at))
            start = at
            column = code_at
            width = end - at if end > at + 1 else _width(text[at], column)
        column += width
        at = end
    lines.append((start, len(text)))
    return lines


def _digits(preview: ChangePreview) -> int:
    """How wide the line numbers of ``preview`` are: the gutter takes no more room."""
    biggest = max((n for line in preview.lines for n in (line.old_no, line.new_no) if n), default=1)
    return max(3, len(str(biggest)))


def _number(value: int | None, digits: int) -> str:
    return f"{value:>{digits}}" if value is not None else " " * digits


def _row(line: DiffLine, gutter: str, language: str) -> Row:
    if line.kind in ("hunk", "note"):
        return Row("", shown_lines(line.text).replace("\n", marker("\n")), RowStyle(line.kind))
    text, spans = shown_diff_line(line)
    return Row(gutter, f"{_SIGN[line.kind]} {text}", RowStyle(line.kind, 2, spans, language))


def unified_rows(preview: ChangePreview) -> list[Row]:
    digits = _digits(preview)
    return [
        _row(line, f"{_number(line.old_no, digits)} {_number(line.new_no, digits)}", preview.path)
        for line in laid_out(preview.lines)
    ]


def side_by_side_rows(preview: ChangePreview) -> list[tuple[Row | None, Row | None]]:
    from ...core.plan.diff_rows import side_by_side

    digits = _digits(preview)
    pairs: list[tuple[Row | None, Row | None]] = []
    for pair in side_by_side(laid_out(preview.lines)):
        old, new = pair.left, pair.right
        left = _row(old, _number(old.old_no, digits), preview.path) if old else None
        right = _row(new, _number(new.new_no, digits), preview.path) if new else None
        pairs.append((left, right))
    return pairs


def wrap_unified(rows: list[Row], columns: int) -> WrappedPage:
    out = WrappedPage()
    for row in rows:
        lines = cut(row.text, row.style.code_at, columns)
        out.add(row, lines, len(lines))
    return out


def wrap_side_by_side(
    pairs: list[tuple[Row | None, Row | None]], left_columns: int, right_columns: int
) -> tuple[WrappedPage, WrappedPage]:
    left, right = WrappedPage(), WrappedPage()
    for old, new in pairs:
        old_lines = cut(old.text, old.style.code_at, left_columns) if old else []
        new_lines = cut(new.text, new.style.code_at, right_columns) if new else []
        height = max(len(old_lines), len(new_lines), 1)
        left.add(old, old_lines, height)
        right.add(new, new_lines, height)
    return left, right


def matches(page: WrappedPage, needle: str) -> list[tuple[int, int, int]]:
    """Every (row, start, end) where ``needle`` occurs in a row's shown text, ignoring case."""
    if not needle:
        return []
    wanted = needle.casefold()
    found: list[tuple[int, int, int]] = []
    for number, row in enumerate(page.rows):
        text = row.text.casefold()
        if len(text) != len(row.text):  # case folding changed lengths: compare as is
            text, wanted_here = row.text, needle
        else:
            wanted_here = wanted
        at = text.find(wanted_here)
        while at >= 0:
            found.append((number, at, at + len(needle)))
            at = text.find(wanted_here, at + max(1, len(needle)))
    return found
