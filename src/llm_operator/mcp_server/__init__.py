"""``llm-operator mcp``: the workspace's actions as MCP tools, reviewed like a paste.

    llm-operator mcp --workspace DIR [--state-dir DIR] [--approve window|ask|no|yes]
                     [--http PORT]

The SDK is imported only here, when the server starts: no other command pays for it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.plan.session import Session
    from .approval import Prompt
    from .broker import Approver

APPROVE_MODES = ("window", "ask", "no", "yes")


def _say(message: str) -> None:
    print(f"llm-operator mcp: {message}", file=sys.stderr, flush=True)


def _approver(mode: str, prompt: Prompt, state_folder: Path | None) -> Approver | None:
    from .approval import Allow, Ask, Refuse, Window

    if mode == "yes":
        _say(
            "--approve yes: every write and every secret read runs WITHOUT review; "
            "use it only for tests and scripts"
        )
        return Allow()
    if mode == "no":
        _say("--approve no: every write and every secret read is rejected")
        return Refuse()
    if mode == "ask":
        if not _terminal_usable():
            _say("--approve ask needs a terminal (/dev/tty) and none can be opened")
            return None
        return Ask(prompt)
    if state_folder is None:
        _say("--approve window needs a state folder")
        return None
    if not _window_ready(state_folder):
        _say(
            "--approve window: no window is open on this workspace yet; calls that need "
            "approval are refused (ERR_NO_REVIEWER) until one is"
        )
    return Window(state_folder)


def _window_ready(state_folder: Path | None) -> bool:
    if state_folder is None:
        return False
    from ..core.plan.review_link import window_ready

    return window_ready(state_folder)


def _terminal_usable() -> bool:
    try:
        with open("/dev/tty", "rb"):
            return True
    except OSError:
        return False


def serve(
    open_session: Callable[[], Session],
    approve: str | None,
    http: int | None,
    prompt: Prompt,
    timeout: float | None = None,
) -> int:
    """Run until the client goes away (stdio) or the process is stopped (HTTP); the exit
    status follows the command line's: 0 done, 2 usage or workspace error."""
    import anyio

    from .broker import DEFAULT_TIMEOUT, Broker
    from .server import build_server, serve_http, serve_stdio

    broker = Broker(open_session, timeout=timeout or DEFAULT_TIMEOUT)
    folder = broker.state_folder
    if approve is not None:
        mode = approve
    elif _window_ready(folder):
        mode = "window"
    else:
        # With nobody to ask now, the window: it may be opened later, and until then a
        # call that needs approval says so (ERR_NO_REVIEWER) rather than "rejected".
        mode = "ask" if _terminal_usable() else "window"
    approver = _approver(mode, prompt, folder)
    if approver is None:
        broker.close()
        return 2
    if approve is None:
        _say(f"approvals: {approver.where}")
    broker.approver = approver
    # Only the terminal review shows this server's own plans to a person (the window
    # plans the reply itself): only then is a secret read's preview made.
    broker.show_secrets(mode == "ask")
    server = build_server(broker)
    try:
        if http is None:
            anyio.run(serve_stdio, server)
        else:
            anyio.run(serve_http, server, http)
    except KeyboardInterrupt:
        pass
    except OSError as error:
        _say(f"cannot serve: {error.strerror or error}")
        return 2
    finally:
        broker.close()
    return 0
