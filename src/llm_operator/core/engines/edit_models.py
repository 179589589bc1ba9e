"""The edit list of ``fs.applyEdits`` as pydantic models, and each refusal as a sentence.

Invariants:
- Strict JSON types: 1.0 is not a whole number, "true" not a boolean, true not the version
  1. Unknown keys are refused, at the top and in every edit.
- Every problem of the document is found (in the order of its keys, each edit's in the
  order of its op's keys, unknown keys last) and named by the edit's 0-based index and op,
  the key and what to fix; the first is the message, the rest are counted (edits.py).
- These models are the one table of ops and keys: the checks, the messages and the
  primer's line of ops read them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

FORMAT = (
    '{"version":1,"edits":[{"op":"replaceFirst","find":"old","text":"new"}, ...]}; ops: '
    "insertAfter/insertBefore (anchor, text, optional occurrence>=1), replaceFirst/"
    "replaceAll (find, text, optional regex, caseSensitive, wholeWord; replaceAll also "
    "expectedCount), replaceRange (startLine, endLine, text)"
)


class _Edit(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


class InsertAfter(_Edit):
    """An insertAfter edit: ``text`` goes in after the ``occurrence``-th ``anchor`` (None:
    the anchor must occur once)."""

    op: Literal["insertAfter"]
    anchor: str = Field(min_length=1)
    text: str = Field(min_length=1)
    # No default: an anchor found more than once is refused unless occurrence names the one
    # meant, as a structure target is (an insert beside the wrong twin is easy to approve).
    occurrence: int | None = Field(default=None, ge=1)


class InsertBefore(_Edit):
    """An insertBefore edit: ``text`` goes in before the ``occurrence``-th ``anchor`` (None:
    the anchor must occur once)."""

    op: Literal["insertBefore"]
    anchor: str = Field(min_length=1)
    text: str = Field(min_length=1)
    # No default: an anchor found more than once is refused unless occurrence names the one
    # meant, as a structure target is (an insert beside the wrong twin is easy to approve).
    occurrence: int | None = Field(default=None, ge=1)


class ReplaceFirst(_Edit):
    """A replaceFirst edit: the first match of ``find`` becomes ``text``."""

    op: Literal["replaceFirst"]
    find: str = Field(min_length=1)
    text: str
    regex: bool = False
    caseSensitive: bool = True
    wholeWord: bool = False


class ReplaceAll(_Edit):
    """A replaceAll edit: every match of ``find`` becomes ``text``, once their number is checked
    against ``expectedCount`` (when given)."""

    op: Literal["replaceAll"]
    find: str = Field(min_length=1)
    text: str
    regex: bool = False
    caseSensitive: bool = True
    wholeWord: bool = False
    expectedCount: int | None = Field(default=None, ge=1)


class ReplaceRange(_Edit):
    """A replaceRange edit: ``text`` in place of lines ``startLine`` through ``endLine``."""

    op: Literal["replaceRange"]
    startLine: int = Field(ge=1)
    endLine: int = Field(ge=1)
    text: str


EditModel = InsertAfter | InsertBefore | ReplaceFirst | ReplaceAll | ReplaceRange
OPS: dict[str, type[EditModel]] = {
    "insertAfter": InsertAfter,
    "insertBefore": InsertBefore,
    "replaceFirst": ReplaceFirst,
    "replaceAll": ReplaceAll,
    "replaceRange": ReplaceRange,
}


def _version(value: Any) -> Any:
    # Strict as JSON is: pydantic would take true (== 1) for the literal 1.
    if type(value) is not int or value != 1:
        raise ValueError("version must be the number 1")
    return value


class EditList(BaseModel):
    """A checked edit list: its edits, in the order they apply."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)

    version: Annotated[int, BeforeValidator(_version)]
    edits: list[Annotated[EditModel, Field(discriminator="op")]] = Field(min_length=1)


def op_keys(op: str) -> str:
    """The keys of ``op`` as a refusal lists them: ``op, anchor, text, occurrence (optional)``."""
    names = []
    for name, info in OPS[op].model_fields.items():
        names.append(name if info.is_required() else f"{name} (optional)")
    return ", ".join(names)


def _top_level(field: str, kind: str) -> str:
    if kind == "missing":
        return f"the top-level field {field!r} is missing; expected {FORMAT}"
    if field == "version":
        return "version must be the number 1"
    if field == "edits":
        return "edits must be a non-empty array of edit objects"
    if kind == "extra_forbidden":
        return f"unknown top-level field {field!r}; the document has only version and edits"
    return f"the document's {field} cannot be read; expected {FORMAT}"


def _describe(error: Any, document: dict[str, Any]) -> tuple[str, int | None]:
    """One pydantic error as a sentence naming the edit, its op, the field and the fix,
    with the index of the edit it is in (None: the document's own keys)."""
    loc = tuple(error["loc"])
    kind = error["type"]
    if len(loc) < 2 or loc[0] != "edits":
        return _top_level(str(loc[0]) if loc else "document", kind), None
    index = int(loc[1])
    edit = document["edits"][index]
    if not isinstance(edit, dict):
        return f"edit {index} must be a JSON object with an op field", index
    if kind == "union_tag_not_found":
        return f"edit {index} has no op; op is one of {', '.join(OPS)}", index
    op = edit.get("op")
    if kind == "union_tag_invalid":
        return f"edit {index}: unknown op {op!r}; op is one of {', '.join(OPS)}", index
    where = f"edit {index} ({op})"
    allowed = f"{op} takes: {op_keys(str(op))}"
    field = loc[3] if len(loc) > 3 else "?"
    if kind == "missing":
        return f"{where}: field {field!r} is missing; {allowed}", index
    if kind == "extra_forbidden":
        return f"{where}: unknown field {field!r}; {allowed}", index
    if kind == "string_too_short":
        return f"{where}: {field} must not be empty", index
    if kind in ("greater_than_equal", "int_type", "int_from_float"):
        return f"{where}: {field} must be a whole number >= 1", index
    if kind == "string_type":
        return f"{where}: {field} must be a string", index
    if kind == "bool_type":
        return f"{where}: {field} must be true or false (a JSON boolean, not a string)", index
    return f"{where}: {field} cannot be read; {allowed}", index


def check(document: dict[str, Any]) -> tuple[list[tuple[str, int | None]], EditList | None]:
    """Every problem of the document in order (with the index of the edit it is in), or
    the edit list."""
    try:
        return [], EditList.model_validate(document)
    except ValidationError as error:
        return [_describe(problem, document) for problem in error.errors()], None
