"""Tool calls in, results out: each call becomes a command and runs through a ``Session``.

A call gets the server's next id (``mcp-<n>``, continuing after the highest one this
workspace's state store knows, so ids are never reused and a repeat is a true repeat) and
is turned into the block a paste of the same command would be (``tools.command_block``).
From there the session does what it does for a paste: jail, secret rule, planning,
stale check, write lock, journal, memory, history.

- Reads run at once in their own worker thread (reads never wait for a write).
- Write calls that arrive within ``GATHER_SECONDS`` of each other form one reply: one
  review, one journal batch (one undo), run in the writer thread.
- What needs approval (writes, secret reads) goes to the ``Approver`` with the client's
  name; while it waits the call reports progress. A call the client cancels is never run;
  if the others of its group are approved, it counts as rejected. No answer within the
  timeout: nothing runs and the result says so (ERR_APPROVAL_TIMEOUT).
- A group with approved writes takes the workspace's write lock before it runs, waiting
  for a pasted run (or the window) that holds it; a call cancelled during that wait is
  dropped too, and the wait is reported as progress.
- Each MCP session (``key`` of a call: the SDK's session object) is a conversation of its
  own, started at its first call: its commands' memory and the notices of undos of its
  batches are its own. The first result after such an undo carries the notice; the web
  chat's pasted results never do.
"""

from __future__ import annotations

import asyncio
import re
import sys
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..core.actions import get_spec
from ..core.actions.base import Kind
from ..core.outcome import Outcome
from ..core.plan.run import REJECT, Decision, Pending, Run
from ..core.plan.session import Session
from ..core.protocol.encoder import Result, invalid_outcome, one_line
from ..core.protocol.readable import NO_NEWLINE, encode_lines, line_needs_escape
from ..core.protocol.readable_details import readable_details
from .approval import NoReviewer
from .arguments import CallRefused
from .tools import action_of, command_block, tool_name

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

T = TypeVar("T")
Report = Callable[[str], Coroutine[Any, Any, None]]

GATHER_SECONDS = 0.25  # write calls this close together are reviewed together
PROGRESS_EVERY = 5.0  # seconds between progress reports while a call waits for approval
LOCK_WAIT = "waiting for another run on this workspace (its write lock)"
POLL_SECONDS = 0.1  # how often a waiting group looks for cancelled calls
DEFAULT_TIMEOUT = 600.0  # seconds a call waits for approval
ID_PREFIX = "mcp-"
_ID = re.compile(r"mcp-([0-9]{1,12})\Z")
_IN_TEXT = re.compile(r"\bid: mcp-([0-9]{1,12})\b")


class Approver(Protocol):
    """Who decides on pending commands. ``where`` names it in progress and timeout texts."""

    where: str

    async def decide(
        self, pending: Sequence[Pending], client: str, reply: str
    ) -> Mapping[int, Decision]: ...


@dataclass(frozen=True)
class ToolText:
    """One tool result: readable text, and whether it is an error (``ok: false``)."""

    text: str
    is_error: bool


def result_text(result: Result) -> str:
    """A result as text an MCP client shows its model: id, ok, summary, then the details
    decoded (the values the OPERATOR_RESULT block would carry, without the base64).

    Clients print tool results on terminals, so no control, bidi or invisible character
    leaves raw: the summary is escaped as in a block, and details holding such a character
    are given as the block's readable lines (``details_lines: N``, each line ``| `` verbatim
    or ``|\\`` escaped) instead of as they are."""
    outcome = result.outcome
    lines = [
        f"id: {result.id}",
        f"ok: {'true' if outcome.ok else 'false'}",
        f"summary: {one_line(outcome.summary)}",
    ]
    text = "\n".join(lines)
    details = readable_details(outcome)
    if details and any(line_needs_escape(line) for line in details.split("\n")):
        body = encode_lines(details)
        count = len(body) - (body[-1] == NO_NEWLINE)
        text += "\n\n" + "\n".join([f"details_lines: {count}", *body])
    elif details:
        text += "\n\n" + details
    return text


def tool_text(result: Result, notices: Sequence[Result] = ()) -> ToolText:
    parts = [
        "Undo notice (the commands it names were undone: treat them as not executed and "
        "read the files again before editing them):\n" + result_text(notice)
        for notice in notices
    ]
    parts.append(result_text(result))
    return ToolText("\n\n".join(parts), not result.ok)


def _refused(command_id: str, code: str, message: str) -> ToolText:
    return tool_text(Result(command_id, invalid_outcome(code, message, command_id)))


def timed_out(action: str, command_id: str, seconds: float, where: str) -> Result:
    summary = (
        f"{action} failed (ERR_APPROVAL_TIMEOUT): no answer from {where} within "
        f"{seconds:g} seconds; nothing was run. Send the command again when the person is there"
    )
    return Result(command_id, Outcome(False, summary))


def unreviewed(action: str, command_id: str, why: str) -> Result:
    summary = (
        f"{action} failed (ERR_NO_REVIEWER): nobody can review it now ({why}); nothing was "
        "run. Ask the user to open the LLM Operator window on this workspace"
    )
    return Result(command_id, Outcome(False, summary))


@dataclass
class _Call:
    """One tool call on its way to a result: its id, action and block, how to report its
    progress, and the future its result is set on."""

    id: str
    action: str
    block: str
    report: Report | None
    done: asyncio.Future[ToolText]
    cancelled: bool = False


@dataclass
class _Group:
    """Calls of one client run as one reply: a read alone, or the writes gathered together
    (one review, one journal batch)."""

    calls: list[_Call] = field(default_factory=list)
    client: str = ""
    executing: bool = False  # execute was called: files may have changed
    conversation: int = 0  # the MCP session's (``Broker.conversation``)


class _Worker:
    """One thread with its own session: the store connection and the session's wait
    callback belong to one thread at a time."""

    def __init__(self, name: str, session: Session) -> None:
        self.session = session
        self._pool = ThreadPoolExecutor(1, thread_name_prefix=name)

    async def run(self, work: Callable[[], T]) -> T:
        return await asyncio.wrap_future(self._pool.submit(work))

    def close(self) -> None:
        self._pool.shutdown(wait=True)


class Broker:
    def __init__(
        self,
        open_session: Callable[[], Session],
        approver: Approver | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        gather: float = GATHER_SECONDS,
        note: Callable[[str], None] | None = None,
    ) -> None:
        self._reader = _Worker("mcp-read", open_session())
        self._writer = _Worker("mcp-write", open_session())
        self.approver = approver
        self._timeout = timeout
        self._gather = gather
        self._note = note or _stderr
        self._last_id = 0
        self._group: _Group | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._running_loop: asyncio.AbstractEventLoop | None = None
        # Each session's conversation, dropped with the session object.
        self._conversations: weakref.WeakKeyDictionary[object, int] = weakref.WeakKeyDictionary()

    @property
    def state_folder(self) -> Path | None:
        return self._reader.session.state_folder

    def show_secrets(self, shown: bool) -> None:
        """Whether a person reviews this server's plans (``Session.shows_secrets``)."""
        for worker in (self._reader, self._writer):
            worker.session.shows_secrets = shown

    def close(self) -> None:
        self._reader.close()
        self._writer.close()

    # -- ids -------------------------------------------------------------------------

    def _next_id(self) -> str:
        # The history is searched once: after that, this server's own counter is ahead
        # of it, and only another server on the same workspace could add ids (kept).
        known = _highest_known(self._reader.session, with_history=self._last_id == 0)
        known = max(self._last_id, known)
        # Claimed in the store, so another server on the same workspace, whose calls are
        # not on record yet (a write waiting for its review), never picks the same id.
        self._last_id = _claim_id(self._reader.session, known)
        return f"{ID_PREFIX}{self._last_id}"

    def _conversation(self, key: object) -> int:
        """``key``'s conversation, started at its first call (in the reader's thread). A
        store that cannot record one makes the call's conversation UNKNOWN (tried again
        at the next call): its writes are refused (``session.prepare``). Never
        conversation 0, the paste channel's: the session's batches and undo notices
        would be the web chat's."""
        found = self._conversations.get(key)
        if found is None:
            from ..core.store.conversations import MCP, UNKNOWN, start_conversation
            from ..core.store.database import StoreError

            state = self._reader.session.state
            try:
                found = start_conversation(state.store if state else None, MCP)
            except StoreError:
                return UNKNOWN
            self._conversations[key] = found
        return found

    # -- calls -----------------------------------------------------------------------

    async def call(
        self,
        tool: str,
        arguments: Mapping[str, Any] | None,
        client: str,
        report: Report | None,
        key: object = None,
    ) -> ToolText:
        """Run one tool call of the MCP session ``key`` (None: the broker is the session)."""
        self._running_loop = asyncio.get_running_loop()
        action = action_of(tool)
        if action is None:
            return ToolText(f"no tool named {tool!r}; list the tools to see their names", True)
        conversation = await self._reader.run(lambda: self._conversation(key or self))
        command_id = await self._reader.run(self._next_id)
        try:
            block = command_block(action, command_id, dict(arguments or {}))
        except CallRefused as refused:
            return _refused(command_id, refused.code, refused.message)
        loop = asyncio.get_running_loop()
        call = _Call(command_id, action, block, report, loop.create_future())
        if get_spec(action).kind is Kind.READ:
            group = _Group([call], client, conversation=conversation)
            self._start(self._settle(group, self._reader))
        else:
            self._gather_write(call, client, conversation)
        try:
            return await asyncio.shield(call.done)
        except asyncio.CancelledError:
            call.cancelled = True
            raise

    def _start(self, work: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _gather_write(self, call: _Call, client: str, conversation: int) -> None:
        group = self._group
        if group is not None and (group.client, group.conversation) == (client, conversation):
            group.calls.append(call)
            return
        group = _Group([call], client, conversation=conversation)
        self._group = group

        async def later() -> None:
            await asyncio.sleep(self._gather)
            if self._group is group:
                self._group = None
            await self._settle(group, self._writer)

        self._start(later())

    async def _settle(self, group: _Group, worker: _Worker) -> None:
        try:
            await self._run_group(group, worker)
        except Exception as error:  # a fault costs this group, never the server
            self._note(f"internal error: {type(error).__name__}: {error}")
            for call in group.calls:
                if not call.done.done():
                    what = (
                        "it may have run: read the files again before sending it again"
                        if group.executing
                        else "nothing was run"
                    )
                    summary = (
                        f"{call.action} failed (ERR_INTERNAL): unexpected "
                        f"{type(error).__name__} in the server (see its log); {what}"
                    )
                    call.done.set_result(tool_text(Result(call.id, Outcome(False, summary))))

    async def _run_group(self, group: _Group, worker: _Worker) -> None:
        text = "".join(call.block for call in group.calls)
        session = worker.session

        def prepare() -> tuple[Run, list[Result] | None]:
            run = session.prepare(text, conversation=group.conversation)
            group.executing = not run.pending
            # Nothing to ask (most reads): run it in the same trip to the thread.
            return run, (None if run.pending else self._execute(session, run, {}, group))

        run, done = await worker.run(prepare)
        for notice in run.notices:
            self._note(f"note: {notice}")
        if len(run.items) != len(group.calls):  # every block gets exactly one result
            raise RuntimeError(f"{len(group.calls)} calls made {len(run.items)} commands")
        if done is not None:
            await self._deliver(group, done, worker)
            return
        decisions: dict[int, Decision] = {}
        if run.pending:
            asked = await self._ask(group, run.pending)
            if asked is None:
                return
            decisions = dict(asked)
            # A write on a secret-looking file is planned only now that the person let the
            # app read the file; its change is then decided on its own.
            shown = await worker.run(lambda: session.open_held(run, decisions))
            if shown:
                if getattr(self.approver, "shows_held_changes", False):
                    # The window showed the change itself, after planning it: its answer
                    # for the command is the change's approval.
                    decisions |= {item.index: asked[item.index] for item in shown}
                else:
                    more = await self._ask(group, shown)
                    if more is None:
                        return
                    decisions |= more
        if _writes(run, decisions) and not await self._take_lock(group, worker):
            return
        # A call cancelled before this point is not run, whatever was decided.
        decisions = {
            index: (REJECT if group.calls[index].cancelled else decision)
            for index, decision in decisions.items()
        }
        group.executing = True
        try:
            results = await worker.run(lambda: self._execute(session, run, decisions, group))
        finally:
            if session.state is not None:
                session.state.lock.release()  # held here when the run wrote nothing
        await self._deliver(group, results, worker)

    async def _deliver(self, group: _Group, results: list[Result], worker: _Worker) -> None:
        """Answer each call; the undo notices lead the first answer the client still
        waits for. With every call cancelled, nobody gets them: the run's commit marked
        them delivered, so they are kept pending again for the session's next result."""
        notices = [result for result in results if result.notice]
        answers = [result for result in results if not result.notice]
        carrier = next((i for i, call in enumerate(group.calls) if not call.cancelled), None)
        for position, (call, result) in enumerate(zip(group.calls, answers, strict=True)):
            if not call.done.done():
                call.done.set_result(tool_text(result, notices if position == carrier else ()))
        state = worker.session.state
        if notices and carrier is None and state is not None and state.store is not None:
            from ..core.store.database import StoreError
            from ..core.store.notices import pending_again

            store = state.store
            try:
                await worker.run(lambda: pending_again(store, [n.id for n in notices]))
            except StoreError as error:
                self._note(f"undo notices could not be kept for the next result: {error.message}")

    async def _take_lock(self, group: _Group, worker: _Worker) -> bool:
        """Take the workspace's write lock before the run, waiting here, where a call
        cancelled meanwhile can still be dropped (inside the session the wait could not be
        broken off). False: every call of the group was cancelled while it waited."""
        state = worker.session.state
        if state is None:
            return True
        from ..core.store.database import StoreError

        told = False
        while True:
            try:
                if await worker.run(state.lock.try_acquire):
                    return True
            except StoreError:
                return True  # the session reports why the lock cannot be taken
            if all(call.cancelled for call in group.calls):
                self._note(
                    f"{_ids(group)}: cancelled by the client while waiting for another run; "
                    "nothing was run"
                )
                return False
            if not told:
                told = True
                self._note("waiting for another run on this workspace...")
                for call in group.calls:
                    if call.report is not None and not call.cancelled:
                        await call.report(LOCK_WAIT)
            await asyncio.sleep(POLL_SECONDS)

    def _execute(
        self, session: Session, run: Run, decisions: Mapping[int, Decision], group: _Group
    ) -> list[Result]:
        loop_reports = [call.report for call in group.calls if call.report is not None]
        loop = self._running_loop
        assert loop is not None

        def waiting() -> None:
            self._note("waiting for another run on this workspace...")
            for report in loop_reports:
                asyncio.run_coroutine_threadsafe(report(LOCK_WAIT), loop)

        session.on_wait = waiting
        # A window that reviews this server's calls also shows its commands as they run.
        make_watch = getattr(self.approver, "watch", None)
        try:
            if make_watch is None:
                return session.execute(run, decisions)
            from ..core.store.command_watch import watching

            with watching(make_watch(group.client)):
                return session.execute(run, decisions)
        finally:
            session.on_wait = None
            for note in session.take_recovery_notes():
                self._note(f"note: {note}")

    async def _ask(self, group: _Group, pending: list[Pending]) -> Mapping[int, Decision] | None:
        """The approver's decisions; None when nothing may run (all cancelled, timeout)."""
        approver = self.approver
        assert approver is not None, "an approver is set before the first call"
        where = approver.where
        reply = "".join(call.block for call in group.calls)
        asking = asyncio.ensure_future(approver.decide(pending, group.client, reply))
        waited = 0.0
        reported = -PROGRESS_EVERY
        try:
            while True:
                if all(call.cancelled for call in group.calls):
                    self._note(f"{_ids(group)}: cancelled by the client while waiting for {where}")
                    return None
                if asking.done():
                    try:
                        return asking.result()
                    except NoReviewer as error:
                        self._note(f"{_ids(group)}: {error}; nothing was run")
                        for call in group.calls:
                            result = unreviewed(call.action, call.id, str(error))
                            if not call.done.done():
                                call.done.set_result(tool_text(result))
                        return None
                if waited >= self._timeout:
                    self._note(f"{_ids(group)}: no answer from {where}; nothing was run")
                    for call in group.calls:
                        result = timed_out(call.action, call.id, self._timeout, where)
                        if not call.done.done():
                            call.done.set_result(tool_text(result))
                    return None
                if waited - reported >= PROGRESS_EVERY:
                    reported = waited
                    for call in group.calls:
                        if call.report is not None and not call.cancelled:
                            await call.report(f"waiting for approval ({where})")
                step = min(self._timeout - waited, POLL_SECONDS)
                await asyncio.wait({asking}, timeout=step)
                waited += step
        finally:
            if not asking.done():
                asking.cancel()


def _writes(run: Run, decisions: Mapping[int, Decision]) -> bool:
    """Whether the run has an approved write (only then does it take the write lock)."""
    return any(
        item.plan is not None and decisions.get(item.index, REJECT).approved for item in run.pending
    )


def _ids(group: _Group) -> str:
    return ", ".join(call.id for call in group.calls)


_COUNTERS = "CREATE TABLE IF NOT EXISTS id_counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)"


def _claim_id(session: Session, known: int) -> int:
    """The next id number after ``known`` and after every number any server on this
    workspace claimed, claimed for this call in one transaction of the state store. The
    table is made on first use (older stores need no migration). Where the store cannot
    take it, ``known + 1``: ids are still checked against the memory when they run."""
    state = session.state
    if state is None or state.store is None:
        return known + 1
    from ..core.store.database import StoreError, guarded

    try:
        with guarded("claim a command id"), state.store.transaction() as db:
            db.execute(_COUNTERS)
            row = db.execute("SELECT value FROM id_counters WHERE name = 'mcp'").fetchone()
            number = max(known, int(row[0]) if row is not None else 0) + 1
            db.execute(
                "INSERT OR REPLACE INTO id_counters (name, value) VALUES ('mcp', ?)", (number,)
            )
    except StoreError:
        return known + 1
    return number


def _highest_known(session: Session, with_history: bool) -> int:
    """The highest ``mcp-<n>`` the workspace's store remembers, journaled or (with
    ``with_history``) shows in its run history, where failed and rejected calls are; 0: none."""
    state = session.state
    if state is None or state.store is None:
        return 0
    from ..core.store.database import StoreError, guarded

    try:
        with guarded("read the command ids"), state.store.reading() as db:
            rows = db.execute(
                "SELECT id FROM memory WHERE id LIKE 'mcp-%' "
                "UNION SELECT command_id FROM entries WHERE command_id LIKE 'mcp-%'"
            ).fetchall()
            texts = (
                db.execute("SELECT results FROM runs WHERE results LIKE '%mcp-%'").fetchall()
                if with_history
                else []
            )
    except StoreError:
        # Unreadable memory counts as none when commands are checked too, so no id
        # found here can make a new call look like a repeat.
        return 0
    numbers = [int(found.group(1)) for (name,) in rows if (found := _ID.match(str(name)))]
    for (text,) in texts:
        numbers += [int(number) for number in _IN_TEXT.findall(str(text))]
    return max(numbers, default=0)


def _stderr(message: str) -> None:
    print(f"llm-operator mcp: {message}", file=sys.stderr, flush=True)


__all__ = ["Approver", "Broker", "ToolText", "result_text", "tool_name"]
