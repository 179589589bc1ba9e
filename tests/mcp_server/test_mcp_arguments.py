"""A tool call's arguments follow the tool's published input schema: a value of another
JSON type, an unknown key or two forms of one field are refused naming the field the
client sent and what it must be, and nothing is written."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.session import Session
from llm_operator.mcp_server.approval import Refuse
from llm_operator.mcp_server.broker import Broker, ToolText
from llm_operator.mcp_server.tools import all_tools
from support.actions import snapshot
from support.mcp_client import call, connected
from support.mcp_raw import line, raw_http, raw_stdio, tool_call

WRONG: dict[str, list[Any]] = {
    "string": [True, False, -1, 10**40, 1.5, None, [], {}],
    "integer": ["4", True, 1.5, None, [], {}],
    "boolean": ["true", 1, 0, None, []],
}
EXPECTED = {"string": "a string", "integer": "an integer", "boolean": "true or false"}


def _calls(broker: Broker, calls: list[tuple[str, dict[str, Any]]]) -> list[ToolText]:
    async def scenario() -> list[ToolText]:
        return [await broker.call(tool, arguments, "test", None) for tool, arguments in calls]

    answers = asyncio.run(scenario())
    for answer in answers:
        assert "ERR_INTERNAL" not in answer.text, answer.text
    return answers


def _broker(make_session: Callable[[], Session]) -> Broker:
    """A broker whose writes are rejected (none of them is meant to run)."""
    return Broker(make_session, Refuse(), gather=0.0)


def test_every_field_of_every_tool_refuses_other_json_types(
    make_session: Callable[[], Session], workspace: Path
) -> None:
    before = snapshot(workspace)
    calls = [
        (tool.name, {name: value})
        for tool in all_tools()
        for name, schema in tool.input_schema["properties"].items()
        for value in WRONG[schema["type"]]
    ]
    assert len(calls) > 300
    broker = _broker(make_session)
    try:
        answers = _calls(broker, calls)
    finally:
        broker.close()
    for (tool, arguments), answer in zip(calls, answers, strict=True):
        (name,) = arguments
        kind = next(t for t in all_tools() if t.name == tool).input_schema["properties"][name]
        assert answer.is_error, (tool, arguments, answer.text)
        assert "(ERR_INVALID_FIELD)" in answer.text, (tool, arguments, answer.text)
        assert f"{name} must be {EXPECTED[kind['type']]}, not " in answer.text, answer.text
    assert snapshot(workspace) == before


def test_integral_numbers_count_as_integers_and_aliases_take_their_fields_type(
    make_session: Callable[[], Session], workspace: Path
) -> None:
    (workspace / "five.txt").write_text("1\n2\n3\n4\n5\n", encoding="utf-8")
    broker = _broker(make_session)
    try:
        whole, alias, wrong_alias = _calls(
            broker,
            [
                ("fs_readSlice", {"path": "five.txt", "start": 4.0, "lines": 1}),
                ("fs_readSlice", {"path": "five.txt", "line": 2, "lines": 1}),
                ("fs_readSlice", {"path": "five.txt", "line": "2"}),
            ],
        )
    finally:
        broker.close()
    assert not whole.is_error, whole.text
    assert "4" in whole.text.split("\n\n", 1)[1]
    assert not alias.is_error, alias.text
    assert wrong_alias.is_error
    assert "line must be an integer, not a string" in wrong_alias.text


def test_unknown_keys_and_two_forms_of_one_field_are_refused_by_the_names_sent(
    make_session: Callable[[], Session], workspace: Path
) -> None:
    before = snapshot(workspace)
    broker = _broker(make_session)
    try:
        unknown, workspace_key, two_forms, json_and_b64, alias_twice, null, aliases = _calls(
            broker,
            [
                ("fs_write", {"path": "a.txt", "contnet": "x"}),
                ("fs_read", {"path": "a.txt", "workspace": "/tmp"}),
                ("fs_write", {"path": "a.txt", "content": "a\nb", "content_b64": "eA=="}),
                ("fs_write", {"path": "a.txt", "content_json": '"x"', "content_b64": "eA=="}),
                ("fs_search", {"path": "README.md", "q": "Demo", "query": "Demo"}),
                ("fs_searchTree", {"path": ".", "query": "x", "regex": None}),
                ("fs_readSlice", {"path": "README.md", "from": 2, "line": 1}),
            ],
        )
    finally:
        broker.close()
    assert "(ERR_UNKNOWN_KEY)" in unknown.text
    assert "fs_write has no field 'contnet'; did you mean content?" in unknown.text
    assert "its fields are: path, content, content_json, content_b64" in unknown.text
    assert "(ERR_UNKNOWN_KEY)" in workspace_key.text
    assert "serves the one workspace it was started on" in workspace_key.text
    assert "(ERR_CONFLICTING_FIELDS)" in two_forms.text
    assert "content and content_b64 are forms of one field" in two_forms.text
    assert "content_json and content_b64 are forms of one field" in json_and_b64.text
    assert "(ERR_DUPLICATE_KEY)" in alias_twice.text
    assert "q is another name for query" in alias_twice.text
    assert "regex must be true or false, not null; leave the field out" in null.text
    # Two aliases of one field: both are named, and not the field the client never sent.
    assert "(ERR_DUPLICATE_KEY)" in aliases.text
    assert "from and line are both names for start; give one of them" in aliases.text
    assert snapshot(workspace) == before


def test_text_sent_plainly_is_never_named_by_its_base64_twin(
    make_session: Callable[[], Session], workspace: Path
) -> None:
    """A text field's value that a block line cannot hold travels in the field's _b64
    twin; whatever the answer says of it names the field the client sent."""
    (workspace / "a.py").write_text("def f(x):\n    return x\n", encoding="utf-8")
    calls = []
    for tool in all_tools():
        properties = tool.input_schema["properties"]
        for name in properties:
            if f"{name}_b64" not in properties:
                continue
            for value in ("two\nlines", "caf\u00e9", "lone \ud83d half", " edge "):
                arguments = {"path": "a.py", name: value} if "path" in properties else {}
                calls.append((tool.name, {**arguments, name: value}))
    assert len(calls) > 40
    broker = _broker(make_session)
    try:
        answers = _calls(broker, calls)
    finally:
        broker.close()
    for (tool, arguments), answer in zip(calls, answers, strict=True):
        name = next(key for key in arguments if key != "path")
        assert f"{name}_b64" not in answer.text.split("\n\n", 1)[0], (tool, answer.text)
        if "\ud83d" in arguments[name]:
            assert f"{name} holds a lone surrogate \\ud83d at character 6" in answer.text


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX processes")
def test_wrong_types_over_stdio_create_no_file_named_after_them(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    before = snapshot(workspace)

    async def scenario() -> list[tuple[bool, str]]:
        async with connected(workspace, state_dir, "--approve", "yes", errlog=tmp_path / "e") as s:
            return [
                await call(s, "fs_write", path=True, content="x"),
                await call(s, "fs_write", path=False, content="x"),
                await call(s, "fs_write", path=-1, content="x"),
                await call(s, "fs_write", path=10**40, content="x"),
                await call(s, "fs_write", path="n.txt", content=5),
                await call(s, "fs_write", path="n.txt", content=True),
                await call(s, "fs_searchTree", path=".", query="Demo", regex="true"),
            ]

    answers = asyncio.run(scenario())
    for is_error, text in answers:
        assert is_error
        assert "(ERR_INVALID_FIELD)" in text, text
    assert "path must be a string, not true (write the value in quotes)" in answers[0][1]
    assert "path must be a string, not false" in answers[1][1]
    assert "path must be a string, not the number -1" in answers[2][1]
    assert "path must be a string, not the number 100000000000...(41 digits)" in answers[3][1]
    assert "content must be a string, not the number 5" in answers[4][1]
    assert "content must be a string, not true" in answers[5][1]
    assert "regex must be true or false, not a string" in answers[6][1]
    assert snapshot(workspace) == before


@pytest.mark.slow  # one of the slowest: run by .ci/run
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX processes")
def test_wrong_types_over_http_and_raw_stdio_are_refused_alike(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    before = snapshot(workspace)
    calls = [
        tool_call(1, "fs_write", {"path": True, "content": "x"}),
        tool_call(2, "fs_write", {"path": "n.txt", "content": 5}),
        tool_call(3, "fs_readSlice", {"path": "README.md", "start": "2"}),
        tool_call(4, "fs_write", {"path": "n.txt", "content": "x", "mode": "0755"}),
    ]
    with raw_http(workspace, state_dir, "--approve", "yes") as http:
        over_http = [http.post(line(message))[1][0] for message in calls]
    with raw_stdio(workspace, state_dir, tmp_path / "e", "--approve", "yes") as stdio:
        for message in calls:
            stdio.send(line(message))
        over_stdio = [stdio.answer(message["id"]) for message in calls]
    for answers in (over_http, over_stdio):
        texts = [answer["result"]["content"][0]["text"] for answer in answers]
        assert all(answer["result"]["isError"] for answer in answers), texts
        assert "path must be a string, not true" in texts[0]
        assert "content must be a string, not the number 5" in texts[1]
        assert "start must be an integer, not a string" in texts[2]
        assert "(ERR_UNKNOWN_KEY)" in texts[3]
        assert "fs_write has no field 'mode'" in texts[3]
    assert [json.loads(json.dumps(a["id"])) for a in over_http] == [1, 2, 3, 4]
    assert snapshot(workspace) == before
