"""``llm-operator checks``: the workspace's checks, listed, added and removed.

    llm-operator checks [list] --workspace DIR [--state-dir DIR]
    llm-operator checks add NAME [--shell] [--timeout S] [--keep-env NAME]... -- COMMAND...
    llm-operator checks remove NAME --workspace DIR [--state-dir DIR]

A check is kept in the workspace's state store (``core/store/checks.py``), never in a file
of the workspace. ``add`` keeps the words after ``--`` as one command line, each quoted as
a POSIX shell would need (``shlex.join``), so it runs as exactly those arguments; with
``--shell`` the words are one line for ``/bin/sh -c``. Exit status: 0 done, 1 a check to
remove that does not exist or a store that cannot be used, 2 usage or workspace error.
"""

from __future__ import annotations

import shlex
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse
    from pathlib import Path

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    from pathlib import Path

    checks = commands.add_parser(
        "checks", help="list, add or remove the workspace's checks (run.check runs them)"
    )
    checks.add_argument("--workspace", type=Path, required=True)
    checks.add_argument("--state-dir", type=Path, help="session memory and undo journal folder")
    checks.add_argument("--shell", action="store_true", help="add: run the line with /bin/sh -c")
    checks.add_argument("--timeout", type=int, default=None, help="add: seconds (default 120)")
    checks.add_argument(
        "--keep-env",
        action="append",
        default=[],
        metavar="NAME",
        help="add: an environment variable the check keeps though its name looks secret",
    )
    checks.add_argument("words", nargs="*", help="list | add NAME -- COMMAND... | remove NAME")


def run_checks(args: argparse.Namespace, command: list[str]) -> int:
    """``args`` as parsed before ``--``; ``command``: the words after it."""
    from .core.errors import OperatorError
    from .core.store.checks import Check, add_check, list_checks, remove_check
    from .core.store.commands import DEFAULT_TIMEOUT
    from .core.store.database import StateStore
    from .core.store.state import default_state_dir, workspace_state_dir
    from .core.store.workspace import Workspace
    from .core.visible import shown

    words: list[str] = list(args.words) or ["list"]
    verb, rest = words[0], words[1:]
    if verb not in ("list", "add", "remove") or (verb == "list" and rest):
        return _usage("the first word is list, add or remove")
    if verb == "add" and (len(rest) != 1 or not command):
        return _usage("add needs a name, then the command after --: checks add NAME -- COMMAND...")
    if verb != "add" and command:
        return _usage("only add takes a command after --")
    if verb == "remove" and len(rest) != 1:
        return _usage("remove needs one name: checks remove NAME")
    try:
        root = Workspace(args.workspace).root
    except OperatorError as error:
        print(f"llm-operator: {error.message}", file=sys.stderr)
        return EXIT_USAGE
    store = None
    try:
        store = StateStore(workspace_state_dir(args.state_dir or default_state_dir(), root))
        if verb == "add":
            name = rest[0]
            line = " ".join(command) if args.shell else shlex.join(command)
            timeout = DEFAULT_TIMEOUT if args.timeout is None else args.timeout
            add_check(store, Check(name, line, args.shell, timeout, tuple(args.keep_env)))
            print(f"llm-operator: check {shown(name)} runs: {shown(line)}", file=sys.stderr)
            return EXIT_OK
        if verb == "remove":
            if remove_check(store, rest[0]):
                return EXIT_OK
            print(f"llm-operator: no check named {shown(rest[0])}", file=sys.stderr)
            return EXIT_FAILED
        for check in list_checks(store):
            how = " (shell)" if check.shell else ""
            keeps = f" keeps {' '.join(check.keep)}" if check.keep else ""
            sys.stdout.write(
                f"{shown(check.name)}: {shown(check.command)}{how} [timeout "
                f"{check.timeout} s{keeps}]\n"
            )
        return EXIT_OK
    except OperatorError as error:
        print(f"llm-operator: {error.code}: {error.message}", file=sys.stderr)
        return EXIT_USAGE if error.code == "ERR_INVALID_FIELD" else EXIT_FAILED
    finally:
        if store is not None:
            store.close()


def _usage(message: str) -> int:
    print(f"llm-operator checks: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def named_checks(root: Path, state_dir: Path | None) -> tuple[tuple[str, str], ...]:
    """The (name, command line) of the workspace's checks, for the primer and the pack;
    none when the state store cannot be read (said on stderr)."""
    from .core.store.checks import list_checks
    from .core.store.database import StateStore, StoreError
    from .core.store.state import default_state_dir, workspace_state_dir

    folder = workspace_state_dir(state_dir or default_state_dir(), root)
    if not folder.is_dir():
        return ()  # a workspace never used: no store to make just to find no checks
    store = None
    try:
        store = StateStore(folder)
        return tuple((check.name, check.command) for check in list_checks(store))
    except StoreError as error:
        print(f"llm-operator: the checks cannot be read ({error.code})", file=sys.stderr)
        return ()
    finally:
        if store is not None:
            store.close()
