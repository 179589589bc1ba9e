"""The primer: what the user pastes into a new chat so the model can drive the app.

``llm-operator primer`` prints it and the window's "Copy LLM primer" copies it; both call
``primer_text()``. It stays under ``PRIMER_LIMIT`` characters (a test runs the command and
counts). The action table is rendered from core/actions and the error groups from the
registry (core/error_codes.py), so actions and codes added there appear here by
themselves. The worked examples are run verbatim by tests/core/protocol/test_primer.py,
which checks each against the ``->`` line that follows it.

No line of the primer starts or ends with a marker word unless it is a marker line of an
example, so scanning the primer finds only its examples.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..error_codes import ERROR_CODES
from ..store.command_shown import shown_command
from .encoder import ResultForm
from .primer_text import EXAMPLES, INTRO, RESULTS_BASE64, RESULTS_READABLE, RULES

PRIMER_LIMIT = 14_000

# What a model should do about each code. A code missing here is placed by its name
# (ERR_MISSING_*, ERR_INVALID_*: fix the fields) or lands in the last group, so a newly
# registered code still reaches the model.
FIX_BLOCK = "Fix the block as the message says; new id"
FIX_FIELDS = "Fix the fields the message names; new id"
READ_AGAIN = "Read the file again, then send a fix"
SEND_NAMED = "Send the line it names (symbol: A/b, occurrence: N)"
OTHER_ROUTE = "Take another route (fs.readSlice, smaller pieces)"
ASK_USER = "Stop and tell the user; do not retry blindly"
READ_MESSAGE = "Read the message: it says what to change"

ERROR_GROUPS: dict[str, tuple[str, ...]] = {
    FIX_BLOCK: (
        "ERR_MARKER_NOT_ALONE",
        "ERR_MISSING_END_MARKER",
        "ERR_MISSING_START_MARKER",
        "ERR_NESTED_BLOCK",
        "ERR_NON_KEY_VALUE_LINE",
        "ERR_EMPTY_LINE_IN_CMD",
        "ERR_NON_ASCII_IN_CMD",
        "ERR_CONTENT_HAS_NEWLINES",
        "ERR_ESCAPED_MARKER",
        "ERR_BLOCK_TOO_LARGE",
        "ERR_MISSING_REQUIRED_FIELDS",
        "ERR_UNSUPPORTED_VERSION",
        "ERR_INVALID_BASE64",
        "ERR_DUPLICATE_ID",
    ),
    FIX_FIELDS: (
        "ERR_UNKNOWN_ACTION",
        "ERR_RESERVED_ACTION",
        "ERR_UNKNOWN_KEY",
        "ERR_DUPLICATE_KEY",
        "ERR_CONFLICTING_FIELDS",
        "ERR_INVALID_FIELD",
        "ERR_ACTION_REQUIRES_PATH",
        "ERR_ACTION_FORBIDS_PATH",
        "ERR_INVALID_PATH",
        "ERR_PATH_OUTSIDE_WORKSPACE",
        "ERR_INVALID_READSLICE_PARAMS",
        "ERR_INVALID_EDITS_JSON",
        "ERR_INVALID_PATCH",
        "ERR_INVALID_INSERT_POSITION",
        "ERR_INVALID_POSITION",
        "ERR_INVALID_EXPECTED_COUNT",
        "ERR_INVALID_ANCHOR_OCCURRENCE",
        "ERR_UNKNOWN_LANGUAGE",
        "ERR_INVALID_COMMENT_STYLE",
        "ERR_COMMENT_STYLE_REQUIRED",
        "ERR_TARGET_REQUIRED",
        "ERR_CONTENT_EMPTY",
        "ERR_MISSING_QUERY",
        "ERR_NAME_TOO_LONG",
    ),
    READ_AGAIN: (
        "ERR_STALE_FILE",
        "ERR_PATCH_CONTEXT_MISMATCH",
        "ERR_ANCHOR_NOT_FOUND",
        "ERR_TEXT_NOT_FOUND",
        "ERR_TEXT_AMBIGUOUS",
        "ERR_COUNT_MISMATCH",
        "ERR_INVALID_LINE_RANGE",
        "ERR_TARGET_SHARES_LINE",
        "ERR_FILE_NOT_FOUND",
        "ERR_IS_A_DIRECTORY",
        "ERR_NOT_A_DIRECTORY",
        "ERR_NOT_A_FILE",
        "ERR_SEARCH_PATH_IS_DIR",
        "ERR_ALREADY_EXISTS",
        "ERR_REGION_MARKER_NOT_FOUND",
        "ERR_REGION_MARKER_NOT_UNIQUE",
        "ERR_REGION_MARKER_ORDER",
        "ERR_REGION_MARKER_MISMATCH",
        "ERR_REGION_MARKER_ALREADY_EXISTS",
    ),
    SEND_NAMED: ("ERR_TARGET_NOT_FOUND", "ERR_TARGET_AMBIGUOUS"),
    OTHER_ROUTE: (
        "ERR_FILE_TOO_LARGE",
        "ERR_CONTENT_TOO_LARGE",
        "ERR_LANGUAGE_UNSUPPORTED",
        "ERR_PARSER_FAILED",
        "ERR_ENCODING_ERROR",
    ),
    ASK_USER: (
        "ERR_REJECTED_BY_USER",
        "ERR_TRASH_UNAVAILABLE",
        "ERR_PATH_PROTECTED",
        "ERR_READ_FAILED",
        "ERR_WRITE_FAILED",
        "ERR_JOURNAL_FAILED",
        "ERR_INTERNAL",
        "ERR_PERMISSION_DENIED",
        "ERR_SYMLINK_LOOP",
        "ERR_NO_SPACE",
        "ERR_READ_ONLY_FS",
        "ERR_FILE_BUSY",
        "ERR_TOO_MANY_OPEN_FILES",
        "ERR_IO_ERROR",
    ),
}

# Codes no command of the model can cause or cure: the app's own set-up.
NOT_FOR_THE_MODEL = frozenset({"ERR_WORKSPACE_INVALID", "ERR_NO_STATE_DIR"})


def grouped_codes() -> dict[str, list[str]]:
    """Every registered code a model can act on, under what to do about it."""
    groups: dict[str, list[str]] = {title: [] for title in [*ERROR_GROUPS, READ_MESSAGE]}
    placed = {code: title for title, codes in ERROR_GROUPS.items() for code in codes}
    for code in ERROR_CODES:
        if code in NOT_FOR_THE_MODEL:
            continue
        fallback = FIX_FIELDS if code.startswith(("ERR_MISSING_", "ERR_INVALID_")) else None
        groups[placed.get(code) or fallback or READ_MESSAGE].append(code)
    return {title: codes for title, codes in groups.items() if codes}


def render_errors() -> str:
    lines = [
        "ERRORS: WHAT TO DO",
        "Each ok: false summary names its code (in parentheses) and what to fix.",
    ]
    for title, codes in grouped_codes().items():
        lines.append(f"- {title}: {', '.join(codes)}.")
    return "\n".join(lines)


def render_actions() -> str:
    from .primer_table import action_lines

    return "\n".join(
        [
            "ACTIONS (W = write: the user approves it first; [x] optional, =default;"
            " a|b give one of them; (q) an alias)",
            *action_lines(),
        ]
    )


def primer_text(
    form: ResultForm = ResultForm.READABLE, checks: Sequence[tuple[str, str]] = ()
) -> str:
    """The primer, exactly as ``llm-operator primer`` prints and the window copies it; it
    describes results in ``form``, the form the app will send. ``checks`` (name, command
    line) are the workspace's checks, named after the action table when there are some."""
    from .primer_table import edit_ops_line

    results = RESULTS_READABLE if form is ResultForm.READABLE else RESULTS_BASE64
    rules = RULES.replace("{results}", results) + "\n" + edit_ops_line()
    parts = [INTRO, rules, render_actions(), render_errors(), EXAMPLES]
    text = "\n\n".join(parts) + "\n"
    if not checks:
        return text
    # The checks line goes after the action table, in the room the limit leaves.
    parts[2] += "\n" + checks_line(checks, PRIMER_LIMIT - len(text) - 1)
    return "\n\n".join(parts) + "\n"


MAX_CHECK_CHARS = 60


CHECKS_HEAD = "CHECKS (run.check name: <name>): "


def checks_line(checks: Sequence[tuple[str, str]], room: int) -> str:
    """One line naming the workspace's checks for run.check, at most ``room`` characters:
    with their command lines (the person's own text, a program given by absolute path by
    its base name: escaped to ASCII, cut when long),
    else names only, else as many names as fit and how many more. ASCII, one line."""
    with_commands = [f"{name} ({_command_shown(command)})" for name, command in checks]
    names = [name for name, _ in checks]
    for shown in (with_commands, names):
        line = CHECKS_HEAD + "; ".join(shown)
        if len(line) <= room:
            return line
    kept: list[str] = []
    for count, name in enumerate(names):
        more = f"; {len(names) - count - 1} more" if count + 1 < len(names) else ""
        if len(CHECKS_HEAD + "; ".join([*kept, name]) + more) > room:
            break
        kept.append(name)
    left = len(names) - len(kept)
    if not kept:
        return CHECKS_HEAD + f"{left} (ask the user for their names)"
    return CHECKS_HEAD + "; ".join(kept) + (f"; {left} more" if left else "")


def _command_shown(command: str) -> str:
    text = shown_command(command).encode("ascii", "backslashreplace").decode("ascii")
    text = "".join(c if " " <= c <= "~" else f"\\x{ord(c):02x}" for c in text)
    return text if len(text) <= MAX_CHECK_CHARS else text[: MAX_CHECK_CHARS - 3] + "..."
