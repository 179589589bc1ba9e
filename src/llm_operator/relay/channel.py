"""A relayed reply runs exactly as a paste of it would: one more channel into the session.

Invariants:
- A reply goes through ``Session.prepare`` / ``open_held`` / ``execute`` like a pasted
  one (jail, secret rule, planning, stale check, write lock, journal, memory, history);
  what needs approval goes to the same approvers as an MCP call's (``mcp_server.approval``):
  the window's review dialog, the terminal, or nobody (``--approve no|yes``).
- Each relayed chat (site and conversation) is a conversation of its own on the RELAY
  channel, started at its first reply with commands; its ids, repeats and undo notices
  are its own, as an MCP session's are.
- A message id is run at most once: a second ``reply`` with the same id (while the first
  runs, or after) gets the first one's answer from memory. A reply with no command block
  is ignored (and remembered as such); so is one the hello listed as already on the page
  (older than the connection) and every reply while the relay is paused.
- A reply whose commands wait for approval is answered twice: at once with the results
  of the commands before the first one that waits (reads and checks that nothing of the
  reply's writes can change: they ran on the files as they are), then, once the person
  decided, with the rest (``final``). A reply with nothing to approve is answered once.
- One reply runs at a time, in arrival order (a paste is one at a time too); a run that
  waits for approval waits at most ``timeout`` seconds, then nothing of it runs.
- The session lives in one worker thread: the store connection belongs to one thread.
"""

from __future__ import annotations

import asyncio
import sys
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from ..core.outcome import Outcome
from ..core.plan.run import Decision, Pending, Run
from ..core.protocol.encoder import Result, ResultForm
from ..core.protocol.parts import split_results
from ..core.protocol.scanner import scan
from . import wire

if TYPE_CHECKING:
    from pathlib import Path

    from ..core.plan.session import Session

T = TypeVar("T")
Send = Callable[[str], Awaitable[None]]
DEFAULT_TIMEOUT = 600.0  # seconds a reply waits for approval
REMEMBERED = 2000  # answers kept for repeated message ids


class Approver(Protocol):
    """``mcp_server.approval``'s approvers, given the relayed chat's conversation."""

    where: str

    async def decide(
        self,
        pending: Sequence[Pending],
        client: str,
        reply: str,
        conversation: int | None = None,
    ) -> Mapping[int, Decision]: ...


@dataclass(frozen=True)
class Chat:
    """Where a reply came from: the site and the page's conversation (and its title)."""

    site: str
    conversation: str
    title: str = ""

    def describe(self) -> str:
        """The chat as the window and the log name it (plain text; shown escaped)."""
        title = f' "{self.title[:60]}"' if self.title else ""
        return f"{self.site} tab{title} (conversation {self.conversation[:40]})"


class RelayChannel:
    def __init__(
        self,
        open_session: Callable[[], Session],
        approver: Approver,
        part_size: int,
        form: ResultForm = ResultForm.READABLE,
        timeout: float = DEFAULT_TIMEOUT,
        note: Callable[[str], None] | None = None,
        on_state: Callable[[str], None] | None = None,
    ) -> None:
        self._session = open_session()
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="relay-run")
        self.approver = approver
        self._part_size = part_size
        self._form = form
        self._timeout = timeout
        self._note = note or _stderr
        self._on_state = on_state or (lambda _state: None)
        self._conversations: dict[tuple[str, str], int] = {}
        self._answers: OrderedDict[tuple[str, str, str], list[str]] = OrderedDict()
        self._running: dict[tuple[str, str, str], asyncio.Future[None]] = {}
        self._before: dict[tuple[str, str], set[str]] = {}
        self._turn: asyncio.Lock | None = None
        self.paused = False
        self.runs = 0  # replies run (not answered from memory, not ignored): for tests

    @property
    def state_folder(self) -> Path | None:
        return self._session.state_folder

    def show_secrets(self, shown: bool) -> None:
        """Whether a person reviews this relay's own plans (the terminal prompt)."""
        self._session.shows_secrets = shown

    def close(self) -> None:
        self._pool.shutdown(wait=True)

    async def _in_worker(self, work: Callable[[], T]) -> T:
        return await asyncio.wrap_future(self._pool.submit(work))

    def seen_before(self, chat: Chat, existing: Sequence[str]) -> None:
        """The assistant messages already on ``chat``'s page when the extension connected:
        never relayed, whatever the extension sends later."""
        kept = self._before.setdefault((chat.site, chat.conversation), set())
        if len(kept) < 10 * wire.MAX_EXISTING:
            kept.update(existing)

    async def reply(
        self, chat: Chat, message_id: str, text: str, send: Send | None = None
    ) -> list[str]:
        """The answers (wire messages) to one relayed reply; ``send`` gets each as soon as
        it is ready (the early results long before the final ones)."""
        sent: list[str] = []

        async def out(message: str) -> None:
            sent.append(message)
            if send is not None:
                await send(message)

        key = (chat.site, chat.conversation, message_id)
        known = self._answers.get(key)
        if known is None and key in self._running:
            await asyncio.shield(self._running[key])
            known = self._answers.get(key)
        if known is not None:
            self._note(f"{chat.describe()}: message {message_id} again; answered from memory")
            for message in known:
                await out(message)
            return sent
        if self.paused:
            await out(wire.ignored(message_id, "the relay is paused in LLM Operator"))
            return sent
        if message_id in self._before.get((chat.site, chat.conversation), ()):
            await out(wire.ignored(message_id, "the message was on the page before pairing"))
        elif not scan(text).items:
            await out(wire.ignored(message_id, "no OPERATOR_CMD block"))
        else:
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._running[key] = done
            try:
                await self._run(chat, message_id, text, out)
            except Exception as error:  # a fault costs this reply, never the relay
                self._note(f"internal error: {type(error).__name__}: {error}")
                await out(wire.error(f"the app could not run the reply ({type(error).__name__})"))
            finally:
                del self._running[key]
                done.set_result(None)
        self._answers[key] = list(sent)
        while len(self._answers) > REMEMBERED:
            self._answers.popitem(last=False)
        return sent

    async def _run(self, chat: Chat, message_id: str, text: str, out: Send) -> None:
        if self._turn is None:
            self._turn = asyncio.Lock()

        async def early(results: list[Result]) -> None:
            parts = split_results(results, self._part_size, self._form)
            self._note(f"{chat.describe()}: message {message_id}: {len(results)} early result(s)")
            await out(wire.results(chat.conversation, message_id, parts.texts, False, False))

        async with self._turn:
            self.runs += 1
            self._on_state("running")
            try:
                results, asked = await self._run_reply(chat, text, early)
            finally:
                self._on_state("paused" if self.paused else "running")
        parts = split_results(results, self._part_size, self._form)
        self._note(
            f"{chat.describe()}: message {message_id}: {len(results)} result(s) in "
            f"{parts.count} part(s)" + (" after review" if asked else "")
        )
        await out(wire.results(chat.conversation, message_id, parts.texts, asked))

    def _conversation(self, chat: Chat) -> int:
        """``chat``'s conversation, started at its first reply (in the worker thread)."""
        key = (chat.site, chat.conversation)
        found = self._conversations.get(key)
        if found is None:
            from ..core.store.conversations import RELAY, UNKNOWN, start_conversation
            from ..core.store.database import StoreError

            state = self._session.state
            try:
                found = start_conversation(state.store if state else None, RELAY)
            except StoreError:
                return UNKNOWN  # its writes are refused; tried again at the next reply
            self._conversations[key] = found
        return found

    async def _run_reply(
        self, chat: Chat, text: str, early: Callable[[list[Result]], Awaitable[None]]
    ) -> tuple[list[Result], bool]:
        """The reply's results (those given ``early`` left out) and whether any of its
        commands waited for approval."""
        session = self._session

        def prepare() -> tuple[Run, int]:
            conversation = self._conversation(chat)
            return session.prepare(text, conversation=conversation), conversation

        run, conversation = await self._in_worker(prepare)
        for notice in run.notices:
            self._note(f"note: {notice}")
        decisions: dict[int, Decision] = {}
        ready = _ready_before_approval(run)
        if ready:
            await early(ready)
        if run.pending:
            self._on_state("waiting_for_approval")
            client = chat.describe()
            try:
                decisions = dict(await self._ask(run.pending, client, text, conversation))
                shown = await self._in_worker(lambda: session.open_held(run, decisions))
                if shown and not getattr(self.approver, "shows_held_changes", False):
                    # The window showed a held write's change itself; others are asked now.
                    decisions |= await self._ask(shown, client, text, conversation)
            except _Unanswered as missing:
                return _unanswered_results(run, missing)[len(ready) :], True
            finally:
                self._on_state("running")

        def execute() -> list[Result]:
            session.on_wait = lambda: self._note("waiting for another run on this workspace...")
            try:
                return session.execute(run, decisions)
            finally:
                session.on_wait = None
                for note in session.take_recovery_notes():
                    self._note(f"note: {note}")

        results = await self._in_worker(execute)
        notices = [result for result in results if result.notice]
        answers = [result for result in results if not result.notice]
        return notices + answers[len(ready) :], bool(run.pending)

    async def _ask(
        self, pending: list[Pending], client: str, reply: str, conversation: int
    ) -> Mapping[int, Decision]:
        """The approver's decisions; ``_Unanswered`` when nobody can answer or nobody
        answers within the timeout."""
        from ..mcp_server.approval import NoReviewer
        from ..mcp_server.broker import timed_out, unreviewed

        where = self.approver.where
        self._note(f"{client}: {len(pending)} command(s) wait for {where}")
        try:
            return await asyncio.wait_for(
                self.approver.decide(pending, client, reply, conversation), self._timeout
            )
        except NoReviewer as error:
            why = str(error)
            self._note(f"{client}: nobody could review it ({why}); nothing was run")
            raise _Unanswered(
                lambda action, command_id: unreviewed(action, command_id, why), why
            ) from None
        except asyncio.TimeoutError:
            self._note(f"{client}: no answer from {where}; nothing was run")
            timeout = self._timeout
            raise _Unanswered(
                lambda action, command_id: timed_out(action, command_id, timeout, where),
                f"no answer from {where} within {timeout:g} seconds",
            ) from None


class _Unanswered(Exception):
    """Nobody decided on a reply's pending commands: nothing of the reply runs that has
    not run already; ``result`` says so for a command, with its ERR_ code."""

    def __init__(self, result: Callable[[str, str], Result], why: str) -> None:
        super().__init__(why)
        self.result = result
        self.why = why


def _unanswered_results(run: Run, missing: _Unanswered) -> list[Result]:
    """The reply's results when nobody decided: what ran at planning (reads) as it ran,
    the commands that waited as not run (ERR_NO_REVIEWER or ERR_APPROVAL_TIMEOUT), and
    the commands that run only with the reply (checks) as not run either, saying why.
    Nothing is recorded as the user's rejection: no person rejected anything."""
    results: list[Result] = []
    for item in run.items:
        action = item.action or "command"
        if item.pending is not None:
            results.append(missing.result(action, item.id))
        elif item.result is not None and item.deferred is None and item.gated is None:
            results.append(item.result)
        else:
            code = missing.result(action, item.id).outcome.summary.split("(")[1].split(")")[0]
            summary = (
                f"{action} failed ({code}): not run, since the commands of its reply could "
                f"not be reviewed ({missing.why}); send it again"
            )
            results.append(Result(item.id, Outcome(False, summary)))
    return results


def _ready_before_approval(run: Run) -> list[Result]:
    """The results of the commands before the first that waits for approval (or runs
    only at execution), when one does: they ran on the files as they are, and nothing of
    the reply can change them. None when nothing waits (all come at once then)."""
    if not run.pending:
        return []
    ready: list[Result] = []
    for item in run.items:
        if item.result is None or item.pending is not None:
            break
        if item.deferred is not None or item.gated is not None:
            break
        ready.append(item.result)
    return ready


def _stderr(message: str) -> None:
    say(message)


def say(message: str) -> None:
    """One line of the relay's log on standard error. Site names, titles and ids come from
    a web page: every character a terminal would act on is shown as a marker."""
    from ..core.visible import shown

    print(f"llm-operator relay: {shown(message)}", file=sys.stderr, flush=True)
