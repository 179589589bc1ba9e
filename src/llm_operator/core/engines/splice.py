"""What an edit replaced, as ranges of the old and the new text: a diff of the two texts
needs to look at these ranges only (``LineDiff.spliced``), the rest being copied."""

from __future__ import annotations

from typing import NamedTuple


class Splice(NamedTuple):
    """One replaced range (a patch's hunk as applied): old lines ``old_line`` (0-based)
    on, ``old_count`` of them in characters ``old_start``..``old_end`` of the old text,
    replaced by ``new_count`` lines from ``new_line`` on, in characters
    ``new_start``..``new_end`` of the new text."""

    old_line: int
    old_count: int
    old_start: int
    old_end: int
    new_line: int
    new_count: int
    new_start: int
    new_end: int
