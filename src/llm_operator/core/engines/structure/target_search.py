"""Resolving a target, and what to say when it names nothing or too much.

Rule 1: levels are matched outermost first without skipping (``targeting``), with one
exception: a one-line target (not a symbol) that names nothing at the top level is looked
for among the definitions at every depth. Exactly one match selects it and the match
says which levels it took; several refuse with ERR_TARGET_AMBIGUOUS.
Rule 2: every refusal names a one-line fix the model can paste (``symbol: A/b`` or
``occurrence: N``), lists at most ``MAX_NEAREST`` definitions (what the outline lists:
never a plain statement or an import), and says when the quoted target line was cut.
Rule 3: a symbol path is offered only when resolving it gives back exactly that
structure, so a suggestion never leads to another refusal or to the wrong structure.
Rule 4: everything quoted from the file is marked (``errors.mark``) for redaction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ...errors import OperatorError, mark, mark_name
from .boundaries import structure_range
from .definitions import looked_through, shows
from .source import UNCHANGED, Source
from .targeting import (
    KEY_CHARS,
    Candidate,
    LevelMissing,
    Match,
    children,
    key_matches,
    level_key,
    name_of,
    resolve_levels,
    symbol_target,
)

if TYPE_CHECKING:
    from tree_sitter import Node

MAX_NEAREST = 5
MAX_LISTED = 10
# The walk over a file's definitions stops here: deeper nesting or more definitions
# than this is not worth a suggestion, and a hostile file cannot make it costly.
MAX_DEPTH = 12
MAX_DEFINITIONS = 5000
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*[?!]?")


@dataclass(frozen=True)
class Placed:
    """A definition found by the walk, with the definitions above it (outermost first;
    statements looked through are left out, as the outline leaves them out)."""

    ancestors: tuple[Candidate, ...]
    match: Match

    @property
    def lines(self) -> tuple[str, ...]:
        return (*(a.first_line for a in self.ancestors), self.match.candidate.first_line)


def definitions(source: Source) -> list[Placed]:
    """The file's definitions in file order, as the outline walks them."""
    found: list[Placed] = []

    def walk(
        node: Node, ancestors: tuple[Candidate, ...], parent: Candidate | None, reach: int
    ) -> None:
        # ``parent`` is the node's own definition, or for a statement looked through (a
        # definition inside ``if X:``) the statement: its definitions are siblings of the
        # statement's other children, and it is their parent for editing (as
        # ``targeting`` resolves it), while their ancestors stay those of the statement.
        kids = children(source, node)
        for kid in kids:
            if len(found) >= MAX_DEFINITIONS:
                return
            if not shows(source, kid.node):
                if reach and looked_through(source, kid.node):
                    walk(kid.node, ancestors, kid, reach - 1)
                continue
            found.append(Placed(ancestors, Match(kid, parent, tuple(kids))))
            if reach:
                walk(kid.node, (*ancestors, kid), kid, reach - 1)

    walk(source.root, (), None, MAX_DEPTH)
    return found


def symbol_of(source: Source, placed: Placed) -> str | None:
    """The ``symbol:`` path that names exactly this definition, or None (Rule 3)."""
    names: list[str] = []
    for candidate in (*placed.ancestors, placed.match.candidate):
        name = name_of(source, candidate.node)
        if not name or "/" in name or "\n" in name:
            return None
        names.append(name)
    node = placed.match.candidate.node
    path = "/".join(names)
    found = _symbol_resolves(source, path)
    if [m.candidate.node for m in found] == [node]:
        return path
    # Overloads: the n-th of a name, counted in file order.
    for index, match in enumerate(found[:MAX_LISTED], start=1):
        if match.candidate.node == node:
            indexed = f"{path}[{index}]"
            again = _symbol_resolves(source, indexed)
            if [m.candidate.node for m in again] == [node]:
                return indexed
    return None


def _symbol_resolves(source: Source, path: str) -> list[Match]:
    try:
        return resolve_levels(source, symbol_target(path))
    except (LevelMissing, OperatorError):
        return []


def resolve(source: Source, levels: list[str]) -> list[Match]:
    """Every structure the target names (at least one), or ERR_TARGET_NOT_FOUND (Rule 1)."""
    try:
        return resolve_levels(source, levels)
    except LevelMissing as missing:
        if len(levels) != 1 or getattr(levels, "by_symbol", False) or missing.depth:
            raise _not_found(source, levels, missing) from None
        deep = _deep(source, levels[0])
        if not deep:
            raise _not_found(source, levels, missing) from None
        if len(deep) > 1 and getattr(levels, "occurrence", None) is None:
            raise _ambiguous(source, levels, [p.match for p in deep], deep=True) from None
        return [_taken(source, placed) for placed in deep]


def _deep(source: Source, level: str) -> list[Placed]:
    key = level_key(level)
    if not key:
        return []
    found = [p for p in definitions(source) if key_matches(p.match.candidate, key)]
    whole = level.strip()
    exact = [p for p in found if p.match.candidate.first_line == whole]
    return exact or found


def _taken(source: Source, placed: Placed) -> Match:
    return replace(placed.match, taken=placed.lines, taken_symbol=symbol_of(source, placed))


def resolve_one(source: Source, levels: list[str]) -> Match:
    found = resolve(source, levels)
    occurrence: int | None = getattr(levels, "occurrence", None)
    if occurrence is not None:
        if not 1 <= occurrence <= len(found):
            where = ", ".join(f"line {_line(source, m)}" for m in found[:MAX_LISTED])
            raise OperatorError(
                "ERR_TARGET_NOT_FOUND",
                f"occurrence {occurrence} was asked for, but {len(found)} structure(s) in "
                f"{source.path} match the target ({where}); give occurrence 1 to {len(found)}.",
                {"searched_path": list(levels), "matches": len(found), **UNCHANGED},
            )
        return found[occurrence - 1]
    if len(found) > 1:
        raise _ambiguous(source, levels, found, deep=False)
    return found[0]


def matched_note(match: Match) -> dict[str, Any]:
    """The result key saying which levels a one-line target took (empty when it named a
    top-level structure as written). Not marked: results are not error messages, and a
    secret file's result needs approval as a whole."""
    if not match.taken:
        return {}
    if match.taken_symbol:
        return {"target_matched": {"symbol": match.taken_symbol}}
    return {"target_matched": {"levels": list(match.taken)}}


def _line(source: Source, match: Match) -> int:
    return structure_range(source, match.candidate.node)[0] + 1


def _symbols_by_node(source: Source, wanted: list[Match]) -> dict[int, str]:
    nodes = {m.candidate.node.start_byte: m.candidate.node for m in wanted}
    paths: dict[int, str] = {}
    for placed in definitions(source):
        node = placed.match.candidate.node
        if nodes.get(node.start_byte) == node:
            symbol = symbol_of(source, placed)
            if symbol:
                paths[node.start_byte] = symbol
    return paths


def _ambiguous(source: Source, levels: list[str], found: list[Match], deep: bool) -> OperatorError:
    shown = found[:MAX_LISTED]
    symbols = _symbols_by_node(source, shown)
    listed: list[dict[str, Any]] = []
    for match in shown:
        start, end = structure_range(source, match.candidate.node)
        entry: dict[str, Any] = {
            "line_range_inclusive": [start + 1, end + 1],
            "first_line": mark(match.candidate.first_line),
        }
        symbol = symbols.get(match.candidate.node.start_byte)
        if symbol:
            entry["symbol"] = mark_name(symbol)
        listed.append(entry)
    fixes = "; ".join(
        f"line {e['line_range_inclusive'][0]}: "
        + (f"'symbol: {e['symbol']}'" if "symbol" in e else f"'occurrence: {n}'")
        for n, e in enumerate(listed, start=1)
    )
    where = "definitions at any depth" if deep else "structures"
    more = f" (the first {len(shown)} are listed)" if len(found) > len(shown) else ""
    details: dict[str, Any] = {"searched_path": list(levels), "matches": listed}
    if len(found) > len(shown):
        details["matches_total"] = len(found)
    return OperatorError(
        "ERR_TARGET_AMBIGUOUS",
        f"{len(found)} {where} in {source.path} match the target{_cut_note(levels)}{more}; "
        f"this operation needs exactly one. Send one of these lines in place of the target: "
        f"{fixes} ('occurrence: N' picks the N-th "
        f"match in file order, 1 to {len(found)}).",
        {**details, **UNCHANGED},
    )


def _cut_note(levels: list[str]) -> str:
    cut = [line.strip() for line in levels if len(line.strip()) > KEY_CHARS]
    if not cut:
        return ""
    return f" (only the first {KEY_CHARS} characters of a target line are compared)"


def _nearest(source: Source, key: str, within: list[Placed]) -> list[Placed]:
    """Up to MAX_NEAREST definitions most like ``key``: those whose line starts with it,
    those named by a word of it, then those whose line reads most alike."""
    starts = [p for p in within if key and key_matches(p.match.candidate, key)]
    words = set(_WORD.findall(key))
    named = [p for p in within if name_of(source, p.match.candidate.node) in words]
    import difflib  # only a target not found needs it; start-up counts

    lines = list(dict.fromkeys(p.match.candidate.first_line for p in within))
    close = difflib.get_close_matches(key, lines, n=MAX_NEAREST, cutoff=0.5)
    similar = [p for line in close for p in within if p.match.candidate.first_line == line]
    ranked: dict[int, Placed] = {}
    for placed in starts + named + similar:
        ranked.setdefault(placed.match.candidate.node.start_byte, placed)
    return list(ranked.values())[:MAX_NEAREST]


def _describe(source: Source, placed: Placed) -> dict[str, Any]:
    entry: dict[str, Any] = {"line": _line(source, placed.match)}
    symbol = symbol_of(source, placed)
    if symbol:
        entry["symbol"] = mark_name(symbol)
    else:
        entry["levels"] = [mark(line) for line in placed.lines]
    entry["definition"] = mark(placed.match.candidate.first_line)
    return entry


def _fix_text(entry: dict[str, Any]) -> str:
    if "symbol" in entry:
        return f"line {entry['line']}: 'symbol: {entry['symbol']}'"
    return f"line {entry['line']}: levels {entry['levels']!r} (one per line of a target_json)"


def _not_found(source: Source, levels: list[str], missing: LevelMissing) -> OperatorError:
    depth, scopes = missing.depth, missing.scopes
    level = levels[depth]
    key = level_key(level)
    parent = levels[depth - 1] if depth else None
    every = definitions(source)
    if getattr(levels, "by_symbol", False):
        names = [n for _, kids in scopes for c in kids for n in [name_of(source, c.node)] if n]
        known = list(dict.fromkeys(names))[:20]
        under = f"under {parent!r}" if parent else "at the top level"
        return OperatorError(
            "ERR_TARGET_NOT_FOUND",
            f"no structure {under} of {source.path} is named {level.strip()!r} (symbol "
            f"levels are grammar names separated by '/', '[n]' for the n-th of a name). "
            f"Names at this level: {mark(repr(known))}.",
            {
                "searched_path": list(levels),
                "parent_found": parent,
                "suggestions": {"next_levels": [mark(name) for name in known]},
                **UNCHANGED,
            },
        )
    nearest = [_describe(source, p) for p in _nearest(source, key, every)]
    scope_nodes = {c.node.start_byte for _, kids in scopes for c in kids}
    next_levels = [
        p.match.candidate.first_line
        for p in every
        if p.match.candidate.node.start_byte in scope_nodes
    ]
    next_levels = list(dict.fromkeys(next_levels))[:MAX_NEAREST]
    quoted = repr(key) + ("..." if len(level.strip()) > KEY_CHARS else "")
    if not key:
        problem = f"level {depth + 1} of the target is empty"
    elif len(levels) == 1:
        problem = f"no definition in {source.path}, at any depth, starts with {quoted}"
    else:
        problem = f"no structure under {parent!r} in {source.path} starts with {quoted}"
    fixes = "; ".join(_fix_text(entry) for entry in nearest)
    hint = (
        f" Nearest definitions: {fixes}. Send the 'symbol: ...' line in place of the target."
        if nearest
        else " The file's outline (fs.outline) lists its definitions."
    )
    rule = (
        "A target line is the start of a definition line exactly as written; several "
        "levels go one per line of a multi-line target (target_json), outermost first, "
        "without skipping levels."
    )
    suggestions: dict[str, Any] = {"nearest": nearest}
    if next_levels:
        suggestions["next_levels"] = [mark(line) for line in next_levels]
    return OperatorError(
        "ERR_TARGET_NOT_FOUND",
        f"{problem}{_cut_note(levels)}.{hint} {rule}",
        {
            "searched_path": list(levels),
            "parent_found": parent,
            "suggestions": suggestions,
            **UNCHANGED,
        },
    )
