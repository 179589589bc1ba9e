"""What the command models refuse, through the validator, is always a refusal the protocol
knows: any action, any of its fields (aliases and ``*_json`` twins too), any value.

The models are pydantic's; the validator words pydantic's first error. Whatever value a
reply sends, the validator answers (never raises), with an ERR_ code of the registry, on
one line of printable ASCII; a refusal worded from pydantic's error (``field: what to
fix``) stays short (a value of thousands of characters is never echoed whole), and a
message that opens with a field name opens with one the command sent (or the field of an
alias it sent), never its twin.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from llm_operator.core import actions
from llm_operator.core.error_codes import ERROR_CODES
from llm_operator.core.errors import InvalidCommand
from llm_operator.core.protocol.scanner import CommandBlock, scan
from llm_operator.core.protocol.validator import Command, Invalid, _refusal, validate
from support.examples import examples

NAMES = list(actions.action_names())
HOSTILE = [
    "", "0", "1", "-1", "+3", "1.0", "1e999", "9" * 5000, "true", "No", "x y", "aGVsbG8=",
    "aGVsbG8", "/w==", "4pyT", '"a"', '"\\ud800"', '"a\\u0000b"', "{}", '{"version":1,"edits":[]}',
    "[" * 5000, '"' + "\\n" * 2000 + '"', "before", "block-1", "python", "echo 'x", "A" * 6000,
]  # fmt: skip
VALUES = st.one_of(
    st.sampled_from(HOSTILE),
    # (a value that is a marker line would end the block: the scanner's case, not this one)
    st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=60).filter(
        lambda value: "OPERATOR" not in value
    ),
)


def _keys(action: str) -> list[str]:
    model = actions.get_spec(action).fields
    names = [*model.model_fields, *model.ALIASES]
    return names + [f"{name[:-4]}_json" for name in model.model_fields if name.endswith("_b64")]


@st.composite
def _command(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    action = draw(st.sampled_from(NAMES))
    names = _keys(action)
    keys = draw(st.lists(st.sampled_from(names), unique=True, max_size=5)) if names else []
    fields = {key: draw(VALUES) for key in keys}
    if action.startswith("fs.") and draw(st.booleans()):
        fields["path"] = "src/a.py"
    return action, fields


def _block(action: str, fields: dict[str, str]) -> CommandBlock:
    lines = ["OPERATOR_CMD", "version: 1", "id: m1", f"action: {action}"]
    lines += [f"{key}: {value}" for key, value in fields.items()]
    items = scan("\n".join([*lines, "END_OPERATOR_CMD"]) + "\n").items
    (block,) = [item for item in items if isinstance(item, CommandBlock)]
    return block


@settings(max_examples=examples(600), deadline=None)
@given(_command())
# Found at the full example count: an empty old_text_b64 was refused as "old_text must not
# be empty", naming a field the client did not send.
@example(
    (
        "fs.replaceTextInStructure",
        {"target": "", "old_text_b64": "", "new_text": "", "path": "a.py"},
    )
)
@example(
    (
        "fs.replaceTextInStructure",
        {"target": "def f", "old_text_json": '""', "new_text": "x", "path": "a.py"},
    )
)
def test_every_refusal_is_a_known_code_on_one_short_line(
    command: tuple[str, dict[str, str]],
) -> None:
    action, fields = command
    checked = validate(_block(action, fields))
    if isinstance(checked, Command):
        assert checked.spec.name == action
        return
    assert isinstance(checked, Invalid)
    assert checked.code in ERROR_CODES
    assert re.fullmatch(r"[\x20-\x7e]+", checked.message), checked.message
    if re.match(r"[a-z][a-z_0-9]*: ", checked.message):  # worded from pydantic's error
        assert len(checked.message) < 300, checked.message
    named = re.match(r"([a-z][a-z_0-9]*)[: ]", checked.message)
    if named is not None and named.group(1) in _keys(action):
        # An alias is named by its field (line: -> start), as the allowed keys list it.
        aliases = actions.get_spec(action).fields.ALIASES
        sent = {aliases.get(key, key) for key in fields} | set(fields)
        assert named.group(1) in sent


@pytest.mark.parametrize(
    ("problem", "code", "message"),
    [
        # a value of the wrong Python type (only a caller other than a paste can send one)
        (
            {"type": "string_type", "loc": ("path",), "msg": "x", "input": 5},
            "ERR_INVALID_FIELD",
            "path: must be text, got int",
        ),
        (
            {"type": "extra_forbidden", "loc": ("nope",), "msg": "x", "input": "secret"},
            "ERR_INVALID_FIELD",
            "nope: not a field of this action",
        ),
        # an error type the models do not raise today: pydantic's words, never the value
        (
            {"type": "too_long", "loc": ("path",), "msg": "too long", "input": "secret"},
            "ERR_INVALID_FIELD",
            "path: too long",
        ),
    ],
)
def test_pydantic_errors_become_the_protocols(
    problem: dict[str, object], code: str, message: str
) -> None:
    refused = _refusal(actions.get_spec("fs.read"), problem)
    assert isinstance(refused, InvalidCommand)
    assert (refused.code, refused.message) == (code, message)


def test_a_parsers_value_error_is_worded_under_the_actions_code() -> None:
    model = actions.get_spec("fs.readSlice").fields
    with pytest.raises(ValidationError) as raised:
        model.model_validate({"path": "a", "start": True})
    refused = _refusal(actions.get_spec("fs.readSlice"), raised.value.errors()[0])
    assert refused.code == "ERR_INVALID_READSLICE_PARAMS"
    assert refused.message == "start: must be a whole number written in digits, got True"


def _typed_fields() -> list[tuple[str, str]]:
    from llm_operator.core.actions.fields import value_type

    return [
        (action, name)
        for action in NAMES
        for name, info in actions.get_spec(action).fields.model_fields.items()
        if value_type(info) in (int, bool)
    ]


@pytest.mark.parametrize(("action", "field"), _typed_fields())
def test_a_long_value_is_never_echoed_whole(action: str, field: str) -> None:
    model = actions.get_spec(action).fields
    good = {"path": "src/a.py", "marker_id": "m-1", "position": "end", "name": "tests"}
    good |= {"content_b64": "aGk=", "edits_b64": "e30=", "patch_b64": "aGk="}
    required = {name: good[name] for name, info in model.model_fields.items() if info.is_required()}
    for value in ("9" * 5000, "y" * 5000, "-" + "1" * 5000):
        fields = {**required, field: value}
        checked = validate(_block(action, fields))
        assert isinstance(checked, Invalid)
        assert checked.message.startswith(f"{field}: "), checked.message
        assert len(checked.message) < 300, checked.message
