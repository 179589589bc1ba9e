"""Two MCP servers on one workspace never give two calls the same id, even while neither
call is on record yet (a write waiting for its review)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from llm_operator.core.plan.session import Session
from llm_operator.mcp_server.broker import Broker


def test_two_servers_on_one_workspace_claim_distinct_ids(
    make_session: Callable[[], Session],
) -> None:
    first, second = Broker(make_session), Broker(make_session)
    try:
        ids = []
        for _ in range(5):  # calls taken in turns, none of them run yet
            ids.append(first._next_id())
            ids.append(second._next_id())
    finally:
        first.close()
        second.close()
    assert len(set(ids)) == len(ids), ids
    assert sorted(ids, key=lambda i: int(i.removeprefix("mcp-"))) == [
        f"mcp-{n}" for n in range(1, 11)
    ]


def test_a_later_server_goes_on_after_the_ids_of_an_earlier_one(
    make_session: Callable[[], Session], workspace: Path
) -> None:
    (workspace / "a.txt").write_text("alpha\n", encoding="utf-8")
    first = Broker(make_session)
    try:
        done = asyncio.run(first.call("fs_read", {"path": "a.txt"}, "test", None))
    finally:
        first.close()
    assert "mcp-1" in done.text
    second = Broker(make_session)
    try:
        assert second._next_id() == "mcp-2"
    finally:
        second.close()
