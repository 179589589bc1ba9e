"""The action reference (docs/actions.md), rendered from the action table.

    python -m llm_operator.core.actions.reference > docs/actions.md

A test renders it again and compares, so the docs cannot drift from the table; another
test checks that the served interface spec names every action and every field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import all_specs
from .base import ActionSpec, Kind

if TYPE_CHECKING:
    from pydantic.fields import FieldInfo


@dataclass(frozen=True)
class FieldDoc:
    """One row of an action's field table in docs/actions.md."""

    name: str
    kind: str  # "text", "base64 UTF-8", "whole number"
    required: str  # "yes", "no", or "one of this and `<partner>`"
    default: str | None
    aliases: tuple[str, ...]


def _kind(name: str, info: FieldInfo) -> str:
    from .fields import value_type

    if name.endswith("_b64"):
        return "base64 UTF-8"
    return "whole number" if value_type(info) is int else "text"


def field_docs(spec: ActionSpec) -> list[FieldDoc]:
    aliases = spec.fields.ALIASES
    pairs = spec.fields.ONE_OF
    partner = {a: b for a, b in pairs} | {b: a for a, b in pairs}
    docs = []
    for name, info in spec.fields.model_fields.items():
        default = None if info.is_required() or info.default is None else str(info.default)
        if info.is_required():
            required = "yes"
        elif name in partner:
            required = f"one of this and `{partner[name]}`"
        else:
            required = "no"
        docs.append(
            FieldDoc(
                name,
                _kind(name, info),
                required,
                default,
                tuple(alias for alias, target in aliases.items() if target == name),
            )
        )
    return docs


def _how_it_runs(spec: ActionSpec) -> str:
    if spec.kind is not Kind.READ:
        return "write: needs approval"
    if spec.runs:
        # A process runs in execute, after the reply's earlier writes (plan/session.py).
        return "read: runs without a question"
    return "read: runs at once"


def render_reference() -> str:
    lines = [
        "# Action reference",
        "",
        "Generated from the action table by `python -m llm_operator.core.actions.reference`;",
        "a test fails when this file and the table disagree. Every command also carries",
        "`version: 1`, `id` and `action`. Every `*_b64` field (base64 of UTF-8 text on one",
        "line) has a `*_json` twin holding one line of ASCII JSON: a JSON string for text",
        "fields, the edits object itself for `edits_json`. Give one form of a field: of",
        "`content`, `content_json` and `content_b64` exactly one; two forms are",
        "`ERR_CONFLICTING_FIELDS`, a malformed JSON value `ERR_INVALID_JSON` (with its column).",
        "",
    ]
    for spec in all_specs():
        kind = _how_it_runs(spec)
        lines += [f"## {spec.name}", "", f"{spec.description} ({kind})", ""]
        docs = field_docs(spec)
        if not docs:
            lines += ["No fields beyond version, id and action.", ""]
            continue
        lines += ["| field | value | required | default | aliases |", "|---|---|---|---|---|"]
        for doc in docs:
            default = f"`{doc.default}`" if doc.default is not None else ""
            aliases = ", ".join(f"`{alias}`" for alias in doc.aliases)
            if doc.name.endswith("_b64"):
                twin = doc.name.removesuffix("_b64") + "_json"
                kind = "JSON object, one line" if twin == "edits_json" else "JSON string, one line"
                lines.append(f"| `{twin}` | {kind} | instead of `{doc.name}` |  |  |")
            lines.append(f"| `{doc.name}` | {doc.kind} | {doc.required} | {default} | {aliases} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(render_reference(), end="")
