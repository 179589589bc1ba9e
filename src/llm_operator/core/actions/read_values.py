"""The read family's fields checked without the field models, for a fast start-up.

A command line run of one read command should not import and declare every read model
(read_fields.py) it does not need. The checks here take only what the models (read_fields.py) accept
as it is: every key known, every number in digits and in range, the query plain and not
empty. Anything else returns None and the validator asks the model, which words the
error, so no message or code depends on which path ran. A test compares both paths.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from .base import QuickCheck

SLICE_DEFAULT = 120
SLICE_MAX = 400
SLICE_ALIASES: Mapping[str, str] = {
    "line": "start",
    "from": "start",
    "count": "lines",
    "len": "lines",
}
SEARCH_ALIASES: Mapping[str, str] = {"q": "query"}

_DIGITS = re.compile(r"[0-9]{1,9}\Z")


@dataclass(frozen=True)
class PathValues:
    """The fields of fs.list, fs.read or fs.stat (a path alone), checked without the model."""

    path: str

    def model_dump(self) -> dict[str, Any]:
        """The values by field name, as the model's ``model_dump`` gives them."""
        return asdict(self)


@dataclass(frozen=True)
class SliceValues(PathValues):
    """fs.readSlice's fields, checked without the model: the path, first line, line count."""

    start: int
    lines: int


@dataclass(frozen=True)
class SearchValues(PathValues):
    """fs.search's fields, checked without the model: the path and a plain query."""

    query: str

    @property
    def text(self) -> str:
        return self.query


def _known(
    params: Mapping[str, str], names: frozenset[str], aliases: Mapping[str, str]
) -> dict[str, str] | None:
    """``params`` under their canonical names; None if a key is unknown or given twice."""
    out: dict[str, str] = {}
    for key, value in params.items():
        name = aliases.get(key, key)
        if name in out or name not in names:
            return None
        out[name] = value
    return out if "path" in out else None


def quick_path(params: Mapping[str, str]) -> PathValues | None:
    values = _known(params, frozenset({"path"}), {})
    return None if values is None else PathValues(values["path"])


def _count(values: Mapping[str, str], name: str, default: int) -> int | None:
    text = values.get(name)
    if text is None:
        return default
    return int(text) if _DIGITS.match(text) else None


def quick_slice(params: Mapping[str, str]) -> SliceValues | None:
    values = _known(params, frozenset({"path", "start", "lines"}), SLICE_ALIASES)
    if values is None:
        return None
    start = _count(values, "start", 1)
    lines = _count(values, "lines", SLICE_DEFAULT)
    if start is None or lines is None or start < 1 or not 1 <= lines <= SLICE_MAX:
        return None
    return SliceValues(values["path"], start, lines)


def quick_search(params: Mapping[str, str]) -> SearchValues | None:
    values = _known(params, frozenset({"path", "query"}), SEARCH_ALIASES)
    if values is None or not values.get("query"):
        return None
    return SearchValues(values["path"], values["query"])


QUICK_PATH = QuickCheck(frozenset({"path"}), quick_path)
QUICK_SLICE = QuickCheck(frozenset({"path", "start", "lines", *SLICE_ALIASES}), quick_slice)
QUICK_SEARCH = QuickCheck(frozenset({"path", "query", "query_b64", *SEARCH_ALIASES}), quick_search)
