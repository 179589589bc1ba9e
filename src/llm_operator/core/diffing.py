"""Unified diff of a file's text before and after a change: what the user confirms.

Invariants:
- The output is a valid single-file patch: ``apply_unified_diff(before, diff, path)``
  gives back ``after`` exactly, final-newline state included (``\\ No newline at end of
  file`` is written after a last line that lacks its newline).
- The last line of a text without a final newline is compared as a different line from
  the same text with one, so a change of final-newline state shows as a changed line.
- Big files stay fast when the change is small: the common prefix and suffix are trimmed
  (galloping slice comparisons, which run in C), then the middle is split at a line that
  occurs exactly once on each side (a patience-style anchor) and each part is trimmed and
  split again. difflib only ever sees the small gaps between anchors. Any matched pair of
  lines gives a valid diff; anchors only decide how small it is.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Sequence

_Block = tuple[int, int, int]  # (a index, b index, length) of equal lines
_Opcode = tuple[str, int, int, int, int]  # as difflib: tag, a range, b range

_HUNK_COUNTS = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")

# Gaps this small go straight to difflib; above it, look for an anchor first.
_SMALL_GAP = 400
# How many lines around the middle of a gap are tried as anchors before giving up.
_ANCHOR_TRIES = 24


def _lines(text: str) -> list[str]:
    """Lines of ``text``; a last line without newline gets a trailing "\\n" as its mark.

    No real line contains "\\n", so the marked line never equals an unmarked one.
    """
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    else:
        lines[-1] += "\n"
    return lines


def _common_prefix(a: list[str], b: list[str], alo: int, blo: int, limit: int) -> int:
    """Length of the common run starting at ``a[alo]``/``b[blo]``, at most ``limit``.

    Galloping: each slice comparison covers only lines not yet known to be equal, so the
    cost is proportional to the run found, not to the file.
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
    while step > 1:
        step //= 2
        if a[alo + known : alo + known + step] == b[blo + known : blo + known + step]:
            known += step
    return known


def _common_suffix(a: list[str], b: list[str], ahi: int, bhi: int, limit: int) -> int:
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
    while step > 1:
        step //= 2
        if a[ahi - known - step : ahi - known] == b[bhi - known - step : bhi - known]:
            known += step
    return known


def _anchor(
    a: list[str], b: list[str], alo: int, ahi: int, blo: int, bhi: int
) -> tuple[int, int] | None:
    """A pair (i, j) with a[i] == b[j], each occurring once in its gap; near a's middle."""
    a_gap = a[alo:ahi]
    b_gap = b[blo:bhi]
    middle = len(a_gap) // 2
    tried: set[str] = set()
    for distance in range(len(a_gap)):
        for i in (middle + distance, middle - distance - 1):
            if not 0 <= i < len(a_gap):
                continue
            line = a_gap[i]
            if line in tried:
                continue
            tried.add(line)
            if len(tried) > _ANCHOR_TRIES:
                return None
            if a_gap.count(line) == 1 and b_gap.count(line) == 1:
                return alo + i, blo + b_gap.index(line)
    return None


def _matching_blocks(a: list[str], b: list[str]) -> list[_Block]:
    blocks: list[_Block] = []
    pending = [(0, len(a), 0, len(b))]
    while pending:
        alo, ahi, blo, bhi = pending.pop()
        size = _common_prefix(a, b, alo, blo, min(ahi - alo, bhi - blo))
        if size:
            blocks.append((alo, blo, size))
            alo, blo = alo + size, blo + size
        size = _common_suffix(a, b, ahi, bhi, min(ahi - alo, bhi - blo))
        if size:
            blocks.append((ahi - size, bhi - size, size))
            ahi, bhi = ahi - size, bhi - size
        if alo == ahi or blo == bhi:
            continue
        big = (ahi - alo) + (bhi - blo) > _SMALL_GAP
        anchor = _anchor(a, b, alo, ahi, blo, bhi) if big else None
        if anchor is not None:
            i, j = anchor
            blocks.append((i, j, 1))
            pending.append((alo, i, blo, j))
            pending.append((i + 1, ahi, j + 1, bhi))
            continue
        # autojunk only where the gap is big: it trades minimality for speed, never validity.
        matcher = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=big)
        blocks.extend((alo + i, blo + j, n) for i, j, n in matcher.get_matching_blocks() if n)
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


def _opcodes(a: list[str], b: list[str]) -> list[_Opcode]:
    codes: list[_Opcode] = []
    i = j = 0
    for ai, bj, size in [*_matching_blocks(a, b), (len(a), len(b), 0)]:
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


def unified_diff(before: str, after: str, path: str, *, context: int = 3) -> str:
    """The change from ``before`` to ``after`` as a unified diff of ``path``; "" if none."""
    if before == after:
        return ""
    a = _lines(before)
    b = _lines(after)
    out = [
        "--- /dev/null" if not before else f"--- a/{path}",
        "+++ /dev/null" if not after else f"+++ b/{path}",
    ]
    for group in _grouped(_opcodes(a, b), context):
        first, last = group[0], group[-1]
        out.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                _emit(out, " ", a[i1:i2])
                continue
            _emit(out, "-", a[i1:i2])
            _emit(out, "+", b[j1:j2])
    return "\n".join(out) + "\n"


def diff_stats(diff: str) -> tuple[int, int]:
    """Lines added and removed by a unified diff.

    Hunk bodies are read by their header counts, so a removed line that reads "-- x"
    (shown as "--- x") is counted, not mistaken for a file header.
    """
    added = removed = 0
    old_left = new_left = 0
    for line in diff.split("\n"):
        if old_left > 0 or new_left > 0:
            kind = line[:1] or " "
            if kind == "-":
                removed += 1
                old_left -= 1
            elif kind == "+":
                added += 1
                new_left -= 1
            elif kind == " ":
                old_left -= 1
                new_left -= 1
            continue
        header = _HUNK_COUNTS.match(line)
        if header is not None:
            old_left = int(header.group(1) or "1")
            new_left = int(header.group(2) or "1")
    return added, removed
