"""A file's relevant part for a context message: line ranges or definitions, the rest as
its outline.

A pack names a part of a file as ``path:10-80`` (a line range) or ``path::Outer/method``
(a definition by the ``symbol:`` path its outline gives); several of one file add up.
With ``fit_to_task`` a file whose definitions the task names as code (``lastChar``,
``parse_args``, ``load(``: as ``repo_map`` reads a task), or calls from inside a
definition, is sent as those definitions (and the innermost ones holding the calls).
Either way the lines left out are given as the file's outline (the structures that start
in them), so the model sees what is there and reads it with fs.readSlice when it needs it.

Rules:
- Line numbers are the file's own (as fs.readSlice numbers them), never renumbered.
- A part is never smaller than what was asked: a definition comes whole, its decorators
  and doc comments included (the outline's ranges), and the lines of the definitions
  that enclose it are not needed: their outline lines stand in the gap before it.
- Narrowing never costs more than it saves: a file whose part would take nearly as many
  lines as the file (``WHOLE_SHARE``) goes whole, and so does one the task names nothing
  in, or whose language no grammar knows (only a line range can narrow such a file).
- A symbol or range that names nothing is an error naming the file's symbols, never a
  silent whole file.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass

from ..engines.textfile import file_lines
from ..errors import OperatorError
from ..file_names import visible_name
from ..protocol.context_pack import PackedFile
from ..visible import shown
from .repo_map import defined_name, named_as_code

WHOLE_SHARE = 0.8  # a part of more than this share of the file's lines: send it whole
OUTLINE_DEPTH = 2  # the outline lines given for what is left out
SYMBOL_DEPTH = 8  # how deep a ``path::A/b/c`` may reach
_RANGE = re.compile(r"^(?P<path>.+):(?P<start>[0-9]+)-(?P<end>[0-9]+)$")
_CACHE: OrderedDict[str, tuple[tuple[int, int, int, str, str | None], ...]] = OrderedDict()
_CACHE_ENTRIES = 64


@dataclass(frozen=True)
class PartAsked:
    """What a pack argument asks of one file: all of it, or ranges and symbols."""

    rel: str
    ranges: tuple[tuple[int, int], ...] = ()
    symbols: tuple[str, ...] = ()

    @property
    def whole(self) -> bool:
        return not self.ranges and not self.symbols


def parse_part(arg: str) -> PartAsked:
    """``path``, ``path:10-80`` or ``path::Outer/method`` as what it asks for. A path that
    itself holds such text is named by ``./`` in front (``./odd:1-2``: the whole file)."""
    if arg.startswith("./") and (":" in arg):
        return PartAsked(arg[2:])
    if "::" in arg:
        rel, symbol = arg.split("::", 1)
        if rel and symbol:
            return PartAsked(rel, symbols=(symbol,))
    found = _RANGE.match(arg)
    if found:
        start, end = int(found.group("start")), int(found.group("end"))
        return PartAsked(found.group("path"), ranges=((start, end),))
    return PartAsked(arg)


def merge_parts(asked: list[PartAsked]) -> list[PartAsked]:
    """One entry per file, in first-named order; a file named whole anywhere goes whole."""
    merged: dict[str, PartAsked] = {}
    for part in asked:
        had = merged.get(part.rel)
        if had is None:
            merged[part.rel] = part
        elif had.whole or part.whole:
            merged[part.rel] = PartAsked(part.rel)
        else:
            merged[part.rel] = PartAsked(
                part.rel, had.ranges + part.ranges, had.symbols + part.symbols
            )
    return list(merged.values())


def _entries(packed: PackedFile) -> tuple[tuple[int, int, int, str, str | None], ...]:
    """(depth, start, end, definition line, symbol) of the file's structures, or () when no
    grammar knows it. Kept by content, so the window's refreshes parse a file once."""
    from ..engines.structure import outline_structures

    data = packed.text.encode("utf-8", "surrogatepass")
    key = hashlib.blake2b(data, digest_size=16).hexdigest() + packed.rel
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
        return found
    try:
        outline = outline_structures(data, packed.rel, SYMBOL_DEPTH, symbols=True)
    except OperatorError:
        found = ()
    else:
        found = tuple((e.depth, e.start, e.end, e.line, e.symbol) for e in outline.entries)
    _CACHE[key] = found
    if len(_CACHE) > _CACHE_ENTRIES:
        _CACHE.popitem(last=False)
    return found


def _union(ranges: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return tuple(merged)


def _symbol_range(
    packed: PackedFile, entries: tuple[tuple[int, int, int, str, str | None], ...], symbol: str
) -> tuple[int, int]:
    for _, start, end, _, named in entries:
        if named == symbol:
            return start, end
    # Symbol names come from the file (a Markdown heading may hold anything): shown with
    # every control and invisible character marked, as every message shows a file's text.
    known = [shown(named) for *_, named in entries if named]
    if not entries:
        why = "no grammar outlines it (name a line range instead, path:10-80)"
    else:
        listed = ", ".join(known[:12]) + (f" and {len(known) - 12} more" if len(known) > 12 else "")
        why = f"its symbols: {listed or 'none'}"
    raise OperatorError(
        "ERR_TARGET_NOT_FOUND",
        f"{visible_name(packed.rel)} has no definition '{shown(symbol)}'; {why}",
        {},
    )


def _sent(
    packed: PackedFile,
    shown: tuple[tuple[int, int], ...],
    entries: tuple[tuple[int, int, int, str, str | None], ...],
    force: bool,
) -> PackedFile:
    """``packed`` with only ``shown`` sent and the rest as outline lines; whole when the
    part would hold nearly all of it (unless ``force``: the person asked for exactly it)."""
    count = len(file_lines(packed.text))
    kept = sum(end - start + 1 for start, end in shown)
    if not shown or (not force and kept > WHOLE_SHARE * count):
        return packed
    outline: list[tuple[int, str]] = []
    for depth, start, end, line, _ in entries:
        if depth >= OUTLINE_DEPTH or any(a <= start <= b for a, b in shown):
            continue
        outline.append((start, f"{'  ' * depth}{start}-{end}: {line}"))
    return PackedFile(packed.rel, packed.text, shown, tuple(outline))


def narrow(packed: PackedFile, asked: PartAsked) -> PackedFile:
    """The part of ``packed`` that ``asked`` names (ERR_INVALID_LINE_RANGE for a range
    outside the file, ERR_TARGET_NOT_FOUND for a symbol it does not define)."""
    if asked.whole:
        return packed
    count = len(file_lines(packed.text))
    ranges: list[tuple[int, int]] = []
    for start, end in asked.ranges:
        if not 1 <= start <= end or start > count:
            raise OperatorError(
                "ERR_INVALID_LINE_RANGE",
                f"{visible_name(packed.rel)}:{start}-{end} is not a range of its {count} lines "
                "(first-last, 1-based)",
                {},
            )
        ranges.append((start, min(end, count)))
    entries = _entries(packed) if asked.symbols else ()
    ranges += [_symbol_range(packed, entries, symbol) for symbol in asked.symbols]
    return _sent(packed, _union(ranges), entries or _entries(packed), force=True)


def _name(line: str, symbol: str | None) -> str:
    """The name a structure defines: its symbol's last level, else read from its line."""
    if symbol:
        return symbol.rsplit("/", 1)[-1].split("[", 1)[0]
    return defined_name(line)


def fit_to_task(packed: PackedFile, task: str) -> PackedFile:
    """``packed`` narrowed to the definitions ``task`` names as code and the innermost
    definitions that call one of those names (its callers and tests, which a change of
    it concerns), the rest as its outline; whole when there are none or they hold most
    of the file."""
    if not task.strip() or packed.shown is not None:
        return packed
    names = {
        word for word in re.findall(r"[A-Za-z_$][A-Za-z0-9_$]*", task) if named_as_code(word, task)
    }
    entries = _entries(packed)
    if not names or not entries:
        return packed
    wanted = [
        (start, end) for _, start, end, line, symbol in entries if _name(line, symbol) in names
    ]
    calls = re.compile(r"(?<![\w$])(?:" + "|".join(map(re.escape, sorted(names))) + r")\s*\(")
    for number, line in enumerate(file_lines(packed.text), start=1):
        if calls.search(line):
            inside = [e for e in entries if e[1] <= number <= e[2]]
            if inside:
                _, start, end, _, _ = max(inside, key=lambda entry: entry[0])
                wanted.append((start, end))
    return _sent(packed, _union(wanted), entries, force=False)
