"""A tool call's arguments checked against the input schema the tool publishes, before
they become a command block.

The schema (``tools.tool_info``) is the contract a client was shown, so it is the rule:

- a ``string`` field takes a JSON string only, an ``integer`` field an integer (or a
  number without a fraction, which JSON Schema counts as one), a ``boolean`` field true
  or false; null is no value (leave the field out for its default). Otherwise
  ``path: true`` would create a file named ``true``, and ``content: 5`` write ``5``;
- a key the schema does not list is refused naming the fields it lists (the aliases its
  descriptions name are taken, with their field's type);
- two forms of one text (``content`` and ``content_b64``) are refused by the names sent;
- a string holding a lone surrogate (half of a character beyond U+FFFF, what a JavaScript
  client sends when a model split an emoji) is refused naming its field and place: UTF-8
  cannot hold it, and the block would otherwise carry it in the field's ``_b64`` twin,
  which the validator would name although the client never sent it.

Every refusal names the field as the client sent it and what it must be (ERR_UNKNOWN_KEY,
ERR_INVALID_FIELD, ERR_CONFLICTING_FIELDS: the codes a paste gets for the same faults).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from ..core.actions.fields import json_kind
from ..core.protocol.lines import KEY

# Keys the server writes itself: a call may not set them.
SERVER_KEYS = frozenset({"version", "id", "action"})
_EXPECTED = {"string": "a string", "integer": "an integer", "boolean": "true or false"}

Value = str | int | bool


class CallRefused(Exception):
    """A call that cannot become a command block; ``code`` is its ERR_ code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _described(value: Any) -> str:
    """A JSON value as a refusal names it: its kind, and a number itself (shortened)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        text = repr(value) if isinstance(value, float) else str(value)
        if len(text) > 24:
            text = f"{text[:12]}...({len(text)} digits)"
        return f"the number {text}"
    return json_kind(value)


def _typed(key: str, kind: str, value: Any, required: bool) -> Value:
    if kind == "string" and isinstance(value, str):
        _refuse_lone_surrogates(key, value)
        return value
    if kind == "boolean" and isinstance(value, bool):
        return value
    if kind == "integer" and not isinstance(value, bool):
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
    message = f"{key} must be {_EXPECTED.get(kind, kind)}, not {_described(value)}"
    if value is None and not required:
        message += "; leave the field out to use its default"
    elif kind == "string" and not isinstance(value, str):
        message += " (write the value in quotes)"
    raise CallRefused("ERR_INVALID_FIELD", message)


def _refuse_lone_surrogates(key: str, value: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise CallRefused(
            "ERR_INVALID_FIELD",
            f"{key} holds a lone surrogate \\u{ord(value[error.start]):04x} at character "
            f"{error.start + 1}: half of a character beyond U+FFFF, which UTF-8 cannot hold; "
            "send the whole character (in JSON, both halves of its pair: \\ud83d\\ude00)",
        ) from None


def _unknown(tool: str, key: str, known: list[str]) -> CallRefused:
    close = difflib.get_close_matches(key, known, n=1)
    hint = f"did you mean {close[0]}? " if close else ""
    if "workspace" in key.casefold():
        hint = "the server serves the one workspace it was started on; paths are relative to it. "
    return CallRefused(
        "ERR_UNKNOWN_KEY",
        f"{tool} has no field {key!r}; {hint}its fields are: {', '.join(known) or 'none'}",
    )


def checked_arguments(
    tool: str,
    schema: Mapping[str, Any],
    aliases: Mapping[str, str],
    arguments: Mapping[Any, Any],
) -> dict[str, Value]:
    """``arguments`` as the schema allows them, in the order sent; raises ``CallRefused``."""
    properties: Mapping[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    known = list(properties)
    for key in arguments:
        if not isinstance(key, str) or not KEY.match(key):
            raise CallRefused(
                "ERR_UNKNOWN_KEY",
                f"{key!r} is not a field name (letters, digits and _); the fields of "
                f"{tool} are: {', '.join(known) or 'none'}",
            )
        if key in SERVER_KEYS:
            raise CallRefused(
                "ERR_UNKNOWN_KEY", f"{key} is set by the server; leave it out of the arguments"
            )
        if key not in properties and aliases.get(key) not in properties:
            raise _unknown(tool, key, known)
    checked: dict[str, Value] = {}
    fields: dict[str, str] = {}
    forms: dict[str, list[str]] = {}
    for key, value in arguments.items():
        field = key if key in properties else aliases[key]
        checked[key] = _typed(key, properties[field]["type"], value, field in required)
        if field in fields:
            first = fields[field]
            if first != field and key != field:  # two aliases: name both, not the field
                said = f"{first} and {key} are both names for {field}"
            else:
                said = f"{first if first != field else key} is another name for {field}"
            raise CallRefused("ERR_DUPLICATE_KEY", f"{said}; give one of them")
        fields[field] = key
        base = field.removesuffix("_b64").removesuffix("_json")
        forms.setdefault(base, []).append(key)
    for sent in forms.values():
        if len(sent) > 1:
            raise CallRefused(
                "ERR_CONFLICTING_FIELDS",
                f"{' and '.join(sent)} are forms of one field; give only one of them",
            )
    return checked


__all__ = ["SERVER_KEYS", "CallRefused", "Value", "checked_arguments"]
