"""``llm-operator relay``: replies of a web chat, read from the page by the browser
extension (extension/ in the repository), run as pasted, their results put back.

    llm-operator relay --workspace DIR [--state-dir DIR] [--port N]
                       [--approve window|ask|no|yes] [--control]

The relay is one more channel into the session, like ``mcp``: the same approvers
(``mcp_server.approval``), the same session, jail, secret rule, review, undo and history.
It prints ``pairing code: <code>`` on standard error (again each time the code is
replaced); with ``--control`` (the window's Relay menu starts it so) it reads ``pause``,
``resume`` and ``stop`` lines on standard input.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from .channel import say

if TYPE_CHECKING:
    from pathlib import Path

    from ..core.plan.session import Session
    from ..mcp_server.approval import Prompt
    from .channel import Approver
    from .server import RelayServer

APPROVE_MODES = ("window", "ask", "no", "yes")
NO_REASON = "the relay was started with --approve no"


def approver_for(mode: str, prompt: Prompt, state_folder: Path | None) -> Approver | None:
    """The approver of ``mode`` (as for ``mcp``); None, said on stderr, when it cannot be."""
    from ..mcp_server.approval import Allow, Ask, Refuse, Window

    if mode == "yes":
        say("--approve yes: every write and every secret read runs WITHOUT review")
        return Allow()
    if mode == "no":
        say("--approve no: every write and every secret read is rejected")
        return Refuse(NO_REASON)
    if mode == "ask":
        return Ask(prompt)
    if state_folder is None:
        say("--approve window needs a state folder")
        return None
    return Window(state_folder, "relay")


def _default_mode(state_folder: Path | None) -> str:
    from ..core.plan.review_link import window_ready

    if state_folder is not None and window_ready(state_folder):
        return "window"
    try:
        with open("/dev/tty", "rb"):
            return "ask"
    except OSError:
        return "window"


def serve(
    open_session: Callable[[], Session],
    approve: str | None,
    port: int,
    prompt: Prompt,
    control: bool = False,
    timeout: float | None = None,
) -> int:
    """Serve until stopped (Ctrl+C, ``stop`` on stdin with ``control``); 0, or 2 when the
    port cannot be had or the approver cannot be made."""
    from ..core.protocol.encoder import ResultForm
    from ..core.store.settings import Settings
    from .channel import DEFAULT_TIMEOUT, RelayChannel
    from .pairing import Pairing
    from .server import RelayServer

    settings = Settings.load()
    session = open_session()
    folder = session.state_folder
    mode = approve or _default_mode(folder)
    approver = approver_for(mode, prompt, folder)
    if approver is None:
        return 2
    say(f"approvals: {approver.where}")
    server_box: list[RelayServer] = []

    def on_state(state: str) -> None:
        if server_box:
            server_box[0].tell_state(state)

    channel = RelayChannel(
        lambda: session,
        approver,
        settings.part_size,
        ResultForm(settings.results_form),
        timeout or DEFAULT_TIMEOUT,
        on_state=on_state,
    )
    channel.show_secrets(mode == "ask")
    from ..core.store.settings import default_settings_path
    from .tokens import NAME, KeptTokens

    kept = KeptTokens(default_settings_path().with_name(NAME))
    if kept.problem:
        say(kept.problem)
    pairing = Pairing(
        lambda code: print(f"pairing code: {code}", file=sys.stderr, flush=True), kept
    )
    server = RelayServer(channel, pairing, say)
    server_box.append(server)
    try:
        return asyncio.run(_run(server, port, control))
    except KeyboardInterrupt:
        return 0
    finally:
        channel.close()


async def _run(server: RelayServer, port: int, control: bool) -> int:
    try:
        listening = await server.start(port)
    except OSError as error:
        say(f"cannot listen on {port}: {error.strerror or error}")
        return 2
    say(f"listening on ws://127.0.0.1:{server.port}")
    stop = asyncio.Event()
    if control:
        _read_controls(server, stop, asyncio.get_running_loop())
    async with listening:
        await stop.wait()
    return 0


def _read_controls(
    server: RelayServer, stop: asyncio.Event, loop: asyncio.AbstractEventLoop
) -> None:
    """``pause``, ``resume``, ``stop`` lines from standard input; its end stops too (the
    window that started the relay has gone)."""

    def read() -> None:
        for line in sys.stdin:
            word = line.strip()
            if word in ("pause", "resume"):
                loop.call_soon_threadsafe(server.pause, word == "pause")
            elif word == "stop":
                break
        loop.call_soon_threadsafe(stop.set)

    threading.Thread(target=read, name="relay-control", daemon=True).start()
