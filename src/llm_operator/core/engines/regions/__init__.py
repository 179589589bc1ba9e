"""Region markers: named, comment-delimited spans of a file that the LLM edits by name.

A region is a pair of marker lines in the file's comment style, with the content between::

    // OPERATOR_BEGIN api-routes
    ...content lines...
    // OPERATOR_END api-routes

    <!-- OPERATOR_BEGIN nav -->
    <!-- OPERATOR_END nav -->

Everything here is a pure function over LF-normalised text (``TextFile.text``); the caller
decodes and encodes bytes, which keeps BOMs and CRLF line breaks. The rules for markers are
in ``markers``; the rules for edits (content lines, final newlines) in ``edits``.

The fs.listRegions payload (``regions_json``) is ``{"regions": [...]}`` in line order, each::

    {"marker_id": "api-routes",
     "begin_line": 12,             # 1-based line of the OPERATOR_BEGIN marker
     "end_line": 18,               # 1-based line of the OPERATOR_END marker
     "content_start_line": 13,     # first line between the markers, null if there is none
     "content_end_line": 17,       # last line between the markers, null if there is none
     "content_line_count": 5}
"""

from __future__ import annotations

from .edits import (
    POSITIONS,
    RegionEdit,
    delete_region,
    find_region,
    insert_region,
    list_regions,
    read_region,
    regions_json,
    replace_region,
)
from .markers import BEGIN, END, Region, check_marker_id, marker_line, parse_marker

__all__ = [
    "BEGIN",
    "END",
    "POSITIONS",
    "Region",
    "RegionEdit",
    "check_marker_id",
    "delete_region",
    "find_region",
    "insert_region",
    "list_regions",
    "marker_line",
    "parse_marker",
    "read_region",
    "regions_json",
    "replace_region",
]
