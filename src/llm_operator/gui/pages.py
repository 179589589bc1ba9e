"""Pages of text built from data: diffs with line numbers, decoded results, run records.

A page is its lines plus one ``RowStyle`` per line, shown by ``PageView`` (a read-only
text box with a ``RowHighlighter``). Everything here only formats values that the core
made in a worker (previews, results); nothing is diffed or decoded twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from ..core.protocol.readable_details import readable_details as core_readable_details
from ..core.visible import is_plain, shown_lines, shown_offsets
from ..core.wording import counted
from .row_style import RowStyle

if TYPE_CHECKING:
    from ..core.plan.diff_rows import DiffLine
    from ..core.plan.preview import ChangePreview
    from ..core.protocol.encoder import Result
    from .highlight import RowHighlighter

# A readable page is for reading: past these it would only slow the UI thread down.
MAX_DETAIL_LINES = 3000
MAX_LINE_CHARS = 2000
PAGE_STYLE = "QPlainTextEdit { background: #ffffff; color: #1f2328; }"
_SIGN = {"added": "+", "removed": "-", "context": " "}


@dataclass
class Page:
    """A page of text: its lines and one ``RowStyle`` per line."""

    lines: list[str] = field(default_factory=list)
    rows: list[RowStyle] = field(default_factory=list)

    def add(self, text: str, style: RowStyle | None = None) -> None:
        """``text`` as rows of plain text: invisible characters, and those that would
        start a new line in a text box but not in the data, are shown as markers."""
        for line in shown_lines(text).split("\n"):
            self.lines.append(line)
            self.rows.append(style or RowStyle("text"))

    def extend(self, other: Page) -> None:
        self.lines += other.lines
        self.rows += other.rows

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def _number(value: int | None) -> str:
    return f"{value:>5}" if value is not None else "     "


# The most characters of one diff line the window lays out: a line of millions took it
# minutes and gigabytes. The rest of such a line is named, not shown; the review's notes
# (invisible characters, look-alike letters) are worked out from the whole line.
MAX_SHOWN_CHARS = 5_000


def shown_diff_line(line: DiffLine) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A diff line's text as shown (tabs kept, everything invisible marked) and its
    changed-word spans moved along with the markers; past MAX_SHOWN_CHARS characters the
    line ends with a note of how many more it has."""
    raw, spans, rest = line.text, line.spans, ""
    if len(raw) > MAX_SHOWN_CHARS:
        more = len(raw) - MAX_SHOWN_CHARS
        raw = raw[:MAX_SHOWN_CHARS]
        spans = tuple((a, min(b, MAX_SHOWN_CHARS)) for a, b in spans if a < MAX_SHOWN_CHARS)
        rest = f" ... [{more:,} more characters of this line not shown]"
    if is_plain(raw, one_line=False):
        return raw + rest, spans
    text, where = shown_offsets(raw, one_line=False)
    return text + rest, tuple((where[start], where[end]) for start, end in spans)


# The most characters of diff rows one page lays out (each row's first MAX_SHOWN_CHARS, a
# row that is not ASCII counted eight times over for its markers): 2,000 rows of 5,000
# zero-width spaces, shown as markers, kept the review from opening. The rows past it
# are named in one last row.
MAX_PAGE_CHARS = 500_000


def laid_out(lines: tuple[DiffLine, ...]) -> tuple[DiffLine, ...]:
    """``lines`` up to MAX_PAGE_CHARS characters, then a note row saying how many rows
    are not laid out (the review's own lines name what the diff holds)."""
    total = 0
    for index, line in enumerate(lines):
        size = min(len(line.text), MAX_SHOWN_CHARS)
        total += size if line.text.isascii() else 8 * size
        if total > MAX_PAGE_CHARS:
            from ..core.plan.diff_rows import DiffLine

            rest = len(lines) - index
            note = f"\\ The window lays out no more of this diff: {rest:,} more rows not shown"
            return (*lines[:index], DiffLine("note", note))
    return lines


def unified_page(preview: ChangePreview) -> Page:
    """Old and new line numbers, the sign, the line; changed words marked."""
    page = Page()
    language = preview.path
    for line in laid_out(preview.lines):
        if line.kind in ("hunk", "note"):
            page.add(line.text, RowStyle(line.kind))
            continue
        gutter = f"{_number(line.old_no)} {_number(line.new_no)} {_SIGN[line.kind]} "
        text, spans = shown_diff_line(line)
        page.lines.append(gutter + text)
        page.rows.append(RowStyle(line.kind, len(gutter), spans, language))
    return page


def side_by_side_pages(preview: ChangePreview) -> tuple[Page, Page]:
    """The old file's lines on the left and the new file's on the right, row by row."""
    from ..core.plan.diff_rows import side_by_side

    language = preview.path
    left, right = Page(), Page()

    def add(page: Page, line: DiffLine | None, number: int | None) -> None:
        if line is None:
            page.lines.append("")
            page.rows.append(RowStyle("text"))
            return
        if line.kind in ("hunk", "note"):
            page.add(line.text, RowStyle(line.kind))
            return
        gutter = f"{_number(number)} {_SIGN[line.kind]} "
        text, spans = shown_diff_line(line)
        page.lines.append(gutter + text)
        page.rows.append(RowStyle(line.kind, len(gutter), spans, language))

    for row in side_by_side(laid_out(preview.lines)):
        add(left, row.left, row.left.old_no if row.left else None)
        add(right, row.right, row.right.new_no if row.right else None)
    return left, right


@dataclass(frozen=True)
class ResultSource:
    """What a result answers: its command's action and path (for highlighting), and
    whether the user rejected it (a rejection is not a failure)."""

    action: str | None
    path: str | None
    rejected: bool = False


def readable_details(details: str) -> str:
    """Error payloads are JSON; a person reads their message."""
    if details.startswith("{") and details.endswith("}"):
        try:
            payload = json.loads(details)
        except ValueError:
            return details
        if isinstance(payload, dict) and isinstance(payload.get("message"), str):
            related = payload.get("related_id")
            message: str = payload["message"]
            return message + (f"\n(related id: {related})" if related else "")
    return details


def result_page(results: list[Result], sources: dict[str, ResultSource]) -> Page:
    """Each result decoded: a title with its summary, then its details as text or code."""
    page = Page()
    for result in results:
        source = sources.get(result.id, ResultSource(None, None))
        mark = "\u2714" if result.ok else ("\u2298" if source.rejected else "\u2718")
        what = " ".join(part for part in (source.action, source.path) if part)
        title = f"{mark} {result.id}" + (f"  {what}" if what else "")
        if source.rejected:
            page.add(title + "  (rejected by you)", RowStyle("title-rejected"))
        elif result.repeat:  # an earlier result shown again: not news, and not green
            page.add(f"\u21bb{title[1:]}  (repeat, not run again)", RowStyle("title-repeat"))
        else:
            page.add(title, RowStyle("title-ok" if result.ok else "title-failed"))
        page.add(result.outcome.summary, RowStyle("heading"))
        details = core_readable_details(result.outcome)
        if details:
            code = source.path if source.path and result.ok else None
            style = RowStyle("code", 4, (), code) if code else RowStyle("text", 4)
            lines = readable_details(details).rstrip("\n").split("\n")
            for line in lines[:MAX_DETAIL_LINES]:
                if len(line) > MAX_LINE_CHARS:
                    line = line[:MAX_LINE_CHARS] + f" ... ({len(line) - MAX_LINE_CHARS} more)"
                page.add("    " + line, style)
            if len(lines) > MAX_DETAIL_LINES:
                page.add(
                    f"    ... {counted(len(lines) - MAX_DETAIL_LINES, 'more line')} not shown "
                    "here; "
                    "the clipboard holds them all (see Protocol text)",
                    RowStyle("note"),
                )
        page.add("")
    return page


def change_page(previews: tuple[ChangePreview, ...]) -> Page:
    page = Page()
    for preview in previews:
        for line in preview.review:
            page.add(line, RowStyle("heading"))
        page.extend(unified_page(preview))
        page.add("")
    return page


class PageView(QPlainTextEdit):
    """A read-only, unwrapped, monospaced view of a ``Page``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setStyleSheet(PAGE_STYLE)
        self.highlighter: RowHighlighter | None = None  # made with the first page
        self.page = Page()

    def show_page(self, page: Page) -> None:
        if self.highlighter is None:
            from .highlight import RowHighlighter

            self.highlighter = RowHighlighter(self.document())
        self.page = page
        self.highlighter.rows = page.rows
        self.setPlainText(page.text)
