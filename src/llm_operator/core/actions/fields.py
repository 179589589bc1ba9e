"""Field types shared by the action declarations, and the declared-fields base class.

Every value arrives as the text after ``key:`` on one ASCII line. The annotated types
here turn that text into typed values and raise ``InvalidCommand`` with the spec's code
when it cannot, so the validator never has to guess what an error meant.
"""

from __future__ import annotations

import base64
import binascii
import inspect
import re
import sys
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, TypeVar

from ..errors import InvalidCommand
from .field_rules import FieldRules

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


class ValidationError(ValueError):
    """Values a fields class refuses: ``errors()`` lists each as ``{"loc", "type", "msg"}``,
    in field order (``type`` is ``missing``, ``value_error`` or ``extra_forbidden``)."""

    def __init__(self, problems: list[dict[str, Any]]) -> None:
        super().__init__("; ".join(f"{p['loc']}: {p['msg']}" for p in problems))
        self._problems = problems

    def errors(self) -> list[dict[str, Any]]:
        return list(self._problems)


@dataclass(frozen=True)
class Parse:
    """How a field's text becomes its value (the metadata of an ``Annotated`` field type).

    ``parse(value, name)`` returns the value or raises ValueError saying what is wrong;
    an ``InvalidCommand`` it raises is passed on as it is.
    """

    parse: Callable[[Any, str], Any]


def _text(value: Any, name: str) -> Any:
    if not isinstance(value, str):
        raise ValueError(f"must be text, got {type(value).__name__}")
    return value


def _b64(value: Any, name: str) -> Any:
    if isinstance(value, JsonText):
        return str(value)
    return decode_b64_text(_text(value, name), name)


def _int(value: Any, name: str) -> Any:
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


def _flag(value: Any, name: str) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        folded = value.strip().casefold()
        if folded in ("true", "yes", "1"):
            return True
        if folded in ("false", "no", "0"):
            return False
    raise ValueError(f"must be true or false, got {value!r}")


B64Text = Annotated[str, Parse(_b64)]
"""A ``*_b64`` field: decoded to text during validation."""

Count = Annotated[int, Parse(_int)]
"""A whole number written in decimal digits."""

Flag = Annotated[bool, Parse(_flag)]
"""``true`` or ``false`` (also yes/no, 1/0), in any case."""

_PLAIN: dict[Any, Parse] = {str: Parse(_text)}
_REQUIRED = object()


@dataclass(frozen=True)
class FieldInfo:
    """One declared field: its value type (``int``, ``str | None``...), default, parser."""

    annotation: Any
    default: Any
    parser: Parse
    optional: bool

    def is_required(self) -> bool:
        return self.default is _REQUIRED

    def parse(self, value: Any, name: str) -> Any:
        if value is None and self.optional:
            return None
        return self.parser.parse(value, name)


def _field_info(cls: type, name: str, hint: Any) -> FieldInfo:
    """The field ``name: hint`` of ``cls``: ``T``, ``T | None`` with T str, Count, Flag or
    B64Text. Anything else is a mistake in the declaration, refused when the class is made."""
    union = isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union
    members = typing.get_args(hint) if union else (hint,)
    optional = type(None) in members
    (kind,) = [member for member in members if member is not type(None)] or [None]
    if typing.get_origin(kind) is Annotated:
        base, *extras = typing.get_args(kind)
        parser = next((extra for extra in extras if isinstance(extra, Parse)), None)
    else:
        base, parser = kind, _PLAIN.get(kind)
    if parser is None or len(members) - optional != 1:
        raise TypeError(f"{cls.__name__}.{name}: unsupported field type {hint!r}")
    default = cls.__dict__.get(name, _REQUIRED)
    return FieldInfo(base | None if optional else base, default, parser, optional)


_Check = TypeVar("_Check", bound=Callable[..., Any])


def model_validator(*, mode: str) -> Callable[[_Check], _Check]:
    """Mark a method that checks the whole command once every field has its value.

    Checks run base class first; a subclass method of the same name replaces its base's.
    """
    if mode != "after":
        raise ValueError("only checks after the fields (mode='after') are supported")

    def mark(check: _Check) -> _Check:
        check.__dict__["_after_fields"] = True
        return check

    return mark


_Model = TypeVar("_Model", bound="FieldsModel")


def own_hints(cls: type) -> dict[str, Any]:
    """The annotations ``cls`` declares itself, evaluated as ``typing.get_type_hints``
    evaluates them (names looked up in the module, then in the class). get_type_hints would
    evaluate every base class's annotations again for each class made, a good part of the
    start-up of an action family with several fields classes."""
    module = vars(sys.modules[cls.__module__])
    names = dict(vars(cls))
    hints: dict[str, Any] = {}
    for name, value in inspect.get_annotations(cls).items():
        if value is None:
            value = type(None)
        hints[name] = eval(value, names, module) if isinstance(value, str) else value
    return hints


class FieldsModel:
    """Declared fields, checked without any third-party library (start-up time counts).

    A subclass declares its fields as annotated class attributes (the default after ``=``);
    ``model_validate`` turns a dict of values into a frozen instance or raises
    ``ValidationError``; an ``InvalidCommand`` from a parser or check passes through.
    Unknown keys are refused.
    """

    model_fields: ClassVar[dict[str, FieldInfo]] = {}
    _checks: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = dict(cls.model_fields)
        for name, hint in own_hints(cls).items():
            if typing.get_origin(hint) is ClassVar:
                continue
            fields[name] = _field_info(cls, name, hint)
        cls.model_fields = fields
        checks = dict.fromkeys(cls._checks)
        for name, member in cls.__dict__.items():
            if getattr(member, "_after_fields", False):
                checks[name] = None
        cls._checks = tuple(checks)

    def __init__(self, **data: Any) -> None:
        values: dict[str, Any] = {}
        problems: list[dict[str, Any]] = []
        for name, info in self.model_fields.items():
            if name not in data:
                if info.is_required():
                    problems.append({"loc": (name,), "type": "missing", "msg": "required"})
                values[name] = info.default
                continue
            try:
                values[name] = info.parse(data[name], name)
            except ValueError as error:
                problems.append({"loc": (name,), "type": "value_error", "msg": str(error)})
        problems += [
            {"loc": (key,), "type": "extra_forbidden", "msg": "not a field of this action"}
            for key in data
            if key not in self.model_fields
        ]
        if problems:
            raise ValidationError(problems)
        self.__dict__.update(values)
        for name in self._checks:
            try:
                getattr(self, name)()
            except ValueError as error:
                problem = {"loc": (), "type": "value_error", "msg": str(error)}
                raise ValidationError([problem]) from None

    @classmethod
    def model_validate(cls: type[_Model], data: Mapping[str, Any]) -> _Model:
        return cls(**data)

    def model_dump(self) -> dict[str, Any]:
        """The values by field name."""
        return {name: self.__dict__[name] for name in self.model_fields}

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: {name} cannot be set")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.model_dump() == other.model_dump()

    def __hash__(self) -> int:
        return hash((type(self), tuple(self.model_dump().items())))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self.model_dump().items())
        return f"{type(self).__name__}({shown})"


def pick_text(model: FieldsModel, plain: str, encoded: str) -> str | None:
    """The value of whichever of a ``name`` / ``name_b64`` pair was given."""
    value = getattr(model, encoded)
    if value is None:
        value = getattr(model, plain)
    return value if value is None else str(value)


def one_of(model: FieldsModel, plain: str, encoded: str, missing_code: str) -> str:
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


class Fields(FieldsModel, FieldRules):
    """Base of every action's fields: unknown keys are refused, values are frozen, and each
    pair declared in ONE_OF must be given exactly once."""

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
