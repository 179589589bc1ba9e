"""Finding region markers in a file's lines and checking that they form well-made regions.

Invariants:
- A marker is a whole line: after stripping surrounding whitespace it is the comment
  opener, the word OPERATOR_BEGIN or OPERATOR_END, one marker id, and (block styles) the
  comment closer; whitespace between the parts is free. Any other line is content, even one
  that mentions the marker words, so prose about markers never becomes a marker.
- Markers are recognised only in the one comment style the command resolved to.
- A file's regions are usable only when every id has exactly one BEGIN followed later by
  exactly one END, and no two regions overlap or nest. Every action checks the whole file:
  editing next to a broken pair would bury the damage deeper.
- Problems with the id a command names are reported before problems elsewhere in the file,
  because those are the ones the command's author is looking at.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...errors import OperatorError, mark, quote
from ..comment_styles import CommentStyle

BEGIN = "OPERATOR_BEGIN"
END = "OPERATOR_END"

_MARKER_ID = re.compile(r"[A-Za-z0-9_.:-]+")
_MARKER_WORD = re.compile(r"\bOPERATOR_(?:BEGIN|END)\b")

# How many ids or line numbers a message lists before it says "..."; messages stay readable.
_LIST_LIMIT = 20


def check_marker_id(marker_id: str) -> str:
    """``marker_id`` itself if it is one token of ``[A-Za-z0-9_.:-]``."""
    if not marker_id or not _MARKER_ID.fullmatch(marker_id):
        what = "is empty" if not marker_id.strip() else f"{marker_id!r} is not one token"
        raise OperatorError(
            "ERR_MISSING_MARKER_ID",
            f"marker_id {what}; send one token of letters, digits and _ . : - "
            "(e.g. marker_id: api-routes)",
            {"marker_id": marker_id},
        )
    return marker_id


def marker_line(style: CommentStyle, kind: str, marker_id: str, indent: str = "") -> str:
    """The text of a marker line (no line break) in ``style``."""
    if style.line_prefix is not None:
        return f"{indent}{style.line_prefix} {kind} {marker_id}"
    return f"{indent}{style.block_start} {kind} {marker_id} {style.block_end}"


def parse_marker(line: str, style: CommentStyle) -> tuple[str, str] | None:
    """``(kind, marker_id)`` if ``line`` is a marker line in ``style``, else None."""
    stripped = line.strip()
    if style.line_prefix is not None:
        if not stripped.startswith(style.line_prefix):
            return None
        inner = stripped[len(style.line_prefix) :]
    else:
        start, end = style.block_start or "", style.block_end or ""
        if not (
            len(stripped) >= len(start) + len(end)
            and stripped.startswith(start)
            and stripped.endswith(end)
        ):
            return None
        inner = stripped[len(start) : len(stripped) - len(end)]
    words = inner.split()
    if len(words) != 2 or words[0] not in (BEGIN, END) or not _MARKER_ID.fullmatch(words[1]):
        return None
    return words[0], words[1]


@dataclass(frozen=True)
class Region:
    """A well-made region; lines are 1-based, content lines are None when it is empty."""

    marker_id: str
    begin_line: int
    end_line: int
    content_start: int | None
    content_end: int | None

    @classmethod
    def between(cls, marker_id: str, begin_line: int, end_line: int) -> Region:
        if end_line > begin_line + 1:
            return cls(marker_id, begin_line, end_line, begin_line + 1, end_line - 1)
        return cls(marker_id, begin_line, end_line, None, None)

    @property
    def content_line_count(self) -> int:
        return self.end_line - self.begin_line - 1

    def to_json(self) -> dict[str, str | int | None]:
        return {
            "marker_id": self.marker_id,
            "begin_line": self.begin_line,
            "end_line": self.end_line,
            "content_start_line": self.content_start,
            "content_end_line": self.content_end,
            "content_line_count": self.content_line_count,
        }

    def span(self) -> str:
        return f"lines {self.begin_line}-{self.end_line}"


def _lines_text(numbers: Sequence[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:_LIST_LIMIT])
    return shown + (", ..." if len(numbers) > _LIST_LIMIT else "")


@dataclass(frozen=True)
class MarkerScan:
    """Every marker line of a file, grouped by id, plus lines that only look like markers."""

    style: CommentStyle
    begins: dict[str, list[int]]
    ends: dict[str, list[int]]
    near_misses: tuple[int, ...]

    @classmethod
    def of(cls, lines: Sequence[str], style: CommentStyle) -> MarkerScan:
        begins: dict[str, list[int]] = {}
        ends: dict[str, list[int]] = {}
        near_misses: list[int] = []
        for number, line in enumerate(lines, start=1):
            parsed = parse_marker(line, style)
            if parsed is None:
                if _MARKER_WORD.search(line):
                    near_misses.append(number)
                continue
            kind, marker_id = parsed
            (begins if kind == BEGIN else ends).setdefault(marker_id, []).append(number)
        return cls(style, begins, ends, tuple(near_misses))

    @property
    def ids(self) -> list[str]:
        """Every id that has a marker, in order of its first marker line."""
        first: dict[str, int] = {}
        for table in (self.begins, self.ends):
            for marker_id, numbers in table.items():
                first[marker_id] = min(first.get(marker_id, numbers[0]), numbers[0])
        return sorted(first, key=first.__getitem__)

    def not_found(self, marker_id: str) -> OperatorError:
        ids = self.ids
        if ids:
            present = f"regions in this file: {', '.join(mark(i) for i in ids[:_LIST_LIMIT])}"
            if len(ids) > _LIST_LIMIT:
                present += ", ..."
        else:
            present = f"this file has no region markers in comment style {self.style.describe()}"
        hint = ""
        if self.near_misses:
            hint = (
                f". Lines {_lines_text(self.near_misses)} mention OPERATOR_BEGIN/OPERATOR_END "
                f"but are not marker lines in comment style {self.style.describe()} (a marker "
                f"line is only '{marker_line(self.style, BEGIN, '<marker_id>')}'); if the file "
                "uses another comment syntax, send comment_line_prefix or "
                "comment_block_start/comment_block_end"
            )
        return OperatorError(
            "ERR_REGION_MARKER_NOT_FOUND",
            f"no region {marker_id!r}: no line "
            f"'{marker_line(self.style, BEGIN, marker_id)}' or "
            f"'{marker_line(self.style, END, marker_id)}'; {present}{hint}. "
            "Use fs.listRegions to see the regions, or fs.insertRegion to create one",
            {
                "marker_id": marker_id,
                "regions": [mark(i) for i in ids],
                "near_miss_lines": list(self.near_misses),
            },
        )

    def problem(self, marker_id: str, elsewhere: bool) -> OperatorError | None:
        """What keeps ``marker_id`` from being one well-made region, if anything."""
        begins = self.begins.get(marker_id, [])
        ends = self.ends.get(marker_id, [])
        lead = "the file's region markers must be fixed first: " if elsewhere else ""
        details = {"marker_id": marker_id, "begin_lines": begins, "end_lines": ends}
        if len(begins) > 1 or len(ends) > 1:
            repeated = [
                f"{kind} {marker_id} appears on lines {_lines_text(numbers)}"
                for kind, numbers in ((BEGIN, begins), (END, ends))
                if len(numbers) > 1
            ]
            return OperatorError(
                "ERR_REGION_MARKER_NOT_UNIQUE",
                f"{lead}{'; '.join(repeated)}; a marker id is used by exactly one "
                "BEGIN/END pair. Rename or remove the extra markers (fs.readSlice those lines, "
                "then fs.applyEdits)",
                details,
            )
        if not begins or not ends:
            present, absent = (BEGIN, END) if begins else (END, BEGIN)
            line = (begins or ends)[0]
            return OperatorError(
                "ERR_REGION_MARKER_MISMATCH",
                f"{lead}{present} {marker_id} on line {line} has no matching "
                f"{absent} {marker_id}; add the missing marker line "
                f"'{marker_line(self.style, absent, marker_id)}' or remove line {line}",
                details,
            )
        if ends[0] < begins[0]:
            return OperatorError(
                "ERR_REGION_MARKER_ORDER",
                f"{lead}{END} {marker_id} on line {ends[0]} comes before {BEGIN} "
                f"{marker_id} on line {begins[0]}; the BEGIN line must come first",
                details,
            )
        return None

    def regions(self, target: str | None = None) -> dict[str, Region]:
        """Every region by id, in file order, once the whole file is well made.

        ``target`` is the id the command names: its own problems (not found included) are
        raised before any other.
        """
        if target is not None:
            if target not in self.begins and target not in self.ends:
                raise self.not_found(target)
            own = self.problem(target, elsewhere=False)
            if own is not None:
                raise own
        for marker_id in self.ids:
            other = self.problem(marker_id, elsewhere=True)
            if other is not None:
                raise other
        found = sorted(
            (Region.between(i, self.begins[i][0], self.ends[i][0]) for i in self.ids),
            key=lambda region: region.begin_line,
        )
        _check_disjoint(found)
        return {region.marker_id: region for region in found}


def _marked(region: Mapping[str, object]) -> dict[str, object]:
    return {k: mark(v) if isinstance(v, str) else v for k, v in region.items()}


def _check_disjoint(regions: Sequence[Region]) -> None:
    """Regions sorted by begin line must each end before the next begins."""
    outer: Region | None = None
    for region in regions:
        if outer is not None and region.begin_line < outer.end_line:
            nested = region.end_line < outer.end_line
            relation = (
                f"region {quote(region.marker_id)} ({region.span()}) is nested inside region "
                f"{quote(outer.marker_id)} ({outer.span()})"
                if nested
                else f"regions {quote(outer.marker_id)} ({outer.span()}) and "
                f"{quote(region.marker_id)} ({region.span()}) overlap"
            )
            raise OperatorError(
                "ERR_REGION_MARKER_MISMATCH",
                f"the file's region markers must be fixed first: {relation}; regions may not "
                "nest or overlap. Move or remove one of the marker pairs",
                {"regions": [_marked(outer.to_json()), _marked(region.to_json())]},
            )
        if outer is None or region.end_line > outer.end_line:
            outer = region
