"""``llm-operator mcp``: the workspace's actions served to an MCP client."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cli_prompt import ask_mcp
from .cli_sessions import EXIT_USAGE, open_session

if TYPE_CHECKING:
    import argparse

    from .core.plan.session import Session


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    mcp = commands.add_parser("mcp", help="serve the workspace's actions to an MCP client")
    mcp.add_argument("--workspace", type=Path, required=True)
    mcp.add_argument("--state-dir", type=Path, help="session memory and undo journal folder")
    mcp.add_argument(
        "--approve",
        choices=("window", "ask", "no", "yes"),
        help="who approves writes and secret reads (default: the window when one has the "
        "workspace open, else the terminal if there is one, else the window once it is "
        "opened; yes is for tests and scripts only)",
    )
    mcp.add_argument("--http", type=int, metavar="PORT", help="streamable HTTP on 127.0.0.1")
    mcp.add_argument(
        "--approval-timeout",
        type=float,
        metavar="SECONDS",
        help="how long a call waits for approval (default 600)",
    )


def run_mcp(args: argparse.Namespace) -> int:
    from .mcp_server import serve

    if args.http is not None and not 0 <= args.http <= 65535:
        print("llm-operator: --http must be a port from 0 (any free one) to 65535", file=sys.stderr)
        return EXIT_USAGE
    if args.approval_timeout is not None and not args.approval_timeout > 0:
        print("llm-operator: --approval-timeout must be more than 0 seconds", file=sys.stderr)
        return EXIT_USAGE
    first = open_session(args.workspace, args.state_dir)
    if first is None:
        return EXIT_USAGE
    opened = [first]

    def next_session() -> Session:
        if opened:
            return opened.pop()
        again = open_session(args.workspace, args.state_dir)
        assert again is not None  # the same workspace opened a moment ago
        return again

    return serve(next_session, args.approve, args.http, ask_mcp, args.approval_timeout)
