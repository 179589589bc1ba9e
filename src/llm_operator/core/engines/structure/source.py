"""Decoded and parsed source files as the structure engine sees them.

Invariants:
- ``Source.text`` is ``TextFile`` text (LF line breaks, no BOM). tree-sitter parses
  ``text.encode("utf-8")``, so a node's row indexes ``Source.lines`` and its column is a
  byte offset into that line's UTF-8 encoding, never a character index.
- ``Source.lines`` is ``text.split("\\n")``: a file ending with a newline has a last,
  empty element that is not a line of the file (``line_count`` excludes it).
- tree-sitter is imported when the first file is parsed, never when the package is
  imported, so the protocol core pays for grammars only when a structure action runs.
- A source is only built from a file that parses without errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ...errors import OperatorError, mark
from ..textfile import TextFile
from .languages import SPECS, SUPPORTED_EXTENSIONS, LanguageSpec, language_for_path

if TYPE_CHECKING:
    from tree_sitter import Node, Parser, Tree

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_CONTENT_BYTES = 1024 * 1024
UNCHANGED: dict[str, Any] = {"state": "FILE_UNCHANGED"}

_PARSERS: dict[str, Parser] = {}


def parser_for(language: str) -> Parser:
    """One parser per grammar for the life of the process: creating one is slow."""
    parser = _PARSERS.get(language)
    if parser is None:
        from tree_sitter_language_pack import get_parser

        parser = get_parser(cast(Any, language))
        _PARSERS[language] = parser
    return parser


def end_row(node: Node) -> int:
    """The last row holding part of ``node`` (a node ending at column 0 ends on the row before)."""
    row: int = node.end_point.row
    if node.end_point.column == 0 and row > node.start_point.row:
        return row - 1
    return row


@dataclass(frozen=True)
class Source:
    path: str
    spec: LanguageSpec
    file: TextFile
    text: str
    data: bytes
    lines: list[str]
    tree: Tree
    _offsets: list[int] = field(default_factory=list, repr=False, compare=False)

    @property
    def root(self) -> Node:
        return self.tree.root_node

    @property
    def line_count(self) -> int:
        return len(self.lines) - 1 if self.text.endswith("\n") else len(self.lines)

    def row_offset(self, row: int) -> int:
        """Byte offset of the start of ``row`` in ``data``."""
        if not self._offsets:
            offset = 0
            for line in self.lines:
                self._offsets.append(offset)
                offset += len(line.encode("utf-8")) + 1
        return self._offsets[row]

    def node_at(self, row: int, column: int) -> Node:
        offset = self.row_offset(row) + column
        node: Node | None = self.root.descendant_for_byte_range(offset, offset + 1)
        return node if node is not None else self.root

    def encode(self, text: str) -> bytes:
        return self.file.encode(text)


def check_size(data: bytes, path: str) -> None:
    if len(data) > MAX_FILE_BYTES:
        raise OperatorError(
            "ERR_FILE_TOO_LARGE",
            f"{path} is {len(data)} bytes; structure operations handle files up to "
            f"{MAX_FILE_BYTES} bytes. Use the line- or text-based actions on this file.",
            {"file_size": len(data), "limit": MAX_FILE_BYTES, **UNCHANGED},
        )


def check_content(name: str, text: str) -> None:
    size = len(text.encode("utf-8"))
    if size > MAX_CONTENT_BYTES:
        raise OperatorError(
            "ERR_CONTENT_TOO_LARGE",
            f"{name} is {size} bytes; the limit is {MAX_CONTENT_BYTES} bytes. Split the change "
            "into several smaller operations.",
            {"content_size": size, "limit": MAX_CONTENT_BYTES, "field": name, **UNCHANGED},
        )


def language_spec(path: str) -> LanguageSpec:
    language = language_for_path(path)
    if language is None:
        raise OperatorError(
            "ERR_LANGUAGE_UNSUPPORTED",
            f"no structure parser for {path!r} (known extensions: "
            f"{', '.join(SUPPORTED_EXTENSIONS)}). Use the text- or line-based actions instead.",
            {"file": path, "supported": list(SPECS), **UNCHANGED},
        )
    return SPECS[language]


def parse_text(spec: LanguageSpec, path: str, file: TextFile, text: str) -> Source:
    data = text.encode("utf-8")
    tree = parser_for(spec.name).parse(data)
    return Source(path, spec, file, text, data, text.split("\n"), tree)


def load_source(data: bytes, path: str) -> Source:
    """Check, decode and parse a file; refuse one that already has syntax errors."""
    check_size(data, path)
    spec = language_spec(path)
    try:
        file = TextFile.decode(data, path)
    except OperatorError as exc:
        exc.details.update(UNCHANGED)
        raise
    source = parse_text(spec, path, file, file.text)
    errors = parse_errors(source) if source.root.has_error else []
    errors += empty_python_blocks(source)
    if errors:
        first = errors[0]
        raise OperatorError(
            "ERR_PARSER_FAILED",
            f"{path} has syntax errors ({len(errors)} found, first at line {first['line']}, "
            f"column {first['column']}), so its structures cannot be located reliably. "
            "Fix the syntax first (e.g. with a text or line edit), then retry.",
            {"parse_errors": [_marked(error) for error in errors], **UNCHANGED},
        )
    return source


_QUERIES: dict[str, Any] = {}


def empty_python_blocks(source: Source) -> list[dict[str, Any]]:
    """Python bodies left without a statement: tree-sitter accepts them, Python does not."""
    if source.spec.name != "python":
        return []
    from tree_sitter import Query, QueryCursor
    from tree_sitter_language_pack import get_language

    query = _QUERIES.get("python")
    if query is None:
        query = _QUERIES["python"] = Query(get_language("python"), "(block) @block")
    found = []
    for block in QueryCursor(query).captures(source.root).get("block", []):
        if block.start_byte == block.end_byte and block.parent is not None:
            row = block.parent.start_point.row
            found.append(
                {
                    "line": row + 1,
                    "column": 1,
                    "kind": "empty block",
                    "snippet": source.lines[row].strip()[:80],
                }
            )
    return found


def _marked(error: dict[str, Any]) -> dict[str, Any]:
    """A parse error with its file text marked for redaction (``errors.mark``)."""
    return {key: mark(value) if key == "snippet" else value for key, value in error.items()}


def parse_errors(source: Source, limit: int = 20) -> list[dict[str, Any]]:
    """Where the parser found errors: 1-based line and character column, and the line."""
    found: list[dict[str, Any]] = []
    stack = [source.root]
    while stack and len(found) < limit:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            row = node.start_point.row
            line = source.lines[row] if row < len(source.lines) else ""
            prefix = line.encode("utf-8")[: node.start_point.column]
            column = len(prefix.decode("utf-8", errors="ignore")) + 1
            kind = f"missing {node.type!r}" if node.is_missing else "unexpected text"
            found.append(
                {"line": row + 1, "column": column, "kind": kind, "snippet": line.strip()[:80]}
            )
            continue
        stack.extend(reversed([c for c in node.children if c.has_error or c.is_missing]))
    return sorted(found, key=lambda e: (e["line"], e["column"]))
