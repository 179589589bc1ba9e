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

``exec`` never imports Qt: only the result blocks go to stdout, diagnostics to stderr.
Exit status: 0 every command ok, 1 at least one ``ok: false``, 2 usage or workspace error.
``undo``: 0 undone (or nothing to undo), 1 refused or not finished (a state store that
cannot be opened included), 2 usage or workspace error.
``pack`` prints the context message (its parts, in order) on stdout and on stderr what it
left out and why; exit status 0 when every file asked for went in, 1 when any was left
out (secret-looking, binary, missing...), 2 usage or workspace error.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .core.wording import counted

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator, Sequence

    from .core.actions.base import OutlineMemo
    from .core.plan.run import Decision, Pending
    from .core.plan.session import Session
    from .core.store.workspace import Workspace

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class _ExecArgs:
    """The arguments of a plain ``exec`` line, as argparse would give them."""

    command = "exec"

    def __init__(self) -> None:
        self.workspace: Path | None = None
        self.state_dir: Path | None = None
        self.yes = self.no = False
        self.results = "readable"
        self.file = "-"


_EXEC_VALUES = {"--workspace": "workspace", "--state-dir": "state_dir", "--results": "results"}


def _plain_exec(argv: Sequence[str]) -> _ExecArgs | None:
    """A plain ``exec`` command line read without argparse (whose import, translations and
    parser building are a good part of an exec's start), or None for anything else:
    help, an error, an abbreviation, a repeated option... go to argparse."""
    if not argv or argv[0] != "exec":
        return None
    args = _ExecArgs()
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

    undo = commands.add_parser("undo", help="undo the last approved batch of writes")
    undo.add_argument("--workspace", type=Path, required=True)
    undo.add_argument(
        "--yes",
        action="store_true",
        help="undo without asking (else a terminal asks, naming the batch; with no "
        "terminal nothing is undone)",
    )
    undo.add_argument("--state-dir", type=Path)

    commands.add_parser("spec", help="print the interface specification served to the LLM")

    pack = commands.add_parser(
        "pack", help="print a context message: primer, task, chosen files, outline"
    )
    pack.add_argument("--workspace", type=Path, required=True)
    pack.add_argument("--task", default="", help="what the LLM should do")
    pack.add_argument(
        "--map-tokens",
        type=int,
        default=None,
        metavar="N",
        help="about how many tokens (characters / 4) the outline of the rest of the workspace "
        "may take, its most relevant structures first (default 2000; 0: no outline)",
    )
    pack.add_argument(
        "--outline",
        action="store_true",
        help="kept for older scripts: the outline is on unless --map-tokens 0",
    )
    pack.add_argument(
        "--include-secrets",
        action="store_true",
        help="let secret-looking files in (they are left out otherwise, even when named)",
    )
    pack.add_argument(
        "--limit",
        type=int,
        help="characters per part (default: the window's chat part size setting)",
    )
    pack.add_argument(
        "--continue",
        dest="continue_",
        action="store_true",
        help="for the current chat: do not start a new conversation (ids stay taken)",
    )
    pack.add_argument("--state-dir", type=Path, help="session memory and undo journal folder")
    pack.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to include")
    primer = commands.add_parser("primer", help='print what the window\'s "Copy LLM primer" copies')
    primer.add_argument(
        "--workspace",
        type=Path,
        help="start a new conversation on this workspace (a new chat may reuse command ids)",
    )
    primer.add_argument("--state-dir", type=Path, help="session memory and undo journal folder")
    primer.add_argument(
        "--results",
        choices=("readable", "base64"),
        default="readable",
        help="describe results in this form (as exec --results gives them)",
    )
    _add_mcp(commands)
    from .cli_checks import add_parser
    from .cli_relay import add_parser as add_relay

    add_parser(commands)
    add_relay(commands)
    return parser


def _add_mcp(commands: argparse._SubParsersAction[Any]) -> None:
    mcp = commands.add_parser("mcp", help="serve the workspace's actions to an MCP client")
    mcp.add_argument("--workspace", type=Path, required=True)
    mcp.add_argument("--state-dir", type=Path, help="session memory and undo journal folder")
    mcp.add_argument(
        "--approve",
        choices=("window", "ask", "no", "yes"),
        help="who approves writes and secret reads (default: the window when one has the "
        "workspace open, else the terminal if there is one, else the window once it is "
        "opened; yes is for tests and scripts only)",
    )
    mcp.add_argument("--http", type=int, metavar="PORT", help="streamable HTTP on 127.0.0.1")
    mcp.add_argument(
        "--approval-timeout",
        type=float,
        metavar="SECONDS",
        help="how long a call waits for approval (default 600)",
    )


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
    plain = _plain_exec(sys.argv[1:] if argv is None else argv)
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
    if args.command == "pack":
        return _pack(args)
    if args.command == "mcp":
        return _mcp(args)
    if args.command == "primer":
        return _primer(args)
    if args.command == "checks":
        from .cli_checks import run_checks

        return run_checks(args, [])
    if args.command == "relay":
        from .cli_relay import run_relay

        return run_relay(args, _open_session, _ask, _Terminal)
    return _in_session(args)


def _primer(args: argparse.Namespace) -> int:
    from .core.errors import OperatorError
    from .core.protocol.encoder import ResultForm
    from .core.protocol.primer import primer_text

    started = True
    checks: tuple[tuple[str, str], ...] = ()
    if args.workspace is not None:
        from .cli_checks import named_checks
        from .core.store.workspace import Workspace

        try:
            root = Workspace(args.workspace).root
        except OperatorError as error:
            print(f"llm-operator: {error.message}", file=sys.stderr)
            return EXIT_USAGE
        started = _new_conversation(root, args.state_dir)
        checks = named_checks(root, args.state_dir)
    sys.stdout.write(primer_text(ResultForm(args.results), checks))
    return EXIT_OK if started else EXIT_FAILED


def _new_conversation(root: Path, state_dir: Path | None) -> bool:
    """Start a new conversation on the workspace at ``root`` (a primer or pack is for a new
    chat, whose model counts its ids from the start again); False, said on stderr, when
    the state store could not record it."""
    from .core.store.conversations import PASTE, start_conversation
    from .core.store.database import StateStore, StoreError
    from .core.store.state import default_state_dir, workspace_state_dir

    store = None
    try:
        store = StateStore(workspace_state_dir(state_dir or default_state_dir(), root))
        start_conversation(store, PASTE)
    except StoreError as error:
        print(
            f"llm-operator: no new conversation was started ({error.code}): {error.message}; "
            "the command ids of the earlier chat are still taken",
            file=sys.stderr,
        )
        return False
    finally:
        if store is not None:
            store.close()
    return True


def _in_session(args: argparse.Namespace | _ExecArgs) -> int:
    """exec or undo."""
    assert args.workspace is not None
    session = _open_session(args.workspace, args.state_dir)
    if session is None:
        return EXIT_USAGE
    if args.command == "undo":
        return _undo(session, bool(getattr(args, "yes", False)))
    return _exec(session, args)


def _open_session(workspace: Path, state_dir: Path | None) -> Session | None:
    from .core.errors import OperatorError
    from .core.plan.session import Session
    from .core.store.settings import Settings
    from .core.store.state import default_state_dir
    from .core.store.workspace import Workspace

    try:
        # The secret-looking file patterns are the one setting shared with the window.
        chosen = Workspace(workspace, tuple(Settings.load().secret_patterns))
    except OperatorError as error:
        print(f"llm-operator: {error.message}", file=sys.stderr)
        return None
    session = Session(chosen, state_dir if state_dir is not None else default_state_dir())
    _OPENED.append(session)
    return session


def _read_reply(name: str) -> str | None:
    try:
        if name == "-":
            return sys.stdin.buffer.read().decode("utf-8", "replace")
        return Path(name).read_bytes().decode("utf-8", "replace")
    except OSError as exc:
        print(f"llm-operator: cannot read {name}: {exc.strerror}", file=sys.stderr)
        return None


def _exec(session: Session, args: argparse.Namespace | _ExecArgs) -> int:
    from .core.protocol.encoder import ResultForm, encode_results

    text = _read_reply(args.file)
    if text is None:
        return EXIT_USAGE
    # The file a held secret read names is opened for its preview only when a person will
    # see it: never for --yes, --no or a run that has nobody to ask.
    session.shows_secrets = not (args.yes or args.no) and _can_ask(args.file == "-")
    run = session.prepare(text)
    for notice in run.notices:
        print(_on(sys.stderr, f"llm-operator: note: {notice}"), file=sys.stderr)
    if session.store_problem is not None:
        print(f"llm-operator: the state folder is {session.state_folder}", file=sys.stderr)
    if not run.items:
        print("llm-operator: no OPERATOR_CMD blocks found", file=sys.stderr)
    decisions = _decide(run.pending, args, args.file == "-", session.workspace)
    # A write on a secret-looking file is planned only now that the user let the app read
    # the file; its change is then asked about like any other (--yes approves it too).
    shown = session.open_held(run, decisions)
    decisions |= _decide(shown, args, args.file == "-", session.workspace)
    session.on_wait = _say_waiting
    results = session.execute(run, decisions)
    for note in session.take_recovery_notes():
        print(_on(sys.stderr, f"llm-operator: note: {note}"), file=sys.stderr)
    if results:
        sys.stdout.write(_on(sys.stdout, encode_results(results, ResultForm(args.results))) + "\n")
    return EXIT_OK if all(result.ok for result in results) else EXIT_FAILED


def _on(stream: TextIO, text: str) -> str:
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


def _say_waiting() -> None:
    print("llm-operator: waiting for another run on this workspace...", file=sys.stderr, flush=True)


def _decide(
    pending: list[Pending],
    args: argparse.Namespace | _ExecArgs,
    reading_stdin: bool,
    workspace: Workspace | None = None,
) -> dict[int, Decision]:
    from .core.plan.run import APPROVE, REJECT

    if not pending:
        return {}
    if args.yes:
        return {item.index: APPROVE for item in pending}
    if args.no:
        return {item.index: REJECT for item in pending}
    terminal = _terminal(reading_stdin)
    if terminal is None:
        print(
            f"llm-operator: {counted(len(pending), 'command')} "
            f"{'needs' if len(pending) == 1 else 'need'} approval and no terminal can ask; "
            "rejected (use --yes to approve)",
            file=sys.stderr,
        )
        return {item.index: REJECT for item in pending}
    with terminal:
        return {item.index: _ask(item, terminal, workspace) for item in pending}


class _Terminal:
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

    def __enter__(self) -> _Terminal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _can_ask(reading_stdin: bool) -> bool:
    """Whether a person is there to ask: stdin (or, when the reply came on stdin, the
    controlling terminal) and stderr must both be terminals."""
    return sys.stderr.isatty() and (reading_stdin or sys.stdin.isatty())


def _terminal(reading_stdin: bool) -> TextIO | _Terminal | None:
    """The terminal to ask on, if a person is there (``_can_ask``)."""
    if not _can_ask(reading_stdin):
        return None
    try:
        return _Terminal()
    except OSError:
        return None


def _ask(
    item: Pending, terminal: TextIO | _Terminal, workspace: Workspace | None = None
) -> Decision:
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


def _mcp(args: argparse.Namespace) -> int:
    from .mcp_server import serve

    if args.http is not None and not 0 <= args.http <= 65535:
        print("llm-operator: --http must be a port from 0 (any free one) to 65535", file=sys.stderr)
        return EXIT_USAGE
    if args.approval_timeout is not None and not args.approval_timeout > 0:
        print("llm-operator: --approval-timeout must be more than 0 seconds", file=sys.stderr)
        return EXIT_USAGE
    first = _open_session(args.workspace, args.state_dir)
    if first is None:
        return EXIT_USAGE
    opened = [first]

    def open_session() -> Session:
        if opened:
            return opened.pop()
        again = _open_session(args.workspace, args.state_dir)
        assert again is not None  # the same workspace opened a moment ago
        return again

    return serve(open_session, args.approve, args.http, _ask_mcp, args.approval_timeout)


def _ask_mcp(pending: Sequence[Pending], client: str) -> dict[int, Decision] | None:
    """The ``exec`` prompt for an MCP client's commands, on the controlling terminal."""
    try:
        terminal = _Terminal()
    except OSError:
        return None
    with terminal:
        from .core.visible import shown

        # The client names itself: its name is shown as text, like every reply's.
        terminal.write(f"\n{shown(client)} (MCP) asks for {counted(len(pending), 'command')}:\n")
        return {item.index: _ask(item, terminal) for item in pending}


def _pack(args: argparse.Namespace) -> int:
    from .core.errors import OperatorError
    from .core.plan.context import build_context, left_out_line
    from .core.plan.repo_map import DEFAULT_MAP_TOKENS, MAX_MAP_TOKENS
    from .core.protocol.chat_units import units
    from .core.protocol.context_pack import MIN_LIMIT, estimate_tokens, frame_name, name_room
    from .core.store.settings import Settings
    from .core.store.workspace import Workspace

    settings = Settings.load()
    limit = args.limit if args.limit is not None else settings.part_size
    if limit < MIN_LIMIT:
        print(f"llm-operator: --limit must be at least {MIN_LIMIT}", file=sys.stderr)
        return EXIT_USAGE
    tokens = DEFAULT_MAP_TOKENS if args.map_tokens is None else args.map_tokens
    if not 0 <= tokens <= MAX_MAP_TOKENS:
        print(
            f"llm-operator: --map-tokens must be from 0 (no outline) to {MAX_MAP_TOKENS:,}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    try:
        from .core.store.state import default_state_dir

        # The app's own records never go into a pack, as they never go into results.
        state_dir = args.state_dir or default_state_dir()
        workspace = Workspace(args.workspace, tuple(settings.secret_patterns)).with_app_state(
            state_dir
        )
        from .cli_checks import named_checks
        from .core.protocol.primer import primer_text

        checks = named_checks(workspace.root, state_dir)
        with _kept_outlines(workspace, tokens > 0, state_dir) as outlines:
            pack = build_context(
                workspace,
                args.paths,
                task=args.task,
                map_tokens=tokens,
                include_secrets=args.include_secrets,
                limit=limit,
                primer=primer_text(checks=checks) if checks else None,
                outlines=outlines,
            )
    except OperatorError as error:
        print(f"llm-operator: pack failed ({error.code}): {error.message}", file=sys.stderr)
        return EXIT_USAGE
    # The store exec and the window use (--state-dir as theirs): a conversation started
    # in another store would leave the chat's pastes in the earlier chat's ids.
    started = args.continue_ or _new_conversation(workspace.root, args.state_dir)
    sys.stdout.write(_on(sys.stdout, pack.message.whole) + "\n")
    message = pack.message
    print(
        f"llm-operator: packed {counted(len(pack.files), 'file')}: {message.chars} characters, "
        f"about {message.tokens} tokens (characters / 4), "
        f"{counted(len(message.parts), 'part')} of at most {limit} characters",
        file=sys.stderr,
    )
    if pack.outline is not None:
        shown = pack.outline
        print(
            f"llm-operator: outline of the rest: {shown.files} of {shown.total_files} files, "
            f"{shown.lines} of {shown.total_lines} lines, about "
            f"{estimate_tokens(len(shown.text))} of {tokens} tokens",
            file=sys.stderr,
        )
    for rel in message.cut_names:
        print(
            f"llm-operator: note: the path {frame_name(rel, name_room(limit))} is "
            f"{units(rel)} characters, too long to name whole in parts of {limit}: the message "
            "shows it cut (a larger --limit shows it whole)",
            file=sys.stderr,
        )
    if pack.ignored:
        print(
            f"llm-operator: {counted(pack.ignored, 'file or folder', 'files and folders')} of "
            "the named folders left out by .gitignore (name a file to send it anyway)",
            file=sys.stderr,
        )
    for left in pack.left_out:
        # Names as every listing escapes them: one line each, whatever the name holds.
        print(_on(sys.stderr, f"llm-operator: left out {left_out_line(left)}"), file=sys.stderr)
    return EXIT_FAILED if pack.left_out or not started else EXIT_OK


@contextlib.contextmanager
def _kept_outlines(
    workspace: Workspace, wanted: bool, state_dir: Path
) -> Iterator[OutlineMemo | None]:
    """The outlines the window and exec keep for this workspace (a cache: without a
    usable state store, outlines are made anew)."""
    from .core.store.database import StateStore, StoreError
    from .core.store.outline_cache import StoredOutlines
    from .core.store.state import workspace_state_dir

    store = None
    if wanted:
        with contextlib.suppress(StoreError):
            store = StateStore(workspace_state_dir(state_dir, workspace.root))
    try:
        yield StoredOutlines(store) if store is not None else None
    finally:
        if store is not None:
            store.close()


def _undo(session: Session, yes: bool) -> int:
    from .core.errors import OperatorError
    from .core.protocol.encoder import encode_results

    session.on_wait = _say_waiting
    problem = session.store_problem
    if problem is not None:
        # Nothing can be undone without the journal: the run failed (1), as any undo
        # that cannot finish does; 2 is for what the user typed (arguments, workspace).
        # The message says what a run that stopped mid-batch left on disk, if anything.
        print(
            _on(sys.stderr, f"llm-operator: undo failed ({problem.code}): {problem.message}"),
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
        print(_on(sys.stderr, f"llm-operator: note: {note}"), file=sys.stderr)
    print(_on(sys.stdout, report.summary))
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
    terminal = _terminal(reading_stdin=False)
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


# The sessions an exec or undo of this process opened: closed by ``run`` before it leaves.
_OPENED: list[Session] = []


def run() -> None:
    """The program: ``main``, its state stores closed (SQLite checkpoints its log as at any
    close), then the usual exit."""
    code = main()
    for session in _OPENED:
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
