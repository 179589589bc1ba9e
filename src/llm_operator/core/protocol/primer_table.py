"""The primer's action table: one line per action, rendered from the action table."""

from __future__ import annotations

from ..actions import all_specs
from ..actions.base import ActionSpec, Kind
from ..actions.reference import FieldDoc, field_docs

# Comment-style overrides are shared by every region action: named once, in a legend.
STYLE_FIELDS = ("comment_line_prefix", "comment_block_start", "comment_block_end", "language")
STYLE_LEGEND = (
    "[style] = comment_line_prefix, or comment_block_start + comment_block_end, or language "
    "(default: from the file name)"
)


def _field(doc: FieldDoc) -> str:
    text = doc.name
    if doc.default is not None:
        # Booleans are sent as true/false, whatever Python calls them.
        default = doc.default.lower() if doc.default in ("True", "False") else doc.default
        text += f"={default}"
    if doc.aliases:
        text += f" ({'/'.join(doc.aliases)})"
    return text


def _fields(spec: ActionSpec) -> list[str]:
    docs = field_docs(spec)
    names = {doc.name for doc in docs}
    shown: list[str] = []
    done: set[str] = set()
    style = set(STYLE_FIELDS) <= names and spec.name != "operator.getCommentStyle"
    for doc in docs:
        if doc.name in done or (style and doc.name in STYLE_FIELDS):
            continue
        partner = f"{doc.name}_b64"
        if partner in names and partner not in done:
            # Plain text or its base64 twin: one of them (or neither, if both optional).
            done.update({doc.name, partner})
            aliases = f" ({'/'.join(doc.aliases)})" if doc.aliases else ""
            pair = f"{doc.name}|{partner}"
            # A symbol names a structure as a target does, and the validator takes either
            # (structure.TargetFields): one of the three, not a target plus an optional symbol.
            symbol = doc.name.removesuffix("target") + "symbol"
            if doc.name.endswith("target") and symbol in names:
                done.add(symbol)
                pair += f"|{symbol}"
            pair += aliases
            shown.append(pair if doc.required != "no" else f"[{pair}]")
            continue
        done.add(doc.name)
        shown.append(_field(doc) if doc.required == "yes" else f"[{_field(doc)}]")
    if style:
        shown.append("[style]")
    return shown


def action_lines() -> list[str]:
    lines: list[str] = []
    for spec in all_specs():
        mark = " W" if spec.kind is Kind.WRITE else ""
        fields = " ".join(_fields(spec)) or "-"
        lines.append(f"{spec.name}{mark}: {fields}. {spec.description}")
    lines.append(STYLE_LEGEND)
    return lines


def edit_ops_line() -> str:
    """The fs.applyEdits ops with their keys, from the edit list's models."""
    from ..engines.edit_models import OPS

    ops: list[str] = []
    for name, model in OPS.items():
        shown: list[str] = []
        for key, info in model.model_fields.items():
            if key == "op":
                continue
            if info.is_required():
                shown.append(key)
            elif info.default is None:
                shown.append(f"[{key}]")
            else:
                value = info.default
                text = str(value).lower() if isinstance(value, bool) else str(value)
                shown.append(f"[{key}={text}]")
        ops.append(f"{name} ({' '.join(shown)})")
    return "; ".join(ops) + "."
