"""A failure that quotes a hostile file line prints no raw byte of it: the summary leaves
the quote to the details, and both are escaped (exec's stdout, the MCP result text)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from llm_operator.mcp_server.tools import tool_name
from support.actions import cli
from support.hostile_lines import COMMANDS, HOSTILE, raw_characters, reply, write_files
from support.mcp_client import call, connected, summary_of


def test_exec_prints_no_raw_byte_of_a_quoted_line(
    workspace: Path, state_dir: Path, parse_results: Any
) -> None:
    write_files(workspace)
    done = cli("exec", "--workspace", workspace, "--state-dir", state_dir, "--yes", stdin=reply())
    assert done.returncode == 1, done.stderr
    assert raw_characters(done.stdout) == []
    assert "\x1b" not in done.stderr
    results = parse_results(done.stdout)
    assert [r.id for r in results] == [c[0] for c in COMMANDS]
    for result in results:
        assert not result.ok
        assert "aGVsbG8" not in result.summary, result.summary  # the quote stayed out
        assert "(quoted in the details)" in result.summary or "more in the details" in (
            result.summary
        )
        # The details still carry the file's line, exactly, for the model to act on.
        quoted = HOSTILE.split("\r")[0]  # a lone CR may end a line of the file
        assert any(quoted in text for text in strings_in(result.json())), result.id


def strings_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in strings_in(item)]
    if isinstance(value, list):
        return [text for item in value for text in strings_in(item)]
    return []


def test_mcp_results_hold_no_raw_byte_of_a_quoted_line(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    write_files(workspace)
    answers: list[tuple[bool, str]] = []

    async def scenario() -> None:
        async with connected(workspace, state_dir, "--approve", "yes", errlog=tmp_path / "e") as s:
            for _id, action, fields in COMMANDS:
                answers.append(await call(s, tool_name(action), **fields))
            answers.append(await call(s, "fs_read", path="f.txt"))

    asyncio.run(scenario())
    *failures, (read_failed, read) = answers
    # A read's details holding such characters come as the readable form's lines.
    assert not read_failed, read
    assert raw_characters(read) == [], read
    # (fs.read gives LF line breaks: the lone CR ends a line.)
    body = "| alpha\n|\\x = 'be\\x1b]52;c;aGVsbG8=\\x07ta\n|\\ \\u202eevil\\u200b'\n| gamma"
    assert read.endswith("\n\ndetails_lines: 4\n" + body), read
    for is_error, text in failures:
        assert is_error, text
        assert raw_characters(text) == [], text
        assert "aGVsbG8" not in summary_of(text)
        assert "aGVsbG8" in text  # in the details, escaped
