"""Round trips of the structure operations over real files, and the rates they reach.

Per definition (a structure whose node is a definition, declaration, section, element,
entry or rule, at most three levels deep) the trip does:

- read: the target resolves to exactly this structure (else the definition counts as
  untargetable and the trip stops there);
- replace with its own read text: the file must come back byte-identical;
- replaceText there and back: a word of the structure renamed, then renamed back: the file
  must come back byte-identical;
- delete, then insert the read text back beside a neighbour: the file must hold the text
  again and parse no worse than before (byte identity is reported, not required, since the
  engine chooses the blank lines);
- move to the end of its parent (the file's end for a top-level structure): the file must
  parse no worse than before and hold the structure's lines with their relative indentation.

A file whose every operation is refused with ERR_PARSER_FAILED counts as refused.

Per file, the outline (three levels) is also held to the reads: every entry read by the
outline lines of it and its parents ("outline"), and by the grammar names of them when
each has one ("symbol"), must give a match with exactly the entry's range.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from llm_operator.core.engines import structure
from llm_operator.core.engines.structure.boundaries import owns_lines, structure_range
from llm_operator.core.engines.structure.moving import _container_of, _foreign
from llm_operator.core.engines.structure.separators import list_members
from llm_operator.core.engines.structure.source import load_source, reparse
from llm_operator.core.engines.structure.target_search import resolve
from llm_operator.core.engines.structure.targeting import (
    Candidate,
    Target,
    children,
    name_of,
    structure_at_row,
    symbol_target,
)
from llm_operator.core.errors import OperatorError

if TYPE_CHECKING:
    from tree_sitter import Node

    from llm_operator.core.engines.structure.source import Source

DEFINITION = re.compile(
    r"definition|declaration|_item$|^item$|class|function|method|struct|enum|interface|"
    r"module|namespace|impl|trait|section|element|rule_set|pair|table|block_mapping_pair|"
    r"at_rule|media_statement|keyframes|list_item|fenced_code_block|property|macro|"
    r"constructor|object|protocol|extension|^singleton|^def$|^if$|^case$|command$"
)
# Statements inside function bodies are not definitions (a Rust block's tail expression
# must stay last, so "move to the end" of a body is not a definition's trip).
_BODIES = frozenset(
    {"block", "statement_block", "compound_statement", "constructor_body", "statements"}
)
_SEPARATOR = re.compile(r"[,;](\s*(?://|/\*|#).*)?$")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
STEPS = ("read", "replace", "replace_text", "delete_insert", "move", "outline", "symbol")


@dataclass
class Rates:
    files: int = 0
    refused_files: int = 0
    definitions: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def add(self, other: Rates) -> None:
        self.files += other.files
        self.refused_files += other.refused_files
        self.definitions += other.definitions
        self.outcomes.update(other.outcomes)
        self.failures.extend(other.failures)

    def rate(self, step: str) -> float:
        ok, bad = self.outcomes[f"{step}:ok"], self.outcomes[f"{step}:fail"]
        return ok / (ok + bad) if ok + bad else 1.0

    def tried(self, step: str) -> int:
        return self.outcomes[f"{step}:ok"] + self.outcomes[f"{step}:fail"]

    @property
    def refused_definitions_rate(self) -> float:
        tried = self.outcomes["read:ok"]
        return self.outcomes["refused_definitions"] / tried if tried else 0.0

    @property
    def refused_rate(self) -> float:
        return self.refused_files / self.files if self.files else 0.0

    def summary(self) -> str:
        parts = [f"files {self.files} (refused {self.refused_files})", f"defs {self.definitions}"]
        for step in STEPS:
            parts.append(f"{step} {self.rate(step):.1%} of {self.tried(step)}")
        parts.append(f"untargetable {self.outcomes['untargetable']}")
        parts.append(f"needed occurrence {self.outcomes['needed_occurrence']}")
        parts.append(f"shares line {self.outcomes['shares_line']}")
        parts.append(f"crashes {self.outcomes['crash']}")
        parts.append(f"defs refused for parse errors {self.outcomes['refused_definitions']}")
        parts.append(f"delete+insert identical {self.outcomes['delete_insert:identical']}")
        return ", ".join(parts)


def _definitions(src: Source) -> list[tuple[list[str], Candidate, list[str] | None]]:
    """(target levels, candidate, parent levels) for the file's definitions."""
    found: list[tuple[list[str], Candidate, list[str] | None]] = []
    frontier: list[tuple[list[str], object]] = [([], src.root)]
    for _ in range(3):
        following: list[tuple[list[str], object]] = []
        for levels, node in frontier:
            for kid in children(src, node):  # type: ignore[arg-type]
                kid_levels = [*levels, (kid.keys[0] if kid.keys else kid.first_line)[:50].rstrip()]
                in_body = kid.node.parent is not None and kid.node.parent.type in _BODIES
                if (
                    DEFINITION.search(kid.node.type) and not in_body
                ) or src.spec.name == "markdown":
                    found.append((kid_levels, kid, levels or None))
                following.append((kid_levels, kid.node))
        frontier = following
    return found


def _error_count(path: str, data: bytes, src: Source) -> int:
    text = data.decode("utf-8-sig").replace("\r\n", "\n")
    return len(reparse(src, text).errors)


def _relative(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


def _contains_block(data: bytes, text: str, *, exact_indent: bool = True) -> bool:
    """Whether the file holds ``text``'s lines consecutively, with their relative indents
    (or, not ``exact_indent``, with any indentation: content given to an insert is
    converted to the file's indent unit)."""
    lines = data.decode("utf-8-sig").replace("\r\n", "\n").split("\n")
    want = _relative(text).split("\n")
    # A list member that becomes the last one loses its comma (and gains one if it
    # stops being last; a Java constant may take the list's ``;``): the separator on the
    # last line, before any comment there, is the list's, not the structure's text.
    want[-1] = _SEPARATOR.sub(r"\1", want[-1].rstrip())
    first = want[0].strip()
    for i, line in enumerate(lines):
        if _SEPARATOR.sub(r"\1", line.strip()) == _SEPARATOR.sub(r"\1", first) and i + len(
            want
        ) <= len(lines):
            window = lines[i : i + len(want)]
            window[-1] = _SEPARATOR.sub(r"\1", window[-1].rstrip())
            if exact_indent and _relative("\n".join(window)) == "\n".join(want):
                return True
            if not exact_indent and [w.strip() for w in window] == [w.strip() for w in want]:
                return True
    return False


def _identifiers(node: Node) -> list[str]:
    found: list[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if item.child_count == 0:
            if "identifier" in item.type or item.type in ("name", "word", "constant"):
                found.append((item.text or b"").decode("utf-8", errors="replace"))
            continue
        stack.extend(reversed(item.children))
    return found


def _rename_word(src: Source, candidate: Candidate, text: str) -> str | None:
    """An identifier (any word, in a grammar without identifiers) that occurs once in
    ``text`` and not on its definition line, so renaming it keeps the file parsing and the
    target valid."""
    words = _identifiers(candidate.node) or _WORD.findall(text)
    key_line = src.lines[candidate.def_row]
    for word in words:
        if text.count(word) == 1 and _WORD.fullmatch(word) and word not in key_line:
            return word
    return None


def trip_file(
    path: str,
    data: bytes,
    max_definitions: int | None = None,
    sample: Callable[[list[Any]], list[Any]] | None = None,
) -> Rates:
    """The trip over one file; ``max_definitions`` spreads that many definitions evenly
    over the file, ``sample`` picks the definitions to trip (a seeded sample)."""
    rates = Rates(files=1)
    try:
        src = load_source(data, path)
    except OperatorError as exc:
        rates.refused_files = 1
        rates.failures.append(f"{path}: load {exc.code}")
        return rates
    base_errors = _error_count(path, data, src)
    _trip_outline(path, data, src, rates)
    refused = 0
    definitions = _definitions(src)
    if max_definitions is not None and len(definitions) > max_definitions:
        # An even spread over the file, so the test stays quick on long files.
        stride = len(definitions) / max_definitions
        definitions = [definitions[int(i * stride)] for i in range(max_definitions)]
    if sample is not None:
        definitions = sample(definitions)
    for levels, candidate, parent in definitions:
        rates.definitions += 1
        outcome = _trip_one(path, data, src, levels, candidate, parent, base_errors, rates)
        refused += outcome == "refused"
    if definitions and refused == len(definitions):
        rates.refused_files = 1
    return rates


def _trip_outline(path: str, data: bytes, src: Source, rates: Rates) -> None:
    """Every outline entry read by its outline lines and by its symbol."""
    lines: list[str] = []
    names: list[str | None] = []
    for entry in structure.outline_structures(data, path, depth=3).entries:
        rows = range(entry.start - 1, entry.end)
        row = next((r for r in rows if src.lines[r].strip() == entry.line), entry.start - 1)
        found = structure_at_row(src, row)
        del lines[entry.depth :], names[entry.depth :]
        lines.append(entry.line)
        names.append(name_of(src, found.node) if found is not None else None)
        span = [entry.start, entry.end]
        _agrees(path, data, list(lines), span, "outline", rates)
        if None not in names and not any("/" in n for n in names if n):
            symbol = "/".join(n for n in names if n)
            _agrees(path, data, symbol_target(symbol), span, "symbol", rates)


def _agrees(
    path: str, data: bytes, target: list[str], span: list[int], step: str, rates: Rates
) -> None:
    try:
        matches = structure.read_structure(data, path, target)["matches"]
    except OperatorError as exc:
        if exc.code == "ERR_PARSER_FAILED":
            rates.outcomes[f"{step}:refused"] += 1
            return
        rates.outcomes[f"{step}:fail"] += 1
        rates.failures.append(f"{path}:{span[0]} {step} {exc.code} for {target}")
        return
    ok = span in [m["line_range_inclusive"] for m in matches]
    rates.outcomes[f"{step}:{'ok' if ok else 'fail'}"] += 1
    if not ok:
        rates.failures.append(f"{path}:{span[0]} {step} reads another range for {target}")


def _trip_one(
    path: str,
    data: bytes,
    src: Source,
    levels: list[str],
    candidate: Candidate,
    parent: list[str] | None,
    base_errors: int,
    rates: Rates,
) -> str:
    where = f"{path}:{candidate.def_row + 1}"

    def record(step: str, ok: bool, why: str = "") -> None:
        if why.endswith("ERR_PARSER_FAILED"):
            # Refused because of parse errors in the range the step uses: counted apart.
            rates.outcomes[f"{step}:refused"] += 1
            rates.outcomes["refused_steps"] += 1
            return
        rates.outcomes[f"{step}:{'ok' if ok else 'fail'}"] += 1
        if not ok:
            rates.failures.append(f"{where} {step} {why}".rstrip())

    if not owns_lines(src, candidate.node):
        rates.outcomes["shares_line"] += 1
        return "shares_line"
    start, end = structure_range(src, candidate.node)
    try:
        matches = structure.read_structure(data, path, levels)["matches"]
    except OperatorError as exc:
        record("read", False, exc.code)
        return "refused" if exc.code == "ERR_PARSER_FAILED" else "failed"
    refused_before = rates.outcomes["refused_steps"]
    spans = [m["line_range_inclusive"] for m in matches]
    if [start + 1, end + 1] not in spans:
        rates.failures.append(f"{where} untargetable ({len(matches)} matches)")
        rates.outcomes["untargetable"] += 1
        return "untargetable"
    if len(matches) > 1:
        # Identical definition lines: the occurrence in file order names this one.
        rates.outcomes["needed_occurrence"] += 1
        levels = Target(levels, occurrence=spans.index([start + 1, end + 1]) + 1)
        mine = structure.read_structure(data, path, levels)["matches"]
    else:
        mine = matches
    record("read", len(mine) == 1 and mine[0]["line_range_inclusive"] == [start + 1, end + 1])
    text = mine[0]["text"]
    try:
        replaced = structure.replace_structure(data, path, levels, text).new_source
        record("replace", replaced == data, "not identical")
    except OperatorError as exc:
        record("replace", False, exc.code)
    _trip_text(path, data, src, candidate, levels, text, record)
    _trip_delete_insert(path, data, src, levels, candidate, text, base_errors, rates, record)
    try:
        dest = _parent_target(data, path, parent, candidate) if parent else []
        moved = structure.move_structure(data, path, levels, "end", dest_target=dest).new_source
        ok = _error_count(path, moved, src) <= base_errors and _contains_block(moved, text)
        record("move", ok, "broken or text changed")
    except OperatorError as exc:
        record("move", exc.code in ("ERR_TARGET_SHARES_LINE", "ERR_INVALID_POSITION"), exc.code)
    if rates.outcomes["refused_steps"] > refused_before:
        rates.outcomes["refused_definitions"] += 1
        return "refused"
    return "ok"


def _parent_target(data: bytes, path: str, parent: list[str], candidate: Candidate) -> list[str]:
    """The parent's levels, with the occurrence that names the parent of ``candidate``."""
    spans = [
        m["line_range_inclusive"] for m in structure.read_structure(data, path, parent)["matches"]
    ]
    if len(spans) <= 1:
        return parent
    row = candidate.def_row + 1
    inner = [i for i, (first, last) in enumerate(spans) if first <= row <= last]
    if not inner:
        return parent
    best = min(inner, key=lambda i: spans[i][1] - spans[i][0])
    return Target(parent, occurrence=best + 1)


def _trip_text(
    path: str,
    data: bytes,
    src: Source,
    candidate: Candidate,
    levels: list[str],
    text: str,
    record: object,
) -> None:
    word = _rename_word(src, candidate, text)
    if word is None:
        return
    try:
        there = structure.replace_text_in_structure(data, path, levels, word, word + "Rt")
        back = structure.replace_text_in_structure(
            there.new_source, path, levels, word + "Rt", word
        )
        record("replace_text", back.new_source == data, "not identical")  # type: ignore[operator]
    except OperatorError as exc:
        record("replace_text", False, exc.code)  # type: ignore[operator]


def _trip_delete_insert(
    path: str,
    data: bytes,
    src: Source,
    levels: list[str],
    candidate: Candidate,
    text: str,
    base_errors: int,
    rates: Rates,
    record: object,
) -> None:
    kind = candidate.node.type
    try:
        removed = structure.delete_structure(data, path, levels).new_source
    except OperatorError as exc:
        record("delete_insert", False, f"delete {exc.code}")  # type: ignore[operator]
        return
    parent_levels = levels[:-1]
    if parent_levels and any(
        found.candidate.def_row == candidate.def_row for found in resolve(src, parent_levels)
    ):
        # A Markdown section with no heading is named by its first block: without that
        # block it has another name, so there is no parent to put it back into.
        return
    # Re-find the parent in the edited file, then its first child, to insert before it.
    try:
        after_src = load_source(removed, path)
        scope = after_src.root
        if parent_levels:
            scope = resolve(after_src, parent_levels)[0].candidate.node
        kids = children(after_src, scope)
        # Beside a structure of its own body (a Go ``for`` over a ``[]struct {...}`` holds
        # the struct's fields and the loop's statements): none left, no place to anchor,
        # so no trip to count.
        body = _container_of(src, candidate.node)
        kin_bodies = [
            k for k in kids if body is None or not _foreign(after_src, k.node, scope, body)
        ]
        if kids and not kin_bodies:
            return
        kids = kin_bodies
        if not kids:
            record("delete_insert", True)  # type: ignore[operator]
            return
        # Beside a structure of its own kind (an enum constant among the constants, not
        # before the enum's fields), as a person would put it back.
        kin = [k for k in kids if k.node.type == kind]
        # With none of its kind left (a Kotlin file's only class), after the last
        # structure (its imports), not before the first (its package line).
        after = not kin
        kin = kin or [k for k in kids if list_members(after_src, k.node) is None] or kids
        kids = [kin[-1] if after else kin[0]]
        key = kids[0].keys[0] if kids[0].keys else kids[0].first_line
        neighbour: list[str] = [*parent_levels, key[:50].rstrip()]
        spans = [
            m["line_range_inclusive"][0]
            for m in structure.read_structure(removed, path, neighbour)["matches"]
        ]
        if len(spans) > 1:
            first_row = structure_range(after_src, kids[0].node)[0] + 1
            neighbour = Target(neighbour, occurrence=spans.index(first_row) + 1)
        insert = structure.insert_after_structure if after else structure.insert_before_structure
        back = insert(removed, path, neighbour, textwrap.dedent(text)).new_source
    except OperatorError as exc:
        # A neighbour sharing its line with other code cannot anchor an insert: no trip.
        ok = exc.code == "ERR_TARGET_SHARES_LINE"
        record("delete_insert", ok, f"insert {exc.code}")  # type: ignore[operator]
        return
    ok = _error_count(path, back, src) <= base_errors
    ok = ok and _contains_block(back, text, exact_indent=False)
    record("delete_insert", ok, "broken or text changed")  # type: ignore[operator]
    if back == data:
        rates.outcomes["delete_insert:identical"] += 1
