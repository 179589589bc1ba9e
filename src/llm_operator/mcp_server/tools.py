"""The MCP tools: one per action of the action table, and a call turned into a command block.

A tool is named by its action with ``.`` replaced by ``_`` (``fs.read`` -> ``fs_read``); its
input schema lists the action's fields (from the same field docs as the served spec and
docs/actions.md) and its annotations say whether it reads, overwrites or repeats safely.

A call becomes the OPERATOR_CMD block a paste of the same command would be, so the session
checks and runs it exactly as it does a pasted one. JSON carries any text, so a text value
that a block cannot hold on one printable-ASCII line (a line break, other characters,
spaces at its edges) is sent in the field's ``_b64`` twin; a field without a twin refuses
such a value, as a paste would. Keys are checked before a block is made: a key or value can
never add a line of its own (another action, another id) to the block.
"""

from __future__ import annotations

import base64
import re
import typing
from dataclasses import dataclass
from typing import Any

from ..core.actions import action_names, get_spec
from ..core.actions.base import ActionSpec, Kind
from ..core.actions.reference import FieldDoc, field_docs
from ..core.protocol.block_body import MAX_BLOCK_CHARS
from ..core.protocol.lines import KEY, trim

# Keys the server writes itself: a call may not set them.
SERVER_KEYS = frozenset({"version", "id", "action"})
_PLAIN = re.compile(r"[\t\x20-\x7e]*\Z")

# Write actions that only ever add text (the MCP default for a write is "destructive").
ADDITIVE = frozenset({"fs.insertRegion", "fs.insertBeforeStructure", "fs.insertAfterStructure"})
# Write actions whose second identical call leaves the files as the first left them (it
# writes the same bytes, or fails because its work is done: a patch already applied, a
# path already deleted). The others would add, move or replace once more.
IDEMPOTENT_WRITES = frozenset(
    {
        "fs.write",
        "fs.patch",
        "fs.delete",
        "fs.replaceRegion",
        "fs.deleteRegion",
        "fs.replaceStructure",
    }
)


def tool_name(action: str) -> str:
    return action.replace(".", "_")


def action_of(tool: str) -> str | None:
    """The action a tool name stands for, or None if there is no such tool."""
    for name in action_names():
        if tool_name(name) == tool:
            return name
    return None


@dataclass(frozen=True)
class ToolInfo:
    """What ``tools/list`` says of one tool (plain data: the SDK types are made from it)."""

    name: str
    action: str
    description: str
    input_schema: dict[str, Any]
    read_only: bool
    destructive: bool
    idempotent: bool


def _json_type(spec: ActionSpec, doc: FieldDoc) -> str:
    annotation = spec.fields.model_fields[doc.name].annotation
    args = typing.get_args(annotation) or (annotation,)
    if bool in args:
        return "boolean"
    return "integer" if doc.kind == "whole number" else "string"


def _field_description(doc: FieldDoc, twins: set[str]) -> str:
    parts: list[str] = []
    if doc.name.endswith("_b64"):
        parts.append("base64 of UTF-8 text on one line")
        plain = doc.name[: -len("_b64")]
        if plain in twins:
            parts.append(f"or give {plain} as plain text instead")
    elif f"{doc.name}_b64" in twins:
        parts.append(
            "text; any characters and line breaks (sent as "
            f"{doc.name}_b64 when a command line cannot hold it)"
        )
    else:
        parts.append(f"{doc.kind}; printable ASCII on one line")
    if doc.required == "yes":
        parts.append("required")
    elif doc.required.startswith("one of"):
        parts.append(doc.required.replace("`", ""))
    if doc.default is not None:
        default = doc.default.lower() if doc.default in ("True", "False") else doc.default
        parts.append(f"default {default}")
    if doc.aliases:
        parts.append(f"also accepted as {', '.join(doc.aliases)}")
    return "; ".join(parts)


def tool_info(action: str) -> ToolInfo:
    spec = get_spec(action)
    docs = field_docs(spec)
    names = {doc.name for doc in docs}
    properties: dict[str, Any] = {}
    required: list[str] = []
    for doc in docs:
        properties[doc.name] = {
            "type": _json_type(spec, doc),
            "description": _field_description(doc, names),
        }
        if doc.required == "yes":
            required.append(doc.name)
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    read = spec.kind is Kind.READ
    how = (
        "Read: runs at once (a secret-looking file is sent only when the person agrees)."
        if read
        else "Write: the person reviews the change before it is made; it can be undone."
    )
    return ToolInfo(
        name=tool_name(action),
        action=action,
        description=f"{spec.description} {how}",
        input_schema=schema,
        read_only=read,
        destructive=not read and action not in ADDITIVE,
        idempotent=read or action in IDEMPOTENT_WRITES,
    )


def all_tools() -> list[ToolInfo]:
    return [tool_info(name) for name in action_names()]


class CallRefused(Exception):
    """A call that cannot become a command block; ``code`` is its ERR_ code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _text(value: Any) -> str | None:
    """A JSON value as the text of a command line, or None when it is left out."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    raise TypeError(type(value).__name__)


def command_block(action: str, command_id: str, arguments: dict[str, Any]) -> str:
    """The OPERATOR_CMD block of one call. Raises ``CallRefused`` for a key or value no
    block can carry faithfully; unknown keys and wrong values are left to the validator,
    which words them as it does for a paste."""
    fields = set(get_spec(action).fields.model_fields)
    lines = ["OPERATOR_CMD", "version: 1", f"id: {command_id}", f"action: {action}"]
    for key, raw in arguments.items():
        if not isinstance(key, str) or not KEY.match(key):
            raise CallRefused(
                "ERR_UNKNOWN_KEY",
                f"{key!r} is not a field name (letters, digits and _); the fields of "
                f"{tool_name(action)} are: {', '.join(sorted(fields)) or 'none'}",
            )
        if key in SERVER_KEYS:
            raise CallRefused(
                "ERR_UNKNOWN_KEY",
                f"{key} is set by the server; leave it out of the arguments",
            )
        try:
            value = _text(raw)
        except TypeError as error:
            raise CallRefused(
                "ERR_INVALID_FIELD",
                f"{key} must be text, a whole number or true/false, not {error}",
            ) from None
        if value is None:
            continue
        if _PLAIN.match(value) and trim(value) == value:
            lines.append(f"{key}: {value}")
            continue
        twin = f"{key}_b64"
        if twin in fields:
            encoded = base64.b64encode(value.encode("utf-8", "surrogatepass")).decode("ascii")
            lines.append(f"{twin}: {encoded}")
            continue
        raise CallRefused(
            "ERR_NON_ASCII_IN_CMD",
            f"{key} must be printable ASCII on one line, without spaces at its edges"
            + ("; a path may not hold line breaks or control characters" if key == "path" else ""),
        )
    lines.append("END_OPERATOR_CMD")
    block = "\n".join(lines) + "\n"
    if len(block) > MAX_BLOCK_CHARS:
        # Said here, as the scanner says it of a paste: a block longer than the part of a
        # message the scanner reads would lose its start marker and be named wrongly.
        raise CallRefused(
            "ERR_BLOCK_TOO_LARGE",
            f"the call's block has {len(block)} characters; the limit is {MAX_BLOCK_CHARS}: "
            "split the work into several calls",
        )
    return block
