"""The top-level assignments an outline lists by name: module constants, tables, settings.

A file's definitions are its map, but a module's constants and test tables are places too:
test_inflection.py of the inflection library holds 280 lines of test tables that its
outline never showed. These are the statements of that kind at the top level (and in the
top-level statements the outline looks through: ``if``, ``try``), per language, each shown
by what it names: its line up to the value (``SINGULAR_TO_PLURAL =``, ``const limit =``),
which is also a target that selects it (a target matches a line's start). At most
``MAX_VALUES`` are listed; the rest are counted, so a file of thousands of assignments
keeps a short outline.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .boundaries import structure_range
from .definitions import looked_through, shows
from .targeting import children

if TYPE_CHECKING:
    from tree_sitter import Node

    from .source import Source

MAX_VALUES = 100
_DECLARATIONS = frozenset({"lexical_declaration", "variable_declaration"})
VALUE_TYPES: dict[str, frozenset[str]] = {
    "python": frozenset({"assignment"}),
    "ruby": frozenset({"assignment"}),
    "javascript": _DECLARATIONS,
    "typescript": _DECLARATIONS,
    "tsx": _DECLARATIONS,
    "go": frozenset({"const_declaration", "var_declaration"}),
    "rust": frozenset({"const_item", "static_item"}),
}
_VALUE_FIELDS = ("right", "value")


@dataclass(frozen=True)
class TopValue:
    """A top-level assignment: its line range (1-based, inclusive) and what it names."""

    start: int
    end: int
    line: str


def _value_of(node: Node, reach: int = 2) -> Node | None:
    """The assigned value: the node's own right side, or its first declarator's (through
    an ``export``)."""
    for name in _VALUE_FIELDS:
        found = node.child_by_field_name(name)
        if found is not None:
            return found
    if reach:
        for child in node.named_children[:2]:
            found = _value_of(child, reach - 1)
            if found is not None:
                return found
    return None


def _declares(node: Node, kinds: frozenset[str]) -> bool:
    """Whether ``node`` is a top-level assignment: one of ``kinds``, or an ``export`` of one."""
    if node.type in kinds:
        return True
    declared = node.child_by_field_name("declaration") if node.type == "export_statement" else None
    return declared is not None and declared.type in kinds


def _named_line(source: Source, node: Node, row: int, first_line: str) -> str:
    """The definition line up to the value when the value starts on it, else the line."""
    value = _value_of(node)
    if value is None or value.start_point.row != row:
        return first_line
    start = source.row_offset(row)
    head = source.data[start : start + value.start_point.column].decode("utf-8", "replace")
    return head.strip() or first_line


def top_level_values(source: Source) -> tuple[list[TopValue], int]:
    """The first ``MAX_VALUES`` top-level assignments of ``source`` in file order, and how
    many more there are (none for a language without an entry in ``VALUE_TYPES``)."""
    kinds = VALUE_TYPES.get(source.spec.name)
    if not kinds:
        return [], 0
    found: list[TopValue] = []
    left_out = 0
    stack = [source.root]
    while stack:
        node = stack.pop(0)
        for candidate in children(source, node):
            if _declares(candidate.node, kinds) and not shows(source, candidate.node):
                if len(found) >= MAX_VALUES:
                    left_out += 1
                    continue
                start, end = structure_range(source, candidate.node)
                line = _named_line(source, candidate.node, candidate.def_row, candidate.first_line)
                found.append(TopValue(start + 1, end + 1, line))
            elif not shows(source, candidate.node) and looked_through(source, candidate.node):
                stack.append(candidate.node)
    found.sort(key=lambda value: value.start)
    return found, left_out
