"""Blank lines around structures that are inserted or removed.

- Python follows PEP 8 when a definition is involved: two blank lines around top-level
  functions and classes, one around definitions nested in a class or function.
- Everything else follows the file: the number of blank lines already between the
  target and its next sibling (or its previous one), else one blank line around
  multi-line structures and none between one-liners.
- Removing a structure leaves one gap, not two: the larger of the gaps that surrounded
  it, or none at the start or end of a block (or of the file).
"""

from __future__ import annotations

from dataclasses import dataclass

from .boundaries import indent_of, structure_range
from .source import Source
from .targeting import Match

_PY_DEFS = ("def ", "async def ", "class ", "@")


def split_body(source: Source) -> tuple[list[str], bool]:
    """The file's lines without the empty element after a final newline, and that newline.

    An empty file has no lines; whatever is written into it ends with a newline.
    """
    if not source.text:
        return [], True
    return source.lines[: source.line_count], source.text.endswith("\n")


def join_body(body: list[str], final_newline: bool) -> str:
    text = "\n".join(body)
    return text + "\n" if final_newline and body else text


def _is_blank(line: str) -> bool:
    return not line.strip()


def content_is_definition(lines: list[str]) -> bool:
    for line in lines:
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped.startswith(_PY_DEFS)
    return False


def observed_gap(source: Source, match: Match) -> int | None:
    """Blank lines between the target and a sibling, next sibling first."""
    siblings, index = match.siblings, match.index
    start, end = structure_range(source, match.candidate.node)
    if index + 1 < len(siblings):
        following, _ = structure_range(source, siblings[index + 1].node)
        if following > end:
            return following - end - 1
    if index > 0:
        _, previous = structure_range(source, siblings[index - 1].node)
        if start > previous:
            return start - previous - 1
    return None


def separation(source: Source, match: Match, content: list[str], kind: str | None = None) -> int:
    """How many blank lines to put between the target and new content beside it.

    ``kind`` is the node type of the content when known (a moved structure): a block of
    several lines beside a structure of another kind (a class after the imports) is set
    apart by a blank line even where the target's own kind has none between them."""
    spec = source.spec
    if spec.pep8 and (
        match.candidate.node.type in spec.def_types or content_is_definition(content)
    ):
        return 2 if match.parent is None else 1
    gap = observed_gap(source, match)
    if gap is not None:
        if kind is not None and kind != match.candidate.node.type and len(content) > 1:
            gap = max(gap, 1)
        return min(gap, 2)
    start, end = structure_range(source, match.candidate.node)
    return 1 if len(content) > 1 or end > start else 0


@dataclass(frozen=True)
class Removal:
    """The lines left when a block is taken out, and the old rows ``first``..``last`` that
    went: the block and the blank lines that go with it."""

    body: list[str]
    first: int
    last: int

    def map_row(self, row: int) -> int:
        """Where an untouched row of the old body is in the new one."""
        if row < self.first:
            return row
        if row > self.last:
            return row - (self.last - self.first + 1)
        return self.first


def remove_block(
    body: list[str], start: int, end: int, has_previous: bool, has_next: bool
) -> Removal:
    above = 0
    while start - above - 1 >= 0 and _is_blank(body[start - above - 1]):
        above += 1
    below = 0
    while end + below + 1 < len(body) and _is_blank(body[end + below + 1]):
        below += 1
    if end + below + 1 >= len(body):
        first, last = start - above, end + below
    elif not has_next:
        first, last = start - above, end
    elif not has_previous:
        first, last = start, end + below
    else:
        keep = max(above, below)
        first, last = start, end + below - max(0, keep - above)
    return Removal(body[:first] + body[last + 1 :], first, last)


def insert_block(
    body: list[str], row: int, block: list[str], gap: int, *, after: bool
) -> tuple[list[str], int]:
    """Insert ``block`` at ``row`` with ``gap`` blank lines toward the target (and toward a
    sibling directly on its other side); returns the new body and the block's first row."""
    indent = indent_of(block[0]) if block else ""

    def sibling(line_row: int) -> bool:
        if not 0 <= line_row < len(body) or _is_blank(body[line_row]):
            return False
        return len(indent_of(body[line_row])) >= len(indent)

    pad = [""] * gap
    if after:
        tail = pad if sibling(row) else []
        new = pad + block + tail
        return body[:row] + new + body[row:], row + gap
    head = pad if sibling(row - 1) else []
    new = head + block + pad
    return body[:row] + new + body[row:], row + len(head)
