"""`llm-operator mcp` over stdio, driven by the MCP SDK's client: the tools mirror the action
table, every read returns what a paste of the same command returns, writes follow the
approval mode, and the session's rules (jail, secrets, ids, undo) hold for MCP calls too."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.actions import action_names, get_spec
from llm_operator.core.actions.base import Kind
from llm_operator.mcp_server.tools import tool_name
from support.actions import cli
from support.examples import everyday_share
from support.mcp_client import SERVER, call, connected, id_of, names, summary_of

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX processes")

# One call per read action, on the fixture workspace (plus the files added below).
READS: dict[str, dict[str, Any]] = {
    "operator.getInterfaceSpec": {},
    "operator.getCommentStyle": {"language": "python"},
    "fs.list": {"path": "src"},
    "fs.read": {"path": "src/main.py"},
    "fs.readSlice": {"path": "src/main.py", "start": 4, "lines": 2},
    "fs.search": {"path": "src/main.py", "query": "print"},
    "fs.stat": {"path": "README.md"},
    "fs.searchTree": {"path": ".", "query": "VALUE", "case_sensitive": True},
    "fs.outline": {"path": "src/main.py"},
    "fs.listRegions": {"path": "regions.py"},
    "fs.readRegion": {"path": "regions.py", "marker_id": "intro"},
    "fs.readStructure": {"path": "src/main.py", "target": "def main("},
}


def _add_files(workspace: Path) -> None:
    (workspace / "regions.py").write_text(
        "# OPERATOR_BEGIN intro\nGREETING = 'hi'\n# OPERATOR_END intro\n", encoding="utf-8"
    )
    (workspace / ".env").write_text("API_KEY=sk-not-for-the-chat\n", encoding="utf-8")


def _places(workspace: Path, state_dir: Path) -> list[str]:
    return ["--workspace", str(workspace), "--state-dir", str(state_dir)]


def _exec_block(action: str, arguments: dict[str, Any], number: int) -> str:
    lines = ["OPERATOR_CMD", "version: 1", f"id: paste-{number}", f"action: {action}"]
    for key, value in arguments.items():
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        lines.append(f"{key}: {shown}")
    return "\n".join([*lines, "END_OPERATOR_CMD", ""])


def test_the_tools_are_the_action_table_with_schemas_and_hints(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    async def scenario() -> None:
        async with connected(workspace, state_dir, "--approve", "no", errlog=tmp_path / "e") as s:
            tools = (await s.list_tools()).tools
        assert names(tools) == {tool_name(name) for name in action_names()}
        by_name = {tool.name: tool for tool in tools}
        for name in action_names():
            tool = by_name[tool_name(name)]
            spec = get_spec(name)
            assert tool.description is not None
            assert tool.description.startswith(spec.description)
            schema = tool.inputSchema
            assert schema["additionalProperties"] is False
            # The action's fields and, as a paste takes them, the _json twin of each _b64.
            twins = {
                f"{field.removesuffix('_b64')}_json"
                for field in spec.fields.model_fields
                if field.endswith("_b64")
            }
            assert set(schema["properties"]) == set(spec.fields.model_fields) | twins
            assert not set(schema.get("required", ())) & twins
            assert tool.annotations is not None
            read = spec.kind is Kind.READ
            assert tool.annotations.readOnlyHint is read
            assert tool.annotations.destructiveHint is (
                not read
                and name
                not in {"fs.insertRegion", "fs.insertBeforeStructure", "fs.insertAfterStructure"}
            )
            # A command line can reach anything the person can: the one open-world tool.
            assert tool.annotations.openWorldHint is (name == "run.command")
            if name.startswith("fs."):
                assert "path" in schema["required"]
        write = by_name["fs_write"].inputSchema
        assert write["properties"]["content"]["type"] == "string"
        assert "line breaks" in write["properties"]["content"]["description"]
        assert "base64" in write["properties"]["content_b64"]["description"]
        assert "JSON string" in write["properties"]["content_json"]["description"]
        edits = by_name["fs_applyEdits"].inputSchema
        assert edits["required"] == ["path"]  # edits_json or edits_b64, either one
        described = edits["properties"]["edits_json"]["description"]
        assert "give one of edits_json, edits_b64" in described
        assert by_name["fs_readSlice"].inputSchema["properties"]["start"]["type"] == "integer"
        assert by_name["fs_searchTree"].inputSchema["properties"]["regex"]["type"] == "boolean"
        assert by_name["fs_read"].annotations.idempotentHint is True  # type: ignore[union-attr]
        assert by_name["fs_write"].annotations.idempotentHint is True  # type: ignore[union-attr]
        assert by_name["fs_applyEdits"].annotations.idempotentHint is False  # type: ignore[union-attr]

    asyncio.run(scenario())


@pytest.mark.slow
def test_every_read_tool_returns_what_a_paste_returns(
    workspace: Path, state_dir: Path, tmp_path: Path, parse_results: Any
) -> None:
    _add_files(workspace)
    # run.check runs a process (it has its own test below, with a check to run).
    reads = {n for n in action_names() if get_spec(n).kind is Kind.READ and not get_spec(n).runs}
    assert set(READS) == reads
    answers: dict[str, tuple[bool, str]] = {}

    async def scenario() -> None:
        async with connected(workspace, state_dir, "--approve", "no", errlog=tmp_path / "e") as s:
            for action, arguments in READS.items():
                answers[action] = await call(s, tool_name(action), **arguments)

    asyncio.run(scenario())
    pasted_state = tmp_path / "pasted-state"
    for number, (action, arguments) in enumerate(READS.items(), 1):
        is_error, text = answers[action]
        assert not is_error, text
        assert id_of(text) == f"mcp-{number}"
        pasted = cli(
            "exec",
            "--workspace",
            workspace,
            "--state-dir",
            pasted_state,
            "--no",
            stdin=_exec_block(action, arguments, number),
        )
        (expected,) = parse_results(pasted.stdout)
        assert expected.ok
        assert summary_of(text) == expected.summary
        if expected.details:
            assert text.endswith("\n\n" + expected.details), action
    assert "GREETING = 'hi'" in answers["fs.readRegion"][1]
    assert "def main():" in answers["fs.readStructure"][1]


@pytest.mark.slow
def test_writes_follow_the_approval_mode(workspace: Path, state_dir: Path, tmp_path: Path) -> None:
    log = tmp_path / "stderr.txt"
    text = "line one\nüber zwei\n"

    async def scenario() -> tuple[tuple[bool, str], tuple[bool, str]]:
        async with connected(workspace, state_dir, "--approve", "no", errlog=log) as s:
            refused = await call(s, "fs_write", path="no.txt", content="never")
        async with connected(workspace, state_dir, "--approve", "yes", errlog=log) as s:
            written = await call(s, "fs_write", path="yes.txt", content=text)
        return refused, written

    refused, written = asyncio.run(scenario())
    assert refused[0]
    assert "(ERR_REJECTED_BY_USER)" in refused[1]
    assert "--approve no" in refused[1]
    assert not (workspace / "no.txt").exists()
    assert not written[0], written[1]
    # Ids continue after the highest the workspace knows: a new server never reuses one.
    assert id_of(refused[1]) == "mcp-1"
    assert id_of(written[1]) == "mcp-2"
    assert (workspace / "yes.txt").read_bytes() == text.encode()
    stderr = log.read_text(encoding="utf-8")
    assert "--approve yes: every write and every secret read runs WITHOUT review" in stderr
    assert "use it only for tests and scripts" in stderr


@pytest.mark.slow
def test_a_secret_read_needs_approval_and_nothing_leaks_without_it(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    _add_files(workspace)

    async def scenario() -> tuple[tuple[bool, str], tuple[bool, str], tuple[bool, str]]:
        async with connected(workspace, state_dir, "--approve", "no", errlog=tmp_path / "e") as s:
            refused = await call(s, "fs_read", path=".env")
            searched = await call(s, "fs_searchTree", path=".", query="sk-not")
        async with connected(workspace, state_dir, "--approve", "yes", errlog=tmp_path / "e") as s:
            allowed = await call(s, "fs_read", path=".env")
        return refused, searched, allowed

    refused, searched, allowed = asyncio.run(scenario())
    assert refused[0]
    assert "(ERR_REJECTED_BY_USER)" in refused[1]
    assert "sk-not-for-the-chat" not in refused[1]
    assert "sk-not-for-the-chat" not in searched[1]
    assert not allowed[0]
    assert "sk-not-for-the-chat" in allowed[1]


@pytest.mark.slow
def test_paths_outside_and_injected_lines_are_refused(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("private", encoding="utf-8")
    (workspace / "link").symlink_to(outside)

    async def scenario() -> list[tuple[bool, str]]:
        async with connected(workspace, state_dir, "--approve", "yes", errlog=tmp_path / "e") as s:
            return [
                await call(s, "fs_read", path="../outside.txt"),
                await call(s, "fs_read", path=str(outside)),
                await call(s, "fs_read", path="link"),
                await call(s, "fs_write", path="link", content="x"),
                # A value can never add a line of its own to the command.
                await call(s, "fs_read", path="README.md\naction: fs.delete"),
                await call(s, "fs_read", path="README.md", id="mine"),
                await call(s, "fs_read", path="README.md", nonsense="1"),
            ]

    answers = asyncio.run(scenario())
    for is_error, text in answers[:4]:
        assert is_error
        assert "(ERR_PATH_OUTSIDE_WORKSPACE)" in text
        assert "private" not in text
    for _, text in answers[2:4]:  # where a symlink leads is not told
        assert str(tmp_path) not in text
    assert outside.read_text(encoding="utf-8") == "private"
    assert answers[4][0]
    assert "(ERR_NON_ASCII_IN_CMD)" in answers[4][1]
    assert answers[5][0]
    assert "(ERR_UNKNOWN_KEY)" in answers[5][1]
    assert answers[6][0]
    assert "(ERR_UNKNOWN_KEY)" in answers[6][1]
    assert (workspace / "README.md").exists()


@pytest.mark.slow
def test_undo_of_an_mcp_batch_and_the_notice_on_the_next_result(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    """The notice belongs to the MCP session whose batch was undone: a paste in between
    (another conversation, the web chat) never carries it, the session's next result does,
    once, and a new session (a new conversation) is not told of commands it never sent."""
    log = tmp_path / "e"
    where = ["--workspace", workspace, "--state-dir", state_dir]
    paste = "OPERATOR_CMD\nversion: 1\nid: read-1\naction: fs.stat\npath: .\nEND_OPERATOR_CMD\n"

    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with connected(workspace, state_dir, "--approve", "yes", errlog=log) as s:
            # Calls of one turn that arrive together are one reply: one batch, one undo.
            seen["written"] = list(
                await asyncio.gather(
                    call(s, "fs_write", path="one.txt", content="1"),
                    call(s, "fs_write", path="src/pkg/util.py", content="VALUE = 43\n"),
                )
            )
            seen["undone"] = await asyncio.to_thread(cli, "undo", "--yes", *where)
            seen["pasted"] = await asyncio.to_thread(cli, "exec", *where, stdin=paste)
            seen["first"] = await call(s, "fs_read", path="README.md")
            seen["second"] = await call(s, "fs_stat", path=".")
        async with connected(workspace, state_dir, "--approve", "yes", errlog=log) as s:
            seen["new session"] = await call(s, "fs_stat", path=".")
        return seen

    seen = asyncio.run(scenario())
    assert all(not is_error for is_error, _ in seen["written"])
    undone = seen["undone"]
    assert undone.returncode == 0, undone.stderr
    assert "mcp-1" in undone.stdout
    assert "mcp-2" in undone.stdout
    assert "For the chat:" not in undone.stdout  # not a block for the web chat to paste
    assert "MCP session" in undone.stdout
    assert not (workspace / "one.txt").exists()
    assert (workspace / "src/pkg/util.py").read_text(encoding="utf-8") == "VALUE = 42\n"
    pasted = seen["pasted"]
    assert pasted.returncode == 0, pasted.stderr
    assert pasted.stdout.startswith("OPERATOR_RESULT\nid: read-1\n")  # no notice
    assert "undo-" not in pasted.stdout
    first, second = seen["first"], seen["second"]
    assert first[1].startswith("Undo notice")
    assert "mcp-1" in first[1].split("\n\nid: mcp-")[0]
    assert "# Demo" in first[1]
    assert "Undo notice" not in second[1]  # delivered once
    assert "Undo notice" not in seen["new session"][1]
    # The undone ids are not reused: the model was told they did not run.
    assert id_of(first[1]) == "mcp-3"


def test_with_nobody_to_ask_a_write_is_not_run_and_says_why(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    log = tmp_path / "stderr.txt"

    async def scenario() -> list[tuple[bool, str]]:
        # The SDK starts the server in a session of its own: no terminal, and no window.
        async with connected(workspace, state_dir, errlog=log) as s:
            return [
                await call(s, "fs_write", path="new.txt", content="x"),
                await call(s, "fs_read", path="README.md"),
            ]

    (write, read) = asyncio.run(scenario())
    assert write[0]
    assert "fs.write failed (ERR_NO_REVIEWER): nobody can review it now" in write[1]
    assert "open the LLM Operator window" in write[1]
    assert not (workspace / "new.txt").exists()
    assert not read[0]  # reads need nobody
    stderr = log.read_text(encoding="utf-8")
    assert "no window is open on this workspace yet" in stderr
    assert "approvals: the window" in stderr


def test_usage_errors_exit_2_with_a_message(workspace: Path, state_dir: Path) -> None:
    for args, message in [
        (["--http", "70000"], "--http must be a port from 0"),
        (["--approval-timeout", "0"], "--approval-timeout must be more than 0"),
        (["--approve", "maybe"], "invalid choice"),
    ]:
        done = cli("mcp", "--workspace", workspace, "--state-dir", state_dir, *args)
        assert done.returncode == 2, done.stderr
        assert message in done.stderr
        assert "Traceback" not in done.stderr
    missing = cli("mcp", "--workspace", workspace / "nope", "--state-dir", state_dir)
    assert missing.returncode == 2
    assert "Traceback" not in missing.stderr
    # ask needs a terminal: the test process has none to give (stdin is not one either).
    asked = subprocess.run(
        [*SERVER, "--approve", "ask", *_places(workspace, state_dir)],
        capture_output=True,
        text=True,
        timeout=60,
        start_new_session=True,
        check=False,
    )
    assert asked.returncode == 2
    assert "--approve ask needs a terminal" in asked.stderr


def test_other_commands_never_load_the_mcp_sdk(workspace: Path, state_dir: Path) -> None:
    probe = (
        "import sys, io\n"
        "from llm_operator import cli\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode()))\n"
        "places = ['--workspace', sys.argv[2], '--state-dir', sys.argv[3]]\n"
        "code = cli.main(['exec', '--no', *places])\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'uvicorn')\n"
        "                or m.startswith('llm_operator.mcp_server'))\n"
        "print(code, loaded)\n"
    )
    reply = _exec_block("fs.read", {"path": "README.md"}, 1)
    done = subprocess.run(
        [sys.executable, "-c", probe, reply, str(workspace), str(state_dir)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout.strip().endswith("0 []"), done.stdout + done.stderr


@pytest.mark.slow
def test_a_write_on_a_secret_file_is_planned_only_once_let_in(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    # The first approval lets the server read the file to plan the change; the change is
    # then decided on its own (here by --approve, which answers both).
    _add_files(workspace)
    before = (workspace / ".env").read_bytes()
    edits = '{"version":1,"edits":[{"op":"replaceAll","find":"sk","text":"SK"}]}'

    async def scenario() -> tuple[tuple[bool, str], tuple[bool, str]]:
        async with connected(workspace, state_dir, "--approve", "no", errlog=tmp_path / "e") as s:
            refused = await call(s, "fs_applyEdits", path=".env", edits_json=edits)
        after_no = (workspace / ".env").read_bytes()
        assert after_no == before
        async with connected(workspace, state_dir, "--approve", "yes", errlog=tmp_path / "e") as s:
            done = await call(s, "fs_applyEdits", path=".env", edits_json=edits)
        return refused, done

    refused, done = asyncio.run(scenario())
    assert refused[0]
    assert "(ERR_REJECTED_BY_USER)" in refused[1]
    assert not done[0], done[1]
    assert (workspace / ".env").read_bytes() == before.replace(b"sk", b"SK")


@pytest.mark.slow
@pytest.mark.parametrize("size", everyday_share([60_000, 300_000], str))
def test_a_call_too_large_for_one_block_is_refused_as_such(
    workspace: Path, state_dir: Path, tmp_path: Path, size: int
) -> None:
    """Past the block limit the call is refused as too large, under its own id, whether
    or not it is longer than the part of a message the scanner reads."""

    async def scenario() -> tuple[bool, str]:
        async with connected(workspace, state_dir, "--approve", "yes", errlog=tmp_path / "e") as s:
            return await call(s, "fs_write", path="big.txt", content="x" * size)

    is_error, text = asyncio.run(scenario())
    assert is_error
    assert "(ERR_BLOCK_TOO_LARGE)" in text, text
    assert "split the work into several" in text
    assert not (workspace / "big.txt").exists()


@pytest.mark.slow
def test_an_mcp_session_whose_conversation_cannot_be_started_writes_nothing(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    """A store that cannot record the session's conversation (a fault of the store, here a
    trigger that refuses it) never puts the session in the paste channel's conversation:
    its batch would be the web chat's, and the web chat's next paste would begin with an
    undo notice of MCP commands it never sent. Its writes are refused; reads run."""
    import sqlite3

    where = ["--workspace", workspace, "--state-dir", state_dir]
    paste = "OPERATOR_CMD\nversion: 1\nid: read-1\naction: fs.stat\npath: .\nEND_OPERATOR_CMD\n"
    assert cli("exec", *where, stdin=paste).returncode == 0  # the store exists now
    (database,) = state_dir.rglob("state.sqlite3")
    with sqlite3.connect(database) as db:
        db.execute(
            "CREATE TRIGGER no_mcp BEFORE INSERT ON conversations WHEN NEW.channel = 'mcp' "
            "BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END"
        )
    db.close()

    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with connected(workspace, state_dir, "--approve", "yes", errlog=tmp_path / "e") as s:
            seen["written"] = await call(s, "fs_write", path="one.txt", content="1")
            seen["read"] = await call(s, "fs_read", path="README.md")
        seen["undone"] = await asyncio.to_thread(cli, "undo", "--yes", *where)
        seen["pasted"] = await asyncio.to_thread(cli, "exec", *where, stdin=paste)
        return seen

    seen = asyncio.run(scenario())
    is_error, text = seen["written"]
    assert is_error, text
    assert "ERR_STATE_STORE_UNAVAILABLE" in text
    assert not (workspace / "one.txt").exists()
    assert "# Demo" in seen["read"][1]
    pasted = seen["pasted"]
    assert pasted.returncode == 0, pasted.stderr
    assert pasted.stdout.startswith("OPERATOR_RESULT\nid: read-1\n"), pasted.stdout
    assert "mcp-" not in pasted.stdout


@pytest.mark.slow
def test_run_check_runs_unasked_and_an_unknown_one_lists_the_checks(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    from llm_operator.core.store.checks import Check, add_check
    from llm_operator.core.store.database import StateStore
    from llm_operator.core.store.state import workspace_state_dir

    store = StateStore(workspace_state_dir(state_dir, workspace.resolve()))
    add_check(store, Check("hello", "echo hello from a check"))
    store.close()

    async def scenario() -> list[tuple[bool, str]]:
        # "no": every call that needs approval is rejected; a check needs none.
        async with connected(workspace, state_dir, "--approve", "no", errlog=tmp_path / "e") as s:
            return [
                await call(s, "run_check", name="hello"),
                await call(s, "run_check", name="nope"),
                await call(s, "run_command", command="touch never.txt"),
            ]

    ran, unknown, command = asyncio.run(scenario())
    assert not ran[0], ran[1]
    assert "hello from a check" in ran[1]
    assert unknown[0]
    assert "ERR_UNKNOWN_CHECK" in unknown[1]
    assert "this workspace's checks are: hello" in unknown[1]
    assert command[0]
    assert "ERR_REJECTED_BY_USER" in command[1]
    assert not (workspace / "never.txt").exists()
