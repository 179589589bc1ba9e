"""What waits in `llm-operator mcp`: the terminal review (a real pty as the server's
controlling terminal), a file changed while its write waits, a call the client cancels or
nobody answers, and a write that waits for a pasted run's write lock."""

from __future__ import annotations

import asyncio
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, types
from mcp.shared.exceptions import McpError

from llm_operator.core.plan.session import Session
from llm_operator.core.store.workspace import Workspace
from support.mcp_client import call, connected, id_of, text_of

EXEC = [sys.executable, "-m", "llm_operator.cli", "exec", "--yes"]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX terminals")


class Terminal:
    """The person's side of the server's controlling terminal."""

    def __init__(self) -> None:
        self.master, self.slave = pty.openpty()
        self.name = os.ttyname(self.slave)
        self.seen: list[str] = []

    def _wait_for(self, wanted: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while wanted not in "".join(self.seen):
            left = deadline - time.monotonic()
            assert left > 0, f"never saw {wanted!r} in:\n{''.join(self.seen)}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                self.seen.append(os.read(self.master, 4096).decode("utf-8", "replace"))

    async def wait_for(self, wanted: str, timeout: float = 60) -> None:
        await asyncio.to_thread(self._wait_for, wanted, timeout)

    def answer(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\n")

    @property
    def text(self) -> str:
        return "".join(self.seen).replace("\r\n", "\n")

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def terminal() -> Any:
    opened = Terminal()
    yield opened
    opened.close()


@pytest.mark.slow
def test_ask_reviews_on_the_terminal_naming_the_client(
    workspace: Path, state_dir: Path, tmp_path: Path, terminal: Terminal
) -> None:
    async def scenario() -> list[tuple[bool, str]]:
        async with connected(
            workspace, state_dir, "--approve", "ask", errlog=tmp_path / "e", tty=terminal.name
        ) as s:
            first = asyncio.ensure_future(call(s, "fs_write", path="yes.txt", content="approved"))
            await terminal.wait_for("Approve fs.write mcp-1?")
            terminal.answer("y")
            approved = await first
            second = asyncio.ensure_future(call(s, "fs_write", path="no.txt", content="x"))
            await terminal.wait_for("Approve fs.write mcp-2?")
            terminal.answer("not that file")
            return [approved, await second]

    approved, rejected = asyncio.run(scenario())
    assert not approved[0], approved[1]
    assert (workspace / "yes.txt").read_text(encoding="utf-8") == "approved"
    assert "mcp (MCP) asks for 1 command" in terminal.text  # the SDK client's name
    assert "+++ b/yes.txt" in terminal.text
    assert rejected[0]
    assert "(ERR_REJECTED_BY_USER): rejected by the user: not that file" in rejected[1]
    assert not (workspace / "no.txt").exists()


@pytest.mark.slow
def test_calls_that_arrive_together_are_reviewed_together(
    workspace: Path, state_dir: Path, tmp_path: Path, terminal: Terminal
) -> None:
    async def scenario() -> list[tuple[bool, str]]:
        async with connected(
            workspace, state_dir, "--approve", "ask", errlog=tmp_path / "e", tty=terminal.name
        ) as s:
            both = asyncio.gather(
                call(s, "fs_write", path="a.txt", content="a"),
                call(s, "fs_write", path="b.txt", content="b"),
            )
            await terminal.wait_for("asks for 2 commands")
            await terminal.wait_for("Approve fs.write mcp-1?")
            terminal.answer("y")
            await terminal.wait_for("Approve fs.write mcp-2?")
            terminal.answer("y")
            return list(await both)

    answers = asyncio.run(scenario())
    assert [is_error for is_error, _ in answers] == [False, False]
    assert sorted(id_of(text) for _, text in answers) == ["mcp-1", "mcp-2"]
    assert (workspace / "a.txt").exists()
    assert (workspace / "b.txt").exists()


@pytest.mark.slow
def test_a_file_changed_while_its_write_waits_is_not_overwritten(
    workspace: Path, state_dir: Path, tmp_path: Path, terminal: Terminal
) -> None:
    target = workspace / "src" / "pkg" / "util.py"

    async def scenario() -> tuple[bool, str]:
        async with connected(
            workspace, state_dir, "--approve", "ask", errlog=tmp_path / "e", tty=terminal.name
        ) as s:
            waiting = asyncio.ensure_future(
                call(s, "fs_write", path="src/pkg/util.py", content="VALUE = 1")
            )
            await terminal.wait_for("Approve fs.write mcp-1?")
            target.write_text("VALUE = 'edited by hand'\n", encoding="utf-8")
            terminal.answer("y")
            return await waiting

    is_error, text = asyncio.run(scenario())
    assert is_error
    assert "(ERR_STALE_FILE)" in text
    assert target.read_text(encoding="utf-8") == "VALUE = 'edited by hand'\n"


async def _cancel(session: ClientSession, request_id: int) -> None:
    await session.send_notification(
        types.ClientNotification(
            types.CancelledNotification(
                params=types.CancelledNotificationParams(requestId=request_id, reason="test")
            )
        )
    )


@pytest.mark.slow
def test_a_cancelled_call_is_never_run_even_if_approved_later(
    workspace: Path, state_dir: Path, tmp_path: Path, terminal: Terminal
) -> None:
    log = tmp_path / "stderr.txt"

    async def scenario() -> tuple[BaseException | None, tuple[bool, str]]:
        async with connected(
            workspace, state_dir, "--approve", "ask", errlog=log, tty=terminal.name
        ) as s:
            request_id = s._request_id  # the id the next request gets
            waiting = asyncio.ensure_future(call(s, "fs_write", path="late.txt", content="x"))
            await terminal.wait_for("Approve fs.write mcp-1?")
            await _cancel(s, request_id)
            failure: BaseException | None = None
            try:
                await asyncio.wait_for(waiting, 30)
            except McpError as error:
                failure = error
            terminal.answer("y")  # too late: the call is gone
            await asyncio.sleep(0.5)
            after = await call(s, "fs_list", path=".")
            return failure, after

    failure, after = asyncio.run(scenario())
    assert isinstance(failure, McpError)
    assert "cancelled" in str(failure).lower()
    assert not (workspace / "late.txt").exists()
    assert not after[0]
    assert "late.txt" not in after[1]
    assert "mcp-1: cancelled by the client while waiting for the terminal" in log.read_text()


@pytest.mark.slow
def test_an_unanswered_call_times_out_and_reports_progress_while_it_waits(
    workspace: Path, state_dir: Path, tmp_path: Path, terminal: Terminal
) -> None:
    progress: list[str] = []

    async def noted(done: float, total: float | None, message: str | None) -> None:
        progress.append(message or "")

    async def scenario() -> types.CallToolResult:
        async with connected(
            workspace,
            state_dir,
            "--approve",
            "ask",
            "--approval-timeout",
            "1.5",
            errlog=tmp_path / "e",
            tty=terminal.name,
        ) as s:
            return await s.call_tool(
                "fs_write", {"path": "slow.txt", "content": "x"}, progress_callback=noted
            )

    result = asyncio.run(scenario())
    assert result.isError
    text = text_of(result)
    assert "fs.write failed (ERR_APPROVAL_TIMEOUT): no answer from the terminal within 1.5" in text
    assert "nothing was run" in text
    assert not (workspace / "slow.txt").exists()
    assert "waiting for approval (the terminal)" in progress


@pytest.mark.slow
def test_an_mcp_write_waits_for_a_pasted_run_and_both_land(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    holder = Session(Workspace(workspace), state_dir)
    assert holder.state is not None
    holder.state.acquire()  # a pasted run holding the workspace's write lock
    progress: list[str] = []

    async def noted(done: float, total: float | None, message: str | None) -> None:
        progress.append(message or "")

    pasted = (
        "OPERATOR_CMD\nversion: 1\nid: p1\naction: fs.write\npath: pasted.txt\n"
        "content: from the chat\nEND_OPERATOR_CMD\n"
    )

    async def scenario() -> tuple[types.CallToolResult, subprocess.CompletedProcess[str]]:
        async with connected(workspace, state_dir, "--approve", "yes", errlog=tmp_path / "e") as s:
            waiting = asyncio.ensure_future(
                s.call_tool(
                    "fs_write", {"path": "mcp.txt", "content": "from mcp"}, progress_callback=noted
                )
            )
            exec_run = asyncio.ensure_future(
                asyncio.to_thread(
                    subprocess.run,
                    [*EXEC, "--workspace", str(workspace), "--state-dir", str(state_dir)],
                    input=pasted,
                    capture_output=True,
                    text=True,
                    timeout=60,
                    check=False,
                )
            )
            deadline = time.monotonic() + 30
            while not any("waiting for another run" in p for p in progress):
                assert time.monotonic() < deadline, progress
                await asyncio.sleep(0.05)
            assert not waiting.done()
            assert not (workspace / "mcp.txt").exists()
            holder.state.release()  # type: ignore[union-attr]
            return await waiting, await exec_run

    try:
        result, pasted_run = asyncio.run(scenario())
    finally:
        holder.state.release()  # no-op once released
    assert not result.isError, text_of(result)
    assert pasted_run.returncode == 0, pasted_run.stderr
    assert (workspace / "mcp.txt").read_text(encoding="utf-8") == "from mcp"
    assert (workspace / "pasted.txt").read_text(encoding="utf-8") == "from the chat"
    runs = Session(Workspace(workspace), state_dir).recent_runs()
    texts = "\n".join(run.results for run in runs)
    assert "mcp-1" in texts
    assert "p1" in texts


@pytest.mark.slow
def test_a_write_cancelled_while_it_waits_for_the_lock_is_never_run(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    holder = Session(Workspace(workspace), state_dir)
    assert holder.state is not None
    holder.state.acquire()
    progress: list[str] = []
    log = tmp_path / "stderr.txt"

    async def noted(done: float, total: float | None, message: str | None) -> None:
        progress.append(message or "")

    async def scenario() -> BaseException | None:
        async with connected(workspace, state_dir, "--approve", "yes", errlog=log) as s:
            request_id = s._request_id
            waiting = asyncio.ensure_future(
                s.call_tool(
                    "fs_write", {"path": "late.txt", "content": "x"}, progress_callback=noted
                )
            )
            deadline = time.monotonic() + 30
            while not any("waiting for another run" in p for p in progress):
                assert time.monotonic() < deadline, progress
                await asyncio.sleep(0.05)
            await _cancel(s, request_id)
            failure: BaseException | None = None
            try:
                await asyncio.wait_for(waiting, 30)
            except McpError as error:
                failure = error
            await asyncio.sleep(0.5)  # the server notices the cancellation
            holder.state.release()  # type: ignore[union-attr]
            await asyncio.sleep(0.5)  # and would write now, if it still meant to
            await call(s, "fs_stat", path=".")
            return failure

    try:
        failure = asyncio.run(scenario())
    finally:
        holder.state.release()
    assert isinstance(failure, McpError)
    assert not (workspace / "late.txt").exists()
    assert "cancelled by the client while waiting for another run" in log.read_text()


@pytest.mark.slow
def test_an_undo_notice_never_rides_on_a_cancelled_call(
    workspace: Path, state_dir: Path, tmp_path: Path, terminal: Terminal
) -> None:
    """The notice of an undo leads the session's next result that the client receives:
    with the first call of a reply cancelled, that is the next call's result, and a
    notice is never marked delivered with a result nobody gets."""
    from support.actions import cli

    where = ["--workspace", workspace, "--state-dir", state_dir]

    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with connected(
            workspace, state_dir, "--approve", "ask", errlog=tmp_path / "e", tty=terminal.name
        ) as s:
            first = asyncio.ensure_future(call(s, "fs_write", path="one.txt", content="1"))
            await terminal.wait_for("Approve fs.write mcp-1?")
            terminal.answer("y")
            seen["written"] = await first
            seen["undone"] = await asyncio.to_thread(cli, "undo", "--yes", *where)
            request_id = s._request_id  # the id of the next request: the cancelled one
            cancelled = asyncio.ensure_future(call(s, "fs_write", path="a.txt", content="a"))
            kept = asyncio.ensure_future(call(s, "fs_write", path="b.txt", content="b"))
            await terminal.wait_for("asks for 2 commands")
            await terminal.wait_for("Approve fs.write mcp-2?")
            await _cancel(s, request_id)
            try:
                await asyncio.wait_for(cancelled, 30)
            except McpError as error:
                seen["cancelled"] = error
            terminal.answer("y")
            await terminal.wait_for("Approve fs.write mcp-3?")
            terminal.answer("y")
            seen["kept"] = await kept
            seen["after"] = await call(s, "fs_stat", path=".")
        return seen

    seen = asyncio.run(scenario())
    assert not seen["written"][0], seen["written"][1]
    assert seen["undone"].returncode == 0, seen["undone"].stderr
    assert isinstance(seen.get("cancelled"), McpError)
    assert not (workspace / "a.txt").exists()
    assert (workspace / "b.txt").read_text(encoding="utf-8") == "b"
    told = [seen["kept"][1], seen["after"][1]]
    assert sum(text.count("The user undid") for text in told) == 1, told


def test_run_command_is_reviewed_like_a_write_and_runs_only_when_approved(
    workspace: Path, state_dir: Path, tmp_path: Path, terminal: Terminal
) -> None:
    async def scenario() -> list[tuple[bool, str]]:
        async with connected(
            workspace, state_dir, "--approve", "ask", errlog=tmp_path / "e", tty=terminal.name
        ) as s:
            first = asyncio.ensure_future(
                call(s, "run_command", command="sh -c 'echo ran; touch ran.txt'", timeout=30)
            )
            await terminal.wait_for("Approve run.command mcp-1?")
            terminal.answer("y")
            approved = await first
            second = asyncio.ensure_future(call(s, "run_command", command="touch never.txt"))
            await terminal.wait_for("Approve run.command mcp-2?")
            terminal.answer("n")
            return [approved, await second]

    approved, rejected = asyncio.run(scenario())
    assert not approved[0], approved[1]
    assert "exit 0" in approved[1]
    assert "# changed: ran.txt" in approved[1]
    assert "[sh -c 'echo ran; touch ran.txt']" in terminal.text
    assert "cannot be undone by Undo" in terminal.text
    assert rejected[0]
    assert "ERR_REJECTED_BY_USER" in rejected[1]
    assert not (workspace / "never.txt").exists()
