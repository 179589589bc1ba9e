"""The ``llm-operator`` command line.

    llm-operator                          open the window (same as ``llm-operator gui``)
    llm-operator gui [--workspace DIR]
    llm-operator exec --workspace DIR [--yes | --no] [--state-dir DIR] [FILE]
    llm-operator undo --workspace DIR [--yes] [--state-dir DIR]
    llm-operator spec
    llm-operator pack --workspace DIR [--task TEXT] [--map-tokens N] [--include-secrets]
                      [--limit CHARS] [PATH ...]
    llm-operator primer
    llm-operator mcp --workspace DIR [--state-dir DIR] [--approve window|ask|no|yes]
                     [--http PORT]
    llm-operator checks [list | add NAME -- COMMAND... | remove NAME] --workspace DIR
                        [--state-dir DIR] [--shell] [--timeout S] [--keep-env NAME]
    llm-operator relay --workspace DIR [--state-dir DIR] [--port N]
                       [--approve window|ask|no|yes]

``exec`` never imports Qt: only the result blocks go to stdout, diagnostics to stderr.
Exit status: 0 every command ok, 1 at least one ``ok: false``, 2 usage or workspace error.
``undo``: 0 undone (or nothing to undo), 1 refused or not finished (a state store that
cannot be opened included), 2 usage or workspace error.
``pack`` prints the context message (its parts, in order) on stdout and on stderr what it
left out and why; exit status 0 when every file asked for went in, 1 when any was left
out (secret-looking, binary, missing...), 2 usage or workspace error.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .cli_exec import ExecArgs, plain_exec
from .cli_sessions import EXIT_FAILED, EXIT_OK, EXIT_USAGE, OPENED, open_session

if TYPE_CHECKING:
    import argparse


def _parser() -> argparse.ArgumentParser:
    import argparse  # lazy: a plain exec line is read without it (_plain_exec)

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # type: ignore[override]
            self.print_usage(sys.stderr)
            self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")

    parser = _Parser(prog="llm-operator", description=__doc__.splitlines()[0] if __doc__ else "")
    # prog given: argparse would otherwise build a help formatter (and import shutil) on
    # every start only to work out this same prefix.
    commands = parser.add_subparsers(dest="command", parser_class=_Parser, prog="llm-operator")

    gui = commands.add_parser("gui", help="open the window")
    gui.add_argument("--workspace", type=Path, help="the workspace folder to open")

    from . import cli_checks, cli_exec, cli_mcp, cli_pack, cli_relay, cli_undo

    cli_exec.add_parser(commands)
    cli_undo.add_parser(commands)
    commands.add_parser("spec", help="print the interface specification served to the LLM")
    cli_pack.add_parser(commands)  # pack and primer
    cli_mcp.add_parser(commands)
    cli_checks.add_parser(commands)
    cli_relay.add_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader of stdout went away (``| head``): whatever ran is recorded in the
        # store, so pasting the reply again returns the same results. Point stdout at
        # nothing so the interpreter's final flush does not print a traceback either.
        _silence_stdout()
        print("llm-operator: stdout was closed before the output was written", file=sys.stderr)
        return EXIT_FAILED


def _silence_stdout() -> None:
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)


def _main(argv: list[str] | None) -> int:
    plain = plain_exec(sys.argv[1:] if argv is None else argv)
    if plain is not None:
        return _in_session(plain)
    words = sys.argv[1:] if argv is None else argv
    if words and words[0] == "checks" and "--" in words:
        # The command after "--" is the check's, whole: argparse would read its options.
        from .cli_checks import run_checks

        cut = words.index("--")
        args = _parser().parse_args(words[:cut])
        return run_checks(args, words[cut + 1 :])
    args = _parser().parse_args(argv)
    if args.command in (None, "gui"):
        from .gui.app import run_app

        return run_app(getattr(args, "workspace", None))
    if args.command == "spec":
        from .core.actions.operator import interface_spec

        sys.stdout.write(interface_spec())
        return EXIT_OK
    if args.command in ("pack", "primer"):
        from .cli_pack import run_pack, run_primer

        return run_pack(args) if args.command == "pack" else run_primer(args)
    if args.command == "mcp":
        from .cli_mcp import run_mcp

        return run_mcp(args)
    if args.command == "checks":
        from .cli_checks import run_checks

        return run_checks(args, [])
    if args.command == "relay":
        from .cli_relay import run_relay

        return run_relay(args)
    return _in_session(args)


def _in_session(args: argparse.Namespace | ExecArgs) -> int:
    """exec or undo."""
    assert args.workspace is not None
    session = open_session(args.workspace, args.state_dir)
    if session is None:
        return EXIT_USAGE
    if args.command == "undo":
        from .cli_undo import run_undo

        return run_undo(session, bool(getattr(args, "yes", False)))
    from .cli_exec import run_exec

    return run_exec(session, args)


def run() -> None:
    """The program: ``main``, its state stores closed (SQLite checkpoints its log as at any
    close), then the usual exit."""
    code = main()
    for session in OPENED:
        state = session.state
        if state is not None and state.store is not None:
            state.store.close()
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        # The reader went away (``| head``): nothing more can reach it, and the interpreter's
        # own flush at exit must not print a traceback about it.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = code or EXIT_FAILED
    raise SystemExit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
