"""operator.* actions: what the app tells the LLM about itself."""

from __future__ import annotations

import json
from importlib import resources

from ..outcome import Outcome
from ..wording import counted
from .base import ActionContext, ActionSpec, Kind, Result
from .fields import Fields, NoFields

SPEC_RESOURCE = "interface-spec.txt"


def interface_spec() -> str:
    """The interface specification served to the LLM (resources/interface-spec.txt)."""
    return (resources.files("llm_operator.resources") / SPEC_RESOURCE).read_text("utf-8")


def run_get_interface_spec(ctx: ActionContext, fields: NoFields) -> Result:
    text = interface_spec()
    first = text.splitlines()[0] if text else "Operator Interface Specification"
    return Outcome(True, f"{first}: {counted(len(text), 'character')} in details_b64", text)


class CommentStyleFields(Fields):
    language: str | None = None


def run_get_comment_style(ctx: ActionContext, fields: CommentStyleFields) -> Result:
    from ..engines.comment_styles import all_styles_json, resolve_language

    if fields.language:
        style = resolve_language(fields.language)
        payload = style.to_json()
        return Outcome(
            True, f"Comment style for {style.language}", json.dumps(payload, ensure_ascii=True)
        )
    every = all_styles_json()
    count = len(every["styles"])
    return Outcome(True, f"{count} comment styles", json.dumps(every, ensure_ascii=True))


ACTIONS = (
    ActionSpec(
        "operator.getInterfaceSpec",
        Kind.READ,
        NoFields,
        run_get_interface_spec,
        "Return this interface specification.",
    ),
    ActionSpec(
        "operator.getCommentStyle",
        Kind.READ,
        CommentStyleFields,
        run_get_comment_style,
        "Return the comment style of one language, or of all supported languages.",
    ),
)
