"""``llm-operator relay``: the browser extension's relay (``llm_operator.relay``).

    llm-operator relay --workspace DIR [--state-dir DIR] [--port N]
                       [--approve window|ask|no|yes] [--approval-timeout S] [--control]

Exit status: 0 stopped, 2 usage or workspace error, or the port could not be had.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from .core.plan.run import Decision, Pending

EXIT_USAGE = 2


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    from pathlib import Path

    relay = commands.add_parser(
        "relay", help="relay a web chat's replies and results through the browser extension"
    )
    relay.add_argument("--workspace", type=Path, required=True)
    relay.add_argument("--state-dir", type=Path, help="session memory and undo journal folder")
    relay.add_argument("--port", type=int, default=8765, help="on 127.0.0.1 (default 8765)")
    relay.add_argument(
        "--approve",
        choices=("window", "ask", "no", "yes"),
        help="who approves writes and secret reads, as for mcp (yes: tests and scripts only)",
    )
    relay.add_argument(
        "--approval-timeout",
        type=float,
        metavar="SECONDS",
        help="how long a reply waits for approval (default 600)",
    )
    relay.add_argument(
        "--control", action="store_true", help="read pause, resume and stop lines on stdin"
    )


def run_relay(args: argparse.Namespace) -> int:
    """Serve the relay on the workspace; an ``--approve ask`` question is ``exec``'s, asked
    per command on the controlling terminal."""
    from .cli_prompt import Terminal, ask
    from .cli_sessions import open_session
    from .relay import serve

    if not 0 <= args.port <= 65535:
        print("llm-operator: --port must be from 0 (any free one) to 65535", file=sys.stderr)
        return EXIT_USAGE
    if args.approval_timeout is not None and not args.approval_timeout > 0:
        print("llm-operator: --approval-timeout must be more than 0 seconds", file=sys.stderr)
        return EXIT_USAGE
    session = open_session(args.workspace, args.state_dir)
    if session is None:
        return EXIT_USAGE

    def prompt(pending: Sequence[Pending], client: str) -> dict[int, Decision] | None:
        """The ``exec`` prompt for a relayed reply's commands, on the terminal."""
        from .core.visible import shown
        from .core.wording import counted

        try:
            opened = Terminal()
        except OSError:
            return None
        with opened:
            # The chat's site and title come from a web page: shown as text.
            asks = f"{shown(client)} (relay) asks for {counted(len(pending), 'command')}"
            opened.write(f"\n{asks}:\n")
            return {item.index: ask(item, opened) for item in pending}

    return serve(
        lambda: session, args.approve, args.port, prompt, args.control, args.approval_timeout
    )
