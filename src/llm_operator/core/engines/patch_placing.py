"""Where each hunk of a parsed patch goes in the file, or why it goes nowhere.

Invariants:
- Each hunk is matched against the original lines on its own, whatever the hunk order:
  it goes to the place nearest the line its header states (the old side, ``-a``), as
  ``git apply`` looks at offsets +1, -1, +2, -2, ...; the offsets used are reported.
  Context and removed lines match exactly: no fuzz factor, no whitespace leniency.
- Stricter than git where a model's line numbers mislead: two places equally near the
  stated line refuse (ERR_PATCH_AMBIGUOUS, both lines named); hunks whose places overlap
  refuse (ERR_PATCH_OVERLAP); a hunk whose new side already stands where it would go, or
  stands near its line while its old side is nowhere, refuses as "looks already applied
  at line N" (ERR_PATCH_ALREADY_APPLIED), as GNU patch detects previously applied patches.
- A hunk with no old-side lines (pure insertion, no context) is only tried at its stated
  line: there is nothing to recognise it by anywhere else.
- The text is never split into lines on success: each hunk's old lines, joined, are
  found with ``str.find`` and their line number counted with ``str.count``. Only a
  failing hunk splits the text, to show the nearest place.
- Unlike ``git apply``, a hunk with uneven context is not pinned to the start or end of the
  file; LLM-written hunks often carry uneven context, and their stated line places them.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..errors import OperatorError, mark, quote
from ..wording import counted
from ..work_budget import check
from .patch_parsing import Hunk, ParsedPatch, hunk_label
from .textfile import split_lines

MISMATCH = "ERR_PATCH_CONTEXT_MISMATCH"

# How many lines of a failing hunk the message shows; details always carry all of them.
SHOWN_LINES = 30


class Place(NamedTuple):
    """Where a hunk applies: its first old line, and the characters its old lines span."""

    line: int
    start: int
    end: int


def _fits_end(text: str, hunk: Hunk, end: int) -> bool:
    """Whether old lines ending at character ``end`` agree with the hunk about the file's end."""
    at_end = end == len(text)
    lacks_final_newline = bool(text) and not text.endswith("\n")
    if hunk.old_no_eol and not (at_end and lacks_final_newline):
        return False
    if hunk.new_no_eol and not at_end:
        return False
    # Lines added after a last line that lacks its newline would change that line too.
    return bool(hunk.old) or not (at_end and lacks_final_newline)


def _offset_of_line(text: str, start: int, count: int) -> int | None:
    """Character offset of the line ``count`` lines after the line starting at ``start``."""
    if count == 0:
        return start
    # The regex engine walks the lines in C; a Python loop over find() would not.
    match = re.compile(f"(?:[^\n]*\n){{{count}}}").match(text, start)
    return None if match is None else match.end()


class Counted:
    """Character offsets of one text whose line is known (0 is line 0), so that the
    hunks placed one after another count each newline about once, not once each."""

    def __init__(self) -> None:
        self.chars = [0]
        self.lines = [0]  # the lines of ``chars``: ascending as they are

    def below(self, char: int) -> tuple[int, int]:
        """The known offset nearest ``char`` from below, and its line."""
        at = bisect_right(self.chars, char) - 1
        return self.chars[at], self.lines[at]

    def up_to_line(self, line: int) -> tuple[int, int]:
        """The last known offset on line ``line`` or before it, and its line."""
        at = bisect_right(self.lines, line) - 1
        return self.chars[at], self.lines[at]

    def note(self, char: int, line: int) -> None:
        at = bisect_right(self.chars, char)
        if self.chars[at - 1] != char:
            self.chars.insert(at, char)
            self.lines.insert(at, line)


def nearest(
    text: str,
    needle: str,
    stated: int,
    fits: Callable[[int], bool],
    known: Counted | None = None,
) -> list[Place]:
    """The places nearest line ``stated`` where ``needle`` (whole lines) occurs: one, or two
    equally near (one above, one below). Occurrences come from ``str.find`` over the text,
    never split; the line of each is counted incrementally, from the nearest offset whose
    line ``known`` holds, and the scan stops at the first place at or below the stated
    line, or once it is farther below it than the best place found.

    With ``known`` offsets (earlier hunks of the patch), the scan starts at the last one
    on or before the stated line: a place found from there nearer than that offset's line
    is nearer than any place before it, so the text before it is not searched; otherwise
    the whole text is."""
    if known is not None:
        start, start_line = known.up_to_line(stated)
        if start:
            best, line, counted_to = _scan(text, needle, stated, fits, start, start_line)
            if best and abs(best[0].line - stated) < stated - start_line:
                known.note(counted_to, line)
                return best
    found = text.find(needle)
    line = counted_to = 0
    if known is not None and found != -1:
        counted_to, line = known.below(found)
    best, line, counted_to = _scan(text, needle, stated, fits, counted_to, line, found)
    if known is not None and counted_to:
        known.note(counted_to, line)
    return best


def _scan(
    text: str,
    needle: str,
    stated: int,
    fits: Callable[[int], bool],
    counted_to: int,
    line: int,
    found: int | None = None,
) -> tuple[list[Place], int, int]:
    """``nearest``'s scan from character ``counted_to`` (on line ``line``), or from the
    occurrence ``found`` at or after it: the best places, and the last offset counted
    with its line."""
    best: list[Place] = []
    best_distance = 0
    steps = 0
    if found is None:
        found = text.find(needle, counted_to)
    while found != -1:
        steps += 1
        if steps % 4096 == 0:  # a line repeated a million times is a million steps
            check("placing the patch's hunks")
        line += text.count("\n", counted_to, found)
        counted_to = found
        distance = abs(line - stated)
        if best and line - stated > best_distance:
            break
        end = found + len(needle)
        if (found == 0 or text[found - 1] == "\n") and fits(end):
            if not best or distance < best_distance:
                best, best_distance = [Place(line, found, end)], distance
            elif distance == best_distance and best[-1].line != line:
                best.append(Place(line, found, end))
            if line >= stated:
                break  # a later place starts a later line: farther below, never as near
        found = text.find(needle, found + 1)
    return best, line, counted_to


def place_hunks(
    text: str, parsed: ParsedPatch, path: str
) -> tuple[list[tuple[Hunk, Place]], list[tuple[Hunk, Place]]]:
    """Each hunk with its place in ``text``, in the patch's order and in the file's; raise
    the refusal of the first hunk that has none, or of two hunks whose places overlap."""
    placed: list[tuple[Hunk, Place]] = []
    known = Counted()
    for hunk in parsed.hunks:
        places = _locate(text, hunk, known)
        if not places:
            done = _applied_at(text, hunk, None, known)
            if done is not None:
                raise _already_applied(hunk, done, path)
            raise _mismatch(text, hunk, 0, path)
        if len(places) > 1:
            raise _ambiguous(hunk, places, path)
        done = (
            _applied_at(text, hunk, places[0], known)
            if _misses_its_edge(text, hunk, places[0])
            else None
        )
        if done is not None:
            raise _already_applied(hunk, done, path)
        placed.append((hunk, places[0]))
    ordered = sorted(placed, key=lambda item: (item[1].start, item[1].end))
    for (first, at), (second, then) in itertools.pairwise(ordered):
        if then.start < at.end or (then.start == at.start and at.start != at.end):
            raise _overlap(first, at, second, then, path)
    return placed, ordered


def _locate(text: str, hunk: Hunk, known: Counted | None = None) -> list[Place]:
    """Where the hunk's old lines are nearest its stated line, anywhere in the file."""
    stated = hunk.stated_index
    if not hunk.old:
        # Nothing to recognise the place by: only the stated line will do.
        start = _offset_of_line(text, 0, stated)
        if start is None or not _fits_end(text, hunk, start):
            return []
        return [Place(stated, start, start)]
    needle = "\n".join(hunk.old) + ("" if hunk.old_no_eol else "\n")
    if not needle:
        return []  # an empty last line without newline: no text holds one
    return nearest(text, needle, stated, lambda end: _fits_end(text, hunk, end), known)


def _applied_at(
    text: str, hunk: Hunk, place: Place | None, known: Counted | None = None
) -> int | None:
    """The line where the hunk's new side already stands, when the file looks patched:
    its new lines are found near the stated line, covering the place its old lines match
    (an append applied before), or where its old lines are not found at all."""
    if not hunk.new or hunk.new == hunk.old or not hunk.old:
        # A pure insertion has no context to tell a second copy from the first.
        return None
    needle = "\n".join(hunk.new) + ("" if hunk.new_no_eol else "\n")
    found = nearest(text, needle, hunk.stated_index, lambda end: True, known)
    for done in found:
        if place is None or (done.start <= place.start and place.end <= done.end):
            return done.line
    return None


def _misses_its_edge(text: str, hunk: Hunk, place: Place) -> bool:
    """git apply's edge rule: a hunk with context but none after its last change must
    match at the end of the file, and one with none before its first change, stated at
    line 1, at the beginning. Where its old lines match elsewhere, the lines it appends
    (or prepends) may already stand there: only then is the new side looked for around
    the place. A hunk with no context at all (diff -U0) has no edge to keep."""
    leading = len(hunk.kinds) - len(hunk.kinds.lstrip(" "))
    trailing = len(hunk.kinds) - len(hunk.kinds.rstrip(" "))
    if leading == 0 and trailing == 0:
        return False
    if trailing == 0 and place.end != len(text):
        return True
    return leading == 0 and hunk.stated_index == 0 and place.start != 0


def _nearest_place(lines: list[str], hunk: Hunk, low: int) -> int:
    """The position where most of the hunk's old lines match (ties: nearest the stated line).

    A place may run past the file's end (a hunk whose last context lines the file does not
    have): it is shown where its lines match, not pulled back onto lines that do not."""
    high = max(len(lines) - 1, 0)
    if high < low:
        low = 0
    wanted: dict[str, list[int]] = {text: [] for text in hunk.old}
    for index, text in enumerate(hunk.old):
        wanted[text].append(index)
    votes: Counter[int] = Counter()
    for line_no, text in enumerate(lines):
        for index in wanted.get(text, ()):
            pos = line_no - index
            if low <= pos <= high:
                votes[pos] += 1
    stated = hunk.stated_index
    if not votes:
        return min(max(stated, low), high)
    return max(votes, key=lambda pos: (votes[pos], -abs(pos - stated), -pos))


def _mismatch(text: str, hunk: Hunk, low: int, path: str) -> OperatorError:
    """ERR_PATCH_CONTEXT_MISMATCH showing the hunk next to the file's nearest lines."""
    lines, eol = split_lines(text)
    label = hunk_label(hunk.number, hunk.header)
    pos = _nearest_place(lines, hunk, low)
    found = lines[pos : pos + len(hunk.old)]
    first_diff = next(
        (i for i, (want, have) in enumerate(zip(hunk.old, found, strict=False)) if want != have),
        min(len(hunk.old), len(found)),
    )
    out = [
        f"{label} does not apply to {path}: its context and removed lines were not found "
        f"at line {hunk.stated_index + 1} or at any offset (matching is exact).",
    ]
    stated_end = hunk.stated_index + len(hunk.old)
    if stated_end > len(lines):
        out.append(
            f"The hunk's old lines run from line {hunk.stated_index + 1} to line {stated_end}, "
            f"but {path} ends at line {len(lines)}."
        )
    if first_diff < len(hunk.old) and first_diff < len(found):
        want, have = hunk.old[first_diff], found[first_diff]
        if want.strip() == have.strip() or want.split() == have.split():
            out.append(
                f"Line {pos + first_diff + 1} differs only in whitespace "
                f"(patch {want!r}, file {quote(have)})."
            )
    elif first_diff == len(found) < len(hunk.old):
        out.append(f"The file ends after line {len(lines)}, before the hunk's old lines do.")
    elif hunk.old_no_eol or hunk.new_no_eol or (pos + len(found) == len(lines) and not eol):
        out.append(
            "The lines match but the end of file does not: check '\\ No newline at end of "
            f"file' (the file {'ends' if eol else 'does not end'} with a newline)."
        )
    out.append(f"Expected (the hunk's ' ' and '-' lines, from line {hunk.stated_index + 1}):")
    out.extend(_numbered(hunk.old, hunk.stated_index, first_diff))
    if found:
        out.append(
            f"The file at the nearest place, lines {pos + 1}-{pos + len(found)} "
            f"(first difference marked '>'):"
        )
        out.extend(_numbered([mark(line) for line in found], pos, first_diff))
    else:
        out.append(f"The file has {counted(len(lines), 'line')}; there is nothing at that place.")
    out.append("Read the file around that place again and resend the patch with exact lines.")
    return OperatorError(
        MISMATCH,
        "\n".join(out),
        {
            "hunk": hunk.number,
            "header": hunk.header,
            "expected": list(hunk.old),
            "found_at_line": pos + 1,
            "found": [mark(line) for line in found],
        },
    )


def _numbered(lines: Sequence[str], first_index: int, marked: int) -> list[str]:
    start = max(0, min(marked - SHOWN_LINES // 2, len(lines) - SHOWN_LINES))
    shown = lines[start : start + SHOWN_LINES]
    out = [f"  ... ({start} lines above not shown)"] if start else []
    for i, line in enumerate(shown, start=start):
        mark = ">" if i == marked else " "
        out.append(f"{mark}{first_index + i + 1:6d} | {line}")
    rest = len(lines) - start - len(shown)
    if rest > 0:
        out.append(f"  ... ({rest} lines below not shown)")
    return out


def _already_applied(hunk: Hunk, line: int, path: str) -> OperatorError:
    return OperatorError(
        "ERR_PATCH_ALREADY_APPLIED",
        f"{hunk_label(hunk.number, hunk.header)} looks already applied at line {line + 1} "
        f"of {path}: its new lines ('+' and ' ') are in place there. Nothing was changed; "
        "read the file again before sending another patch.",
        {"hunk": hunk.number, "header": hunk.header, "applied_at_line": line + 1},
    )


def _ambiguous(hunk: Hunk, places: list[Place], path: str) -> OperatorError:
    lines = [place.line + 1 for place in places]
    distance = abs(places[0].line - hunk.stated_index)
    return OperatorError(
        "ERR_PATCH_AMBIGUOUS",
        f"{hunk_label(hunk.number, hunk.header)} matches {path} equally well at lines "
        f"{lines[0]} and {lines[1]} ({distance} lines from its stated line "
        f"{hunk.stated_index + 1}); nothing was changed. Give the hunk's real line number or "
        "more context lines so that one place fits.",
        {"hunk": hunk.number, "header": hunk.header, "candidate_lines": lines},
    )


def _overlap(first: Hunk, at: Place, second: Hunk, then: Place, path: str) -> OperatorError:
    return OperatorError(
        "ERR_PATCH_OVERLAP",
        f"{hunk_label(first.number, first.header)} (lines {at.line + 1}-"
        f"{at.line + max(len(first.old), 1)}) and {hunk_label(second.number, second.header)} "
        f"(from line {then.line + 1}) change overlapping lines of {path}; nothing was changed. "
        "Merge them into one hunk, or fix their line numbers and context.",
        {
            "hunks": [first.number, second.number],
            "lines": [at.line + 1, then.line + 1],
        },
    )
