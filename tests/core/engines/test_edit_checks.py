"""The edit list's checks word every refusal as the pydantic models they replaced did.

The former models (kept here, pydantic is a test dependency only) are the oracle: on any
document, both must accept the same edits with the same values, or refuse with the same
message and details. A real ``exec`` of fs.applyEdits runs without pydantic (test in
tests/cli/test_start_up_imports.py).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Annotated, Any, Literal

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from llm_operator.core.engines import edits
from llm_operator.core.engines.edits import _FORMAT
from llm_operator.core.errors import OperatorError
from support.examples import examples


class _Edit(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class InsertAfter(_Edit):
    op: Literal["insertAfter"]
    anchor: str = Field(min_length=1)
    text: str = Field(min_length=1)
    # No default since inserts refuse an anchor found twice: null is "not given".
    occurrence: int | None = Field(default=None, ge=1)


class InsertBefore(_Edit):
    op: Literal["insertBefore"]
    anchor: str = Field(min_length=1)
    text: str = Field(min_length=1)
    # No default since inserts refuse an anchor found twice: null is "not given".
    occurrence: int | None = Field(default=None, ge=1)


class ReplaceFirst(_Edit):
    op: Literal["replaceFirst"]
    find: str = Field(min_length=1)
    text: str
    regex: bool = False
    caseSensitive: bool = True
    wholeWord: bool = False


class ReplaceAll(_Edit):
    op: Literal["replaceAll"]
    find: str = Field(min_length=1)
    text: str
    regex: bool = False
    caseSensitive: bool = True
    wholeWord: bool = False
    expectedCount: int | None = Field(default=None, ge=1)


class ReplaceRange(_Edit):
    op: Literal["replaceRange"]
    startLine: int = Field(ge=1)
    endLine: int = Field(ge=1)
    text: str


EditModel = InsertAfter | InsertBefore | ReplaceFirst | ReplaceAll | ReplaceRange
Edit = Annotated[EditModel, Field(discriminator="op")]
_MODELS: dict[str, type[_Edit]] = {
    "insertAfter": InsertAfter,
    "insertBefore": InsertBefore,
    "replaceFirst": ReplaceFirst,
    "replaceAll": ReplaceAll,
    "replaceRange": ReplaceRange,
}


class EditList(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    version: Literal[1]
    edits: list[Edit] = Field(min_length=1)


def _fields(op: str) -> str:
    model = _MODELS[op]
    names = []
    for name, info in model.model_fields.items():
        names.append(name if info.is_required() else f"{name} (optional)")
    return ", ".join(names)


def _describe(error: Any, document: Any) -> str:
    """One pydantic error as a sentence naming the edit, its op, the field and the fix."""
    loc = tuple(error["loc"])
    kind = error["type"]
    if not loc or loc[0] != "edits" or len(loc) < 2:
        field = loc[0] if loc else "document"
        if kind == "missing":
            return f"the top-level field {field!r} is missing; expected {_FORMAT}"
        if field == "version":
            return "version must be the number 1"
        if field == "edits":
            return "edits must be a non-empty array of edit objects"
        if kind == "extra_forbidden":
            return f"unknown top-level field {field!r}; the document has only version and edits"
        return f"{field}: {error['msg']}"
    index = loc[1]
    edit = document["edits"][index]
    op = edit.get("op") if isinstance(edit, dict) else None
    if kind == "model_type" or not isinstance(edit, dict):
        return f"edit {index} must be a JSON object with an op field"
    if kind == "union_tag_not_found":
        return f"edit {index} has no op; op is one of {', '.join(_MODELS)}"
    if kind == "union_tag_invalid":
        return f"edit {index}: unknown op {op!r}; op is one of {', '.join(_MODELS)}"
    where = f"edit {index} ({op})"
    allowed = f"{op} takes: {_fields(str(op))}"
    field = loc[3] if len(loc) > 3 else "?"
    if kind == "missing":
        return f"{where}: field {field!r} is missing; {allowed}"
    if kind == "extra_forbidden":
        return f"{where}: unknown field {field!r}; {allowed}"
    if kind == "string_too_short":
        return f"{where}: {field} must not be empty"
    if kind in ("greater_than_equal", "int_type", "int_from_float"):
        return f"{where}: {field} must be a whole number >= 1"
    if kind == "string_type":
        return f"{where}: {field} must be a string"
    if kind == "bool_type":
        return f"{where}: {field} must be true or false (a JSON boolean, not a string)"
    return f"{where}: {field}: {error['msg']}; {allowed}"


def _oracle(document: dict[str, Any]) -> tuple[str, Any]:
    try:
        parsed = EditList.model_validate(document)
    except ValidationError as exc:
        errors = exc.errors()
        problems = [_describe(error, document) for error in errors]
        rest = len(problems) - 1
        more = f" (and {rest} more problem{'s' if rest != 1 else ''})" if rest else ""
        first = errors[0]["loc"]
        details: dict[str, Any] = {"problems": problems}
        if len(first) > 1 and first[0] == "edits":
            details["edit"] = first[1]
        return "refused", (problems[0] + more, details)
    accepted = []
    for edit in parsed.edits:
        values = edit.model_dump()
        accepted.append((values.pop("op"), values))
    return "accepted", accepted


def _ours(document: dict[str, Any]) -> tuple[str, Any]:
    problems, parsed = edits._check(document)
    if parsed is None:
        rest = len(problems) - 1
        more = f" (and {rest} more problem{'s' if rest != 1 else ''})" if rest else ""
        details: dict[str, Any] = {"problems": [problem for problem, _ in problems]}
        if problems[0][1] is not None:
            details["edit"] = problems[0][1]
        return "refused", (problems[0][0] + more, details)
    return "accepted", [(edit.op, dataclasses.asdict(edit)) for edit in parsed.edits]


KEYS = sorted({key.name for _, keys in edits.OPS.values() for key in keys} | {"op", "bogus"})
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-1, 3),
    st.sampled_from([1.0, 2.5]),
    st.sampled_from(["", "a", "x\n", "1", "true"]),
    st.sampled_from([[], {}, ["a"]]),
)
OP_VALUES = st.one_of(st.sampled_from([*edits.OPS, "replace", "", None, 1]), VALUES)
EDIT = st.one_of(
    st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=7).flatmap(
        lambda rest: OP_VALUES.map(lambda op: {"op": op, **rest})
    ),
    VALUES,
)


def _valid_edit(op: str) -> st.SearchStrategy[dict[str, Any]]:
    """An edit of ``op`` with every required key right and some optional ones."""
    good = {str: st.sampled_from(["a", "x\n", "é"]), int: st.integers(1, 5), bool: st.booleans()}
    _, keys = edits.OPS[op]
    required = {key.name: good[key.kind] for key in keys if key.is_required()}
    optional = {key.name: good[key.kind] for key in keys if not key.is_required()}
    return st.fixed_dictionaries(required, optional=optional).map(lambda d: {"op": op, **d})


@st.composite
def _near_valid_edit(draw: st.DrawFn) -> dict[str, Any]:
    """A valid edit with one key given a wrong value, dropped, or added."""
    op = draw(st.sampled_from(list(edits.OPS)))
    edit = draw(_valid_edit(op))
    key = draw(st.sampled_from(["op", "bogus", *(key.name for key in edits.OPS[op][1])]))
    if draw(st.booleans()):
        edit[key] = draw(VALUES)
    else:
        edit.pop(key, None)
    return edit


DOCUMENT = st.one_of(
    st.fixed_dictionaries(
        {"version": st.just(1), "edits": st.lists(_near_valid_edit(), min_size=1, max_size=3)}
    ),
    st.fixed_dictionaries(
        {
            "version": st.just(1),
            "edits": st.lists(
                st.sampled_from(list(edits.OPS)).flatmap(_valid_edit), min_size=1, max_size=3
            ),
        }
    ),
    st.fixed_dictionaries(
        {},
        optional={
            "version": st.one_of(st.just(1), VALUES),
            "edits": st.one_of(st.lists(EDIT, max_size=3), VALUES),
            "bogus": VALUES,
        },
    ),
)


@settings(max_examples=examples(400), deadline=None)
@given(DOCUMENT)
def test_any_document_is_accepted_or_refused_as_the_former_models_did(
    document: dict[str, Any],
) -> None:
    # The one intended difference: the models took true and 1.0 for version 1.
    assume(document.get("version") not in (True, 1.0) or type(document["version"]) is int)
    assert _ours(document) == _oracle(json.loads(json.dumps(document)))


@pytest.mark.parametrize("version", [True, 1.0, "1"])
def test_version_is_the_number_1_only(version: object) -> None:
    document = {"version": version, "edits": [{"op": "insertAfter", "anchor": "a", "text": "b"}]}
    with pytest.raises(OperatorError) as refused:
        edits.parse_edits(json.dumps(document))
    assert refused.value.message == "version must be the number 1"


@pytest.mark.parametrize("op", list(edits.OPS))
def test_each_op_table_row_is_its_edit_class(op: str) -> None:
    model, keys = edits.OPS[op]
    assert model.op == op
    declared = {field.name: field.default for field in dataclasses.fields(model)}
    assert declared == {
        key.name: dataclasses.MISSING if key.is_required() else key.default for key in keys
    }


def test_a_refusal_counts_every_problem() -> None:
    document = {"version": 2, "edits": [{"op": "insertAfter", "anchor": "", "x": 1}], "y": 0}
    with pytest.raises(OperatorError) as refused:
        edits.parse_edits(json.dumps(document))
    assert refused.value.message == "version must be the number 1 (and 4 more problems)"
    assert refused.value.details["problems"][1:] == [
        "edit 0 (insertAfter): anchor must not be empty",
        "edit 0 (insertAfter): field 'text' is missing; insertAfter takes: op, anchor, text, "
        "occurrence (optional)",
        "edit 0 (insertAfter): unknown field 'x'; insertAfter takes: op, anchor, text, "
        "occurrence (optional)",
        "unknown top-level field 'y'; the document has only version and edits",
    ]
