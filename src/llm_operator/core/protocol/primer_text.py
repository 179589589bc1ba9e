# ruff: noqa: E501  (example payload lines must stay whole: the rule they teach is "one line")
"""The written parts of the primer (primer.py puts them together with the tables).

Plain ASCII. No prose line starts or ends with a marker word. The examples run verbatim
in tests/core/protocol/test_primer.py against a workspace holding notes/plan.txt with
"Alpha\\nBeta\\n"; the line after each example block ("-> ...") is what the app answers.
"""

INTRO = """\
LLM OPERATOR PRIMER (commands use version: 1)

LLM Operator is a desktop app on my computer that reads and changes files \
in one folder (the workspace) for you. For a file operation, write command blocks as below, \
as plain text, then stop and wait: I paste your reply into the app (reads run at once, a \
write only if I approve its diff) and paste the results back. Start with a small read, e.g. fs.list with path: . The full reference \
(operator.getInterfaceSpec, or `llm-operator spec`) is needed only for details this primer \
leaves open. fs.outline of a folder is the cheapest map of a codebase. A context message from me (## Task, then files between === FILE: <path> === lines, \
one "| <n>: <line>" body line each, numbered as fs.readSlice numbers them, maybe only some \
lines and the rest as outline lines; maybe in parts headed "LLM Operator context, part i \
of n") shows the files as they were: read again before editing later."""

RULES = """\
HARD RULES
1. A command block is a line OPERATOR_CMD, key: value lines, then a line \
END_OPERATOR_CMD, each marker alone on its line. No empty lines, bullets, \
comments or prose inside a block. Keys exactly as listed (path, not Path).
2. Every block has version: 1, id: <new id>, action: <name>. fs.* actions need path: \
(relative to the workspace, / between folders, . is the root); other actions take no path. \
Never send a workspace field.
3. ASCII only inside blocks. Anything longer than one line, or not ASCII, goes in a *_json \
field (every *_b64 field has one): ONE line of JSON, a string for text ("one\\ntwo\\n"; escape \\n, \\t, \\", \
\\\\; \\u00e9 for non-ASCII is fine), the edits object itself for edits_json. *_b64 \
(base64 of UTF-8, one line) is the fallback. Never give two forms of one field. Plain \
content, old_text, new_text, target and query are single-line only, and a plain value loses \
its edge spaces (keep them with *_json).
4. Use a fresh id for EVERY command, also for verification reads, retries and corrections \
(read-1, edit-2, read-3 ...). A write id resent with identical content is not run again: \
its earlier result comes back, marked as a repeat and saying when it ran; a repeated read id \
runs again on the file as it is now. The same id with different content is ERR_DUPLICATE_ID. A command the user undid is no longer a repeat.
5. Read before you edit (fs.readSlice, fs.search); never guess file contents. After an ok \
write, verify with a new read and quote the changed lines before you claim success.
6. Claim nothing until its result says ok: true. A command that got no result did not run: \
read the file again, then resend it with a new id. Commands run \
in message order: a read after a write of the same reply sees the write if approved.
7. Never write result blocks yourself; only the app does. Results come as OPERATOR_RESULT ... END_OPERATOR_RESULT: id, ok, summary, maybe details. {results} Long results come in parts headed "LLM Operator results, part i of n": wait for the last part.
8. Never start or end a prose line with a marker word. A code fence around blocks is harmless: ```text \
and ``` each on a line of its own; never glue a fence to a marker. Never escape an underscore.
9. ERR_REJECTED_BY_USER: the user said no (the reason follows). Ask what they want; do not \
resend it unchanged. After an \
undo, a result with id undo-<n> lists the commands undone: treat them as not executed and \
read before editing again.

FORMAT (a read of lines 1-80; reads run at once)
OPERATOR_CMD
version: 1
id: read-0
action: fs.readSlice
path: notes/plan.txt
start: 1
lines: 80
END_OPERATOR_CMD
-> ok: true, details hold "1: Alpha"
An ok write's details list the lines that landed, with their new numbers: check them. \
Structure actions name code by its definition line (target: def main(): at any depth if \
unique) or symbol: Class/method. fs.applyEdits takes edits_json = \
{"version":1,"edits":[{"op":"replaceFirst","find":"old","text":"new"}]}; all edits apply or \
none, each sees the ones before it. Line edges: fs.write content is the whole file, final \
newline included; replaceRange text replaces whole lines (a final newline is added if \
missing); insertAfter/insertBefore text goes in as sent, beside the anchor text (with a \
line break between when the anchor ends or starts a line), and an anchor found twice is \
refused unless occurrence: N picks one; region and structure content keep exactly the \
blank lines they start or end with (structure content with none is spaced as the file is, \
the summary says so); structure content is re-indented to its place (send it at zero \
indent). Ops and their keys:"""

EXAMPLES = """\
WORKED EXAMPLES (notes/plan.txt holds the lines Alpha and Beta)
Read first:
OPERATOR_CMD
version: 1
id: read-1
action: fs.readSlice
path: notes/plan.txt
END_OPERATOR_CMD
-> ok: true, details hold "2: Beta"
Then edit:
OPERATOR_CMD
version: 1
id: edit-2
action: fs.applyEdits
path: notes/plan.txt
edits_json: {"version":1,"edits":[{"op":"insertAfter","anchor":"Beta","text":"\\nGamma"}]}
END_OPERATOR_CMD
-> ok: true, details hold "3: Gamma"
Verify with a NEW id:
OPERATOR_CMD
version: 1
id: read-3
action: fs.readSlice
path: notes/plan.txt
END_OPERATOR_CMD
-> ok: true, details hold "3: Gamma"
A used id is refused; give a correction a new id:
OPERATOR_CMD
version: 1
id: edit-2
action: fs.applyEdits
path: notes/plan.txt
edits_json: {"version":1,"edits":[{"op":"insertAfter","anchor":"Beta","text":"\\nDelta"}]}
END_OPERATOR_CMD
-> ok: false (ERR_DUPLICATE_ID)
A multi-line value sent inline is refused:
OPERATOR_CMD
version: 1
id: write-4
action: fs.write
path: notes/todo.txt
content: first
second
END_OPERATOR_CMD
-> ok: false (ERR_CONTENT_HAS_NEWLINES)
Correct it with a new id and content_json (content_b64: Zmlyc3QKc2Vjb25kCg== would do the same):
OPERATOR_CMD
version: 1
id: write-5
action: fs.write
path: notes/todo.txt
content_json: "first\\nsecond\\n"
END_OPERATOR_CMD
-> ok: true
An anchor not in the file fails, changing nothing; read again, then retry:
OPERATOR_CMD
version: 1
id: edit-6
action: fs.applyEdits
path: notes/plan.txt
edits_json: {"version":1,"edits":[{"op":"replaceFirst","find":"Delta","text":"Epsilon"}]}
END_OPERATOR_CMD
-> ok: false (ERR_ANCHOR_NOT_FOUND)
If the user rejects a command, ask them why:
OPERATOR_CMD
version: 1
id: test-7
action: run.command
command: python -m pytest -q
END_OPERATOR_CMD
-> if the user rejects it: ok: false (ERR_REJECTED_BY_USER)"""


RESULTS_READABLE = """\
Details follow a line details_lines: N as N lines: "| " + the line, "|" alone for an \
empty line, or "|\\" + the line escaped (\\\\, \\r, \\xNN a byte, \\uXXXX an \
invisible character) for a line with control or invisible characters; a last line \
"\\ No newline at end of details" means no final line break."""

RESULTS_BASE64 = """\
The details come as details_b64: base64 of UTF-8 text on one line; decode it."""
