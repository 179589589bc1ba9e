"""run.* actions: a command line run in a workspace folder, with the person's approval.

run.command is asked every time, before anything starts (``ActionSpec.review``): the review
shows the exact argument list, the folder, the timeout, and that Undo cannot take back what
it does. It runs only once approved, under the workspace's write lock (the session takes
it), so it never runs while a batch writes. The process itself is ``store.commands``.

Results (docs/protocol.md, "Running commands"): ``ok`` only for exit status 0; the summary
names what ran as the chat may see it (a program given by absolute path by its base name,
a check by its name too); the details are ``# exit:``, ``# cwd:``, ``# time:``, the
output, and one ``# changed:`` line per workspace file it created, changed or deleted.
"""

from __future__ import annotations

import shlex
from typing import Any, ClassVar

from pydantic import model_validator

from ..errors import InvalidCommand, OperatorError
from ..outcome import Outcome
from ..store.command_shown import shown_command
from ..store.commands import (
    DEFAULT_TIMEOUT,
    MAX_TIMEOUT,
    SHOWN_CHARS,
    Finished,
    run_command,
    shown_argument,
    split_command,
)
from ..store.signal_names import signal_name
from .base import ActionContext, ActionSpec, Kind, Result, Secrecy
from .fields import B64Text, Count, Fields, Flag

MAX_CHANGED_LINES = 200


class RunCommandFields(Fields):
    command: str | None = None
    command_b64: B64Text | None = None
    shell: Flag = False
    cwd: str = "."
    timeout: Count = DEFAULT_TIMEOUT

    ONE_OF: ClassVar[dict[tuple[str, str], str]] = {("command", "command_b64"): "ERR_INVALID_FIELD"}

    @model_validator(mode="after")
    def _bounds(self) -> RunCommandFields:
        if not 1 <= self.timeout <= MAX_TIMEOUT:
            raise InvalidCommand(
                "ERR_INVALID_FIELD",
                f"timeout must be from 1 to {MAX_TIMEOUT} seconds, got {self.timeout}",
            )
        try:  # a line that cannot be split is refused before anyone is asked
            split_command(self.line, self.shell)
        except OperatorError as error:
            raise InvalidCommand(error.code, error.message) from None
        return self

    @property
    def line(self) -> str:
        return self.text_of("command")

    @property
    def argv(self) -> tuple[str, ...]:
        return split_command(self.line, self.shell)


def review_of(fields: Any) -> str:
    """What the person is shown before approving: exactly what will run, where, how long."""
    shown = " ".join(shlex.quote(arg) for arg in fields.argv)
    how = "through /bin/sh (a shell line)" if fields.shell else "without a shell"
    return (
        f"runs the command [{shown}] {how} in folder {fields.cwd!r} of the workspace, for "
        f"at most {fields.timeout} s. What it does to files cannot be undone by Undo"
    )


def seconds_text(seconds: float) -> str:
    return f"{seconds:.1f} s"


def command_shown(line: str, check: str | None = None) -> str:
    """What a summary says ran: the line as the chat is shown it (no absolute path, cut
    when long: the summary is one line the model reads first), and the check's name."""
    shown = shown_command(line)
    if len(shown) > SHOWN_CHARS:
        shown = shown[:SHOWN_CHARS] + f"... ({len(shown):,} characters)"
    return shown if check is None else f'check "{check}" ({shown})'


def command_outcome(action: str, shown: str, done: Finished) -> Outcome:
    """The result of a command that ran: ``ok`` only for exit status 0; ``shown`` is what
    the summary says ran (``command_shown``)."""
    took = seconds_text(done.seconds)
    if done.timed_out:
        ended = f"timed out; it and all it started were ended after {took}"
        summary = f"{action} failed (ERR_TIMEOUT): {ended}"
    elif done.cancelled:
        ended = f"stopped by the user after {took}; it and all it started were ended"
        summary = f"{action} failed (ERR_STOPPED_BY_USER): {ended}"
    elif done.signal is not None:
        name = signal_name(done.signal)
        summary = f"{action} failed (ERR_EXIT_STATUS): ended by signal {name} in {took}"
    elif done.status:
        summary = f"{action} failed (ERR_EXIT_STATUS): exit {done.status} in {took}"
    else:
        summary = f"Ran {shown} in {done.cwd}: exit 0 in {took}"
    status = "none" if done.status is None else str(done.status)
    lines = [f"# exit: {status}", f"# cwd: {done.cwd}", f"# time: {took}"]
    if done.signal is not None:
        lines.append(f"# signal: {signal_name(done.signal)}")
    lines += done.output.lines
    for path in done.changed[:MAX_CHANGED_LINES]:
        lines.append(f"# changed: {path}")
    more = len(done.changed) - MAX_CHANGED_LINES
    if more > 0:
        lines.append(f"# changed: {more} more files not listed")
    if done.changed:
        lines.append("# the changed files are not in the undo journal: Undo cannot take them back")
    if done.changes_capped:
        lines.append("# only the first 5000 files were compared: others may have changed too")
    return Outcome(not done.timed_out and done.status == 0, summary, "\n".join(lines) + "\n")


def run_run_command(ctx: ActionContext, fields: RunCommandFields) -> Result:
    argv = fields.argv
    done = run_command(ctx.workspace, argv, fields.cwd, fields.timeout)
    return command_outcome("run.command", command_shown(fields.line), done)


class RunCheckFields(Fields):
    name: str
    timeout: Count | None = None


def run_run_check(ctx: ActionContext, fields: RunCheckFields) -> Result:
    checks = ctx.checks() if ctx.checks is not None else ()
    found = next((check for check in checks if check.name == fields.name), None)
    if found is None:
        names = ", ".join(check.name for check in checks)
        have = f"this workspace's checks are: {names}" if names else "this workspace has none"
        raise OperatorError(
            "ERR_UNKNOWN_CHECK",
            f"no check named {shown_argument(fields.name, 60)}; {have}. Checks are set up by "
            "the user (llm-operator checks add, or the window); run.command runs any other "
            "command with their approval",
        )
    timeout = found.timeout
    if fields.timeout is not None:
        if not 1 <= fields.timeout <= found.timeout:
            raise OperatorError(
                "ERR_INVALID_FIELD",
                f"timeout must be from 1 to the check's own {found.timeout} seconds, got "
                f"{fields.timeout}",
            )
        timeout = fields.timeout
    done = run_command(ctx.workspace, found.argv, ".", timeout, keep_environment=found.keep)
    return command_outcome("run.check", command_shown(found.command, found.name), done)


ACTIONS = (
    ActionSpec(
        "run.command",
        Kind.WRITE,
        RunCommandFields,
        run_run_command,
        "Run a command line; ok only for exit 0.",
        secrecy=Secrecy.NAMES,
        review=review_of,
        runs=True,
    ),
    ActionSpec(
        "run.check",
        Kind.READ,
        RunCheckFields,
        run_run_check,
        "Run a check the user set up, unasked, after the writes before it.",
        secrecy=Secrecy.NAMES,
        runs=True,
    ),
)
