"""A file's structures as an outline: nesting depth, line range and definition line.

Unlike the editing operations, an outline is made even when the file has syntax errors
(tree-sitter recovers): a model looking for its way around a half-edited file still needs
the map. The outline says how many parse errors it saw, because ranges near them may be
off. Structures are listed in file order; each range covers the attached decorators and
doc comments, as the structure targets do, so ``fs.readSlice`` of it shows the whole
structure.

Each entry carries the ``symbol:`` path that names exactly it, found as the symbol lookup
finds it (``SymbolIndex``), or none when no path names it alone (overloads, nameless
structures); an entry cut at the depth limit counts the definitions inside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .boundaries import structure_range
from .definitions import looked_through, shows
from .outline_values import TopValue, top_level_values
from .source import load_source
from .targeting import children, name_of, through_statements

if TYPE_CHECKING:
    from tree_sitter import Node

    from .source import Source

MAX_LINE_CHARS = 160
MAX_COUNTED_ERRORS = 20


@dataclass(frozen=True)
class OutlineEntry:
    """One line of an outline: a structure's depth, line range and definition line."""

    depth: int  # 0 for a top-level structure
    start: int  # 1-based, attached comments and decorators included
    end: int  # 1-based, inclusive
    line: str  # the definition line without its indentation
    symbol: str | None = None  # the symbol path that names exactly this structure
    deeper: int = 0  # definitions inside it that the depth limit leaves out
    deepest: int = 0  # the depth that would show all of them

    def render(self, symbols: bool = False) -> str:
        """The entry's line; with ``symbols``, its symbol path and what lies deeper."""
        line = self.line
        if len(line) > MAX_LINE_CHARS:
            line = line[:MAX_LINE_CHARS] + " [...]"
        notes = []
        if symbols and self.symbol:
            notes.append(f"symbol: {self.symbol}")
        if symbols and self.deeper:
            notes.append(f"+{self.deeper} inside")
        extra = f"  ({'; '.join(notes)})" if notes else ""
        return f"{'  ' * self.depth}{self.start}-{self.end}: {line}{extra}"


@dataclass(frozen=True)
class FileOutline:
    """A file's outline: its language, line count, structures in file order and parse errors."""

    language: str
    line_count: int
    entries: tuple[OutlineEntry, ...]
    parse_errors: int  # 0 for a clean parse; up to 20 are counted
    values_left_out: int = 0  # top-level assignments past outline_values.MAX_VALUES


def outline_structures(
    data: bytes, path: str, depth: int = 2, symbols: bool = True, values: bool = False
) -> FileOutline:
    """The structures of ``data`` (the file at ``path``) down to ``depth`` levels; with
    ``values``, its top-level assignments too, by name (outline_values.py).

    ERR_LANGUAGE_UNSUPPORTED when no grammar knows the file's name, ERR_ENCODING_ERROR
    when it is not UTF-8 text, ERR_FILE_TOO_LARGE past the structure engine's size limit.
    """
    # The parse the edit actions make (grammar, C++ for a header that needs it, macro
    # masking), so every range shown is the range a read or an edit of it uses.
    source = load_source(data, path)
    entries: list[OutlineEntry] = []
    # Symbol paths and the counts below the cut cost about three times the outline; a
    # map that shows neither (the context pack's) goes without them.
    index = SymbolIndex(source) if symbols else None
    _collect(source, source.root, 0, depth, entries, index, ())
    left_out = 0
    if values:
        found, left_out = top_level_values(source)
        entries = _with_values(entries, found)
    return FileOutline(
        source.spec.name, source.line_count, tuple(entries), _error_count(source), left_out
    )


def _with_values(entries: list[OutlineEntry], found: list[TopValue]) -> list[OutlineEntry]:
    """``entries`` with each top-level assignment placed before the first top-level
    structure that starts after it (file order; one inside a looked-through statement
    stays at the top level, as the definitions there do)."""
    merged: list[OutlineEntry] = []
    waiting = iter(found)
    value = next(waiting, None)
    for entry in entries:
        while value is not None and entry.depth == 0 and value.start < entry.start:
            merged.append(OutlineEntry(0, value.start, value.end, value.line))
            value = next(waiting, None)
        merged.append(entry)
    while value is not None:
        merged.append(OutlineEntry(0, value.start, value.end, value.line))
        value = next(waiting, None)
    return merged


class SymbolIndex:
    """The names the symbol lookup sees under each structure, worked out once per
    structure: ``targeting.resolve_levels`` matches a symbol level against the names of the
    children of every structure the level above matched, looking through statements and
    nameless groups, and this follows the same steps."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self._scopes: dict[int, list[dict[str, list[Node]]]] = {}

    def _under(self, node: Node) -> list[dict[str, list[Node]]]:
        """Per scope (the node's children, then each statement looked through), the
        children of each name in file order: ``name[n]`` counts within one scope."""
        found = self._scopes.get(node.id)
        if found is None:
            found = []
            scopes = through_statements(self.source, [(None, children(self.source, node))], True)
            for _, kids in scopes:
                names: dict[str, list[Node]] = {}
                for kid in kids:
                    name = name_of(self.source, kid.node)
                    if name:
                        names.setdefault(name, []).append(kid.node)
                found.append(names)
            self._scopes[node.id] = found
        return found

    def _reach(self, names: tuple[str, ...], last_index: int = 0) -> list[Node]:
        reached = [self.source.root]
        for depth, name in enumerate(names):
            step: list[Node] = []
            for at in reached:
                for scope in self._under(at):
                    named = scope.get(name, [])
                    if last_index and depth == len(names) - 1:
                        named = named[last_index - 1 : last_index]
                    step += named
            reached = step
            if not reached:
                break
        return reached

    def path_of(self, names: tuple[str, ...], node: Node) -> str | None:
        """``A/b`` (or ``A/b[2]`` for the second ``b`` of its scope) when that symbol names
        ``node`` and nothing else, else None."""
        if any(not n or "/" in n or n.endswith("]") or n != n.strip() for n in names):
            return None
        reached = self._reach(names)
        if reached == [node]:
            return "/".join(names)
        if node not in reached:
            return None
        parents = self._reach(names[:-1]) if len(names) > 1 else [self.source.root]
        for scope in [scope for at in parents for scope in self._under(at)]:
            same = scope.get(names[-1], [])
            if node in same:
                index = same.index(node) + 1
                if self._reach(names, index) == [node]:
                    return "/".join(names) + f"[{index}]"
        return None


def _error_count(source: Source) -> int:
    return min(len(source.errors), MAX_COUNTED_ERRORS)


def _collect(
    source: Source,
    node: Node,
    level: int,
    depth: int,
    out: list[OutlineEntry],
    index: SymbolIndex | None,
    names: tuple[str, ...],
    row: int = -1,
) -> None:
    for candidate in children(source, node):
        if not shows(source, candidate.node):
            if looked_through(source, candidate.node):
                _collect(source, candidate.node, level, depth, out, index, names, row)
            continue
        if candidate.def_row == row:
            continue  # a member defined on its parent's line adds nothing to the map
        start, end = structure_range(source, candidate.node)
        name = name_of(source, candidate.node) or ""
        path = (*names, name)
        symbol = index.path_of(path, candidate.node) if index else None
        if level + 1 < depth:
            out.append(OutlineEntry(level, start + 1, end + 1, candidate.first_line, symbol))
            _collect(source, candidate.node, level + 1, depth, out, index, path, candidate.def_row)
        else:
            deeper, deepest = (
                _inside(source, candidate.node, candidate.def_row) if index else (0, 0)
            )
            out.append(
                OutlineEntry(
                    level,
                    start + 1,
                    end + 1,
                    candidate.first_line,
                    symbol,
                    deeper,
                    level + 1 + deepest if deeper else 0,
                )
            )


MAX_COUNTED_INSIDE = 10_000


def _inside(source: Source, node: Node, row: int) -> tuple[int, int]:
    """How many definitions an outline leaves out inside ``node``, and how many more
    levels would show them all (counting stops at ``MAX_COUNTED_INSIDE``)."""
    count, deepest = 0, 0
    stack: list[tuple[Node, int, int]] = [(node, 1, row)]
    while stack and count < MAX_COUNTED_INSIDE:
        at, level, parent_row = stack.pop()
        for candidate in children(source, at):
            if not shows(source, candidate.node):
                if looked_through(source, candidate.node):
                    stack.append((candidate.node, level, parent_row))
                continue
            if candidate.def_row == parent_row:
                continue
            count += 1
            deepest = max(deepest, level)
            stack.append((candidate.node, level + 1, candidate.def_row))
    return count, deepest
