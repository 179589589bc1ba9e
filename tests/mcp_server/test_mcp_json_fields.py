"""``*_json`` arguments of MCP calls: any value, valid JSON or not, gets a named refusal or
runs, never ERR_INTERNAL, on every tool that has such a field (from the schemas)."""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from llm_operator.core.plan.session import Session
from llm_operator.core.store.workspace import Workspace
from llm_operator.mcp_server.approval import Allow
from llm_operator.mcp_server.broker import Broker
from llm_operator.mcp_server.tools import all_tools
from support.examples import examples
from support.json_payloads import PAYLOADS
from support.mcp_client import call, connected

SOURCE = (
    "# OPERATOR_BEGIN intro\nGREETING = 'hi'\n# OPERATOR_END intro\n\n\n"
    "def f(x):\n    return x\n\n\nclass C:\n    def m(self):\n        return 1\n"
)
PLAUSIBLE = {"path": "a.py", "marker_id": "intro", "target": "def f(", "position": "end"}


def _group(name: str) -> str:
    return name.removesuffix("_b64").removesuffix("_json")


def json_calls(value: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(tool, field, arguments) for every ``*_json`` field of every tool: ``value`` in the
    field, and a plausible value for each other field the tool needs."""
    calls = []
    for tool in all_tools():
        properties = tool.input_schema["properties"]
        needed = set(tool.input_schema.get("required", ()))
        needed |= {
            _group(name)
            for name, schema in properties.items()
            if "give one of" in schema["description"]
        }
        for field in (name for name in properties if name.endswith("_json")):
            arguments: dict[str, Any] = {field: value}
            for name in sorted(needed - {_group(field)}):
                if name in properties:
                    arguments[name] = PLAUSIBLE.get(name, "x")
                else:  # a text given as base64 or JSON only
                    arguments[f"{name}_json"] = json.dumps(PLAUSIBLE.get(name, "x"))
            calls.append((tool.name, field, arguments))
    return calls


def test_every_tool_with_a_json_field_is_tried() -> None:
    tried = {(tool, field) for tool, field, _ in json_calls('"x"')}
    assert ("fs_write", "content_json") in tried
    assert ("fs_applyEdits", "edits_json") in tried
    assert ("fs_insertRegion", "content_json") in tried
    assert len(tried) >= 25


@pytest.mark.slow
@settings(
    max_examples=examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(value=PAYLOADS)
def test_no_json_argument_is_an_internal_error(value: str) -> None:
    calls = json_calls(value)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "ws"
        root.mkdir()
        (root / "a.py").write_text(SOURCE, encoding="utf-8")
        state = Path(folder) / "state"
        state.mkdir()
        broker = Broker(lambda: Session(Workspace(root), state), Allow(), gather=0.0)

        async def scenario() -> list[tuple[bool, str]]:
            answers = []
            for tool, _, arguments in calls:
                answer = await broker.call(tool, arguments, "test", None)
                answers.append((answer.is_error, answer.text))
            return answers

        try:
            answers = asyncio.run(scenario())
        finally:
            broker.close()
    for (tool, field, _), (is_error, text) in zip(calls, answers, strict=True):
        assert "ERR_INTERNAL" not in text, (tool, field, value[:80], text[:400])
        if is_error:
            assert "(ERR_" in text.split("\n", 3)[2], text[:400]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX processes")
def test_json_the_app_cannot_hold_is_refused_over_stdio(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    async def scenario() -> list[tuple[bool, str]]:
        async with connected(workspace, state_dir, "--approve", "yes", errlog=tmp_path / "e") as s:
            return [
                await call(s, "fs_write", path="n.txt", content_json="9" * 5000),
                await call(s, "fs_applyEdits", path="README.md", edits_json="NaN"),
                await call(s, "fs_search", path="README.md", query_json="[" * 150 + "]" * 150),
            ]

    answers = asyncio.run(scenario())
    for (is_error, text), field, said in zip(
        answers,
        ["content_json", "edits_json", "query_json"],
        ["a number has 5000 digits", "NaN is not JSON", "arrays and objects nest too deeply"],
        strict=True,
    ):
        assert is_error
        assert "(ERR_INVALID_JSON)" in text, text
        assert f"{field} cannot be read: {said}" in text, text
    assert not (workspace / "n.txt").exists()
