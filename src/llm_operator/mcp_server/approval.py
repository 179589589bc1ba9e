"""Who approves what an MCP call (or a relayed reply) wants to do: nobody (``no``),
everybody (``yes``), the person at the terminal (``ask``) or the window's review dialog
(``window``). The relay (``llm_operator.relay``) uses these same approvers; it passes the
conversation its reply runs in, which only the window needs (it plans the reply again)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..core.plan.run import APPROVE, Decision, Pending

if TYPE_CHECKING:
    from ..core.store.command_watch import CommandWatch

# Asks on the terminal, blocking: the decision per pending index, or None when no
# terminal can be opened. Given by the command line, which owns the terminal prompt.
Prompt = Callable[[Sequence[Pending], str], Mapping[int, Decision] | None]

T = TypeVar("T")
NO_REASON = "the MCP server was started with --approve no"


class NoReviewer(Exception):
    """Nobody can review the call now (no window, no terminal); ``str()`` says why."""


class Refuse:
    where = "nobody (--approve no)"

    def __init__(self, reason: str = NO_REASON) -> None:
        self._reason = reason

    async def decide(
        self,
        pending: Sequence[Pending],
        client: str,
        reply: str,
        conversation: int | None = None,
    ) -> Mapping[int, Decision]:
        return {item.index: Decision(False, self._reason) for item in pending}


class Allow:
    """For tests and scripts: every write and secret read runs unreviewed."""

    where = "nobody (--approve yes)"

    async def decide(
        self,
        pending: Sequence[Pending],
        client: str,
        reply: str,
        conversation: int | None = None,
    ) -> Mapping[int, Decision]:
        return {item.index: APPROVE for item in pending}


class Ask:
    """The terminal prompt of ``exec``, on /dev/tty, one review at a time.

    A review the client cancels keeps its prompt until the person answers (a terminal
    read cannot be taken back); that answer is then not used for anything.
    """

    where = "the terminal"

    def __init__(self, prompt: Prompt) -> None:
        self._prompt = prompt
        # One prompt on the terminal at a time, held by the prompting thread: a prompt
        # whose call was cancelled keeps the terminal until it is answered.
        self._turn = threading.Lock()

    async def decide(
        self,
        pending: Sequence[Pending],
        client: str,
        reply: str,
        conversation: int | None = None,
    ) -> Mapping[int, Decision]:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Mapping[int, Decision] | None] = loop.create_future()

        def ask() -> None:
            try:
                with self._turn:
                    if answer.cancelled():
                        return  # withdrawn while an earlier prompt held the terminal
                    decided = self._prompt(list(pending), client)
            except BaseException as error:  # handed to the waiting call
                failed = error
                loop.call_soon_threadsafe(_settle_error, answer, failed)
                return
            loop.call_soon_threadsafe(_settle, answer, decided)

        # A daemon thread: a prompt nobody answers must not keep the server alive after
        # its client has gone.
        threading.Thread(target=ask, name="mcp-ask", daemon=True).start()
        decided = await answer
        if decided is None:
            raise NoReviewer("the terminal could not be opened")
        return decided


def _settle(answer: asyncio.Future[T], value: T) -> None:
    if not answer.done():
        answer.set_result(value)


def _settle_error(answer: asyncio.Future[T], error: BaseException) -> None:
    if not answer.done():
        answer.set_exception(error)


class Window:
    """The window's review dialog, reached through the workspace's review socket."""

    where = "the window"
    # The window plans a write on a secret-looking file it was let to read and shows its
    # change in a second dialog; its answer for that command is the change's approval.
    shows_held_changes = True

    def __init__(self, state_folder: Path, channel: str = "mcp") -> None:
        self._folder = state_folder
        self._channel = channel

    def watch(self, client: str) -> CommandWatch:
        """What streams the commands this server runs to the window, while it listens."""
        from ..core.plan.watch_link import RemoteWatch

        return RemoteWatch(self._folder, client)

    async def decide(
        self,
        pending: Sequence[Pending],
        client: str,
        reply: str,
        conversation: int | None = None,
    ) -> Mapping[int, Decision]:
        from ..core.plan.review_link import LinkError, ReviewRequest

        loop = asyncio.get_running_loop()
        folder, channel = self._folder, self._channel
        try:
            request = await loop.run_in_executor(
                None, lambda: ReviewRequest(folder, client, reply, channel, conversation)
            )
        except LinkError as error:
            raise NoReviewer(str(error)) from None
        try:
            decided = await loop.run_in_executor(None, request.wait)
        except LinkError as error:
            raise NoReviewer(str(error)) from None
        except asyncio.CancelledError:
            request.withdraw()  # the window closes its dialog
            raise
        wanted = {item.index for item in pending}
        if set(decided) != wanted:
            # The window planned the calls against files that changed after this server
            # planned them: what the person decided on is not what would run.
            raise NoReviewer(
                "the window reviewed other commands than the server planned (the files "
                "changed meanwhile); read them again"
            )
        return decided
