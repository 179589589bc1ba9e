"""A structure action's details as the readable form shows them: lines, not one JSON line.

The strict v3 form keeps the seed's result JSON (``details_b64``); a chat model reading the
readable form got that JSON as one body line, with the structure's text in ``\\n``
escapes and no line numbers. Here:

- fs.readStructure: each match's text as numbered lines, as fs.readSlice numbers them
  (``263: def parameterize(...)``), after a ``# lines A-B`` line per match (``# match k
  of n: lines A-B`` when there are several, with the levels a one-line target took); its
  warnings as ``# warning TYPE: message`` lines. The summary names the file.
- The writes: the JSON line is dropped. The summary already says every fact in it (the
  lines, the levels a target took, the kinds of warning) and the lines after it say each
  warning's message and what landed; they are kept as they are.

Details whose first line is not a JSON object are left as they are: the conversion only
ever removes what it has read and says again.
"""

from __future__ import annotations

import json
from typing import Any


def _taken(found: dict[str, Any]) -> str:
    taken = found.get("target_matched")
    if not isinstance(taken, dict):
        return ""
    if taken.get("symbol"):
        return f" (target matched {taken['symbol']})"
    levels = taken.get("levels") or []
    return f" (target matched the levels {' > '.join(repr(str(x)) for x in levels)})"


def _warnings(result: dict[str, Any]) -> list[str]:
    return [
        f"# warning {found.get('type')}: {found['message']}"
        for found in result.get("warnings") or []
        if isinstance(found, dict) and found.get("message")
    ]


def _read_lines(result: dict[str, Any]) -> list[str] | None:
    matches = result.get("matches")
    if not isinstance(matches, list):
        return None
    lines: list[str] = []
    for index, found in enumerate(matches, start=1):
        span = found.get("line_range_inclusive") if isinstance(found, dict) else None
        if not isinstance(span, list) or len(span) != 2 or not isinstance(found.get("text"), str):
            return None
        first, last = int(span[0]), int(span[1])
        which = f"match {index} of {len(matches)}: " if len(matches) > 1 else ""
        lines.append(f"# {which}lines {first}-{last}{_taken(found)}")
        if last >= first:
            text_lines = found["text"].split("\n")
            lines += [f"{n}: {line}" for n, line in enumerate(text_lines, start=first)]
    return lines + _warnings(result)


def readable_structure(details: str) -> str:
    """``details`` of a structure action as the readable form shows them."""
    head, newline, rest = details.partition("\n")
    try:
        result = json.loads(head)
    except ValueError:
        return details
    if not isinstance(result, dict):
        return details
    if "matches" in result:
        lines = _read_lines(result)
        if lines is None:
            return details
        return "\n".join(lines) + "\n" + rest
    return rest if newline else ""
