"""``llm-operator pack`` and ``llm-operator primer``: the messages that start a chat, each
starting a new conversation on the workspace (its ids count from the start again)."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cli_prompt import on
from .cli_sessions import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from .core.wording import counted

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator

    from .core.actions.base import OutlineMemo
    from .core.store.workspace import Workspace


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
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
        help="characters per part (default: the size for --chat, else the window's setting)",
    )
    pack.add_argument(
        "--chat",
        choices=["chatgpt", "claude", "gemini", "custom"],
        help="the chat the parts are for: its part size (custom: the window's own size)",
    )
    pack.add_argument(
        "--whole-files",
        action="store_true",
        help="send every named file whole (else a file whose definitions the task names as "
        "code is sent as those, the rest as its outline)",
    )
    pack.add_argument(
        "--continue",
        dest="continue_",
        action="store_true",
        help="for the current chat: do not start a new conversation (ids stay taken)",
    )
    pack.add_argument("--state-dir", type=Path, help="session memory and undo journal folder")
    pack.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="files or folders to include; PATH:10-80 sends lines 10-80 of a file and "
        "PATH::Outer/method one definition (symbol paths as fs.outline gives them), the rest "
        "of the file as its outline",
    )
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


def run_pack(args: argparse.Namespace) -> int:
    from .core.errors import OperatorError
    from .core.plan.context import build_context, left_out_line
    from .core.plan.repo_map import DEFAULT_MAP_TOKENS, MAX_MAP_TOKENS
    from .core.protocol.chat_units import units
    from .core.protocol.context_pack import MIN_LIMIT, estimate_tokens, frame_name, name_room
    from .core.store.settings import Settings
    from .core.store.workspace import Workspace

    settings = Settings.load()
    if args.chat is not None:
        settings.chat = args.chat
    limit = args.limit if args.limit is not None else settings.chat_part_size
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
                fit=not args.whole_files,
            )
    except OperatorError as error:
        print(f"llm-operator: pack failed ({error.code}): {error.message}", file=sys.stderr)
        return EXIT_USAGE
    # The store exec and the window use (--state-dir as theirs): a conversation started
    # in another store would leave the chat's pastes in the earlier chat's ids.
    started = args.continue_ or new_conversation(workspace.root, args.state_dir)
    sys.stdout.write(on(sys.stdout, pack.message.whole) + "\n")
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
        print(on(sys.stderr, f"llm-operator: left out {left_out_line(left)}"), file=sys.stderr)
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


def run_primer(args: argparse.Namespace) -> int:
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
        started = new_conversation(root, args.state_dir)
        checks = named_checks(root, args.state_dir)
    sys.stdout.write(primer_text(ResultForm(args.results), checks))
    return EXIT_OK if started else EXIT_FAILED


def new_conversation(root: Path, state_dir: Path | None) -> bool:
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
