"""A planned edit merged into a file that changed outside the app: a three-way merge of
lines, as diff3 makes it.

``base`` is the text the edit was planned against, ``ours`` the planned new text,
``theirs`` what the file holds now. Each side's changes are the line diff of ``base`` to
that side (``diffing.line_opcodes``).

Invariants:
- Lines keep their breaks ("a\\n"), so a last line without a final newline is a different
  line from the same line with one: a change of the final-newline state is a change of
  that line.
- A change of one side that meets no change of the other side is taken as it is.
- Changes of the two sides that share a base line, or touch (one ends where the other
  begins, or both insert at one place), overlap. Where both made the very same change the
  merge takes it once; any other overlap refuses the whole merge and names the lines. Two
  changes on neighbouring lines refuse as git's merge refuses them: whether an edit still
  fits a neighbour that changed, or which of two insertions at one place comes first, is
  not a merge's to guess, and a person reviews the result only line by line.
- ``merge3(base, ours, base)`` is ``ours`` and ``merge3(base, base, theirs)`` is
  ``theirs``, exactly.
- Text to text: nothing here reads or writes a file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .diffing import LineDiff

_Hunk = tuple[int, int, int, int]  # base lines [i1, i2) became the side's lines [j1, j2)


@dataclass(frozen=True)
class Lines:
    """A range of lines, counted from 0, end excluded; an empty range is a place between
    two lines (where lines were removed or would be inserted)."""

    start: int
    stop: int

    def describe(self) -> str:
        """The range in words, lines counted from 1 as an editor shows them."""
        if self.stop - self.start >= 2:
            return f"lines {self.start + 1}-{self.stop}"
        if self.stop - self.start == 1:
            return f"line {self.start + 1}"
        return f"after line {self.start}" if self.start else "at the start"


@dataclass(frozen=True)
class Overlap:
    """Where the two sides changed the same lines differently: the lines of ``base`` (the
    text the edit was planned on), of ``theirs`` (the file now) and of ``ours`` (the planned
    text) that the clashing changes cover."""

    base: Lines
    theirs: Lines
    ours: Lines


@dataclass(frozen=True)
class Merge:
    """The merged text (None when changes overlap), the lines of ``theirs`` that differ
    from ``base`` (what changed outside, in the file as it is now), and the overlaps."""

    text: str | None
    outside: tuple[Lines, ...]
    overlaps: tuple[Overlap, ...]


def describe_lines(ranges: Sequence[Lines], most: int = 6) -> str:
    """Up to ``most`` ranges in words, and how many more there are."""
    words = [lines.describe() for lines in ranges[:most]]
    if len(ranges) > most:
        words.append(f"{len(ranges) - most} more")
    return ", ".join(words)


class _Side:
    """One side's changes to ``base`` (``diffing.LineDiff``), and where its hunks' lines
    start in both texts: merged text is cut from the texts by character, never split into
    lines (a merge of a 200,000-line file would spend most of its time making them)."""

    def __init__(self, base: str, text: str) -> None:
        diff = LineDiff(base, text)
        self.hunks = [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in diff.opcodes if tag != "equal"]
        self.text = text
        self.base_at: dict[int, int] = {}
        self.at: dict[int, int] = {}
        for i1, i2, j1, j2 in self.hunks:
            for line in (i1, i2):
                self.base_at[line] = diff.before.offset(line)
            for line in (j1, j2):
                self.at[line] = diff.after.offset(line)


def _made(
    side: _Side, hunks: list[_Hunk], base: str, base_at: dict[int, int], lo: int, hi: int
) -> str:
    """What one side made of base lines [lo, hi), given its hunks inside that range: the
    lines between its hunks are equal on both, so they are cut from ``base``."""
    made: list[str] = []
    at = lo
    for i1, i2, j1, j2 in hunks:
        made.append(base[base_at[at] : base_at[i1]])
        made.append(side.text[side.at[j1] : side.at[j2]])
        at = i2
    made.append(base[base_at[at] : base_at[hi]])
    return "".join(made)


def _span(hunks: list[_Hunk], lo: int, hi: int) -> Lines:
    """The lines of one side that base lines [lo, hi) became (its hunks cover part of it;
    the rest is equal lines, one for one)."""
    first, last = hunks[0], hunks[-1]
    return Lines(first[2] - (first[0] - lo), last[3] + (hi - last[1]))


def merge3(base: str, ours: str, theirs: str) -> Merge:
    """``ours``' changes to ``base`` made on ``theirs`` (see the module's invariants)."""
    if theirs == base:
        return Merge(ours, (), ())
    theirs_side = _Side(base, theirs)
    outside = tuple(Lines(j1, j2) for _, _, j1, j2 in theirs_side.hunks)
    if ours == base:
        return Merge(theirs, outside, ())
    if ours == theirs:
        return Merge(ours, outside, ())
    sides = (_Side(base, ours), theirs_side)
    base_at = {0: 0, **sides[0].base_at, **sides[1].base_at}
    tagged = sorted(
        [(hunk, 0) for hunk in sides[0].hunks] + [(hunk, 1) for hunk in sides[1].hunks],
        key=lambda item: (item[0][0], item[0][1], item[1]),
    )
    merged: list[str] = []
    overlaps: list[Overlap] = []
    at = k = 0
    while k < len(tagged):
        lo, hi = tagged[k][0][0], tagged[k][0][1]
        group = [tagged[k]]
        k += 1
        # Closed ranges meet: a change that begins where the group ends touches it.
        while k < len(tagged) and tagged[k][0][0] <= hi:
            group.append(tagged[k])
            hi = max(hi, tagged[k][0][1])
            k += 1
        merged.append(base[base_at[at] : base_at[lo]])
        at = hi
        by_side = ([h for h, s in group if s == 0], [h for h, s in group if s == 1])
        made = [_made(sides[s], by_side[s], base, base_at, lo, hi) for s in (0, 1)]
        if not by_side[1]:
            merged.append(made[0])
        elif not by_side[0] or made[0] == made[1]:
            merged.append(made[1])
        else:
            overlaps.append(
                Overlap(Lines(lo, hi), _span(by_side[1], lo, hi), _span(by_side[0], lo, hi))
            )
    merged.append(base[base_at[at] :])
    if overlaps:
        return Merge(None, outside, tuple(overlaps))
    return Merge("".join(merged), outside, ())
