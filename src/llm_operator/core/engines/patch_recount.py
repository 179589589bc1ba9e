"""Hunk headers whose counts disagree with their lines, read as ``git apply --recount`` does.

A model writes a hunk's lines right far more often than it counts them. When a header's
counts disagree with the hunk's body, the counts are taken from the body: ' ' and '-' lines
count on the old side, ' ' and '+' lines on the new, an empty line is an empty context
line (as git counts it), '\\' lines on neither.

Rule 1: only a body that ends where hunks end (the next ``@@``, the next file, the end of
the patch) is recounted. A body cut short by a line that is no hunk line (a context line
that lost its leading space), or one that holds a second file's ``---``/``+++`` header
(which a count too large reads on into), is still refused with both counts: recounting it
would drop the rest of the hunk or take another file's lines.
Rule 2: empty lines at the end of a recounted body are separators, not context. git takes
them as context, so it cannot place such a hunk above lines that are not empty; here the
hunk keeps its other lines, and the result is git's wherever git applies it.
Rule 3: placement is unchanged: a recounted hunk whose lines do not match the file is
refused with the same precise context mismatch as any other, and the result of one that
applies says which headers were recounted.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple


class Recounted(NamedTuple):
    """A hunk's body and its counts as its lines give them."""

    body: list[str]
    old: int
    new: int


def counts(body: Sequence[str]) -> tuple[int, int]:
    old = sum(1 for line in body if line == "" or line[0] in " -")
    new = sum(1 for line in body if line == "" or line[0] in " +")
    return old, new


def names_a_file(body: Sequence[str]) -> bool:
    """Whether ``body`` holds a ``--- ``/``+++ `` pair: another file's header."""
    return any(
        line.startswith("--- ") and following.startswith("+++ ")
        for line, following in pairwise(body)
    )


def recount(body: Sequence[str]) -> Recounted:
    """The body without trailing empty lines (Rule 2) and its counts."""
    kept = list(body)
    while kept and kept[-1] == "":
        kept.pop()
    old, new = counts(kept)
    return Recounted(kept, old, new)


def recount_note(stated: Sequence[tuple[int, int, int, int, int]]) -> str:
    """``; hunk 2's header said 3 old and 4 new lines, its lines hold 3 and 3: recounted
    (as git apply --recount does)``, for (hunk, stated old, stated new, old, new) rows."""
    if not stated:
        return ""
    parts = [
        f"hunk {number}'s header said {old_said} old and {new_said} new lines, its lines "
        f"hold {old} and {new}"
        for number, old_said, new_said, old, new in stated
    ]
    return f"; {'; '.join(parts)}: recounted from the lines (as git apply --recount does)"
