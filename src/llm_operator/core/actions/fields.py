"""Field types shared by the action declarations (pydantic; imported only when needed).

Every value arrives as the text after ``key:`` on one ASCII line. The annotated types
here turn that text into typed values and raise ``InvalidCommand`` with the spec's code
when it cannot, so the validator never has to guess what a pydantic error meant.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationInfo, model_validator

from ..errors import InvalidCommand
from .base import FieldRules

_B64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\Z")
_DIGITS = re.compile(r"[0-9]{1,9}\Z")


def decode_b64_text(value: str, name: str) -> str:
    """Base64 (standard alphabet, correct padding, one line) of UTF-8 text, decoded."""
    if not _B64.match(value):
        bad = next((ch for ch in value if not (ch.isalnum() or ch in "+/=")), None)
        if bad is not None:
            why = f"it contains {bad!r}, which is not in the base64 alphabet A-Z a-z 0-9 + / ="
        elif len(value) % 4:
            why = f"its length {len(value)} is not a multiple of 4 (padding with = is missing)"
        else:
            why = "= padding appears before the end"
        raise InvalidCommand(
            "ERR_INVALID_BASE64",
            f"{name} is not valid base64: {why}; re-encode the UTF-8 text as standard base64 "
            "on a single line (split large payloads into several commands)",
        )
    try:
        return base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        raise InvalidCommand(
            "ERR_INVALID_BASE64",
            f"{name} decodes to bytes that are not UTF-8 text; encode the text as UTF-8 "
            "before base64",
        ) from None


class JsonText(str):
    """The text of a ``*_json`` field, already decoded: a ``*_b64`` field takes it as is."""

    __slots__ = ()


JSON_SUFFIX = "_json"
B64_SUFFIX = "_b64"


def json_twin(b64_name: str) -> str:
    """``content_b64`` -> ``content_json``."""
    return b64_name.removesuffix(B64_SUFFIX) + JSON_SUFFIX


def decode_json_value(value: str, name: str) -> JsonText:
    """One line of ASCII JSON: a string for text fields, the object itself for edits_json.

    Refusals name the column (counted in the value, from 1) and what to fix.
    """
    import json

    object_wanted = name == "edits_json"
    kind = "a JSON object {...}" if object_wanted else 'a JSON string "..."'
    try:
        decoded = json.loads(value)
    except RecursionError:
        raise InvalidCommand(
            "ERR_INVALID_JSON",
            f"{name} nests arrays or objects too deeply to read; write {kind} on one line",
        ) from None
    except json.JSONDecodeError as error:
        raise InvalidCommand(
            "ERR_INVALID_JSON",
            f"{name} is not valid JSON at column {error.colno} of its value: {error.msg}; "
            f"write {kind} on one line, escaping line breaks as \\n, tabs as \\t, "
            'quotes as \\" and backslashes as \\\\',
        ) from None
    if object_wanted and isinstance(decoded, dict):
        return JsonText(value)  # as written: the edits parser checks its keys and texts
    if object_wanted or not isinstance(decoded, str):
        found = type(decoded).__name__.replace("dict", "object").replace("str", "string")
        raise InvalidCommand(
            "ERR_INVALID_JSON",
            f"{name} must be {kind}, got a JSON {found}",
        )
    try:
        decoded.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidCommand(
            "ERR_INVALID_JSON",
            f"{name} holds a lone surrogate \\u{ord(decoded[error.start]):04x}; write a "
            "character above U+FFFF as its surrogate pair (\\ud83d\\ude00) or plainly",
        ) from None
    return JsonText(decoded)


def _b64(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, JsonText):
        return str(value)
    if isinstance(value, str):
        return decode_b64_text(value, info.field_name or "field")
    return value


def _int(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, str) and not _DIGITS.match(value):
        raise ValueError(f"must be a whole number written in digits, got {value!r}")
    return value


def _flag(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, str):
        folded = value.strip().casefold()
        if folded in ("true", "yes", "1"):
            return True
        if folded in ("false", "no", "0"):
            return False
        raise ValueError(f"must be true or false, got {value!r}")
    return value


B64Text = Annotated[str, BeforeValidator(_b64)]
"""A ``*_b64`` field: decoded to text during validation."""

Count = Annotated[int, BeforeValidator(_int)]
"""A whole number written in decimal digits."""

Flag = Annotated[bool, BeforeValidator(_flag)]
"""``true`` or ``false`` (also yes/no, 1/0), in any case."""


def pick_text(model: BaseModel, plain: str, encoded: str) -> str | None:
    """The value of whichever of a ``name`` / ``name_b64`` pair was given."""
    value = getattr(model, encoded)
    if value is None:
        value = getattr(model, plain)
    return value if value is None else str(value)


def one_of(model: BaseModel, plain: str, encoded: str, missing_code: str) -> str:
    """Exactly one of ``plain`` and ``encoded`` must be given; return its text."""
    if getattr(model, plain) is not None and getattr(model, encoded) is not None:
        raise InvalidCommand(
            "ERR_CONFLICTING_FIELDS",
            f"give either {plain} or {encoded}, not both",
        )
    value = pick_text(model, plain, encoded)
    if value is None:
        twin = json_twin(encoded)
        raise InvalidCommand(
            missing_code,
            f"{plain}, {twin} or {encoded} is required ({twin}, the text as one line of "
            "JSON, for anything longer than one line or not ASCII)",
        )
    return value


class Fields(BaseModel, FieldRules):
    """Base of every action's fields: unknown keys are refused, values are frozen, and each
    pair declared in ONE_OF must be given exactly once."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False)

    @model_validator(mode="after")
    def _one_of_pairs(self) -> Fields:
        for (plain, encoded), code in self.ONE_OF.items():
            one_of(self, plain, encoded, code)
        return self

    def text_of(self, plain: str) -> str:
        """The text of the ``plain`` / ``plain_b64`` pair ("" when neither was given)."""
        return pick_text(self, plain, f"{plain}_b64") or ""


class PathFields(Fields):
    path: str


class NoFields(Fields):
    pass
