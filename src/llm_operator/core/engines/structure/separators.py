"""The commas (and the ending ``;``) of lists whose members are structures.

Object-literal members (``module.exports = { get a() {...}, b() {...} }``), enum constants
(Java's ``A, B, C;``, Kotlin's, C's), Rust variants and struct fields are separated by
punctuation that belongs to the list, not to a member: whole-line edits would otherwise
take a member's comma with it and leave its neighbours without one. The rules:

- taking the last member out gives the member before it the last member's ending (no
  comma, or the ``;`` that ends Java and Kotlin constant lists): ``A, B, C;`` less ``C``
  is ``A, B;``;
- a member put after the last one takes over that one's ending, and the old last one gets
  a comma; a member put anywhere else ends with a comma.

A list whose separators are not on their members' last lines (a leading-comma style) is
left as it is. JSON has its own pass (``commas``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .source import end_row

if TYPE_CHECKING:
    from tree_sitter import Node

    from .source import Source

_LISTS: dict[str, frozenset[str]] = {
    "javascript": frozenset({"object"}),
    "typescript": frozenset({"object", "enum_body"}),
    "tsx": frozenset({"object", "enum_body"}),
    "java": frozenset({"enum_body"}),
    "kotlin": frozenset({"enum_class_body"}),
    "csharp": frozenset({"enum_member_declaration_list"}),
    "rust": frozenset({"enum_variant_list", "field_declaration_list"}),
    "c": frozenset({"enumerator_list"}),
    "cpp": frozenset({"enumerator_list"}),
}


@dataclass(frozen=True)
class Member:
    """One member of a separated list, and the punctuation that ends it on its last line."""

    node: Node
    ending: str  # "", "," or ";"
    row: int  # the row of the member's last line
    column: int  # byte column of the ending (or where one would go)
    width: int  # bytes the ending takes (0 without one)


def _ending(source: Source, node: Node) -> Member | None:
    """The member and the punctuation right after it on its last line (None when it is
    elsewhere: the list's separators are not this module's to fix)."""
    row = end_row(node)
    after = node.next_sibling
    if after is not None and after.type == "enum_body_declarations" and after.child_count:
        after = after.children[0]  # Java: the ``;`` that ends the constants opens these
    if after is not None and after.type in (",", ";"):
        if after.start_point.row != row:
            return None
        return Member(node, after.type, row, after.start_point.column, 1)
    return Member(node, "", row, node.end_point.column, 0)


def list_members(source: Source, node: Node) -> list[Member] | None:
    """The members of the separated list ``node`` belongs to, in order, or None when
    ``node`` is not a member of one (or the list is in a style left alone)."""
    container = node.parent
    if container is None or container.type not in _LISTS.get(source.spec.name, ()):
        return None
    members: list[Member] = []
    for child in container.children:
        if child.type == ";" or child.type == "enum_body_declarations":
            break  # the constants of an enum end here; its methods follow
        if not child.is_named or child.type in source.spec.comment_types:
            continue
        member = _ending(source, child)
        if member is None:
            return None
        members.append(member)
    if not any(m.node == node for m in members):
        return None
    return members


Endings = dict[int, tuple[Member, str]]  # a member's last row: the member, its new ending


def removal_endings(source: Source, node: Node) -> Endings:
    """The new endings of the other members when ``node`` leaves its list."""
    members = list_members(source, node)
    if not members or len(members) < 2 or members[-1].node != node:
        return {}
    last, before = members[-1], members[-2]
    if before.ending == "," and last.ending != ",":
        return {before.row: (before, last.ending)}
    return {}


def insertion_endings(
    source: Source, anchor: Node, after: bool, moving: Node | None, removed: Endings
) -> tuple[Endings, str] | None:
    """The new endings of the destination list's members and the ending the inserted
    member needs, put before or after ``anchor`` (None when ``anchor`` is in no list).
    ``removed``: the endings the removal of the moving member (same file) already set."""
    members = list_members(source, anchor)
    if members is None:
        return None
    others = [m for m in members if m.node != moving]
    if after and others and others[-1].node == anchor:
        last = others[-1]
        tail = removed[last.row][1] if last.row in removed else last.ending
        if tail == ",":
            return {}, ","
        return {last.row: (last, ",")}, tail
    return {}, ","


def apply_endings(lines: list[str], endings: Endings) -> None:
    """Write the new endings into ``lines`` (rows as in the parsed source)."""
    for row, (member, text) in endings.items():
        raw = lines[row].encode("utf-8")
        column, width = member.column, member.width
        lines[row] = (raw[:column] + text.encode("utf-8") + raw[column + width :]).decode("utf-8")


def with_ending(source: Source, node: Node, block_last: str, ending: str) -> str:
    """The member's last line as placed (``block_last``: only its indentation changed)
    with its own ending replaced by ``ending``."""
    member = _ending(source, node)
    if member is None:
        return block_last
    original = source.lines[member.row].encode("utf-8")
    suffix = original[member.column + member.width :]
    raw = block_last.encode("utf-8")
    if not raw.endswith(suffix):
        return block_last
    cut = len(raw) - len(suffix)
    return (raw[: cut - member.width] + ending.encode("utf-8") + suffix).decode("utf-8")


def end_sent_member(source: Source, anchor: Node, after: bool, lines: list[str]) -> Endings:
    """Sent content put into a list: its last line gets the ending its place needs (a
    comma, or the last member's ending after the last member) unless that line ends in
    a comment; returns the endings the list's members need."""
    joined = insertion_endings(source, anchor, after, None, {})
    code = [i for i, line in enumerate(lines) if line.strip()]
    if joined is None or not code:
        return {}
    endings, own = joined
    row = code[-1]
    column = _code_end(source, lines, row)
    if column is None:
        return {}
    raw = lines[row].encode("utf-8")
    head, tail = raw[:column].rstrip(), raw[column:]
    if head.endswith((b",", b";")):
        head = head[:-1]
    lines[row] = (head + own.encode("utf-8") + tail).decode("utf-8")
    return endings


def _code_end(source: Source, lines: list[str], row: int) -> int | None:
    """Byte column where the code of ``lines[row]`` ends (before a comment after it), from
    a parse of the lines; None when the row is all comment."""
    from .source import parse

    tree = parse(source.spec.name, "\n".join(lines).encode("utf-8"))
    end: int | None = None
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.start_point.row > row or node.end_point.row < row:
            continue
        if node.type in source.spec.comment_types or node.is_missing:
            continue
        if node.child_count == 0:
            if node.end_point.row == row and (end is None or node.end_point.column > end):
                end = node.end_point.column
            continue
        stack.extend(node.children)
    return end
