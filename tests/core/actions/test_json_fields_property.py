"""Any value in any ``*_json`` field of any action, valid JSON or not, gets a named refusal
or runs: never ERR_INTERNAL. The fields come from the action table, so a new action or
field is covered as soon as it is declared."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings

from llm_operator.core import actions
from llm_operator.core.actions.base import ActionSpec
from llm_operator.core.actions.fields import B64_SUFFIX, json_twin
from llm_operator.core.actions.reference import field_docs
from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.scanner import SCAN_LIMIT
from llm_operator.core.store.workspace import Workspace
from support.examples import examples
from support.fixtures import cmd, reply, run_session
from support.json_payloads import PAYLOADS

SOURCE = (
    "# OPERATOR_BEGIN intro\nGREETING = 'hi'\n# OPERATOR_END intro\n\n\n"
    "def f(x):\n    return x\n\n\nclass C:\n    def m(self):\n        return 1\n"
)
# A value for each required field that is not the one under test, so that the command
# gets past the validator and its payload reaches the action's own parsing.
PLAUSIBLE = {"path": "a.py", "marker_id": "intro", "target": "def f(", "position": "end"}
BLOCKS_PER_REPLY = 10


def json_fields() -> list[tuple[ActionSpec, str]]:
    """Every (action, ``*_json`` field) pair of the action table."""
    return [
        (spec, json_twin(name))
        for spec in actions.all_specs()
        for name in spec.fields.model_fields
        if name.endswith(B64_SUFFIX)
    ]


def test_the_table_has_json_fields_to_try() -> None:
    pairs = {(spec.name, field) for spec, field in json_fields()}
    assert ("fs.write", "content_json") in pairs
    assert ("fs.applyEdits", "edits_json") in pairs
    assert ("fs.search", "query_json") in pairs
    assert len(pairs) >= 25


def block_for(spec: ActionSpec, field: str, value: str, number: int) -> str:
    """A block of ``spec`` with ``value`` in ``field`` and every other required field
    (or one of each required pair) given a plausible value."""
    base = field.removesuffix("_json")
    names = spec.fields.model_fields
    fields = {field: value}
    for doc in field_docs(spec):
        name = doc.name
        if name in (base, f"{base}{B64_SUFFIX}"):
            continue
        if doc.required != "yes" and not doc.required.startswith("one of"):
            continue
        plain = name.removesuffix(B64_SUFFIX)
        if name == plain:
            fields[name] = PLAUSIBLE.get(name, "x")
        elif plain not in names:  # a text without a plain form: given as JSON
            fields[json_twin(name)] = json.dumps(PLAUSIBLE.get(plain, "x"))
    return cmd(f"j-{number}", spec.name, **fields)


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(value=PAYLOADS)
@example(value=json.dumps("x" * 25_000))  # 25 blocks of it: more than the scanner reads
def test_no_json_payload_in_any_field_is_an_internal_error(value: str) -> None:
    pairs = json_fields()
    blocks = [block_for(spec, field, value, n) for n, (spec, field) in enumerate(pairs)]
    # Only the last 200,000 characters of a message are scanned: blocks of big values go
    # in replies of their own, so every block is read.
    per_reply = BLOCKS_PER_REPLY if len(value) * BLOCKS_PER_REPLY < SCAN_LIMIT // 2 else 1
    results = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "ws"
        root.mkdir()
        (root / "a.py").write_text(SOURCE, encoding="utf-8")
        (Path(folder) / "state").mkdir()
        session = Session(Workspace(root), Path(folder) / "state")
        # A few blocks per reply: 40,000-character values in every block of the table
        # would pass the size limit of one reply.
        # A generated command line is checked, never run: run.command is not approved.
        approve = {f"j-{n}": spec.review is None for n, (spec, _) in enumerate(pairs)}
        for start in range(0, len(blocks), per_reply):
            text = reply(*blocks[start : start + per_reply])
            results += run_session(session, text, approve=approve)
    assert len(results) == len(pairs)
    for (spec, field), result in zip(pairs, results, strict=True):
        assert "ERR_INTERNAL" not in result.summary, (spec.name, field, value[:80], result)
        if not result.ok:
            assert result.code is not None, result.summary
            assert "Traceback" not in result.summary


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("9" * 5000, "a number has 5000 digits"),
        ("NaN", "NaN is not JSON"),
        ("-Infinity", "-Infinity is not JSON"),
        ("1e999", "the number 1e999 is beyond the range of a double"),
        ("[" * 150 + "]" * 150, "arrays and objects nest too deeply"),
        ("[" * 5000 + "]" * 5000, "arrays and objects nest too deeply"),
    ],
)
def test_json_the_app_cannot_hold_is_refused_by_name(
    value: str, said: str, run_reply: object, workspace: Path
) -> None:
    blocks = [
        cmd("w", "fs.write", path="new.txt", content_json=value),
        cmd("e", "fs.applyEdits", path="README.md", edits_json=value),
        cmd("q", "fs.search", path="README.md", query_json=value),
    ]
    results = run_reply(reply(*blocks))  # type: ignore[operator]
    for result, field in zip(results, ["content_json", "edits_json", "query_json"], strict=True):
        assert result.code == "ERR_INVALID_JSON", result.summary
        assert f"{field} cannot be read: {said}" in result.summary, result.summary
    assert not (workspace / "new.txt").exists()
