"""Choosing the line a new region goes next to.

An anchor is literal, case-sensitive text that must occur inside one line. Each line counts
once however often the anchor occurs in it, so ``occurrence`` counts lines, the same lines
fs.search would list.
"""

from __future__ import annotations

import difflib
import heapq
from collections.abc import Sequence

from ...errors import OperatorError, mark, quote

# Lines are compared only up to this many characters when looking for near matches: a
# minified line must not make a failed lookup slow.
_COMPARE_CHARS = 400
_NEAREST = 3
_SHOW_CHARS = 120


def _shown(text: str) -> str:
    text = text.strip()
    return text if len(text) <= _SHOW_CHARS else text[: _SHOW_CHARS - 3] + "..."


def nearest_lines(lines: Sequence[str], anchor: str) -> list[tuple[int, str]]:
    """Up to three ``(line number, text)`` most like ``anchor``, best first."""
    wanted = anchor.strip()[:_COMPARE_CHARS]
    folded = wanted.lower()
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(wanted)
    scored: list[tuple[float, int]] = []
    for index, line in enumerate(lines):
        text = line.strip()[:_COMPARE_CHARS]
        if not text:
            continue
        if folded and folded in text.lower():
            score = 1.0  # the anchor with other capitalisation is the likeliest intent
        else:
            matcher.set_seq1(text)
            if matcher.real_quick_ratio() < 0.3 or matcher.quick_ratio() < 0.3:
                continue
            score = matcher.ratio()
        scored.append((score, -index))
    best = heapq.nlargest(_NEAREST, scored)
    return [(-neg_index + 1, _shown(lines[-neg_index])) for _, neg_index in best]


def check_anchor(anchor: str, occurrence: int) -> None:
    """Refuse an anchor or occurrence that no file could satisfy."""
    if not anchor.strip():
        raise OperatorError(
            "ERR_MISSING_ANCHOR",
            "anchor is empty; send text that occurs in the line the new region goes next to "
            "(e.g. anchor: def main():)",
        )
    if occurrence < 1:
        raise OperatorError(
            "ERR_INVALID_ANCHOR_OCCURRENCE",
            f"occurrence is {occurrence}; it counts matching lines from 1 (the default)",
            {"occurrence": occurrence},
        )
    if "\n" in anchor or "\r" in anchor:
        raise OperatorError(
            "ERR_ANCHOR_NOT_FOUND",
            "anchor contains a line break, but an anchor is matched within one line; "
            "send text from a single line, and occurrence if that text is on several lines",
            {"anchor": anchor},
        )


def find_anchor_line(lines: Sequence[str], anchor: str, occurrence: int) -> int:
    """The 0-based index of the ``occurrence``-th line containing ``anchor``."""
    check_anchor(anchor, occurrence)
    matches = [index for index, line in enumerate(lines) if anchor in line]
    if not matches:
        nearest = nearest_lines(lines, anchor)
        near = (
            "nearest lines: " + "; ".join(f"line {n}: {quote(text)}" for n, text in nearest)
            if nearest
            else "no line resembles it"
        )
        raise OperatorError(
            "ERR_ANCHOR_NOT_FOUND",
            f"anchor {_shown(anchor)!r} occurs in no line of the file (matching is exact and "
            f"case-sensitive); {near}. Use fs.search to find the exact text",
            {"anchor": anchor, "nearest": [{"line": n, "text": mark(t)} for n, t in nearest]},
        )
    if occurrence > len(matches):
        shown = ", ".join(str(index + 1) for index in matches[:20])
        more = ", ..." if len(matches) > 20 else ""
        count = f"{len(matches)} line" + ("s" if len(matches) > 1 else "")
        raise OperatorError(
            "ERR_INVALID_ANCHOR_OCCURRENCE",
            f"occurrence is {occurrence} but the anchor matches {count} (lines {shown}{more}); "
            f"send an occurrence from 1 to {len(matches)}",
            {"occurrence": occurrence, "matching_lines": [index + 1 for index in matches]},
        )
    return matches[occurrence - 1]
