"""The MCP server on the official SDK: tools from the action table, calls to the broker.

Streamable HTTP (``--http PORT``) listens on 127.0.0.1 only. Every request must carry the
bearer token printed once on stderr at start, and a request that names an Origin other
than this server's own is refused (a web page in a browser cannot drive it).

On both transports every message passes ``framing.check`` before the SDK parses it, so
a message the server does not read is answered, never left waiting (stdio.py, _checked).
"""

from __future__ import annotations

import hmac
import secrets
import socket
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any

from .tools import all_tools

if TYPE_CHECKING:
    from mcp.server.lowlevel import Server

    from .broker import Broker

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SERVER_NAME = "llm-operator"
LOCALHOST = "127.0.0.1"


def build_server(broker: Broker) -> Server[Any, Any]:
    from mcp import types
    from mcp.server.lowlevel import Server

    server: Server[Any, Any] = Server(
        SERVER_NAME,
        instructions=(
            "File operations in one workspace folder, reviewed by a person: reads run at "
            "once, writes are shown as diffs for approval and can be undone. Paths are "
            "relative to the workspace root. Call operator_getInterfaceSpec for the rules."
        ),
    )
    tools = [
        types.Tool(
            name=info.name,
            description=info.description,
            inputSchema=info.input_schema,
            annotations=types.ToolAnnotations(
                title=info.action,
                readOnlyHint=info.read_only,
                destructiveHint=info.destructive,
                idempotentHint=info.idempotent,
                openWorldHint=info.open_world,
            ),
        )
        for info in all_tools()
    ]

    @server.list_tools()  # type: ignore[no-untyped-call,untyped-decorator]
    async def list_tools() -> list[types.Tool]:
        return tools

    @server.call_tool(validate_input=False)  # type: ignore[untyped-decorator]
    async def call_tool(name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        context = server.request_context
        token = context.meta.progressToken if context.meta is not None else None
        params = context.session.client_params
        client = params.clientInfo.name if params is not None else "an MCP client"
        report = None
        if token is not None:
            session = context.session
            request_id = str(context.request_id)
            step = [0]

            async def report_progress(message: str) -> None:
                step[0] += 1
                await session.send_progress_notification(
                    token, float(step[0]), None, message, related_request_id=request_id
                )

            report = report_progress
        # Each connection's session is a conversation of its own (ids, undo notices).
        answer = await broker.call(name, arguments, client, report, context.session)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=answer.text)], isError=answer.is_error
        )

    return server


async def serve_stdio(server: Server[Any, Any]) -> None:
    from .stdio import stdio_streams

    async with stdio_streams() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def guarded_app(app: ASGIApp, token: str, origins: frozenset[str]) -> ASGIApp:
    """``app`` behind the bearer token and the Origin check."""
    expected = f"Bearer {token}".encode()

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        origin = headers.get(b"origin")
        if origin is not None and origin.decode("latin-1") not in origins:
            await _refuse(send, 403, "this Origin may not use the server")
            return
        given = headers.get(b"authorization", b"")
        if not hmac.compare_digest(given, expected):
            await _refuse(send, 401, "a valid bearer token is required (printed at start)")
            return
        if scope.get("method") == "POST" and _read_as_json(headers.get(b"content-type", b"")):
            await _checked(app, scope, receive, send)
            return
        await app(scope, receive, send)

    return guarded


def _read_as_json(content_type: bytes) -> bool:
    """Whether the SDK reads a body of ``content_type`` as JSON: it does when any of the
    comma-separated types before the first ``;`` is application/json. Every such body is
    checked first (case aside: one the SDK refuses for its case is checked as well)."""
    kinds = content_type.split(b";")[0].split(b",")
    return any(kind.strip().lower() == b"application/json" for kind in kinds)


async def _checked(app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
    """A JSON-RPC message posted: answered here when ``framing.check`` refuses it (as on
    stdio, under its id when it can be read), else passed on with its body as it came."""
    from .framing import Collected, check, error_answer, invalid_message

    collected = Collected()
    while True:
        event = await receive()
        if event["type"] == "http.disconnect":
            return
        collected.add(event.get("body", b""))
        if not event.get("more_body", False):
            break
    verdict = check(collected)
    answer = verdict.answer
    if answer is None and verdict.message is None:
        answer = error_answer(None, -32700, "the body is empty; send one JSON-RPC message")
    if answer is None and verdict.message is not None:
        from mcp import types

        try:
            types.JSONRPCMessage.model_validate(verdict.message)
        except ValueError:  # pydantic's ValidationError
            answer = invalid_message(verdict.message)
    if answer is not None:
        status = 413 if collected.cut else 400
        headers = [(b"content-type", b"application/json")]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": answer})
        return
    body = collected.whole()
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if replayed:
            return await receive()
        replayed = True
        return {"type": "http.request", "body": body, "more_body": False}

    await app(scope, replay, send)


async def _refuse(send: Send, status: int, text: str) -> None:
    body = text.encode() + b"\n"
    headers = [(b"content-type", b"text/plain; charset=utf-8")]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="llm-operator"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def serve_http(server: Server[Any, Any], port: int) -> None:
    import uvicorn
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from mcp.server.transport_security import TransportSecuritySettings

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((LOCALHOST, port))
    listener.listen(128)  # before the address is printed: a client may connect at once
    port = listener.getsockname()[1]
    hosts = [f"{LOCALHOST}:{port}", f"localhost:{port}"]
    origins = frozenset(f"http://{host}" for host in hosts)
    manager = StreamableHTTPSessionManager(
        app=server,
        security_settings=TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=hosts,
            allowed_origins=sorted(origins),
        ),
    )

    async def endpoint(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("path") in ("/mcp", "/mcp/"):
            await manager.handle_request(scope, receive, send)
            return
        await _refuse(send, 404, "the MCP endpoint is /mcp")

    token = secrets.token_urlsafe(32)
    app = guarded_app(endpoint, token, origins)
    config = uvicorn.Config(app, lifespan="off", log_level="warning", access_log=False)
    print(
        f"llm-operator mcp: MCP over streamable HTTP at http://{LOCALHOST}:{port}/mcp\n"
        "llm-operator mcp: bearer token (shown once; send 'Authorization: Bearer <token>'): "
        + token,
        file=sys.stderr,
        flush=True,
    )
    async with manager.run():
        await uvicorn.Server(config).serve(sockets=[listener])
