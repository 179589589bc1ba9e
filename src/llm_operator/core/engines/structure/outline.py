"""A file's structures as an outline: nesting depth, line range and definition line.

Unlike the editing operations, an outline is made even when the file has syntax errors
(tree-sitter recovers): a model looking for its way around a half-edited file still needs
the map. The outline says how many parse errors it saw, because ranges near them may be
off. Structures are listed in file order; each range covers the attached decorators and
doc comments, as the structure targets do, so ``fs.readSlice`` of it shows the whole
structure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .boundaries import structure_range
from .source import load_source
from .targeting import children

if TYPE_CHECKING:
    from tree_sitter import Node

    from .source import Source

MAX_LINE_CHARS = 160
MAX_COUNTED_ERRORS = 20
# Node types that define something a reader navigates by, across the grammars: classes,
# functions, methods, types, modules. Other statements are looked through, so a def
# inside ``if TYPE_CHECKING:`` or ``#ifdef`` still shows, at the level of its parent.
_DEFINITION = re.compile(
    r"(?:^|_)(?:class|function|method|constructor|interface|struct|enum|trait|impl|module|"
    r"namespace|protocol|extension|union|record|singleton|mod)(?:_|$)|"
    r"^(?:type_alias|type_alias_declaration|type_item|type_declaration|type_definition|"
    r"annotation_type_declaration|"
    r"macro_definition|decorated_definition|template_declaration)$"
)
# Expressions that merely mention a definition word (``struct_expression``, a Ruby
# ``simple_symbol``) define nothing.
_NOT_DEFINITION = re.compile(
    r"^(?!function|class|generator).*_expression$|_(?:identifier|literal|pattern|call|arguments?)$"
)
# Languages whose structures are data (keys, rules, elements): every structure shows.
_DATA_LANGUAGES = frozenset({"json", "yaml", "toml", "css", "html"})
_WRAPPER_DEPTH = 3


@dataclass(frozen=True)
class OutlineEntry:
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


_TYPE_DEFINES: dict[str, bool] = {}
# Only in these grammars do definitions hide inside wrappers (``export class``,
# ``const f = () => ...``, ``describe("x", () => ...)``); elsewhere the node type says it.
_WRAPPING_LANGUAGES = frozenset({"javascript", "typescript", "tsx"})


def _type_defines(kind: str) -> bool:
    known = _TYPE_DEFINES.get(kind)
    if known is None:
        known = bool(_DEFINITION.search(kind)) and not _NOT_DEFINITION.search(kind)
        _TYPE_DEFINES[kind] = known
    return known


def _defines(node: Node, containers: frozenset[str], reach: int) -> bool:
    """Whether ``node`` is a definition, or wraps one near its top, never looking into a
    body (``if X:`` is no definition)."""
    if _type_defines(node.type):
        return True
    if reach == 0:
        return False
    return any(
        _defines(child, containers, reach - 1)
        for child in node.named_children[:4]
        if child.child_count and child.type not in containers
    )


def _holds_block(node: Node, containers: frozenset[str]) -> bool:
    """Whether a statement has a body of its own (``if``, ``try``) or a definition right
    inside (a C# ``#if`` around a namespace); other statements are not walked, which keeps
    big literals cheap."""
    return any(
        child.type in containers or _type_defines(child.type) for child in node.named_children
    )


def _shows(source: Source, node: Node) -> bool:
    language = source.spec.name
    if language == "markdown":
        return node.type == "section"
    if language in _DATA_LANGUAGES:
        return True
    reach = _WRAPPER_DEPTH if language in _WRAPPING_LANGUAGES else 1
    return _defines(node, source.spec.containers, reach)


def _collect(
    source: Source, node: Node, level: int, depth: int, out: list[OutlineEntry], row: int = -1
) -> None:
    language = source.spec.name
    for candidate in children(source, node):
        if not _shows(source, candidate.node):
            code = language not in ("markdown", *_DATA_LANGUAGES)
            if code and _holds_block(candidate.node, source.spec.containers):
                _collect(source, candidate.node, level, depth, out, row)
            continue
        if candidate.def_row == row:
            continue  # a member defined on its parent's line adds nothing to the map
        start, end = structure_range(source, candidate.node)
        out.append(OutlineEntry(level, start + 1, end + 1, candidate.first_line))
        if level + 1 < depth:
            _collect(source, candidate.node, level + 1, depth, out, candidate.def_row)
