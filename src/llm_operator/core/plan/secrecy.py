"""The one place where commands on secret-looking files are held, and where what an
action produced is checked for secrets before it can leave.

A command aimed at a secret-looking file (``Workspace.secret_match``: the path as
written, each symlink on the way, the final target; for moves the destination too) is
held before it runs (``hold``): the session asks the user, and runs the command (a read)
or plans it (a write, whose change is then shown for its own approval) only once the user
agreed. Unapproved, it gets one fixed answer made from the path and the action, so
nothing in it depends on the file's bytes: no match, count, line number or timing. Where
a person is asked (``Session.shows_secrets``), a read's question also shows them what
would leave, the file's size and first lines (``store.secret_preview``); that is for
their eyes and never part of an answer.

What follows is the second line of defence, for a file that became secret-looking between
the check and the read (a link retargeted): a command that did run may reveal bytes of
it in three ways, and each is turned into a ``Reveal`` the user decides:

- a successful read-like result (Secrecy.CONTENT): sent only if approved; otherwise the
  command is reported as rejected by the user;
- a failure whose message or details quote the file (``errors.quote``/``errors.mark``):
  sent whole only if approved; otherwise the redacted failure is sent, which names the
  problem and says the text is not shown;
- as a last line of defence, a failure that holds a line of the file without marking it
  (a message nobody marked) is treated the same way, and its unapproved form drops the
  message altogether, keeping only the code.

Write plans are not touched: the user approves a write seeing its diff, and that approval
covers its result. fs.list and fs.stat (Secrecy.NAMES) show names, sizes and times only.
fs.searchTree (Secrecy.PER_FILE) passes over secret-looking files itself, unread; its
failures pass here too.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..actions.base import Kind, Plan, Result, Reveal, Secrecy
from ..errors import OperatorError
from ..outcome import Outcome
from ..protocol.encoder import failure_outcome

if TYPE_CHECKING:
    from ..protocol.validator import Command
    from ..store.workspace import Workspace

NOT_SHOWN_NOTE = "the file is secret-looking, so its text is not shown"
_PATH_FIELDS = ("path", "dest_path")
_SHORTEST_LINE = 4  # shorter lines ("}", "fi") say nothing and appear in any message
_MAX_CHECKED_BYTES = 2_000_000


def secret_paths(
    workspace: Workspace, command: Command, opened: Sequence[str] = ()
) -> tuple[str, ...]:
    """The secret-looking paths ``command`` reaches, each once, in field order, then those
    of the files it really ``opened`` (``store.files.recording_reads``): a path checked
    before or after the read may no longer lead where the read went."""
    if command.spec.secrecy is Secrecy.NAMES:
        return ()
    found: list[str] = []
    for name in _PATH_FIELDS:
        value = getattr(command.fields, name, None)
        if isinstance(value, str):
            match = workspace.secret_match(value)
            if match is not None and match not in found:
                found.append(match)
    found += [rel for rel in dict.fromkeys(opened) if rel not in found and workspace.is_secret(rel)]
    return tuple(found)


# What a held command's ``Reveal.approved`` stands for: it has not run; it runs (a read) or
# is planned (a write) only once the user approves.
NOT_RUN_YET = Outcome(True, "runs once the user approves")


def hold(workspace: Workspace, command: Command, preview: bool = False) -> Reveal | None:
    """The request to put to the user before ``command`` may touch a secret-looking file
    it names, or None when it names none. The request and the answer when the user says
    no are made from the path and the action alone. ``preview`` (a person will be asked):
    a read's request also carries what the person is shown of the file, its size and
    first lines (``Reveal.preview``), which only the review renders; otherwise the file
    is not opened."""
    if command.spec.review is not None:  # asked every time, whatever it names
        reason = command.spec.review(command.fields)
        return Reveal(approved=NOT_RUN_YET, paths=(), reason=reason, runs=True)
    if command.spec.secrecy is not Secrecy.CONTENT:
        return None
    secrets = secret_paths(workspace, command)
    if not secrets:
        return None
    names = ", ".join(secrets)
    if command.spec.kind is Kind.WRITE:
        reason = (
            f"{names} looks like a secret (keys, tokens, passwords); {command.action} must "
            "read it to plan the change, and what it says (an error may quote the file) goes "
            "to the chat. Nothing is planned before you approve; the change itself is then "
            "shown for approval before anything is written"
        )
    else:
        reason = (
            f"{names} looks like a secret (keys, tokens, passwords); {command.action} sends "
            "what it holds to the chat. It runs only if you approve"
        )
        if preview:
            from ..store.secret_preview import file_preview  # lazy: only a secret read

            shown = tuple(
                line for rel in secrets[:3] for line in file_preview(workspace, rel, command.action)
            )
            return Reveal(approved=NOT_RUN_YET, paths=secrets, reason=reason, preview=shown)
    return Reveal(approved=NOT_RUN_YET, paths=secrets, reason=reason)


def guard_result(
    workspace: Workspace, command: Command, produced: Result, opened: Sequence[str] = ()
) -> Result:
    """A successful result of a CONTENT action on a secret-looking file needs consent."""
    if isinstance(produced, (Reveal, Plan)) or command.spec.secrecy is not Secrecy.CONTENT:
        return produced
    if not produced.ok:
        return produced  # failures built by executors carry sizes and limits, no content
    secrets = secret_paths(workspace, command, opened)
    if not secrets:
        return produced
    return Reveal(
        approved=produced,
        paths=secrets,
        reason=f"{', '.join(secrets)} looks like a secret (keys, tokens, passwords); "
        f"{command.action} sends what it holds to the chat",
    )


def guard_failure(
    workspace: Workspace, command: Command, error: OperatorError, opened: Sequence[str] = ()
) -> Result:
    """The failure of ``command``, held back for consent when it would quote a secret."""
    full = failure_outcome(command.action, error, command.id)
    secrets = secret_paths(workspace, command, opened)
    if not secrets:
        return full
    known = _command_text(command)
    leaked = _leaks(workspace, secrets, full, known)
    if not error.quotes_file and not leaked:
        return full
    shown = error.redacted()
    if error.quotes_file:
        message = shown.message.rstrip(". ")
        shown = type(shown)(shown.code, f"{message}; {NOT_SHOWN_NOTE}", shown.details)
    redacted = failure_outcome(command.action, shown, command.id)
    if _leaks(workspace, secrets, redacted, known):
        redacted = failure_outcome(
            command.action,
            type(error)(
                error.code,
                f"{command.action} failed on {', '.join(secrets)}; the message would quote "
                f"the file, and {NOT_SHOWN_NOTE}. Ask the user to approve sending it",
            ),
            command.id,
        )
    return Reveal(
        approved=full,
        paths=secrets,
        reason=f"the error message quotes {', '.join(secrets)}, which looks like a secret",
        rejected=redacted,
    )


def _command_text(command: Command) -> str:
    """Every text field of the command (base64 ones decoded): what the model already knows."""
    values = [value for value in command.fields.model_dump().values() if isinstance(value, str)]
    return "\n".join(values)


def _leaks(workspace: Workspace, secrets: tuple[str, ...], outcome: Outcome, known: str) -> bool:
    """Whether ``outcome`` holds a line of one of the ``secrets`` files that the command
    itself did not send (a patch's context lines are the model's own text)."""
    text = outcome.summary + "\n" + (outcome.details or "")
    for rel in secrets:
        for line in _lines(workspace, rel):
            if line in known:
                continue
            forms = {line, repr(line)[1:-1], json.dumps(line, ensure_ascii=False)[1:-1]}
            if any(form in text for form in forms):
                return True
    return False


def _lines(workspace: Workspace, rel: str) -> list[str]:
    from ..store.tree_walk import read_limited

    try:
        handle = os.open(workspace.resolve(rel), os.O_RDONLY | os.O_NONBLOCK)
    except (OperatorError, OSError):
        return []
    try:
        data = read_limited(handle, _MAX_CHECKED_BYTES) or b""
    except OSError:
        return []
    finally:
        os.close(handle)
    text = data.decode("utf-8", "replace")
    return [
        stripped for line in text.split("\n") if len(stripped := line.strip()) >= _SHORTEST_LINE
    ]
