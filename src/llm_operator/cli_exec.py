"""``llm-operator exec``: one pasted reply run headless.

A plain ``exec`` line is read without argparse (``plain_exec``): its import, translations
and parser building are a good part of an exec's start.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cli_prompt import can_ask, decide, on, say_waiting
from .cli_sessions import EXIT_FAILED, EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from .core.plan.session import Session


class ExecArgs:
    """The arguments of a plain ``exec`` line, as argparse would give them."""

    command = "exec"

    def __init__(self) -> None:
        self.workspace: Path | None = None
        self.state_dir: Path | None = None
        self.yes = self.no = False
        self.results = "readable"
        self.file = "-"


_EXEC_VALUES = {"--workspace": "workspace", "--state-dir": "state_dir", "--results": "results"}


def plain_exec(argv: Sequence[str]) -> ExecArgs | None:
    """A plain ``exec`` command line read without argparse (whose import, translations and
    parser building are a good part of an exec's start), or None for anything else:
    help, an error, an abbreviation, a repeated option... go to argparse."""
    if not argv or argv[0] != "exec":
        return None
    args = ExecArgs()
    seen: set[str] = set()
    file_given = False
    words = iter(argv[1:])
    for word in words:
        if word in ("--yes", "--no"):
            name, value = word[2:], None
        elif word.startswith("-") and word != "-":
            option, equals, value = word.partition("=")
            if option not in _EXEC_VALUES:
                return None
            if not equals:
                value = next(words, None)
                if value is None or value.startswith("-"):
                    return None
            name = _EXEC_VALUES[option]
        elif file_given:
            return None
        else:
            file_given, args.file = True, word
            continue
        if name in seen:
            return None
        seen.add(name)
        if value is None:
            setattr(args, name, True)
        elif name == "results":
            if value not in ("readable", "base64"):
                return None
            args.results = value
        else:
            setattr(args, name, Path(value))
    if args.workspace is None or (args.yes and args.no):
        return None
    return args


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    exec_ = commands.add_parser(
        "exec",
        help="run one pasted LLM reply headless (in the workspace's current conversation: "
        "the one the last primer, pack or window copy started)",
    )
    exec_.add_argument("--workspace", type=Path, required=True)
    answer = exec_.add_mutually_exclusive_group()
    answer.add_argument("--yes", action="store_true", help="approve every write")
    answer.add_argument("--no", action="store_true", help="reject every write")
    exec_.add_argument("--state-dir", type=Path, help="session memory and undo journal folder")
    exec_.add_argument(
        "--results",
        choices=("readable", "base64"),
        default="readable",
        help="details as readable lines (default) or strict v3 details_b64",
    )
    exec_.add_argument("file", nargs="?", default="-", help="the reply (default: stdin)")


def _read_reply(name: str) -> str | None:
    try:
        if name == "-":
            return sys.stdin.buffer.read().decode("utf-8", "replace")
        return Path(name).read_bytes().decode("utf-8", "replace")
    except OSError as exc:
        print(f"llm-operator: cannot read {name}: {exc.strerror}", file=sys.stderr)
        return None


def run_exec(session: Session, args: argparse.Namespace | ExecArgs) -> int:
    from .core.protocol.encoder import ResultForm, encode_results

    text = _read_reply(args.file)
    if text is None:
        return EXIT_USAGE
    # The file a held secret read names is opened for its preview only when a person will
    # see it: never for --yes, --no or a run that has nobody to ask.
    session.shows_secrets = not (args.yes or args.no) and can_ask(args.file == "-")
    run = session.prepare(text)
    for notice in run.notices:
        print(on(sys.stderr, f"llm-operator: note: {notice}"), file=sys.stderr)
    if session.store_problem is not None:
        print(f"llm-operator: the state folder is {session.state_folder}", file=sys.stderr)
    if not run.items:
        print("llm-operator: no OPERATOR_CMD blocks found", file=sys.stderr)
    answer = "yes" if args.yes else "no" if args.no else None  # None: ask on the terminal
    decisions = decide(run.pending, answer, args.file == "-", session.workspace)
    # A write on a secret-looking file is planned only now that the user let the app read
    # the file; its change is then asked about like any other (--yes approves it too).
    shown = session.open_held(run, decisions)
    decisions |= decide(shown, answer, args.file == "-", session.workspace)
    session.on_wait = say_waiting
    results = session.execute(run, decisions)
    for note in session.take_recovery_notes():
        print(on(sys.stderr, f"llm-operator: note: {note}"), file=sys.stderr)
    if results:
        sys.stdout.write(on(sys.stdout, encode_results(results, ResultForm(args.results))) + "\n")
    return EXIT_OK if all(result.ok for result in results) else EXIT_FAILED
