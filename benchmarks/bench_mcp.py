"""MCP benchmark: one read (fs.read of a small file) three ways.

- direct: in this process, the session's prepare and execute of the command (the work
  every way shares; the baseline);
- MCP: one ``tools/call`` round trip, client to result, to a running ``llm-operator mcp``
  over stdio, driven by the SDK's own client (JSON-RPC, the pipe, the broker's threads);
- exec: ``llm-operator exec`` of the same command, a new process each time.

Fresh command ids every time (a repeat would not read). Medians of interleaved rounds.
Run: python benchmarks/bench_mcp.py
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PY = sys.executable
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ROUNDS = 15
CALLS_PER_ROUND = 10  # MCP and direct calls per round (exec: one per round)


def _block(cmd_id: str) -> str:
    return (
        f"OPERATOR_CMD\nversion: 1\nid: {cmd_id}\naction: fs.read\npath: one.txt\n"
        "END_OPERATOR_CMD\n"
    )


def _exec(workspace: Path, state: Path, cmd_id: str) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [
            PY,
            "-m",
            "llm_operator.cli",
            "exec",
            "--no",
            "--workspace",
            str(workspace),
            "--state-dir",
            str(state),
        ],
        input=_block(cmd_id),
        capture_output=True,
        text=True,
        env=CHILD_ENV,
        check=False,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"exec failed: {done.stdout}{done.stderr}")
    return elapsed


async def _measure(workspace: Path, state: Path) -> dict[str, list[float]]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from llm_operator.core.plan.session import Session
    from llm_operator.core.store.workspace import Workspace

    session = Session(Workspace(workspace), state / "direct")
    samples: dict[str, list[float]] = {"direct": [], "mcp": [], "exec": []}
    params = StdioServerParameters(
        command=PY,
        args=[
            "-m",
            "llm_operator.cli",
            "mcp",
            "--approve",
            "no",
            "--workspace",
            str(workspace),
            "--state-dir",
            str(state / "mcp"),
        ],
        env=CHILD_ENV,
    )
    with open(os.devnull, "w") as quiet:
        async with (
            stdio_client(params, errlog=quiet) as (read, write),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            await client.call_tool("fs_read", {"path": "one.txt"})  # warm
            n = 0
            for round_no in range(ROUNDS):
                for _ in range(CALLS_PER_ROUND):
                    n += 1
                    start = time.perf_counter()
                    run = session.prepare(_block(f"d{n}"))
                    results = session.execute(run, {})
                    samples["direct"].append(time.perf_counter() - start)
                    assert results[-1].ok
                    start = time.perf_counter()
                    answer = await client.call_tool("fs_read", {"path": "one.txt"})
                    samples["mcp"].append(time.perf_counter() - start)
                    assert not answer.isError
                samples["exec"].append(
                    await asyncio.to_thread(_exec, workspace, state / "exec", f"e{round_no}")
                )
    return samples


def run() -> list[str]:
    try:
        import mcp  # noqa: F401
    except ImportError:
        return ["bench_mcp: the mcp package is not installed; skipped"]
    with tempfile.TemporaryDirectory(prefix="bench-mcp-") as tmp:
        root = Path(tmp)
        workspace = root / "ws"
        workspace.mkdir()
        (workspace / "one.txt").write_text("".join(f"line {i}\n" for i in range(100)))
        samples = asyncio.run(_measure(workspace, root / "state"))
    median = {kind: statistics.median(values) for kind, values in samples.items()}
    direct, over_mcp, by_exec = median["direct"], median["mcp"], median["exec"]
    return [
        f"direct in-process read (session):  {direct * 1000:8.2f} ms   1.00x (baseline)",
        f"MCP tools/call round trip (stdio): {over_mcp * 1000:8.2f} ms   "
        f"{over_mcp / direct:.2f}x direct",
        f"exec of the same command:          {by_exec * 1000:8.2f} ms   "
        f"{by_exec / direct:.2f}x direct, {by_exec / over_mcp:.2f}x MCP",
    ]


def main() -> int:
    for line in run():
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
