"""Reading and editing regions: pure functions from a file's text to its new text.

Invariants:
- Text is LF-normalised (``TextFile.text``, which also normalises files with mixed line
  breaks and puts each untouched line's own break back on encoding). A line is what lies
  between two ``\\n``.
- Only the lines an edit is about change; every other line is kept as the same string, and
  the file's final-newline state is kept. Inserting after the last line of a file without a
  final newline leaves the new END marker as the unterminated last line.
- Region content is whole lines. Content given to an edit has its line breaks normalised to
  ``\\n`` and gets a final ``\\n`` if it lacks one, so the END marker stays on its own line;
  empty content makes an empty region. Reading a region returns its lines, each ending in
  ``\\n``, or ``""`` for an empty region.
- Content may not contain marker lines of the file's style: regions do not nest.
- Every edit first checks the whole file's markers (see ``markers``) and refuses a broken file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...errors import OperatorError, mark, quote
from ..comment_styles import CommentStyle
from ..textfile import split_lines
from .anchors import check_anchor, find_anchor_line
from .markers import BEGIN, END, MarkerScan, Region, check_marker_id, marker_line, parse_marker

POSITIONS = ("before", "after")


@dataclass(frozen=True)
class RegionEdit:
    """An edit's outcome: the file's new text, the region as it now is, a one-line summary."""

    text: str
    region: Region
    summary: str


def _join(lines: Sequence[str], final_newline: bool) -> str:
    if not lines:
        return ""
    return "\n".join(lines) + ("\n" if final_newline else "")


def _lines_count(count: int) -> str:
    return f"{count} line" + ("" if count == 1 else "s")


def _content_lines(content: str, style: CommentStyle) -> list[str]:
    """``content`` as whole lines to put between markers (see the module's rules)."""
    content = content.replace("\r\n", "\n").replace("\r", "\n")
    lines, _ = split_lines(content)
    for number, line in enumerate(lines, start=1):
        if parse_marker(line, style) is not None:
            raise OperatorError(
                "ERR_REGION_MARKER_MISMATCH",
                f"content line {number} is a region marker line ({line.strip()!r}); regions "
                "may not nest, so content may not contain marker lines. Remove it, or insert "
                "that region separately next to this one",
                {"content_line": number},
            )
    return lines


def _scan(text: str, style: CommentStyle) -> tuple[list[str], bool, MarkerScan]:
    lines, final_newline = split_lines(text)
    return lines, final_newline, MarkerScan.of(lines, style)


def list_regions(text: str, style: CommentStyle) -> list[Region]:
    """Every region of the file in line order (the fs.listRegions payload is ``regions_json``)."""
    _, _, scan = _scan(text, style)
    return list(scan.regions().values())


def regions_json(regions: Sequence[Region]) -> dict[str, list[dict[str, str | int | None]]]:
    """``{"regions": [...]}`` with each region's ``Region.to_json`` keys."""
    return {"regions": [region.to_json() for region in regions]}


def find_region(text: str, style: CommentStyle, marker_id: str) -> Region:
    """The region ``marker_id`` of a well-made file."""
    check_marker_id(marker_id)
    _, _, scan = _scan(text, style)
    return scan.regions(target=marker_id)[marker_id]


def read_region(text: str, style: CommentStyle, marker_id: str) -> str:
    """The lines between the region's markers, each ending in ``\\n``; ``""`` when empty."""
    check_marker_id(marker_id)
    lines, _, scan = _scan(text, style)
    region = scan.regions(target=marker_id)[marker_id]
    return "".join(line + "\n" for line in lines[region.begin_line : region.end_line - 1])


def _swap_content(
    text: str, style: CommentStyle, marker_id: str, content: str
) -> tuple[str, Region, Region]:
    """The text with the region's content lines replaced, the region before and after."""
    check_marker_id(marker_id)
    new_content = _content_lines(content, style)
    lines, final_newline, scan = _scan(text, style)
    old = scan.regions(target=marker_id)[marker_id]
    lines[old.begin_line : old.end_line - 1] = new_content
    new = Region.between(marker_id, old.begin_line, old.begin_line + len(new_content) + 1)
    return _join(lines, final_newline), old, new


def replace_region(text: str, style: CommentStyle, marker_id: str, content: str) -> RegionEdit:
    """Put ``content`` between the region's markers instead of what is there."""
    new_text, old, new = _swap_content(text, style, marker_id, content)
    summary = (
        f"Replaced region {marker_id} (now lines {new.begin_line}-{new.end_line}, "
        f"{_lines_count(new.content_line_count)} of content; was "
        f"{_lines_count(old.content_line_count)})"
    )
    return RegionEdit(new_text, new, summary)


def delete_region(text: str, style: CommentStyle, marker_id: str) -> RegionEdit:
    """Remove the lines between the region's markers; the marker lines stay."""
    new_text, old, new = _swap_content(text, style, marker_id, "")
    summary = (
        f"Deleted the content of region {marker_id} ({_lines_count(old.content_line_count)} "
        f"removed; markers kept at lines {new.begin_line}-{new.end_line})"
    )
    return RegionEdit(new_text, new, summary)


def insert_region(
    text: str,
    style: CommentStyle,
    marker_id: str,
    anchor: str,
    content: str,
    position: str = "after",
    occurrence: int = 1,
) -> RegionEdit:
    """Add a new region holding ``content`` before or after the line matching ``anchor``.

    The marker lines take the anchor line's indentation; the content is put in as given.
    """
    check_marker_id(marker_id)
    if position not in POSITIONS:
        raise OperatorError(
            "ERR_INVALID_INSERT_POSITION",
            f"position {position!r} is not before or after; send position: before or "
            "position: after (after is the default)",
            {"position": position},
        )
    check_anchor(anchor, occurrence)
    new_content = _content_lines(content, style)
    lines, final_newline, scan = _scan(text, style)
    regions = scan.regions()
    if marker_id in regions:
        existing = regions[marker_id]
        raise OperatorError(
            "ERR_REGION_MARKER_ALREADY_EXISTS",
            f"region {marker_id!r} already exists ({existing.span()}); choose another "
            "marker_id, or use fs.replaceRegion to change its content",
            {"region": existing.to_json()},
        )
    anchor_index = find_anchor_line(lines, anchor, occurrence)
    at = anchor_index if position == "before" else anchor_index + 1
    for region in regions.values():
        # ``at`` lines stay above the new region; it lands inside one whose BEGIN is among
        # them and whose END is not.
        if region.begin_line <= at < region.end_line:
            raise OperatorError(
                "ERR_REGION_MARKER_MISMATCH",
                f"the anchor is line {anchor_index + 1}, so the new region would go {position} "
                f"it, inside region {quote(region.marker_id)} ({region.span()}); regions may not "
                "nest. Choose an anchor outside existing regions, or edit that region "
                "with fs.replaceRegion",
                {
                    "anchor_line": anchor_index + 1,
                    "region": {
                        k: mark(v) if isinstance(v, str) else v for k, v in region.to_json().items()
                    },
                },
            )
    anchor_line = lines[anchor_index]
    indent = anchor_line[: len(anchor_line) - len(anchor_line.lstrip(" \t"))]
    block = [
        marker_line(style, BEGIN, marker_id, indent),
        *new_content,
        marker_line(style, END, marker_id, indent),
    ]
    lines[at:at] = block
    region = Region.between(marker_id, at + 1, at + len(block))
    summary = (
        f"Inserted region {marker_id} at lines {region.begin_line}-{region.end_line} "
        f"({_lines_count(len(new_content))} of content) {position} line {anchor_index + 1}"
    )
    return RegionEdit(_join(lines, final_newline), region, summary)
