"""Decoded and parsed source files as the structure engine sees them.

Invariants:
- ``Source.text`` is ``TextFile`` text (LF line breaks, no BOM). tree-sitter parses
  ``text.encode("utf-8")``, so a node's row indexes ``Source.lines`` and its column is a
  byte offset into that line's UTF-8 encoding, never a character index.
- ``Source.lines`` is ``text.split("\\n")``: a file ending with a newline has a last,
  empty element that is not a line of the file (``line_count`` excludes it).
- tree-sitter is imported when the first file is parsed, never when the package is
  imported, so the protocol core pays for grammars only when a structure action runs.
- A file with parse errors still loads: its errors are kept in ``Source.errors``. An
  operation refuses only when an error lies in the range it reads or rewrites (its
  target's, or its destination's); errors elsewhere are a note. An error is pinned to
  the rows of the tokens the parser could not place (and of missing tokens), not to the
  whole ERROR node, which often spans the correct code the parser recovered after it.
- A ``.h`` file is C unless the text needs C++ (a C++ parse has fewer errors).
- tree-sitter holds Python's lock for the whole of a parse (a 2 MB file: 400 ms), which
  would freeze the window while one of its worker threads parses. So off the main thread
  a large text is handed to tree-sitter in ``YIELD_CHUNK`` pieces through a read
  callback that lets other threads run between pieces. Parsers are per thread, since a
  parser is then in use while other threads run.
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from ... import work_budget
from ...errors import OperatorError, mark
from ..textfile import TextFile
from .languages import SPECS, SUPPORTED_EXTENSIONS, LanguageSpec, language_for_path

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Parser, Point, Tree

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_CONTENT_BYTES = 1024 * 1024
UNCHANGED: dict[str, Any] = {"state": "FILE_UNCHANGED"}

YIELD_CHUNK = 16 * 1024
# A tree made through a read callback reads a node's ``text`` through it again, piece by
# piece: names and headings are short, and a YIELD_CHUNK piece for each (a 16 KB copy)
# was most of the time a target's lookup took.
TEXT_PIECE = 256
_LANGUAGES: dict[str, Language] = {}
_THREAD = threading.local()


def parser_for(language: str) -> Parser:
    """One parser per grammar and thread: loading a grammar is slow, so each is loaded
    once per process; a parser is cheap but must not serve two threads at once."""
    parsers: dict[str, Parser] = _THREAD.__dict__.setdefault("parsers", {})
    parser = parsers.get(language)
    if parser is None:
        from tree_sitter import Parser

        parser = parsers[language] = Parser(grammar_of(language))
    return parser


def grammar_of(language: str) -> Language:
    """The grammar of ``language``, loaded once per process."""
    grammar = _LANGUAGES.get(language)
    if grammar is None:
        grammar = _LANGUAGES[language] = _load_grammar(language)
    return grammar


def _load_grammar(language: str) -> Language:
    """The language pack's compiled grammar of ``language``, loaded by itself: importing
    the pack's package loads three other grammars and importlib.resources first, a good
    part of a structure command's start. Any surprise in the pack's layout falls back to
    the pack's own ``get_language``."""
    import importlib.machinery
    import importlib.util

    from tree_sitter import Language

    pack = importlib.util.find_spec("tree_sitter_language_pack")
    folders = pack.submodule_search_locations if pack is not None else None
    for folder in folders or ():
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = f"{folder}/bindings/{language}{suffix}"
            name = f"tree_sitter_language_pack.bindings.{language}"
            loader = importlib.machinery.ExtensionFileLoader(name, path)
            spec = importlib.util.spec_from_file_location(name, path, loader=loader)
            if spec is None or not os.path.isfile(path):
                continue
            try:
                module = importlib.util.module_from_spec(spec)
                loader.exec_module(module)
                return Language(module.language())
            except (ImportError, OSError, AttributeError, TypeError, ValueError):
                break
    from tree_sitter_language_pack import get_language

    return get_language(cast(Any, language))


def let_others_run() -> None:
    """Give Python's lock to any thread that waits for it (the window's, say)."""
    time.sleep(0)


# The markdown and YAML grammars keep their open blocks (quotes, list items, indentation
# levels) in a fixed-size scanner state that overflows past about 250 levels, and the
# process then crashes (a segfault, every other result lost). A block can only open on
# a line whose prefix (indentation, ">", list or sequence markers) holds at least one
# character for every level around it (a tab may stand for two), so the prefix bounds the
# nesting: text where it could pass MAX_NESTING is refused before the parser sees it.
MAX_NESTING = 200
_LOOSE_PREFIX = rb"^[ \t>*+\-0-9.)?:]{%d,}" % (MAX_NESTING // 2)
_PREFIX_TOKEN = {
    "markdown": rb"[ >]|\t|(?:[-*+]|[0-9]{1,9}[.)])(?=[ \t])",
    "yaml": rb" |\t|[-?:](?=[ \t])",
}
# The patterns of this module are compiled when a file of their language is parsed
# (``re`` keeps them), not when the module is imported: each grammar uses one or two.


# Kotlin's scanner keeps a stack of the strings open around an interpolation and aborts
# the process past about 1,000 ("${"${"${...). A string opens inside another only in a
# "${", so the count of "${" in the text bounds the stack.
MAX_KOTLIN_TEMPLATES = 1000


def check_nesting(language: str, data: bytes) -> None:
    """ERR_PARSER_FAILED for text that could nest deeper than its grammar survives."""
    if language == "kotlin" and (templates := data.count(b"${")) > MAX_KOTLIN_TEMPLATES:
        raise OperatorError(
            "ERR_PARSER_FAILED",
            f'the text holds {templates} string templates ("${{"); the kotlin parser '
            f"crashes on strings nested about 1,000 deep, so text with more than "
            f"{MAX_KOTLIN_TEMPLATES} is not parsed and its structure cannot be read. Use the "
            "line- or text-based actions",
            {"limit": MAX_KOTLIN_TEMPLATES, **UNCHANGED},
        )
    pattern = _PREFIX_TOKEN.get(language)
    if pattern is None:
        return
    token = re.compile(pattern)
    for found in re.finditer(_LOOSE_PREFIX, data, re.M):
        levels, at = 1, found.start()
        while (step := token.match(data, at)) is not None:
            levels += 2 if step.group() == b"\t" else 1
            at = step.end()
        if levels > MAX_NESTING:
            line = data.count(b"\n", 0, found.start()) + 1
            raise OperatorError(
                "ERR_PARSER_FAILED",
                f"line {line} starts with {at - found.start()} characters of indentation, "
                f"quote or list markers, so blocks there may nest up to {levels} levels; "
                f"the {language} parser handles at most {MAX_NESTING} and deeper text "
                "would crash it, so this text's structure cannot be read. Use the line- "
                "or text-based actions",
                {"line": line, "limit": MAX_NESTING, **UNCHANGED},
            )


# Some grammars take time far beyond linear on hostile text (Swift on 3,000 nested "/*":
# 6 KB, minutes). A parse is stopped past PARSE_SECONDS plus a second per
# PARSE_BYTES_PER_SECOND of text (ordinary code parses at 2 MB/s or more, so 20 times
# slower than that still fits), and when the reply's work budget is spent.
PARSE_SECONDS = 2.0
PARSE_BYTES_PER_SECOND = 100_000


def parse(language: str, data: bytes) -> Tree:
    """The tree of ``data``; off the main thread, other threads run while it is made."""
    check_nesting(language, data)
    parser = parser_for(language)
    yielding = len(data) > YIELD_CHUNK and threading.current_thread() is not threading.main_thread()
    parsing = [True]

    def read(offset: int, _point: Point) -> bytes:
        if not parsing[0]:  # a node's ``text``, read through here too: a short piece
            return data[offset : offset + TEXT_PIECE]
        if yielding:
            let_others_run()
        return data[offset : offset + YIELD_CHUNK]

    limit = PARSE_SECONDS + len(data) / PARSE_BYTES_PER_SECOND
    # CPU time of this thread, not the wall clock: a busy machine must not stop a parse
    # that an idle one finishes.
    deadline = time.thread_time() + limit

    def stop(_offset: int, _errors: bool) -> bool:
        return time.thread_time() > deadline or work_budget.spent()

    try:
        tree = parser.parse(read, progress_callback=stop)
    except ValueError:  # stopped by ``stop``
        parser.reset()
    else:
        parsing[0] = False
        return tree
    work_budget.check(f"parsing this {language} text")
    raise OperatorError(
        "ERR_PARSER_FAILED",
        f"parsing this {language} text was stopped after {limit:.0f} s of CPU (the grammar is "
        "very slow on it, e.g. comments or blocks nested thousands deep), so its "
        "structure cannot be read. Use the line- or text-based actions",
        {"limit_seconds": round(limit, 1), **UNCHANGED},
    )


def end_row(node: Node) -> int:
    """The last row holding part of ``node`` (a node ending at column 0 ends on the row before)."""
    row: int = node.end_point.row
    if node.end_point.column == 0 and row > node.start_point.row:
        return row - 1
    return row


@dataclass(frozen=True)
class Source:
    """A file parsed for the structure engine: its text (LF, as lines and as UTF-8), its syntax
    tree and the syntax errors found in it."""

    path: str
    spec: LanguageSpec
    file: TextFile
    text: str
    data: bytes
    lines: list[str]
    tree: Tree
    errors: tuple[dict[str, Any], ...] = ()
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
    tree = parse(spec.name, data)
    return Source(path, spec, file, text, data, text.split("\n"), tree)


_CPP_HINTS = (
    rb"^\s*(?:namespace\b|template\s*<|class\s+\w+[^;]*\{|(?:public|private|protected):)"
    rb"|::|\bFMT_BEGIN_NAMESPACE\b"
)


# C and C++ macros the grammar cannot know: a line holding only a macro name
# (FMT_BEGIN_NAMESPACE), a macro name before a declaration (FMT_EXPORT template ...,
# FMT_CONSTEXPR int f()), and `if FMT_CONSTEXPR20 (`. Masked with spaces of the same
# length, so every offset stays valid; used only when it leaves fewer parse errors.
_MACRO_WORD = rb"[A-Z][A-Z0-9]*_[A-Z0-9_]+"
_MACROS = (
    rb"^[ \t]*(" + _MACRO_WORD + rb")[ \t]*$"
    rb"|\b(" + _MACRO_WORD + rb")(?=[ \t]+[A-Za-z_~])"
    rb"|(?<=\bif )(" + _MACRO_WORD + rb")(?=[ \t]*\()"
)


def _mask_macros(data: bytes) -> bytes:
    return re.sub(_MACROS, lambda m: b" " * len(m.group(0)), data, flags=re.M)


def _masked(source: Source) -> Source:
    masked = _mask_macros(source.data)
    if masked == source.data:
        return source
    tree = parse(source.spec.name, masked)
    candidate = with_errors(replace(source, tree=tree, errors=()))
    return candidate if len(candidate.errors) < len(source.errors) else source


def load_source(data: bytes, path: str) -> Source:
    """Check, decode and parse a file; its parse errors are kept, not refused here."""
    check_size(data, path)
    spec = language_spec(path)
    try:
        file = TextFile.decode(data, path)
    except OperatorError as exc:
        exc.details.update(UNCHANGED)
        raise
    source = with_errors(parse_text(spec, path, file, file.text))
    if (
        spec.name == "c"
        and path.lower().endswith(".h")
        and re.search(_CPP_HINTS, source.data, re.M)
    ):
        cpp = with_errors(parse_text(SPECS["cpp"], path, file, file.text))
        if len(cpp.errors) < len(source.errors) or not source.errors:
            source = cpp
    if source.errors and spec.name in ("c", "cpp"):
        source = _masked(source)
    return source


def reparse(source: Source, text: str) -> Source:
    """``text`` parsed as ``source`` was (same grammar, same macro masking rule)."""
    edited = with_errors(parse_text(source.spec, source.path, source.file, text))
    if edited.errors and source.spec.name in ("c", "cpp"):
        edited = _masked(edited)
    return edited


def with_errors(source: Source) -> Source:
    errors = parse_errors(source, limit=200) if source.root.has_error else []
    errors += empty_python_blocks(source)
    errors.sort(key=lambda e: (e["line"], e["column"]))
    return replace(source, errors=tuple(errors)) if errors else source


def refuse_errors_in(source: Source, first: int, last: int, what: str) -> None:
    """ERR_PARSER_FAILED when a parse error lies in rows ``first``..``last`` (0-based)."""
    inside = [e for e in source.errors if first + 1 <= e["line"] <= last + 1]
    if not inside:
        return
    where = inside[0]
    raise OperatorError(
        "ERR_PARSER_FAILED",
        f"{source.path} has syntax errors inside {what} (lines {first + 1}-{last + 1}; "
        f"{len(inside)} found, first at line {where['line']}, column {where['column']}: "
        f"{where['kind']}), so its boundaries cannot be trusted. Fix the syntax there first "
        "(e.g. with a text or line edit), then retry.",
        {
            "parse_errors": [_marked(error) for error in inside],
            "line_range_inclusive": [first + 1, last + 1],
            **UNCHANGED,
        },
    )


def errors_note(source: Source) -> list[dict[str, Any]]:
    """The note attached to results from a file that has parse errors elsewhere."""
    if not source.errors:
        return []
    lines = ", ".join(str(e["line"]) for e in source.errors[:5])
    return [
        {
            "type": "PARSE_ERRORS_ELSEWHERE",
            "message": (
                f"{source.path} has {len(source.errors)} syntax error(s) outside the lines this "
                f"operation used (at line {lines}); they were left as they were."
            ),
            "details": {"errors": list(source.errors[:20])},
        }
    ]


# The Python nodes that can hold a ``block`` in a tree without errors (the grammar's
# compound statements, their clauses, and the block itself); a block anywhere else hangs
# under an ERROR node, reached through the nodes marked ``has_error``. A walk through
# these alone finds every block a query for ``(block)`` finds (a test holds the two to
# each other), without compiling a query, which costs more than the walk.
_PYTHON_BLOCK_HOLDERS = frozenset(
    {
        "module",
        "block",
        "function_definition",
        "class_definition",
        "decorated_definition",
        "if_statement",
        "elif_clause",
        "else_clause",
        "for_statement",
        "while_statement",
        "try_statement",
        "except_clause",
        "except_group_clause",
        "finally_clause",
        "with_statement",
        "match_statement",
        "case_clause",
    }
)


def python_blocks(root: Node) -> list[Node]:
    """Every ``block`` node under ``root``, in file order."""
    found: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "block":
            found.append(node)
        for child in reversed(node.named_children):
            if child.type in _PYTHON_BLOCK_HOLDERS or child.has_error:
                stack.append(child)
    return found


def empty_python_blocks(source: Source) -> list[dict[str, Any]]:
    """Python bodies left without a statement: tree-sitter accepts them, Python does not."""
    if source.spec.name != "python":
        return []
    found = []
    for block in python_blocks(source.root):
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


def _error_entry(source: Source, node: Node, kind: str) -> dict[str, Any]:
    row = node.start_point.row
    line = source.lines[row] if row < len(source.lines) else ""
    prefix = line.encode("utf-8")[: node.start_point.column]
    column = len(prefix.decode("utf-8", errors="ignore")) + 1
    return {"line": row + 1, "column": column, "kind": kind, "snippet": line.strip()[:80]}


def _marked(error: dict[str, Any]) -> dict[str, Any]:
    """A parse error with its file text marked for redaction (``errors.mark``)."""
    return {key: mark(value) if key == "snippet" else value for key, value in error.items()}


def parse_errors(source: Source, limit: int = 20) -> list[dict[str, Any]]:
    """Where the parser found errors: 1-based line and character column, and the line.

    An ERROR node is reported at each of its own tokens' rows (the text the parser could
    not place), not over the recovered code inside it.
    """
    found: list[dict[str, Any]] = []
    seen: set[tuple[int, int]] = set()
    stack = [source.root]
    while stack and len(found) < limit:
        node = stack.pop()
        if node.is_missing:
            found.append(_error_entry(source, node, f"missing {node.type!r}"))
            continue
        if node.type == "ERROR":
            tokens = [c for c in node.children if c.child_count == 0 or not c.is_named]
            for token in tokens or [node]:
                key = (token.start_point.row, node.start_byte)
                if key not in seen:
                    seen.add(key)
                    found.append(_error_entry(source, token, "unexpected text"))
            stack.extend(reversed([c for c in node.children if c.has_error or c.is_missing]))
            continue
        stack.extend(reversed([c for c in node.children if c.has_error or c.is_missing]))
    return sorted(found, key=lambda e: (e["line"], e["column"]))[:limit]
