"""A file's structures as an outline: nesting depth, line range and definition line.

Unlike the editing operations, an outline is made even when the file has syntax errors
(tree-sitter recovers): a model looking for its way around a half-edited file still needs
the map. The outline says how many parse errors it saw, because ranges near them may be
off. Structures are listed in file order; each range covers the attached decorators and
doc comments, as the structure targets do, so ``fs.readSlice`` of it shows the whole
structure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .boundaries import structure_range
from .definitions import looked_through, shows
from .source import load_source
from .targeting import children

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

    def render(self) -> str:
        line = self.line
        if len(line) > MAX_LINE_CHARS:
            line = line[:MAX_LINE_CHARS] + " [...]"
        return f"{'  ' * self.depth}{self.start}-{self.end}: {line}"


@dataclass(frozen=True)
class FileOutline:
    """A file's outline: its language, line count, structures in file order and parse errors."""

    language: str
    line_count: int
    entries: tuple[OutlineEntry, ...]
    parse_errors: int  # 0 for a clean parse; up to 20 are counted


def outline_structures(data: bytes, path: str, depth: int = 2) -> FileOutline:
    """The structures of ``data`` (the file at ``path``) down to ``depth`` levels.

    ERR_LANGUAGE_UNSUPPORTED when no grammar knows the file's name, ERR_ENCODING_ERROR
    when it is not UTF-8 text, ERR_FILE_TOO_LARGE past the structure engine's size limit.
    """
    # The parse the edit actions make (grammar, C++ for a header that needs it, macro
    # masking), so every range shown is the range a read or an edit of it uses.
    source = load_source(data, path)
    entries: list[OutlineEntry] = []
    _collect(source, source.root, 0, depth, entries)
    return FileOutline(source.spec.name, source.line_count, tuple(entries), _error_count(source))


def _error_count(source: Source) -> int:
    return min(len(source.errors), MAX_COUNTED_ERRORS)


def _collect(
    source: Source, node: Node, level: int, depth: int, out: list[OutlineEntry], row: int = -1
) -> None:
    for candidate in children(source, node):
        if not shows(source, candidate.node):
            if looked_through(source, candidate.node):
                _collect(source, candidate.node, level, depth, out, row)
            continue
        if candidate.def_row == row:
            continue  # a member defined on its parent's line adds nothing to the map
        start, end = structure_range(source, candidate.node)
        out.append(OutlineEntry(level, start + 1, end + 1, candidate.first_line))
        if level + 1 < depth:
            _collect(source, candidate.node, level + 1, depth, out, candidate.def_row)
