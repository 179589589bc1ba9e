"""The command models' base class and the field types shared by the action declarations.

Every action's fields are one pydantic model (frozen, unknown keys refused), declared once
in its family module: names, types, defaults, the ``*_b64`` fields (each with a ``*_json``
twin by name), and class rules the validator reads (ALIASES, MISSING_CODES, INVALID_CODES,
ONE_OF). The validator, the MCP tools' input schemas, the primer's action lines and
docs/actions.md are all made from these models; the served spec's prose is held to them
by a test (every field and alias named in its action's section).

Every value arrives as the text after ``key:`` on one ASCII line. The annotated types
here turn that text into typed values: a value that cannot be read raises ValueError with
what to fix (the validator names the field and the action's ERR_ code for it), or
``InvalidCommand`` with the spec's own code (base64, JSON), which pydantic passes through
untouched, so the validator never has to guess what an error meant. Pydantic and the
models load only when a command needs them (``base.LazyModel``; the read family's simple
commands are checked without them, read_values.py).
"""

from __future__ import annotations

import base64
import binascii
import re
import types
import typing
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationInfo, model_validator

from ..errors import InvalidCommand

if TYPE_CHECKING:
    from pydantic.fields import FieldInfo

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


def json_kind(value: Any) -> str:
    """What a decoded JSON value is, in JSON's own words ("an array", "true", "null")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def decode_json_value(value: str, name: str) -> JsonText:
    """One line of ASCII JSON: a string for text fields, the object itself for edits_json.

    Refusals name the column (counted in the value, from 1) and what to fix.
    """
    import json

    from ..bounded_json import JsonLimit, load_bounded

    object_wanted = name == "edits_json"
    kind = "a JSON object {...}" if object_wanted else 'a JSON string "..."'
    try:
        decoded = load_bounded(value)
    except JsonLimit as error:
        raise InvalidCommand(
            "ERR_INVALID_JSON", f"{name} cannot be read: {error.message}; write {kind} on one line"
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
        raise InvalidCommand("ERR_INVALID_JSON", f"{name} must be {kind}, got {json_kind(decoded)}")
    try:
        decoded.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidCommand(
            "ERR_INVALID_JSON",
            f"{name} holds a lone surrogate \\u{ord(decoded[error.start]):04x}; write a "
            "character above U+FFFF as its surrogate pair (\\ud83d\\ude00) or plainly",
        ) from None
    return JsonText(decoded)


def _field_name(info: ValidationInfo) -> str:
    return info.field_name or "field"


def _text(value: Any, info: ValidationInfo) -> Any:
    if not isinstance(value, str):
        raise ValueError(f"must be text, got {type(value).__name__}")
    return value


def _b64(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, JsonText):
        return str(value)
    return decode_b64_text(_text(value, info), _field_name(info))


def _int(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _DIGITS.match(value):
        return int(value)
    if isinstance(value, str) and value.isascii() and value.lstrip("-").isdigit():
        # A whole number all the same: say what is wrong with it, and never echo a number
        # of hundreds of digits (an MCP client's 1e308 arrives as 309 of them).
        if value.startswith("-"):
            raise ValueError("must be 0 or more (digits only, no sign)")
        raise ValueError(
            f"must be at most 999999999 (9 digits), got a number of {len(value)} digits"
        )
    shown = value[:40] if isinstance(value, str) else value
    raise ValueError(f"must be a whole number written in digits, got {shown!r}")


def _flag(value: Any, info: ValidationInfo) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        folded = value.strip().casefold()
        if folded in ("true", "yes", "1"):
            return True
        if folded in ("false", "no", "0"):
            return False
    shown = value[:40] if isinstance(value, str) else value  # never a value of pages
    raise ValueError(f"must be true or false, got {shown!r}")


B64Text = Annotated[str, BeforeValidator(_b64)]
"""A ``*_b64`` field: decoded to text during validation."""

Count = Annotated[int, BeforeValidator(_int)]
"""A whole number written in decimal digits."""

Flag = Annotated[bool, BeforeValidator(_flag)]
"""``true`` or ``false`` (also yes/no, 1/0), in any case."""


def value_type(info: FieldInfo) -> type:
    """The type of a field's value, ``None`` and annotations aside: str, int or bool."""
    hint: Any = info.annotation
    union = isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union
    members = [m for m in typing.get_args(hint) if m is not type(None)] if union else [hint]
    (kind,) = members
    if typing.get_origin(kind) is Annotated:
        kind = typing.get_args(kind)[0]
    return typing.cast(type, kind)


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


class Fields(BaseModel):
    """Base of every action's fields: unknown keys are refused, values are frozen, and each
    pair declared in ONE_OF must be given exactly once.

    The class rules, read by the validator: ALIASES maps an accepted alternative key to its
    field; MISSING_CODES names the ERR_ code of a missing required field, INVALID_CODES
    that of a value that cannot be read (both ERR_MISSING_REQUIRED_FIELDS and
    ERR_INVALID_FIELD otherwise); ONE_OF maps a (plain, plain_b64) pair that must be given
    exactly once to the ERR_ code for neither being given.

    A model's validation is built when it is first used, not when it is declared
    (``defer_build``): a command builds only its own action's.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    ALIASES: ClassVar[dict[str, str]] = {}
    MISSING_CODES: ClassVar[dict[str, str]] = {}
    INVALID_CODES: ClassVar[dict[str, str]] = {}
    ONE_OF: ClassVar[dict[tuple[str, str], str]] = {}

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
