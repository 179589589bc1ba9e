"""The stdio transport: one JSON-RPC message per line, each checked by ``framing.check``.

It stands in for the SDK's ``stdio_server``, which reads the same lines but parses them
itself and only logs a line it cannot parse. Here a line is read as bytes (never decoded
with replacement characters: a byte that is not UTF-8 is refused, not changed into
U+FFFD and written to a file), at most ``CHUNK`` at a time, and a line past the
message limit is answered without being kept. Refusals are written to stdout between
whole messages of the server (one lock), in the order the lines came.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import IO, TYPE_CHECKING

import anyio
import anyio.lowlevel
import anyio.to_thread
from mcp import types
from mcp.shared.message import SessionMessage

from .framing import Collected, check, invalid_message

if TYPE_CHECKING:
    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

CHUNK = 1024 * 1024


def encoded(message: types.JSONRPCMessage) -> bytes:
    """A message of the server as one line. Text the server passes on unchanged may hold
    a lone surrogate (an unknown tool's name, say), which UTF-8 cannot carry: such a
    message is written with JSON's ``\\uXXXX`` escapes instead, as it was received."""
    try:
        return message.model_dump_json(by_alias=True, exclude_none=True).encode() + b"\n"
    except ValueError:  # pydantic's serialization error
        import json

        data = message.model_dump(by_alias=True, mode="python", exclude_none=True)
        return json.dumps(data, ensure_ascii=True).encode("ascii") + b"\n"


@asynccontextmanager
async def stdio_streams(
    stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None
) -> AsyncIterator[
    tuple[
        MemoryObjectReceiveStream[SessionMessage | Exception],
        MemoryObjectSendStream[SessionMessage],
    ]
]:
    source = stdin or sys.stdin.buffer
    sink = anyio.wrap_file(stdout or sys.stdout.buffer)
    lock = anyio.Lock()
    incoming, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, outgoing = anyio.create_memory_object_stream[SessionMessage](0)

    async def put(line: bytes) -> None:
        async with lock:
            await sink.write(line)
            await sink.flush()

    async def read_lines() -> None:
        try:
            async with incoming:
                while True:
                    collected = Collected()
                    while True:
                        chunk = await anyio.to_thread.run_sync(source.readline, CHUNK)
                        collected.add(chunk)
                        if not chunk or chunk.endswith(b"\n"):
                            break
                    if collected.size == 0:
                        return  # end of input: the client has gone
                    verdict = check(collected)
                    if verdict.answer is not None:
                        await put(verdict.answer)
                    elif verdict.message is not None:
                        try:
                            message = types.JSONRPCMessage.model_validate(verdict.message)
                        except ValueError:  # pydantic's ValidationError
                            await put(invalid_message(verdict.message))
                            continue
                        await incoming.send(SessionMessage(message))
        except anyio.ClosedResourceError:
            await anyio.lowlevel.checkpoint()

    async def write_lines() -> None:
        try:
            async with outgoing:
                async for session_message in outgoing:
                    await put(encoded(session_message.message))
        except anyio.ClosedResourceError:
            await anyio.lowlevel.checkpoint()

    async with anyio.create_task_group() as group:
        group.start_soon(read_lines)
        group.start_soon(write_lines)
        yield read_stream, write_stream
