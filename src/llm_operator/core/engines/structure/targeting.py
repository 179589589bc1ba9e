"""Finding structures by target: one level per line, outermost first.

A level names a structure when one of the structure's keys starts with the level's first
50 characters. The main key is the definition line without its indentation: the line of
the first token that is not a decorator, annotation, attribute or comment, so
``def helper(x):`` names a decorated function and ``public void m()`` an annotated
method. When that token is not the first on its line (``@Input() x: number;``) the text
from the token on is a second key. Comparison is literal; only the level's own leading
indentation is ignored, because no key has any.

Children are looked up lazily, one level at a time, so a target near the end of a large
file costs a walk over its ancestors' children, not over the whole tree.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...errors import OperatorError
from .definitions import looked_through
from .markdown import markdown_keys
from .source import UNCHANGED, Source, end_row, refuse_errors_in

if TYPE_CHECKING:
    from tree_sitter import Node

KEY_CHARS = 50
_HEADER_FIELDS = frozenset({"condition", "name", "value", "pattern"})
_INDEXED = re.compile(r"^(.*?)\[(\d+)\]$")
# Fields that lead from a structure node to the node holding its name.
_NAME_PATHS = ("definition", "declaration", "declarator", "type", "value", "key", "left")
# Nodes inside a structure that carry its name (``const proto = ...``: its declarator).
_NAMED_INSIDE = frozenset(
    {"function_definition", "class_definition", "declaration", "variable_declarator"}
)
_STATEMENTS_OF_ONE = frozenset({"expression_statement"})
_DOTTED_NAMES = frozenset({"member_expression", "attribute", "scoped_identifier"})


class Target(list[str]):
    """Target levels (outermost first) and how to choose among identical matches.

    ``occurrence`` (1-based, file order) picks one of several matches. ``by_symbol`` levels
    are grammar names (``UserAuth``, ``validate[2]`` for the second overload, a Markdown
    heading's text) instead of definition-line prefixes.
    """

    def __init__(
        self, levels: Sequence[str] = (), *, occurrence: int | None = None, by_symbol: bool = False
    ) -> None:
        super().__init__(levels)
        self.occurrence = occurrence
        self.by_symbol = by_symbol


def symbol_target(symbol: str, occurrence: int | None = None) -> Target:
    """``UserAuth/validate[2]`` as a Target; levels are separated by ``/``."""
    levels = [part.strip() for part in symbol.strip().strip("/").split("/")]
    if not symbol.strip() or any(not part for part in levels):
        raise OperatorError(
            "ERR_INVALID_SYMBOL",
            f"symbol {symbol!r} has an empty level; write names separated by '/', e.g. "
            "'UserAuth/validate' or 'Parser/parse[2]' for the second of two overloads.",
            {"symbol": symbol, **UNCHANGED},
        )
    return Target(levels, occurrence=occurrence, by_symbol=True)


def _leaf_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace").strip()


def name_of(source: Source, node: Node, depth: int = 0) -> str | None:
    """The grammar name of a structure: its ``name`` field, looked for through wrappers
    (a decorated definition, an export, a C declarator), a Rust impl's type, or a
    Markdown heading's text."""
    if source.spec.name == "markdown":
        if node.type == "section" and node.named_children:
            heading = node.named_children[0]
            line = source.lines[heading.start_point.row].strip()
            return line.lstrip("#").strip() or None
        return None
    name = node.child_by_field_name("name")
    if name is not None:
        if name.child_count and name.named_child_count:
            inner = name_of(source, name, depth + 1)
            if inner:
                return inner
        return _leaf_text(name) or None
    if depth >= 4:
        return None
    # A pair is named by its key, never by its value (``assert: httpAssert``).
    paths = ("key",) if node.child_by_field_name("key") is not None else _NAME_PATHS
    for field_name in paths:
        child = node.child_by_field_name(field_name)
        if child is None:
            continue
        if child.child_count == 0 or child.type.endswith("identifier"):
            return _leaf_text(child) or None
        if field_name == "left" and child.type in _DOTTED_NAMES:
            return _leaf_text(child) or None  # ``module.exports = {`` is module.exports
        found = name_of(source, child, depth + 1)
        if found:
            return found
    named = node.named_children
    for child in named:
        if child.type in _NAMED_INSIDE:
            return name_of(source, child, depth + 1)
    if len(named) == 1 and node.type in _STATEMENTS_OF_ONE:
        return name_of(source, named[0], depth + 1)
    # Grammars without a name field (Kotlin, Swift): the first identifier child.
    for child in node.named_children:
        if child.type in ("type_identifier", "simple_identifier", "identifier"):
            return _leaf_text(child) or None
    if node.type == "companion_object":
        return "Companion"  # Kotlin's own name for an unnamed companion
    return None


@dataclass(frozen=True)
class Candidate:
    """A structure a target level may name: its node, definition row, keys and definition line."""

    node: Node
    def_row: int
    keys: tuple[str, ...]
    first_line: str


@dataclass(frozen=True)
class Match:
    """The structure a target names, with its parent (None at the top level) and its siblings,
    itself among them."""

    candidate: Candidate
    parent: Candidate | None
    siblings: tuple[Candidate, ...]
    # Set when a one-line target was found below the top level: what it took, as the
    # symbol path when one names exactly this structure, else as its definition lines.
    taken: tuple[str, ...] = ()
    taken_symbol: str | None = None

    @property
    def index(self) -> int:
        return next(i for i, s in enumerate(self.siblings) if s.node == self.candidate.node)


def _definition_point(node: Node, skip: frozenset[str]) -> tuple[int, int] | None:
    for child in node.children:
        if child.type in skip:
            continue
        if child.child_count == 0:
            return child.start_point.row, child.start_point.column
        point = _definition_point(child, skip)
        if point is not None:
            return point
    return None


def make_candidate(source: Source, node: Node) -> Candidate:
    spec = source.spec
    point = _definition_point(node, spec.prefix_types | spec.comment_types)
    row, column = point if point is not None else (node.start_point.row, node.start_point.column)
    line = source.lines[row]
    if spec.name == "markdown":
        return Candidate(node, row, markdown_keys(node, source.lines, row), line.strip())
    key = line.lstrip(" \t")
    if column == len(line) - len(key):
        return Candidate(node, row, (key,), key.rstrip())
    token_key = line.encode("utf-8")[column:].decode("utf-8", errors="replace")
    return Candidate(node, row, (key, token_key), key.rstrip())


def children(source: Source, node: Node) -> list[Candidate]:
    """The structures directly inside ``node``, looking through non-container nodes."""
    spec = source.spec
    found: list[Candidate] = []
    stack: list[Iterator[tuple[Node, Node, int]]] = [_named_children(node)]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            continue
        parent, child, index = item
        if child.type in spec.comment_types or child.type in spec.prefix_types:
            continue
        if child.type == "ERROR" or (parent.type == "ERROR" and child.child_count == 0):
            # Text the parser could not place: look through it, so the structures it
            # recovered after the bad tokens stay targetable (their ranges are checked
            # for errors before any edit).
            stack.append(_named_children(child))
            continue
        container = (
            parent.type in spec.containers
            or parent.type == "ERROR"
            or (parent.type in spec.grouped_containers and _grouped(parent))
        )
        if (
            container
            and parent.type in spec.headed_containers
            and parent.field_name_for_child(index) in _HEADER_FIELDS
        ):
            continue
        if (
            container
            and child.type not in spec.non_structures
            and (spec.structure_types is None or child.type in spec.structure_types)
        ):
            candidate = make_candidate(source, child)
            if spec.name == "markdown" and not candidate.first_line.strip():
                # A section of blank lines only (the gap under front matter): no text.
                continue
            found.append(candidate)
        else:
            stack.append(_named_children(child))
    return _outermost(found)


def _grouped(node: Node) -> bool:
    return any(child.type == "(" for child in node.children)


def _outermost(found: list[Candidate]) -> list[Candidate]:
    """Text around parse errors can yield a node and a fragment inside it that start on
    the same line; the outer one is the structure."""
    rows = [c.def_row for c in found]
    if len(set(rows)) == len(rows):
        return found

    def inside(inner: Node, outer: Node) -> bool:
        return (
            inner != outer
            and outer.start_byte <= inner.start_byte
            and inner.end_byte <= outer.end_byte
        )

    return [
        c
        for c in found
        if not any(o.def_row == c.def_row and inside(c.node, o.node) for o in found)
    ]


def _named_children(node: Node) -> Iterator[tuple[Node, Node, int]]:
    for index, child in enumerate(node.children):
        if child.is_named:
            yield node, child, index


def level_key(level: str) -> str:
    return level.rstrip("\r").lstrip(" \t")[:KEY_CHARS]


def key_matches(candidate: Candidate, key: str) -> bool:
    return any(k.startswith(key) for k in candidate.keys)


def _symbol_matches(
    source: Source, scopes: list[tuple[Candidate | None, list[Candidate]]], level: str
) -> list[Match]:
    indexed = _INDEXED.match(level)
    name, index = (indexed.group(1).strip(), int(indexed.group(2))) if indexed else (level, 0)
    found: list[Match] = []
    for parent, kids in scopes:
        named = [c for c in kids if name_of(source, c.node) == name]
        if index:
            named = named[index - 1 : index]
        found += [Match(c, parent, tuple(kids)) for c in named]
    return found


class LevelMissing(Exception):
    """No structure matches level ``depth`` of a target within ``scopes`` (the parents the
    levels above it matched, and the statements looked through); ``target_search`` says
    what the model can send instead."""

    def __init__(self, depth: int, scopes: list[tuple[Candidate | None, list[Candidate]]]) -> None:
        super().__init__(depth)
        self.depth = depth
        self.scopes = scopes


def resolve_levels(source: Source, levels: list[str]) -> list[Match]:
    """Every structure the target names, level by level (at least one, or LevelMissing).

    Where several structures match a level and some of them have exactly the level as
    their whole definition line, only those count: ``## Version 2.8`` names that heading,
    not ``## Version 2.8.1``.
    """
    by_symbol = getattr(levels, "by_symbol", False)
    scopes: list[tuple[Candidate | None, list[Candidate]]] = [(None, children(source, source.root))]
    for depth, level in enumerate(levels):
        key = level_key(level)
        scopes = through_statements(source, scopes, by_symbol)
        if by_symbol:
            found = _symbol_matches(source, scopes, level.strip())
        else:
            found = [
                Match(c, parent, tuple(kids))
                for parent, kids in scopes
                for c in kids
                if key and key_matches(c, key)
            ]
            if len(found) > 1:
                whole = level.strip()
                exact = [m for m in found if m.candidate.first_line == whole]
                found = exact or found
        if len(scopes) > 1:
            found.sort(key=lambda m: m.candidate.node.start_byte)  # file order
        if not found:
            broken = [e for e in source.errors if key and e["snippet"].startswith(key)]
            if broken:
                refuse_errors_in(
                    source, broken[0]["line"] - 1, broken[-1]["line"] - 1, f"the line {key!r}"
                )
            raise LevelMissing(depth, scopes)
        if depth == len(levels) - 1:
            return found
        scopes = [(m.candidate, children(source, m.candidate.node)) for m in found]
    raise AssertionError("resolve() needs at least one level")


def through_statements(
    source: Source, scopes: list[tuple[Candidate | None, list[Candidate]]], by_symbol: bool
) -> list[tuple[Candidate | None, list[Candidate]]]:
    """The scopes, and the insides of the statements in them that the outline looks
    through (``if sys.platform == "win32":``, a C# ``#if``, ``try``): a definition the
    outline lists under its class is named by its line under that class, whatever
    statement holds it. A level may still name the statement itself. By symbol, a
    nameless group (Go's ``type (`` and ``const (``) is looked through too: its members
    have the names."""
    found = list(scopes)
    index = 0
    while index < len(found):
        for kid in found[index][1]:
            if looked_through(source, kid.node) or (by_symbol and _nameless_group(source, kid)):
                found.append((kid, children(source, kid.node)))
        index += 1
    return found


def _nameless_group(source: Source, candidate: Candidate) -> bool:
    spec = source.spec
    node = candidate.node
    grouped = node.type in spec.containers or (
        node.type in spec.grouped_containers and _grouped(node)
    )
    declares = node.type.endswith("_declaration")  # not a JSON array, a Markdown list
    return grouped and declares and name_of(source, node) is None


def structure_at_row(source: Source, row: int) -> Candidate | None:
    """The structure whose definition line is ``row``, found by descending through ranges."""
    node = source.root
    while True:
        inner = None
        for c in children(source, node):
            if c.def_row == row:
                return c
            if c.node.start_point.row <= row <= end_row(c.node):
                inner = c
        if inner is None:
            return None
        node = inner.node
