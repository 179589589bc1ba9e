"""The read family's field models, loaded only when a command needs them.

Simple read commands are checked by read_values.py without building a model; these models
decide everything else and word every error.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import model_validator

from ..errors import InvalidCommand
from .fields import B64Text, Count, PathFields
from .read_values import SEARCH_ALIASES, SLICE_ALIASES, SLICE_DEFAULT, SLICE_MAX


class SliceFields(PathFields):
    start: Count = 1
    lines: Count = SLICE_DEFAULT

    ALIASES: ClassVar[dict[str, str]] = dict(SLICE_ALIASES)
    INVALID_CODES: ClassVar[dict[str, str]] = {
        "start": "ERR_INVALID_READSLICE_PARAMS",
        "lines": "ERR_INVALID_READSLICE_PARAMS",
    }

    @model_validator(mode="after")
    def _bounds(self) -> SliceFields:
        if self.start < 1:
            raise InvalidCommand(
                "ERR_INVALID_READSLICE_PARAMS", f"start must be 1 or more, got {self.start}"
            )
        if not 1 <= self.lines <= SLICE_MAX:
            raise InvalidCommand(
                "ERR_INVALID_READSLICE_PARAMS",
                f"lines must be from 1 to {SLICE_MAX}, got {self.lines}; read a longer span "
                "with several fs.readSlice commands",
            )
        return self


class SearchFields(PathFields):
    query: str | None = None
    query_b64: B64Text | None = None

    ALIASES: ClassVar[dict[str, str]] = dict(SEARCH_ALIASES)
    ONE_OF: ClassVar[dict[tuple[str, str], str]] = {("query", "query_b64"): "ERR_MISSING_QUERY"}

    @model_validator(mode="after")
    def _query(self) -> SearchFields:
        if not self.text:
            raise InvalidCommand(
                "ERR_MISSING_QUERY",
                "a non-empty query is required (query: <substring>, or q:, or query_json "
                "or query_b64 for non-ASCII text)",
            )
        return self

    @property
    def text(self) -> str:
        return self.text_of("query")
