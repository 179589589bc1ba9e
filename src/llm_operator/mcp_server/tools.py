"""The MCP tools: one per action of the action table, and a call turned into a command block.

A tool is named by its action with ``.`` replaced by ``_`` (``fs.read`` -> ``fs_read``); its
input schema lists the action's fields and the ``_json`` twin of each ``_b64`` field, as a
paste takes them (from the same field docs as the served spec and docs/actions.md), and its
annotations say whether it reads, overwrites or repeats safely.

A call becomes the OPERATOR_CMD block a paste of the same command would be, so the session
checks and runs it exactly as it does a pasted one. Its arguments are first checked
against the schema (``arguments.py``: keys, JSON types, lone surrogates): a key or value
can never add a line of its own (another action, another id) to the block. JSON carries
any text, so a text value that a block cannot hold on one printable-ASCII line (a line
break, other characters, spaces at its edges) is sent in the field's ``_b64`` twin; a
field without a twin refuses such a value, as a paste would.
"""

from __future__ import annotations

import base64
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.actions import action_names, get_spec
from ..core.actions.base import ActionSpec, Kind
from ..core.actions.fields import value_type
from ..core.actions.reference import FieldDoc, field_docs
from ..core.protocol.block_body import MAX_BLOCK_CHARS
from ..core.protocol.lines import trim
from .arguments import CallRefused, Value, checked_arguments

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
    # It may reach beyond the workspace (a command line can do anything the person can).
    open_world: bool = False


def _json_type(spec: ActionSpec, doc: FieldDoc) -> str:
    kind = value_type(spec.fields.model_fields[doc.name])
    return {bool: "boolean", int: "integer"}.get(kind, "string")


def _needed(doc: FieldDoc, forms: list[str]) -> str | None:
    """What the description says of a field that must be given (or one of its forms)."""
    if doc.required == "yes" and len(forms) == 1:
        return "required"
    if doc.required == "yes" or doc.required.startswith("one of"):
        return f"give one of {', '.join(forms)}"
    return None


def _properties(spec: ActionSpec) -> tuple[dict[str, Any], list[str]]:
    """The input schema's properties (each field, and the ``_json`` twin of each ``_b64``
    field, as a paste takes them) and its required names."""
    docs = field_docs(spec)
    names = {doc.name for doc in docs}
    properties: dict[str, Any] = {}
    required: list[str] = []
    for doc in docs:
        kind = _json_type(spec, doc)
        base = doc.name.removesuffix("_b64")
        forms = [doc.name]
        if f"{base}_b64" in names:  # the forms of one text: plain (if any), JSON, base64
            forms = [base] if base in names else []
            forms += [f"{base}_json", f"{base}_b64"]
        parts: list[str] = []
        if doc.name.endswith("_b64"):
            twin = f"{base}_json"
            twin_parts = [
                "the edits object as one line of JSON text"
                if twin == "edits_json"
                else "the text as one JSON string on one line (ASCII; \\n, \\t, \\uXXXX escapes)"
            ]
            if (needed := _needed(doc, forms)) is not None:
                twin_parts.append(needed)
            properties[twin] = {"type": "string", "description": "; ".join(twin_parts)}
            parts.append("base64 of UTF-8 text on one line")
        elif f"{doc.name}_b64" in names:
            parts.append(
                "text; any characters and line breaks (sent as "
                f"{doc.name}_b64 when a command line cannot hold it)"
            )
        elif kind == "boolean":
            parts.append("true or false")
        elif kind == "integer":
            parts.append("whole number")
        else:
            parts.append("text; printable ASCII on one line")
        needed = _needed(doc, forms)
        if needed == "required":
            required.append(doc.name)
        if needed is not None:
            parts.append(needed)
        if doc.default is not None:
            default = doc.default.lower() if doc.default in ("True", "False") else doc.default
            parts.append(f"default {default}")
        if doc.aliases:
            parts.append(f"also accepted as {', '.join(doc.aliases)}")
        properties[doc.name] = {"type": kind, "description": "; ".join(parts)}
    return properties, required


@functools.cache
def tool_info(action: str) -> ToolInfo:
    spec = get_spec(action)
    properties, required = _properties(spec)
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    read = spec.kind is Kind.READ
    if spec.review is not None:
        how = (
            "Runs a process: the person approves each call before it starts; what it does "
            "cannot be undone."
        )
    elif read:
        how = "Read: runs at once (a secret-looking file is sent only when the person agrees)."
    else:
        how = "Write: the person reviews the change before it is made; it can be undone."
    return ToolInfo(
        name=tool_name(action),
        action=action,
        description=f"{spec.description} {how}",
        input_schema=schema,
        read_only=read,
        destructive=not read and action not in ADDITIVE,
        idempotent=read or action in IDEMPOTENT_WRITES,
        open_world=spec.review is not None,
    )


def all_tools() -> list[ToolInfo]:
    return [tool_info(name) for name in action_names()]


def _text(value: Value) -> str:
    """A checked value as the text of a command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def command_block(action: str, command_id: str, arguments: Mapping[Any, Any]) -> str:
    """The OPERATOR_CMD block of one call. Raises ``CallRefused`` for arguments the tool's
    schema does not allow (``arguments.checked_arguments``) and for a value no block can
    carry faithfully; what the schema allows is left to the validator, which words it as
    it does for a paste."""
    info = tool_info(action)
    aliases = get_spec(action).fields.ALIASES
    checked = checked_arguments(info.name, info.input_schema, aliases, arguments)
    properties = info.input_schema["properties"]
    lines = ["OPERATOR_CMD", "version: 1", f"id: {command_id}", f"action: {action}"]
    for key, raw in checked.items():
        value = _text(raw)
        if _PLAIN.match(value) and trim(value) == value:
            lines.append(f"{key}: {value}")
            continue
        twin = f"{aliases.get(key, key)}_b64"
        if twin in properties:
            encoded = base64.b64encode(value.encode("utf-8")).decode("ascii")
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
