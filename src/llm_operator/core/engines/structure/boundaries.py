"""The whole-line range a structure occupies; read, replace, delete and move all use it.

Rules:
- The range starts at the structure node, which already holds Python decorators, Java
  and C# annotations, TypeScript ``export`` and C++ ``template<...>`` wrappers.
- It grows upward over comment lines (and Rust ``#[...]`` attributes) directly above it:
  no blank line between, same indentation as the range's first line, nothing else on
  their lines. A shebang line never belongs to a structure.
- It ends at the node's last line, minus trailing blank and comment-only lines, which
  tree-sitter sometimes puts inside a block although they introduce what follows; a
  comment that starts on that last line after the node and runs on ends where it ends.
- A trailing ``;`` or ``,`` on the last line comes along, since ranges are whole lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .source import Source, end_row

if TYPE_CHECKING:
    from tree_sitter import Node


def indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _comment_line(source: Source, row: int) -> Node | None:
    """The comment or attribute that fills ``row`` (alone on it, ending there), if any."""
    line = source.lines[row]
    column = len(indent_of(line))
    if column == len(line):
        return None
    spec = source.spec
    kinds = spec.comment_types | spec.attached_types
    node: Node | None = source.node_at(row, column)
    for _ in range(4):
        if node is None:
            return None
        if node.type in kinds:
            break
        node = node.parent
    else:
        return None
    if node is None or end_row(node) != row:
        return None
    start_line = source.lines[node.start_point.row]
    if node.start_point.column != len(indent_of(start_line)):
        return None
    if node.end_point.row == row:
        rest = source.lines[row].encode("utf-8")[node.end_point.column :]
        if rest.strip():
            return None
    return node


def _trailing_comment_end(source: Source, node: Node, end: int) -> int:
    """The last row of a comment that starts on the structure's last line after it
    (``} /* the end\n   of a */``): the structure ends where that comment ends."""
    after = node.next_sibling
    while after is not None and after.start_point.row == end:
        if after.type in source.spec.comment_types:
            end = max(end, end_row(after))
        elif after.type not in (";", ","):
            break
        after = after.next_sibling
    return end


def structure_range(source: Source, node: Node) -> tuple[int, int]:
    """0-based first and last row of the structure, attached comments included."""
    start = node.start_point.row
    end = _trailing_comment_end(source, node, end_row(node))
    lines = source.lines
    # A Markdown section with no heading begins at the blank line before its text.
    while start < end and not lines[start].strip():
        start += 1
    while end > start:
        if not lines[end].strip():
            end -= 1
            continue
        trailing = _comment_line(source, end)
        if trailing is None or trailing.start_point.row <= start:
            break
        end = trailing.start_point.row - 1
    indent = indent_of(lines[start])
    row = start - 1
    while row >= 0 and lines[row].strip():
        attached = _comment_line(source, row)
        if attached is None:
            break
        first = attached.start_point.row
        if indent_of(lines[first]) != indent or (first == 0 and lines[0].startswith("#!")):
            break
        start = first
        row = first - 1
    return start, end


def _led_by_prefixes(source: Source, node: Node) -> bool:
    """Whether only the structure's own decorators precede it on its first line
    (``@HostListener('click') onClick() {``, where the decorator is a sibling node)."""
    row = node.start_point.row
    before = node.prev_sibling
    start = node.start_point.column
    while before is not None and before.end_point.row == row:
        if before.type not in source.spec.attached_types:
            return False
        start = before.start_point.column
        before = before.prev_sibling
    line = source.lines[row].encode("utf-8")
    return not line[:start].strip()


def owns_lines(source: Source, node: Node) -> bool:
    """Whether no other code shares the structure's first or last line.

    Whole-line edits of a structure that shares a line (``<b>`` inside ``<p>``, the second
    statement of ``a = 1; b = 2``) would change its neighbour too.
    """
    if source.spec.name == "markdown":
        return True
    first = source.lines[node.start_point.row].encode("utf-8")
    if first[: node.start_point.column].strip() and not _led_by_prefixes(source, node):
        return False
    if node.end_point.column == 0 and node.end_point.row > node.start_point.row:
        return True
    row = node.end_point.row
    rest = source.lines[row].encode("utf-8")[node.end_point.column :]
    tail = rest.lstrip().lstrip(b";,").strip()
    if not tail:
        return True
    column = len(source.lines[row].encode("utf-8")) - len(rest.lstrip().lstrip(b";,").lstrip())
    after: Node | None = source.node_at(row, column)
    kinds = source.spec.comment_types
    while after is not None and after.type not in kinds and after.start_point.row == row:
        if after.parent is None:
            break
        after = after.parent
    return after is not None and after.type in kinds
