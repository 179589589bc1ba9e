# ruff: noqa: E501  (example payload lines must stay whole: the rule they teach is "one line")
"""The written parts of the primer (primer.py puts them together with the tables).

Plain ASCII. No prose line starts or ends with a marker word. The examples run verbatim
in tests/core/protocol/test_primer.py against a workspace holding notes/plan.txt with
"Alpha\\nBeta\\n"; the line after each example block ("-> ...") is what the app answers.
"""

INTRO = """\
LLM OPERATOR PRIMER (commands use version: 1)

You are working with LLM Operator, a desktop app on my computer that reads and changes files \
in one folder (the workspace) for you. When you need a file operation, write command blocks \
as below, as plain text, then stop and wait. I paste your reply into the app: reads run at \
once, every write is shown to me as a diff and runs only if I approve it. I paste the results \
back to you. Start with a small read, e.g. fs.list with path: . The full reference \
(operator.getInterfaceSpec, or `llm-operator spec`) is needed only for details this primer \
leaves open. fs.outline of a folder is the cheapest map of a codebase. A context message from me (## Task, then files between === FILE: <path> === lines, \
one "| <n>: <line>" body line each, numbered as fs.readSlice numbers them, maybe in parts headed "LLM Operator context, part i \
of n") shows the files as they were: read again before editing later."""

RULES = """\
HARD RULES
1. A command block is a line OPERATOR_CMD, then key: value lines, then a line \
END_OPERATOR_CMD. Each marker stands alone on its own line. No empty lines, bullets, \
comments or prose inside a block. Keys are written exactly as listed (path, not Path).
2. Every block has version: 1, id: <new id>, action: <name>. fs.* actions need path: \
(relative to the workspace, / between folders, . is the root); other actions take no path. \
Never send a workspace field.
3. ASCII only inside blocks. Anything longer than one line, or not ASCII, goes in a *_json \
field (every *_b64 field has one): ONE line of JSON, a string for text ("one\\ntwo\\n"; escape \\n, \\t, \\", \
\\\\; \\u00e9 for non-ASCII is fine), the edits object itself for edits_json. *_b64 \
(base64 of UTF-8, one line) is the fallback. Never give two forms of one field. Plain \
content, old_text, new_text, target and query are single-line only.
4. Use a fresh id for EVERY command, also for verification reads, retries and corrections \
(read-1, edit-2, read-3 ...). A write id resent with identical content is not run again: \
you get its earlier result, marked as a repeat and saying when it ran; a repeated read id \
runs again on the file as it is now. The same id with different content is ERR_DUPLICATE_ID. A command the user undid is no longer a repeat.
5. Read before you edit (fs.readSlice, fs.search); never guess file contents. After an ok \
write, verify with a new read and quote the changed lines before you claim success.
6. Claim nothing until its result says ok: true. A command that got no result did not run: \
treat it as not executed; read the file again, then resend it with a new id.
7. Never write result blocks yourself; only the app does. Results arrive as OPERATOR_RESULT ... END_OPERATOR_RESULT with id, ok, summary and maybe details. {results} Long results come in parts headed "LLM Operator results, part i of n": wait for the last part.
8. Never start or end a prose line with a marker word. A code fence around blocks is harmless: put ```text \
on its own line before the first block and ``` on its own line after the last; never glue \
a fence to a marker. Do not escape underscores (no backslashes).
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
none, each sees the ones before it. Blank lines and final newlines: fs.write content is the \
whole file, final newline included; replaceRange text replaces whole lines (a final newline \
is added if missing); insertAfter/insertBefore text goes in exactly as sent, beside the \
anchor text (start it with \\n for a new line); region and structure content keep exactly \
the blank lines they start or end with (structure content with none is spaced like the \
file, and the summary says so). Ops and their keys:"""

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
A correction sent under a used id is refused; give it a new id:
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
An anchor that is not in the file fails and changes nothing; read again, then retry:
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
The details follow a line details_lines: N as N lines: "| " then the line exactly, "|" \
alone for an empty line, "|\\" then the line escaped (\\\\, \\r, \\xNN a byte, \\uXXXX an \
invisible character) when it holds control or invisible characters; a last line \
"\\ No newline at end of details" says the text does not end with a line break."""

RESULTS_BASE64 = """\
The details come as details_b64: base64 of UTF-8 text on one line; decode it."""
