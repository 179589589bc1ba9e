"""The edit list's models word every refusal as the hand-written checks they replaced did.

The former checks (kept here as the oracle) and the pydantic models of
core/engines/edit_models.py must, on any document, accept the same edits with the same
values, or refuse with the same message and details (every problem, in the same order).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_core import PydanticUndefined

from llm_operator.core.engines import edits
from llm_operator.core.engines.edit_models import FORMAT as _FORMAT
from llm_operator.core.engines.edit_models import OPS, check
from llm_operator.core.errors import OperatorError
from support.examples import examples

REQUIRED: Any = object()  # the default of a key that must be given


@dataclass(frozen=True)
class Key:
    """One key of an edit op: its JSON type (strict: 1.0 is not a whole number, "true" not
    a boolean), whether it may be null, and its lower bound (length for text, value for
    numbers)."""

    name: str
    kind: type
    default: Any = REQUIRED
    nullable: bool = False
    minimum: int | None = None

    def is_required(self) -> bool:
        return self.default is REQUIRED

    def problem(self, value: Any) -> str | None:
        """What is wrong with ``value`` (the end of a sentence naming the key), or None."""
        if value is None and self.nullable:
            return None
        if self.kind is str:
            if not isinstance(value, str):
                return f"{self.name} must be a string"
            if self.minimum is not None and len(value) < self.minimum:
                return f"{self.name} must not be empty"
        elif self.kind is int:
            if type(value) is not int or (self.minimum is not None and value < self.minimum):
                return f"{self.name} must be a whole number >= 1"
        elif type(value) is not bool:
            return f"{self.name} must be true or false (a JSON boolean, not a string)"
        return None


_INSERT = (Key("anchor", str, minimum=1), Key("text", str, minimum=1))
_OPTIONS = (Key("regex", bool, False), Key("caseSensitive", bool, True))
_REPLACE = (Key("find", str, minimum=1), Key("text", str), *_OPTIONS, Key("wholeWord", bool, False))
# Each op's keys, in the order problems are reported.
KEYS_OF: dict[str, tuple[Key, ...]] = {
    # No default since inserts refuse an anchor found twice: null is "not given".
    "insertAfter": (*_INSERT, Key("occurrence", int, None, nullable=True, minimum=1)),
    "insertBefore": (*_INSERT, Key("occurrence", int, None, nullable=True, minimum=1)),
    "replaceFirst": _REPLACE,
    "replaceAll": (*_REPLACE, Key("expectedCount", int, None, nullable=True, minimum=1)),
    "replaceRange": (
        Key("startLine", int, minimum=1),
        Key("endLine", int, minimum=1),
        Key("text", str),
    ),
}


def _fields(op: str) -> str:
    names = ["op"]
    for key in KEYS_OF[op]:
        names.append(key.name if key.is_required() else f"{key.name} (optional)")
    return ", ".join(names)


def _edit_problems(index: int, edit: Any) -> tuple[list[str], dict[str, Any] | None]:
    """Every problem of edit ``index`` (in the order of its keys, then unknown keys), or
    the edit itself."""
    if not isinstance(edit, dict):
        return [f"edit {index} must be a JSON object with an op field"], None
    if "op" not in edit:
        return [f"edit {index} has no op; op is one of {', '.join(KEYS_OF)}"], None
    op = edit["op"]
    if not isinstance(op, str) or op not in KEYS_OF:
        return [f"edit {index}: unknown op {op!r}; op is one of {', '.join(KEYS_OF)}"], None
    keys = KEYS_OF[op]
    where = f"edit {index} ({op})"
    allowed = f"{op} takes: {_fields(op)}"
    problems: list[str] = []
    values: dict[str, Any] = {}
    for key in keys:
        if key.name not in edit:
            if key.is_required():
                problems.append(f"{where}: field {key.name!r} is missing; {allowed}")
            continue
        problem = key.problem(edit[key.name])
        if problem is None:
            values[key.name] = edit[key.name]
        else:
            problems.append(f"{where}: {problem}")
    known = {"op", *(key.name for key in keys)}
    problems += [
        f"{where}: unknown field {name!r}; {allowed}" for name in edit if name not in known
    ]
    return problems, None if problems else {"op": op, **values}


def _missing(name: str) -> str:
    return f"the top-level field {name!r} is missing; expected {_FORMAT}"


def _hand_check(
    document: dict[str, Any],
) -> tuple[list[tuple[str, int | None]], list[dict[str, Any]] | None]:
    """Every problem of the document in order (with the index of the edit it is in), or
    the edit list."""
    problems: list[tuple[str, int | None]] = []
    version = document.get("version", REQUIRED)
    if version is REQUIRED:
        problems.append((_missing("version"), None))
    elif type(version) is not int or version != 1:
        problems.append(("version must be the number 1", None))
    edits: list[dict[str, Any]] = []
    found = document.get("edits", REQUIRED)
    if found is REQUIRED:
        problems.append((_missing("edits"), None))
    elif not isinstance(found, list) or not found:
        problems.append(("edits must be a non-empty array of edit objects", None))
    else:
        for index, item in enumerate(found):
            wrong, edit = _edit_problems(index, item)
            problems += [(problem, index) for problem in wrong]
            if edit is not None:
                edits.append(edit)
    problems += [
        (f"unknown top-level field {name!r}; the document has only version and edits", None)
        for name in document
        if name not in ("version", "edits")
    ]
    return problems, None if problems else edits


def _outcome(
    problems: list[tuple[str, int | None]], accepted: list[dict[str, Any]] | None
) -> tuple[str, Any]:
    if accepted is None:
        rest = len(problems) - 1
        more = f" (and {rest} more problem{'s' if rest != 1 else ''})" if rest else ""
        details: dict[str, Any] = {"problems": [problem for problem, _ in problems]}
        if problems[0][1] is not None:
            details["edit"] = problems[0][1]
        return "refused", (problems[0][0] + more, details)
    return "accepted", accepted


def _with_defaults(edit: dict[str, Any]) -> dict[str, Any]:
    keys = KEYS_OF[edit["op"]]
    return {"op": edit["op"], **{k.name: edit.get(k.name, k.default) for k in keys}}


def _former(document: dict[str, Any]) -> tuple[str, Any]:
    problems, accepted = _hand_check(document)
    return _outcome(problems, None if accepted is None else [_with_defaults(e) for e in accepted])


def _models(document: dict[str, Any]) -> tuple[str, Any]:
    problems, parsed = check(document)
    accepted = None if parsed is None else [edit.model_dump() for edit in parsed.edits]
    return _outcome(problems, accepted)


KEYS = sorted({key.name for keys in KEYS_OF.values() for key in keys} | {"op", "bogus"})
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-1, 3),
    st.sampled_from([1.0, 2.5]),
    st.sampled_from(["", "a", "x\n", "1", "true"]),
    st.sampled_from([[], {}, ["a"]]),
)
OP_VALUES = st.one_of(st.sampled_from([*KEYS_OF, "replace", "", None, 1]), VALUES)
EDIT = st.one_of(
    st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=7).flatmap(
        lambda rest: OP_VALUES.map(lambda op: {"op": op, **rest})
    ),
    VALUES,
)


def _valid_edit(op: str) -> st.SearchStrategy[dict[str, Any]]:
    """An edit of ``op`` with every required key right and some optional ones."""
    good = {str: st.sampled_from(["a", "x\n", "é"]), int: st.integers(1, 5), bool: st.booleans()}
    keys = KEYS_OF[op]
    required = {key.name: good[key.kind] for key in keys if key.is_required()}
    optional = {key.name: good[key.kind] for key in keys if not key.is_required()}
    return st.fixed_dictionaries(required, optional=optional).map(lambda d: {"op": op, **d})


@st.composite
def _near_valid_edit(draw: st.DrawFn) -> dict[str, Any]:
    """A valid edit with one key given a wrong value, dropped, or added."""
    op = draw(st.sampled_from(list(KEYS_OF)))
    edit = draw(_valid_edit(op))
    key = draw(st.sampled_from(["op", "bogus", *(key.name for key in KEYS_OF[op])]))
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
                st.sampled_from(list(KEYS_OF)).flatmap(_valid_edit), min_size=1, max_size=3
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
def test_any_document_is_accepted_or_refused_as_the_former_checks_did(
    document: dict[str, Any],
) -> None:
    document = json.loads(json.dumps(document))
    assert _models(document) == _former(document)


BOUNDARY = [None, True, False, 0, -1, 1, 2, 1.0, 2.5, "", "a", "1", "true", [], {}, ["a"]]
VALID = {"anchor": "a", "text": "b", "find": "c", "startLine": 1, "endLine": 2}


@pytest.mark.parametrize(
    ("op", "key"),
    [(op, key.name) for op, keys in KEYS_OF.items() for key in keys] + [("replaceFirst", "op")],
)
def test_every_key_of_every_op_takes_and_refuses_what_it_did(op: str, key: str) -> None:
    """Each key of each op given each kind of JSON value, the rest of the edit valid: the
    models and the former checks agree (random documents reach these edges too rarely)."""
    names = [k.name for k in KEYS_OF[op] if k.is_required()]
    for value in BOUNDARY:
        edit = {"op": op, **{name: VALID[name] for name in names}, key: value}
        document = {"version": 1, "edits": [edit]}
        assert _models(document) == _former(document), (op, key, value)


@pytest.mark.parametrize("version", [True, 1.0, "1"])
def test_version_is_the_number_1_only(version: object) -> None:
    document = {"version": version, "edits": [{"op": "insertAfter", "anchor": "a", "text": "b"}]}
    with pytest.raises(OperatorError) as refused:
        edits.parse_edits(json.dumps(document))
    assert refused.value.message == "version must be the number 1"


@pytest.mark.parametrize("op", list(KEYS_OF))
def test_each_op_model_has_the_former_keys(op: str) -> None:
    model = OPS[op]
    declared = {
        name: PydanticUndefined if info.is_required() else info.default
        for name, info in model.model_fields.items()
        if name != "op"
    }
    assert declared == {
        key.name: PydanticUndefined if key.is_required() else key.default for key in KEYS_OF[op]
    }
    assert list(declared) == [key.name for key in KEYS_OF[op]]  # problems come in this order


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
