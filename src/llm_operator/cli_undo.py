"""``llm-operator undo``: the newest batch of writes undone, asked about on the terminal
unless ``--yes``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cli_prompt import on, open_terminal, say_waiting
from .cli_sessions import EXIT_FAILED, EXIT_OK

if TYPE_CHECKING:
    import argparse

    from .core.plan.session import Session


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    undo = commands.add_parser("undo", help="undo the last approved batch of writes")
    undo.add_argument("--workspace", type=Path, required=True)
    undo.add_argument(
        "--yes",
        action="store_true",
        help="undo without asking (else a terminal asks, naming the batch; with no "
        "terminal nothing is undone)",
    )
    undo.add_argument("--state-dir", type=Path)


def run_undo(session: Session, yes: bool) -> int:
    from .core.errors import OperatorError
    from .core.protocol.encoder import encode_results

    session.on_wait = say_waiting
    problem = session.store_problem
    if problem is not None:
        # Nothing can be undone without the journal: the run failed (1), as any undo
        # that cannot finish does; 2 is for what the user typed (arguments, workspace).
        # The message says what a run that stopped mid-batch left on disk, if anything.
        print(
            on(sys.stderr, f"llm-operator: undo failed ({problem.code}): {problem.message}"),
            file=sys.stderr,
        )
        print(f"llm-operator: the state folder is {session.state_folder}", file=sys.stderr)
        return EXIT_FAILED
    try:
        expected = None if yes else _undo_asked(session)
        if expected == "":
            return EXIT_FAILED  # not asked (no terminal) or not approved: nothing undone
        report = session.undo_last(expected=expected)
    except OperatorError as error:
        print(f"llm-operator: undo failed ({error.code}): {error.message}", file=sys.stderr)
        return EXIT_FAILED
    from .core.store.conversations import MCP, current_conversation, notice_destination

    store = session.state.store if session.state is not None else None
    try:
        conversation = (
            report.notice.conversation if report.notice is not None else current_conversation(store)
        )
        notices = session.undo_notices(conversation)
    except OperatorError:
        notices = []  # the store failed after the undo: its report says so
    if report.notice is not None and all(n.id != report.notice.id for n in notices):
        # A notice the store could not keep: printed now, or the chat never hears of it.
        from .core.outcome import Outcome
        from .core.protocol.encoder import Result

        notice = report.notice
        outcome = Outcome(True, notice.summary, notice.details)
        notices.append(Result(notice.id, outcome, notice=True))
    for note in session.take_recovery_notes():
        print(on(sys.stderr, f"llm-operator: note: {note}"), file=sys.stderr)
    print(on(sys.stdout, report.summary))
    channel, note = (
        notice_destination(store, report.notice.conversation)
        if report.notice is not None
        else ("", "")
    )
    if notices and channel == MCP:
        # Not a block to paste: the web chat never sent those commands.
        print("\n" + note + "\n\n" + encode_results(notices))
    elif notices and report.notice is not None:
        # The same block the next copied results begin with: paste it into the chat now,
        # or let the next results carry it.
        print(
            "\n" + (note + "\n\n" if note else "") + "For the chat:\n\n" + encode_results(notices)
        )
    elif notices:
        # Nothing new to tell: printing the earlier notice again would invite a second paste.
        print(
            f"{len(notices)} earlier undo notice(s) not yet in the chat will lead the next "
            "results (the next exec, or the next results copied in the window); nothing new "
            "to paste now."
        )
    return EXIT_OK if not report.problems else EXIT_FAILED


def _undo_asked(session: Session) -> str | None:
    """Ask on the terminal before an undo, naming the batch (commands, files, time), as the
    window does. Returns the batch approved (the undo refuses any other that became the
    newest meanwhile), None when there is nothing to undo (the undo says so), or "" when
    nothing may be undone: no answer yes, or no terminal to ask (as ``exec`` rejects what
    it cannot ask about; ``--yes`` undoes without asking)."""
    from .core.store.undo_question import newest_batch
    from .core.visible import shown

    batch = newest_batch(session.journal)
    if batch is None:
        return None
    terminal = open_terminal(reading_stdin=False)
    if terminal is None:
        print(
            f"llm-operator: undo needs an answer and no terminal can ask; nothing was "
            f"undone (the newest batch: {shown(batch.short())}). Use --yes to undo "
            "without asking.",
            file=sys.stderr,
        )
        return ""
    with terminal:
        # The question shows ids and paths through the one renderer (batch.question).
        terminal.write("\n" + batch.question() + "\n[y]es / [N]o: ")
        terminal.flush()
        answer = terminal.readline().strip().lower()
    if answer in ("y", "yes"):
        return batch.id
    print("llm-operator: nothing was undone.", file=sys.stderr)
    return ""
