"""Unified diff of a file's text before and after a change: what the user confirms.

Invariants:
- The output is a valid single-file patch: ``apply_unified_diff(before, diff, path)``
  gives back ``after`` exactly, final-newline state included (``\\ No newline at end of
  file`` is written after a last line that lacks its newline).
- The last line of a text without a final newline is compared as a different line from
  the same text with one (it carries a trailing "\\n" as its mark, which no real line
  has), so a change of final-newline state shows as a changed line.
- Big files stay fast when the change is small, and the texts are never split whole:
  work items are character ranges that start at a line start and end at a line start or
  the end of the text. Each item's common prefix and suffix are trimmed (galloping slice
  comparisons, which run in C) back to whole lines; a big remainder is split at a line
  that occurs exactly once on each side (a patience-style anchor), found with
  ``str.find``; only small remainders are split into lines and given to difflib. Any
  matched pair of lines gives a valid diff; anchors only decide how small it is.
- The work is bounded whatever the lines: difflib's matching is cubic in lines that
  repeat, so an item whose bound (pairs of equal lines times the blocks it can find)
  passes ITEM_WORK, or what is left of the diff's DIFF_WORK, goes to Myers' diff within
  MYERS_WORK steps (a few changes among many equal lines), and failing that to the lines
  each side holds once (patience diff), in linear time. An item of more than
  MAX_MATCH_LINES lines is not matched at all.
- Every item boundary is remembered as a (line, character) point, so the few lines a
  hunk prints are found by walking at most a few lines from a known point.
- A change that is known to replace some ranges and copy the rest (a patch's hunks as
  applied) is diffed range by range (``LineDiff.spliced``): the copied text is equal
  without being read. The result is a true diff of the two texts; where equal lines could
  be paired otherwise it pairs them as the ranges say, which a diff of the whole texts
  may not.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

_Block = tuple[int, int, int]  # (a line, b line, length) of equal lines


class Splice(Protocol):
    """What ``LineDiff.spliced`` reads of one replaced range (patching's ``Splice``)."""

    @property
    def old_line(self) -> int: ...
    @property
    def old_count(self) -> int: ...
    @property
    def old_start(self) -> int: ...
    @property
    def old_end(self) -> int: ...
    @property
    def new_line(self) -> int: ...
    @property
    def new_count(self) -> int: ...
    @property
    def new_start(self) -> int: ...
    @property
    def new_end(self) -> int: ...


_Opcode = tuple[str, int, int, int, int]  # as difflib: tag, a range, b range


# Items with fewer characters than this (both sides together) go straight to difflib.
SMALL_ITEM = 16_384
# difflib's matching of an item costs up to (pairs of equal lines) x (blocks it finds):
# cubic in its lines where a few lines repeat ("x" lines against "x", "y" alternating:
# 1,024 lines took 20 s). An item whose bound passes ITEM_WORK, and every item once one
# diff has spent DIFF_WORK, is matched by the lines it holds once on each side instead
# (patience diff, ``_unique_blocks``), in linear time: a valid diff, if a longer one.
ITEM_WORK = 2_000_000
DIFF_WORK = 20_000_000
# Before that, such an item is tried with Myers' diff (the fewest lines removed and added)
# for up to MYERS_WORK steps, and up to MYERS_DIFF_WORK in one diff: a few changes among
# many equal lines take few.
MYERS_WORK = 300_000
MYERS_DIFF_WORK = 1_500_000


# An item of more lines than this (both sides, with no anchor) is not matched at all: an
# edit list of 200 characters can make a file of 40 million lines, and even splitting
# them costs seconds and gigabytes. Its lines show as removed and added.
MAX_MATCH_LINES = 1_000_000
# How many lines around the middle of an item are tried as anchors before giving up.
_ANCHOR_TRIES = 24
# A candidate anchor found more often than this (as a substring) is not worth counting.
_ANCHOR_HITS = 64


@dataclass
class DiffWork:
    """What is left of one diff's budgets, spent as its items are matched: steps of
    difflib's matching (of DIFF_WORK) and of Myers' diff (of MYERS_DIFF_WORK)."""

    difflib: int = DIFF_WORK
    myers: int = MYERS_DIFF_WORK


def _count_lines(text: str, start: int, stop: int) -> int:
    """Lines in a line-aligned range: its newlines, plus a last line without one."""
    extra = 1 if stop > start and text[stop - 1] != "\n" else 0
    return text.count("\n", start, stop) + extra


def _split(segment: str) -> list[str]:
    """Lines of a line-aligned segment; a last line without newline gets its mark."""
    if not segment:
        return []
    lines = segment.split("\n")
    if lines[-1] == "":
        lines.pop()
    else:
        lines[-1] += "\n"
    return lines


class _Text:
    """A text and the (line, character) points where item boundaries fell."""

    def __init__(self, text: str, total: int | None = None) -> None:
        self.text = text
        self.total = _count_lines(text, 0, len(text)) if total is None else total
        self._points: dict[int, int] = {0: 0}
        self._sorted: list[int] = []

    def mark(self, line: int, char: int) -> None:
        self._points[line] = char
        self._sorted = []

    def _start_of(self, line: int) -> int:
        if not self._sorted:
            self._sorted = sorted(self._points)
        at = bisect_left(self._sorted, line)
        below = self._sorted[at - 1] if at > 0 else None
        above = self._sorted[at] if at < len(self._sorted) else None
        text = self.text
        if above is not None and (below is None or above - line <= line - below):
            char = self._points[above]
            for _ in range(above - line):
                char = text.rfind("\n", 0, char - 1) + 1
        else:
            assert below is not None  # line 0 is always a point
            char = self._points[below]
            for _ in range(line - below):
                char = text.find("\n", char) + 1
        # Remembered: the hunks of a diff are asked for in order, each walking on from the
        # last one, not from the item boundary before them all (quadratic in the hunks).
        if line not in self._points:
            self._points[line] = char
            insort(self._sorted, line)
        return char

    def offset(self, line: int) -> int:
        """The character where ``line`` (from 0) starts; the text's end from its last on."""
        return len(self.text) if line >= self.total else self._start_of(line)

    def lines(self, start: int, stop: int) -> list[str]:
        text = self.text
        char = self._start_of(start)
        out = []
        for _ in range(stop - start):
            end = text.find("\n", char)
            if end == -1:
                out.append(text[char:] + "\n")
                break
            out.append(text[char:end])
            char = end + 1
        return out


def _common_prefix(a: str, b: str, alo: int, blo: int, limit: int) -> int:
    """Length of the common run starting at ``a[alo]``/``b[blo]``, at most ``limit``.

    Galloping: each slice comparison covers only characters not yet known to be equal,
    so the cost is proportional to the run found, not to the text.
    """
    if limit == 0 or a[alo] != b[blo]:
        return 0
    known, step = 1, 1
    while known < limit:
        step = min(step, limit - known)
        if a[alo + known : alo + known + step] != b[blo + known : blo + known + step]:
            break
        known += step
        step *= 2
    else:
        return known
    # The first difference lies in the last ``step`` characters compared: halve them.
    low, high = known, known + step
    while high - low > 1:
        middle = (low + high) // 2
        if a[alo + low : alo + middle] == b[blo + low : blo + middle]:
            low = middle
        else:
            high = middle
    return low


def _common_suffix(a: str, b: str, ahi: int, bhi: int, limit: int) -> int:
    """Length of the common run ending just before ``a[ahi]``/``b[bhi]``, at most ``limit``."""
    if limit == 0 or a[ahi - 1] != b[bhi - 1]:
        return 0
    known, step = 1, 1
    while known < limit:
        step = min(step, limit - known)
        if a[ahi - known - step : ahi - known] != b[bhi - known - step : bhi - known]:
            break
        known += step
        step *= 2
    else:
        return known
    low, high = known, known + step
    while high - low > 1:
        middle = (low + high) // 2
        if a[ahi - middle : ahi - low] == b[bhi - middle : bhi - low]:
            low = middle
        else:
            high = middle
    return low


def _unique_line(text: str, needle: str, start: int, stop: int) -> int | None:
    """Where ``needle`` (a line with its newline) is a whole line exactly once in the range."""
    found: int | None = None
    hits = 0
    at = text.find(needle, start, stop)
    while at != -1:
        hits += 1
        if hits > _ANCHOR_HITS:
            return None
        if at == start or text[at - 1] == "\n":
            if found is not None:
                return None
            found = at
        at = text.find(needle, at + 1, stop)
    return found


def _anchor(a: str, b: str, a0: int, a1: int, b0: int, b1: int) -> tuple[int, int] | None:
    """Line starts (i, j) of a line found exactly once in each range; near a's middle."""
    middle = a.rfind("\n", a0, (a0 + a1) // 2) + 1 or a0
    forward = backward = max(middle, a0)
    for turn in range(_ANCHOR_TRIES):
        if turn % 2 == 0:
            start = forward
            forward = a.find("\n", forward, a1) + 1 or a1
        else:
            if backward <= a0:
                continue
            backward = a.rfind("\n", a0, backward - 1) + 1 or a0
            start = backward
        end = a.find("\n", start, a1)
        if start >= a1 or end == -1 or end == start:
            continue  # past the end, a last line without newline, or an empty line
        needle = a[start : end + 1]
        i = _unique_line(a, needle, a0, a1)
        j = _unique_line(b, needle, b0, b1) if i is not None else None
        if i is not None and j is not None:
            return i, j
    return None


def _matching_blocks(a: _Text, b: _Text, work: DiffWork | None = None) -> list[_Block]:
    """Equal runs of lines, in order, as (a line, b line, length).

    An item carries the line numbers of both its ends, so each character is counted
    for newlines about once per level instead of once per question asked about it.
    ``work``: what is left of the diff's budgets (spent here).
    """
    work = DiffWork() if work is None else work
    at, bt = a.text, b.text
    blocks: list[_Block] = []
    pending = [(0, len(at), 0, len(bt), 0, a.total, 0, b.total)]
    while pending:
        a0, a1, b0, b1, la, la_end, lb, lb_end = pending.pop()
        size = _common_prefix(at, bt, a0, b0, min(a1 - a0, b1 - b0))
        if size == a1 - a0 == b1 - b0:
            if size:
                blocks.append((la, lb, la_end - la))
            continue
        cut = at.rfind("\n", a0, a0 + size) + 1 or a0  # back to a whole line
        if cut > a0:
            lines = at.count("\n", a0, cut)
            blocks.append((la, lb, lines))
            la, lb = la + lines, lb + lines
            b0 += cut - a0
            a0 = cut
        size = _common_suffix(at, bt, a1, b1, min(a1 - a0, b1 - b0))
        a_start, b_start = a1 - size, b1 - size
        if size and not (
            (a_start == 0 or at[a_start - 1] == "\n") and (b_start == 0 or bt[b_start - 1] == "\n")
        ):
            # Forward to the next line start inside the common part: equal in both.
            size = a1 - (at.find("\n", a_start, a1) + 1 or a1)
        if size:
            lines = _count_lines(at, a1 - size, a1)
            la_end, lb_end = la_end - lines, lb_end - lines
            blocks.append((la_end, lb_end, lines))
            a1, b1 = a1 - size, b1 - size
        a.mark(la, a0)
        b.mark(lb, b0)
        a.mark(la_end, a1)
        b.mark(lb_end, b1)
        if a0 == a1 or b0 == b1:
            continue
        big = (a1 - a0) + (b1 - b0) > SMALL_ITEM
        anchor = _anchor(at, bt, a0, a1, b0, b1) if big else None
        if anchor is not None:
            i, j = anchor
            end = at.find("\n", i) + 1
            li, lj = la + at.count("\n", a0, i), lb + bt.count("\n", b0, j)
            blocks.append((li, lj, 1))
            pending.append((a0, i, b0, j, la, li, lb, lj))
            pending.append((end, a1, j + (end - i), b1, li + 1, la_end, lj + 1, lb_end))
            continue
        if (la_end - la) + (lb_end - lb) > MAX_MATCH_LINES:
            continue  # shown as removed and added whole: no line of it is split or matched
        a_lines, b_lines = _split(at[a0:a1]), _split(bt[b0:b1])
        found = _line_blocks(a_lines, b_lines, big, work)
        blocks.extend((la + i, lb + j, n) for i, j, n in found)
    return _merged(blocks)


def _line_blocks(
    a: list[str], b: list[str], big: bool, work: DiffWork | None = None
) -> list[_Block]:
    """difflib's matching blocks of two lists of lines (the closing empty one left out);
    where difflib would cost more than ITEM_WORK or than is left of ``work.difflib``, those of
    Myers' diff within MYERS_WORK and ``work.myers`` steps, or else of the lines each list
    holds once (``_unique_blocks``).

    One line against a few (a line edited, or one line made into several: the usual
    change) is matched here, as difflib would match it: its first equal line, if any.
    difflib, whose import costs a run that diffs nothing else more than the matching,
    is loaded only for the rest. Its autojunk (only where the item is big: it trades
    minimality for speed, never validity) looks at ``b`` from 200 lines on."""
    if (len(a) == 1 and len(b) < 200) or len(b) == 1:
        one, other = (a[0], b) if len(a) == 1 else (b[0], a)
        try:
            at = other.index(one)
        except ValueError:
            return []
        return [(0, at, 1)] if len(a) == 1 else [(at, 0, 1)]
    work = DiffWork() if work is None else work
    bound = _difflib_bound(a, b, big)
    if bound < 0:
        return []  # no line of ``a`` is in ``b``
    if bound > ITEM_WORK or bound > work.difflib:
        allowed = min(MYERS_WORK, work.myers)
        steps = [allowed]
        found = _myers_blocks(a, b, steps) if allowed > 0 else None
        work.myers -= allowed - max(steps[0], 0)
        return _unique_blocks(a, b) if found is None else found
    work.difflib -= bound
    import difflib

    matcher = difflib.SequenceMatcher(None, a, b, autojunk=big)
    return [block for block in matcher.get_matching_blocks() if block[2]]


def _difflib_bound(a: list[str], b: list[str], autojunk: bool) -> int:
    """At most how many steps difflib's matching of ``a`` and ``b`` takes, or -1 when
    they have no line in common: it indexes ``b``, then each search for the longest match
    visits every pair of equal lines (the lines autojunk drops aside), and it searches
    once per block it finds, and once more."""
    counts = Counter(b)
    if not any(line in counts for line in a):
        return -1
    if autojunk and len(b) >= 200:
        popular = len(b) // 100 + 1  # difflib's own rule
        counts = Counter({line: n for line, n in counts.items() if n <= popular})
    pairs = sum(counts[line] for line in a if line in counts)
    return len(b) + pairs * (min(len(a), len(b)) + 1)


def _myers_blocks(a: list[str], b: list[str], steps: list[int]) -> list[_Block] | None:
    """The equal runs of a shortest edit script of ``a`` into ``b`` (Myers' greedy
    algorithm), or None once it has taken ``steps`` (spent here: a step is a line compared
    or a diagonal tried)."""
    n, m = len(a), len(b)
    offset = n + m + 1
    v = [0] * (2 * offset + 1)
    trace: list[list[int]] = []
    for d in range(n + m + 1):
        trace.append(v[offset - d - 1 : offset + d + 2])
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[offset + k - 1] < v[offset + k + 1]):
                x = v[offset + k + 1]
            else:
                x = v[offset + k - 1] + 1
            y = x - k
            start = x
            while x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
            v[offset + k] = x
            steps[0] -= 1 + (x - start)
            if x >= n and y >= m:
                return _myers_path(trace, n, m)
        if steps[0] < 0:
            return None
    return None  # not reached: d = n + m always ends


def _myers_path(trace: list[list[int]], n: int, m: int) -> list[_Block]:
    """The equal runs of the edit script ``_myers_blocks`` found, from its saved rows
    (row ``d`` holds diagonals ``-d - 1``..``d + 1`` as they were before step ``d``)."""
    blocks: list[_Block] = []
    x, y = n, m
    for d in range(len(trace) - 1, -1, -1):
        row = trace[d]

        def at(k: int, row: list[int] = row, d: int = d) -> int:
            return row[k + d + 1]

        k = x - y
        if d == 0:
            prev_x = prev_y = 0
        else:
            down = k == -d or (k != d and at(k - 1) < at(k + 1))
            prev_k = k + 1 if down else k - 1
            prev_x = at(prev_k)
            prev_y = prev_x - prev_k
        # The snake: from the end of the edit out of (prev_x, prev_y) to (x, y).
        mid_x = prev_x if d == 0 else (prev_x if prev_k == k + 1 else prev_x + 1)
        if x > mid_x:
            blocks.append((mid_x, mid_x - k, x - mid_x))
        x, y = prev_x, prev_y
    return blocks[::-1]


def _unique_blocks(a: list[str], b: list[str]) -> list[_Block]:
    """Equal runs around the lines ``a`` and ``b`` each hold exactly once, paired in the
    longest order both agree on (patience diff), each run grown while the lines next to
    it are equal too: linear in the lines (and the log of the pairs), whatever they are."""
    in_a, in_b = Counter(a), Counter(b)
    where_b = {line: j for j, line in enumerate(b) if in_b[line] == 1}
    pairs = [(i, where_b[line]) for i, line in enumerate(a) if in_a[line] == 1 and line in where_b]
    chain = _increasing(pairs)
    blocks: list[_Block] = []
    a_end = b_end = 0  # where the last block ended
    for k, (i, j) in enumerate(chain):
        next_i, next_j = chain[k + 1] if k + 1 < len(chain) else (len(a), len(b))
        start = 0
        while i - start > a_end and j - start > b_end and a[i - start - 1] == b[j - start - 1]:
            start += 1
        size = 1
        while i + size < next_i and j + size < next_j and a[i + size] == b[j + size]:
            size += 1
        blocks.append((i - start, j - start, start + size))
        a_end, b_end = i + size, j + size
    return blocks


def _increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of ``pairs`` (in increasing first items) whose second items
    increase too, by patience sorting."""
    tops: list[int] = []  # the second item ending the best run of each length
    ends: list[int] = []  # index in pairs of that run's last pair
    back: list[int] = []  # for each pair, the index of the pair before it in its run
    for index, (_, j) in enumerate(pairs):
        at = bisect_left(tops, j)
        if at == len(tops):
            tops.append(j)
            ends.append(index)
        else:
            tops[at] = j
            ends[at] = index
        back.append(ends[at - 1] if at else -1)
    chain: list[tuple[int, int]] = []
    index = ends[-1] if ends else -1
    while index >= 0:
        chain.append(pairs[index])
        index = back[index]
    return chain[::-1]


def _merged(blocks: list[_Block]) -> list[_Block]:
    blocks.sort()
    # Adjacent blocks (a trimmed prefix and an anchor, say) merge: an "equal" opcode must
    # never follow another, or the grouping would emit hunks without changes.
    merged: list[_Block] = []
    for i, j, size in blocks:
        if merged and merged[-1][0] + merged[-1][2] == i and merged[-1][1] + merged[-1][2] == j:
            merged[-1] = (merged[-1][0], merged[-1][1], merged[-1][2] + size)
        else:
            merged.append((i, j, size))
    return merged


def _opcodes(a: _Text, b: _Text) -> list[_Opcode]:
    return _codes_of(_matching_blocks(a, b), a, b)


def _codes_of(blocks: list[_Block], a: _Text, b: _Text) -> list[_Opcode]:
    codes: list[_Opcode] = []
    i = j = 0
    for ai, bj, size in [*blocks, (a.total, b.total, 0)]:
        if i < ai and j < bj:
            codes.append(("replace", i, ai, j, bj))
        elif i < ai:
            codes.append(("delete", i, ai, j, bj))
        elif j < bj:
            codes.append(("insert", i, ai, j, bj))
        if size:
            codes.append(("equal", ai, ai + size, bj, bj + size))
        i, j = ai + size, bj + size
    return codes


def line_opcodes(before: str, after: str) -> list[_Opcode]:
    """difflib-style opcodes over the lines of two texts, as fast as ``unified_diff`` on
    big texts with small changes (line numbers count from 0)."""
    return _opcodes(_Text(before), _Text(after))


def _grouped(codes: list[_Opcode], context: int) -> Iterator[list[_Opcode]]:
    """Changes with up to ``context`` equal lines around them, as difflib groups them."""
    if codes and codes[0][0] == "equal":
        tag, i1, i2, j1, j2 = codes[0]
        codes[0] = tag, max(i1, i2 - context), i2, max(j1, j2 - context), j2
    if codes and codes[-1][0] == "equal":
        tag, i1, i2, j1, j2 = codes[-1]
        codes[-1] = tag, i1, min(i2, i1 + context), j1, min(j2, j1 + context)
    group: list[_Opcode] = []
    for tag, i1, i2, j1, j2 in codes:
        if tag == "equal" and i2 - i1 > 2 * context:
            group.append((tag, i1, min(i2, i1 + context), j1, min(j2, j1 + context)))
            yield group
            group = []
            i1, j1 = max(i1, i2 - context), max(j1, j2 - context)
        group.append((tag, i1, i2, j1, j2))
    if group and not (len(group) == 1 and group[0][0] == "equal"):
        yield group


def _range(start: int, stop: int) -> str:
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start if length == 0 else start + 1},{length}"


def _emit(out: list[str], prefix: str, lines: Sequence[str]) -> None:
    for line in lines:
        if line.endswith("\n"):
            out.append(prefix + line[:-1])
            out.append("\\ No newline at end of file")
        else:
            out.append(prefix + line)


class LineDiff:
    """The lines that differ between two texts, worked out once for all who ask: the
    unified diff a person approves and the landed lines of the result."""

    def __init__(self, before: str, after: str) -> None:
        self.before, self.after = _Text(before), _Text(after)
        self._codes: list[_Opcode] | None = None

    @classmethod
    def spliced(
        cls,
        before: str,
        after: str,
        splices: Sequence[Splice],
        before_lines: int,
        after_lines: int,
    ) -> LineDiff:
        """The diff of a change known to replace only the ``splices`` (in order, as a patch
        applied them) and to copy every other character of ``before`` unchanged: each
        splice's lines are diffed as a text of their own, the text between them is equal
        without being read. ``before_lines``/``after_lines``: the texts' line counts."""
        diff = cls.__new__(cls)
        a, b = _Text(before, before_lines), _Text(after, after_lines)
        diff.before, diff.after = a, b
        blocks: list[_Block] = []
        work = DiffWork()  # one budget for every splice
        la = lb = 0  # the lines before the next splice are equal, as many on each side
        for cut in splices:
            if cut.old_line > la:
                blocks.append((la, lb, cut.old_line - la))
            a.mark(cut.old_line, cut.old_start)
            b.mark(cut.new_line, cut.new_start)
            a.mark(cut.old_line + cut.old_count, cut.old_end)
            b.mark(cut.new_line + cut.new_count, cut.new_end)
            old = _Text(before[cut.old_start : cut.old_end], cut.old_count)
            new = _Text(after[cut.new_start : cut.new_end], cut.new_count)
            blocks.extend(
                (cut.old_line + i, cut.new_line + j, size)
                for i, j, size in _matching_blocks(old, new, work)
            )
            la, lb = cut.old_line + cut.old_count, cut.new_line + cut.new_count
        if a.total > la:
            blocks.append((la, lb, a.total - la))
        diff._codes = _codes_of(_merged(blocks), a, b)
        return diff

    @property
    def opcodes(self) -> list[_Opcode]:
        """As ``line_opcodes(before, after)`` gives them, or for a ``spliced`` diff as its
        splices give them (a new list each time)."""
        if self._codes is None:
            self._codes = _opcodes(self.before, self.after)
        return list(self._codes)

    def new_lines(self, start: int, stop: int) -> list[str]:
        """Lines ``start``..``stop`` (from 0) of the new text, without their line breaks."""
        return [line.removesuffix("\n") for line in self.after.lines(start, stop)]

    def unified(self, path: str, *, context: int = 3, limit: int | None = None) -> str:
        """The change as a unified diff of ``path``; "" if none.

        ``limit``: at most this many lines of hunks (headers aside); a diff cut there ends
        with a line that starts with a backslash and says so (for a person to read: the
        cut hunk's counts are the whole hunk's)."""
        a, b = self.before, self.after
        if a.text == b.text:
            return ""
        out = [
            "--- /dev/null" if not a.text else f"--- a/{path}",
            "+++ /dev/null" if not b.text else f"+++ b/{path}",
        ]
        left = limit  # lines of hunks still to show, if limited
        cut = f"\\ The diff is cut here: it goes on past {limit or 0:,} lines"
        for group in _grouped(self.opcodes, context):
            if left == 0:  # another hunk follows the last line shown
                out.append(cut)
                return "\n".join(out) + "\n"
            first, last = group[0], group[-1]
            out.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@")
            for tag, i1, i2, j1, j2 in group:
                runs = (
                    [(" ", a, i1, i2)] if tag == "equal" else [("-", a, i1, i2), ("+", b, j1, j2)]
                )
                for prefix, text, start, stop in runs:
                    if left is not None and stop - start > left:  # more lines than shown
                        _emit(out, prefix, text.lines(start, start + left))
                        out.append(cut)
                        return "\n".join(out) + "\n"
                    _emit(out, prefix, text.lines(start, stop))
                    if left is not None:
                        left -= stop - start
        return "\n".join(out) + "\n"

    def counts(self) -> tuple[int, int]:
        """Lines added and removed: the "-" and "+" lines of the whole unified diff."""
        added = removed = 0
        for tag, i1, i2, j1, j2 in self.opcodes:
            if tag != "equal":
                added += j2 - j1
                removed += i2 - i1
        return added, removed


def unified_diff(before: str, after: str, path: str, *, context: int = 3) -> str:
    """The change from ``before`` to ``after`` as a unified diff of ``path``; "" if none."""
    if before == after:
        return ""
    return LineDiff(before, after).unified(path, context=context)
