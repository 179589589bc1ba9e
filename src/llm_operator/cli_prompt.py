"""Asking a person on the terminal, and writing to it safely.

Invariants:
- Every text of a reply or a file reaches a terminal through the one renderer
  (``core.visible``): ``on`` shows control characters and escape sequences as markers on
  a terminal, and leaves piped output exactly as it is.
- Nobody to ask (no terminal) is a rejection, never an approval.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

from .core.wording import counted

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .core.plan.run import Decision, Pending
    from .core.store.workspace import Workspace


def on(stream: TextIO, text: str) -> str:
    """``text`` as written to ``stream``: on a terminal, with every control character,
    escape sequence and invisible character shown as a marker (``core.visible``), so a
    file's bytes cannot move the cursor, clear lines or set the clipboard; piped, exactly
    as it is (the result blocks go to the chat unchanged)."""
    try:
        on_terminal = stream.isatty()
    except ValueError:  # a closed stream
        on_terminal = False
    if not on_terminal:
        return text
    from .core.visible import shown_lines

    return shown_lines(text)


def say_waiting() -> None:
    print("llm-operator: waiting for another run on this workspace...", file=sys.stderr, flush=True)


def decide(
    pending: list[Pending],
    answer: str | None,
    reading_stdin: bool,
    workspace: Workspace | None = None,
) -> dict[int, Decision]:
    """``answer``: "yes" (``--yes``) approves all, "no" (``--no``) rejects all, None asks on
    the terminal, one command at a time (rejecting all when nobody can be asked)."""
    from .core.plan.run import APPROVE, REJECT

    if not pending:
        return {}
    if answer == "yes":
        return {item.index: APPROVE for item in pending}
    if answer == "no":
        return {item.index: REJECT for item in pending}
    terminal = open_terminal(reading_stdin)
    if terminal is None:
        print(
            f"llm-operator: {counted(len(pending), 'command')} "
            f"{'needs' if len(pending) == 1 else 'need'} approval and no terminal can ask; "
            "rejected (use --yes to approve)",
            file=sys.stderr,
        )
        return {item.index: REJECT for item in pending}
    with terminal:
        return {item.index: ask(item, terminal, workspace) for item in pending}


class Terminal:
    """The controlling terminal, opened once for reading and once for writing.

    A terminal is not seekable, so it cannot be one ``open(..., "r+")`` text file
    (Python's buffered read-write layer insists on seeking and fails).
    """

    def __init__(self) -> None:
        self._reader = open("/dev/tty", encoding="utf-8", errors="replace")  # noqa: SIM115
        try:
            self._writer = open("/dev/tty", "w", encoding="utf-8", errors="replace")  # noqa: SIM115
        except BaseException:
            self._reader.close()
            raise

    def write(self, text: str) -> int:
        return self._writer.write(text)

    def flush(self) -> None:
        self._writer.flush()

    def readline(self) -> str:
        return self._reader.readline()

    def close(self) -> None:
        self._writer.close()
        self._reader.close()

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def can_ask(reading_stdin: bool) -> bool:
    """Whether a person is there to ask: stdin (or, when the reply came on stdin, the
    controlling terminal) and stderr must both be terminals."""
    return sys.stderr.isatty() and (reading_stdin or sys.stdin.isatty())


def open_terminal(reading_stdin: bool) -> TextIO | Terminal | None:
    """The terminal to ask on, if a person is there (``_can_ask``)."""
    if not can_ask(reading_stdin):
        return None
    try:
        return Terminal()
    except OSError:
        return None


def ask(item: Pending, terminal: TextIO | Terminal, workspace: Workspace | None = None) -> Decision:
    """``workspace``: where the files are, to ask again about a file that changed on disk
    while the question was open (its merged change is shown: ``outside_merge``)."""
    from .core.plan.preview import describe_pending
    from .core.plan.run import APPROVE, Decision
    from .core.visible import shown

    # describe_pending shows every text of the reply through the one renderer.
    terminal.write("\n" + describe_pending(item) + "\n")
    question = f"Approve {shown(item.action)} {shown(item.id)}?"
    terminal.write(f"{question} [y]es / [N]o / or type a reason to reject: ")
    terminal.flush()
    answer = terminal.readline().strip()
    again = None
    if answer.lower() in ("y", "yes") and workspace is not None and item.plan is not None:
        from .core.plan.outside_merge import ask_again

        again = ask_again(workspace, item)
    if again is not None:  # a file changed on disk meanwhile: what approving now does
        text, merged = again
        terminal.write("\n" + text + "\n")
        if not merged:
            return APPROVE  # refused when applied, naming the lines
        terminal.write("Approve the merged change? [y]es / [N]o / or type a reason: ")
        terminal.flush()
        answer = terminal.readline().strip()
        if answer.lower() in ("y", "yes"):
            return Decision(True, merged=merged)
    elif answer.lower() in ("y", "yes"):
        return APPROVE
    if answer.lower() in ("", "n", "no"):
        return Decision(False)
    return Decision(False, answer)


def ask_mcp(pending: Sequence[Pending], client: str) -> dict[int, Decision] | None:
    """The ``exec`` prompt for an MCP client's commands, on the controlling terminal."""
    try:
        terminal = Terminal()
    except OSError:
        return None
    with terminal:
        from .core.visible import shown

        # The client names itself: its name is shown as text, like every reply's.
        terminal.write(f"\n{shown(client)} (MCP) asks for {counted(len(pending), 'command')}:\n")
        return {item.index: ask(item, terminal) for item in pending}
