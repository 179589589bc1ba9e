"""A unified diff as rows a person reads: each line with its kind and its old and new line
numbers, the removed and added lines paired, and the two-column view of them.

Invariant: the diff is split on "\n" only, so a line holding "\r", "\x0c" or "\u2028"
keeps its number and every number after it stays right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

LineKind = Literal["context", "added", "removed", "hunk", "note"]
Span = tuple[int, int]  # [start, end) character offsets in a line's text

_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@")


@dataclass(frozen=True)
class DiffLine:
    """One row of a preview's diff: its kind, text, old and new line numbers, changed words."""

    kind: LineKind
    text: str  # the line without its "+", "-" or " " column
    old_no: int | None = None
    new_no: int | None = None
    spans: tuple[Span, ...] = ()  # changed words, for a removed/added line with a partner


def pairs(rows: tuple[DiffLine, ...] | list[DiffLine]) -> list[tuple[DiffLine, DiffLine]]:
    """Each removed line with the added line at the same place of the run after it."""
    paired: list[tuple[DiffLine, DiffLine]] = []
    at = 0
    while at < len(rows):
        if rows[at].kind != "removed":
            at += 1
            continue
        start = at
        while at < len(rows) and rows[at].kind == "removed":
            at += 1
        added_start = at
        while at < len(rows) and rows[at].kind == "added":
            at += 1
        count = min(added_start - start, at - added_start)
        paired += [(rows[start + k], rows[added_start + k]) for k in range(count)]
    return paired


def numbered_rows(diff: str) -> tuple[DiffLine, ...]:
    """The lines of a unified diff with their numbers."""
    rows: list[DiffLine] = []
    old = new = 0
    # Split on "\n" only: splitlines() would also break at "\r", "\x0c", "\u2028" and
    # other characters a line of a file may hold, and shift every number after it.
    lines = diff.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        if line.startswith(("--- ", "+++ ")) and not rows:
            continue
        hunk = _HUNK.match(line)
        if hunk:
            old, new = int(hunk.group(1)), int(hunk.group(2))
            rows.append(DiffLine("hunk", line))
        elif line.startswith("+"):
            rows.append(DiffLine("added", line[1:], None, new))
            new += 1
        elif line.startswith("-"):
            rows.append(DiffLine("removed", line[1:], old, None))
            old += 1
        elif line.startswith("\\"):
            rows.append(DiffLine("note", line))
        else:
            rows.append(DiffLine("context", line[1:], old, new))
            old += 1
            new += 1
    return tuple(rows)


@dataclass(frozen=True)
class SideBySideRow:
    """One row of a two-column view: the old line on the left, the new on the right."""

    left: DiffLine | None
    right: DiffLine | None


def side_by_side(lines: tuple[DiffLine, ...]) -> tuple[SideBySideRow, ...]:
    rows: list[SideBySideRow] = []
    at = 0
    while at < len(lines):
        line = lines[at]
        if line.kind in ("context", "hunk", "note"):
            rows.append(SideBySideRow(line, line))
            at += 1
            continue
        removed: list[DiffLine] = []
        added: list[DiffLine] = []
        while at < len(lines) and lines[at].kind == "removed":
            removed.append(lines[at])
            at += 1
        while at < len(lines) and lines[at].kind == "added":
            added.append(lines[at])
            at += 1
        for n in range(max(len(removed), len(added))):
            rows.append(
                SideBySideRow(
                    removed[n] if n < len(removed) else None, added[n] if n < len(added) else None
                )
            )
    return tuple(rows)
