"""The relay's WebSocket server: 127.0.0.1 only, extension origins only, paired tokens only.

Invariants:
- Checks come before any work, and every refusal is one short log line: the Host header
  (``127.0.0.1:<port>`` or ``localhost:<port>``: a page on a rebound name cannot reach
  it), then the Origin (``chrome-extension://`` or ``moz-extension://``: a page's script
  always sends its own), then the connection rate (``MAX_CONNECTIONS`` a ``RATE_WINDOW``)
  and the number open. Only connections that passed Host and Origin count towards the
  rate: a web page opening connections in a loop is refused each time but never takes
  the extension's turn. These are answered with an HTTP status during the opening
  handshake; no WebSocket is opened. Of the Host and Origin refusals (what a web page
  causes) the first ``PAGE_NOTES`` are logged, the rest counted and said in one line when
  an extension next connects: a page in a loop cannot flood the window's log.
- The first message must come within ``FIRST_WORD_SECONDS`` and be ``pair`` (with the
  current one-time code) or ``hello`` (with a known token); anything else closes the
  connection (code 1008) before the engine sees a byte of it.
- Bounded: a frame longer than ``wire.MAX_MESSAGE`` closes the connection (1009), the
  opening handshake must finish in ``OPEN_TIMEOUT`` seconds, no compression (no inflating
  bombs), a connection's messages are read one at a time (a client cannot queue work), and
  everything runs on one event loop in its own process: a slow client holds only its own
  connection, never the window.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from http import HTTPStatus
from typing import TYPE_CHECKING

from . import wire
from .channel import Chat, RelayChannel
from .pairing import Pairing

if TYPE_CHECKING:
    from websockets.asyncio.server import Server, ServerConnection
    from websockets.http11 import Request, Response

LOCALHOST = "127.0.0.1"
DEFAULT_PORT = 8765
EXTENSION_ORIGINS = ("chrome-extension://", "moz-extension://")
OPEN_TIMEOUT = 5.0
FIRST_WORD_SECONDS = 10.0
MAX_CONNECTIONS = 30  # opened per RATE_WINDOW seconds
RATE_WINDOW = 10.0
MAX_OPEN = 16  # connections open at once (one per chat tab, and a few to spare)
PAGE_NOTES = 10  # web page refusals logged in a row (the rest counted)


def _quiet_logger() -> logging.Logger:
    """websockets' own logger, silenced: refusals are reported here, in one line each,
    and a client's failed handshake must not print a traceback on the terminal."""
    logger = logging.getLogger("llm_operator.relay.websockets")
    logger.propagate = False
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())
    return logger


class RelayServer:
    def __init__(
        self,
        channel: RelayChannel,
        pairing: Pairing,
        note: Callable[[str], None],
    ) -> None:
        self.channel = channel
        self.pairing = pairing
        self._note = note
        self.port = 0
        self._opened: deque[float] = deque()
        self._open: set[ServerConnection] = set()
        self._ready: set[ServerConnection] = set()
        self.refused = 0  # connections refused: for tests and the log
        self._page_refusals = 0  # since an extension last connected

    # -- the opening handshake -------------------------------------------------------

    def _refuse(
        self, connection: ServerConnection, status: HTTPStatus, why: str, page: bool = False
    ) -> Response:
        self.refused += 1
        if page:
            self._page_refusals += 1
        if self._page_refusals <= PAGE_NOTES or not page:
            self._note(f"refused a connection: {why}")
        if page and self._page_refusals == PAGE_NOTES:
            self._note("more refusals of web pages are counted, not logged")
        return connection.respond(status, why + "\n")

    def check_request(self, connection: ServerConnection, request: Request) -> Response | None:
        host = request.headers.get("Host", "")
        if host not in (f"{LOCALHOST}:{self.port}", f"localhost:{self.port}"):
            return self._refuse(connection, HTTPStatus.FORBIDDEN, f"Host {_shown(host)}", True)
        origin = request.headers.get("Origin", "")
        if not origin.startswith(EXTENSION_ORIGINS) or len(origin) > wire.MAX_NAME:
            return self._refuse(
                connection,
                HTTPStatus.FORBIDDEN,
                f"Origin {_shown(origin) or '(none)'} is not a browser extension's",
                True,
            )
        # Counted only once Host and Origin passed: any web page can open connections to
        # 127.0.0.1, and those it opens must not use up the extension's budget.
        now = time.monotonic()
        while self._opened and now - self._opened[0] > RATE_WINDOW:
            self._opened.popleft()
        if len(self._opened) >= MAX_CONNECTIONS:
            return self._refuse(connection, HTTPStatus.TOO_MANY_REQUESTS, "too many connections")
        self._opened.append(now)
        if len(self._open) >= MAX_OPEN:
            return self._refuse(
                connection, HTTPStatus.SERVICE_UNAVAILABLE, "too many open connections"
            )
        return None

    # -- a connection ------------------------------------------------------------------

    async def handle(self, connection: ServerConnection) -> None:
        from websockets.exceptions import ConnectionClosed

        self._open.add(connection)
        try:
            await self._converse(connection)
        except ConnectionClosed:
            pass
        finally:
            self._open.discard(connection)
            self._ready.discard(connection)

    async def _converse(self, connection: ServerConnection) -> None:
        try:
            first = await asyncio.wait_for(connection.recv(), FIRST_WORD_SECONDS)
        except asyncio.TimeoutError:
            await self._close(connection, "no first message within the time allowed")
            return
        try:
            message = wire.read_message(first)
        except wire.WireError as error:
            await self._close(connection, f"first message: {error}")
            return
        if isinstance(message, wire.Pair):
            token = self.pairing.pair(message.code)
            if token is None:
                await self._close(connection, "wrong pairing code")
                return
            self._note("paired with a browser extension")
            if self.pairing.kept_problem:
                self._note(f"{self.pairing.kept_problem}; pair again after a restart")
            await connection.send(wire.paired(token))
            await connection.close(1000, "paired")
            return
        if not isinstance(message, wire.Hello):
            await self._close(connection, "the first message must be pair or hello")
            return
        if not self.pairing.knows(message.token):
            await self._close(connection, "missing or unknown token: pair again")
            return
        chat = Chat(message.site, message.conversation)
        self.channel.seen_before(chat, message.existing)
        await connection.send(wire.ready())
        await connection.send(wire.status(self.state))
        self._ready.add(connection)
        self._note(f"connected: {chat.describe()}")
        if self._page_refusals > PAGE_NOTES:
            self._note(
                f"refused {self._page_refusals - PAGE_NOTES} more connection(s) of web pages "
                "meanwhile"
            )
        self._page_refusals = 0
        async for raw in connection:
            try:
                found = wire.read_message(raw)
            except wire.WireError as error:
                await connection.send(wire.error(str(error)))
                continue
            if isinstance(found, wire.Reply):
                replied = Chat(message.site, found.conversation, found.title)
                await self.channel.reply(replied, found.message_id, found.text, connection.send)
            elif isinstance(found, wire.Ping):
                await connection.send(wire.pong())
            elif isinstance(found, wire.Accepted):
                self._note(f"{chat.site}: part {found.part + 1} of {found.message_id} placed")
            else:
                await connection.send(wire.error("send reply or accepted after hello"))

    async def _close(self, connection: ServerConnection, why: str) -> None:
        self.refused += 1
        self._note(f"refused a connection: {why}")
        await connection.close(1008, why[:100])

    # -- state ---------------------------------------------------------------------

    @property
    def state(self) -> str:
        return "paused" if self.channel.paused else "running"

    def tell_state(self, state: str) -> None:
        """Send ``state`` to every connected extension (from the server's loop)."""
        for connection in list(self._ready):
            task = asyncio.ensure_future(_send_quietly(connection, wire.status(state)))
            _keep(task)

    def pause(self, paused: bool) -> None:
        self.channel.paused = paused
        self._note("paused" if paused else "running")
        self.tell_state(self.state)

    async def start(self, port: int) -> Server:
        from websockets.asyncio.server import serve

        server: Server = await serve(
            self.handle,
            LOCALHOST,
            port,
            process_request=self.check_request,
            max_size=wire.MAX_MESSAGE,
            max_queue=4,
            open_timeout=OPEN_TIMEOUT,
            compression=None,
            server_header=None,
            logger=_quiet_logger(),
        )
        self.port = int(next(iter(server.sockets)).getsockname()[1])
        return server


_TASKS: set[asyncio.Task[None]] = set()


def _keep(task: asyncio.Task[None]) -> None:
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)


async def _send_quietly(connection: ServerConnection, text: str) -> None:
    with contextlib.suppress(Exception):
        await connection.send(text)


def _shown(text: str) -> str:
    """A header value as a log line shows it: printable ASCII, at most 80 characters."""
    return "".join(c if " " <= c <= "~" else "?" for c in text[:80])
