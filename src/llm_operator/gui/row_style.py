"""How one line of a rendered page looks: plain data, shared by pages and the highlighter."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RowStyle:
    """How one line of a page looks.

    ``kind`` is a diff line kind (context, added, removed, hunk, note), or title-ok,
    title-failed, title-rejected, title-repeat, heading, text, code. ``code_at`` is where
    the line's own text starts (after a line-number gutter); ``spans`` (relative to
    ``code_at``) are changed words;
    ``language`` names the file whose language colours the code, if any.
    """

    kind: str
    code_at: int = 0
    spans: tuple[tuple[int, int], ...] = ()
    language: str | None = None  # a file path: its extension picks the code colours
