"""A file line made to attack whoever prints it (a clipboard-rewriting OSC 52 sequence, a
bell, a carriage return, a bidi override, a zero-width space), and replies whose failures
would quote it: shared by the tests that check no raw byte of it is printed or copied."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

HOSTILE = "x = 'be\x1b]52;c;aGVsbG8=\x07ta\r \u202eevil\u200b'"
FILES = {
    "f.txt": f"alpha\n{HOSTILE}\ngamma\n",
    "m.py": f"class A:  # {HOSTILE}\n    y = 1\n",
}
PATCH = "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n"
EDITS = {"version": 1, "edits": [{"op": "replaceFirst", "find": "x = 'bet", "text": "y"}]}
# Each command fails and would quote the hostile line: (id, action, fields).
COMMANDS = (
    ("p1", "fs.patch", {"path": "f.txt", "patch_json": json.dumps(PATCH)}),
    ("e1", "fs.applyEdits", {"path": "f.txt", "edits_json": json.dumps(EDITS)}),
    (
        "s1",
        "fs.replaceTextInStructure",
        {"path": "m.py", "target": "class A:", "old_text": "nothere", "new_text": "z"},
    ),
)


def write_files(root: Path) -> None:
    for name, text in FILES.items():
        (root / name).write_text(text, newline="")


def reply() -> str:
    blocks = []
    for command_id, action, fields in COMMANDS:
        lines = ["OPERATOR_CMD", "version: 1", f"id: {command_id}", f"action: {action}"]
        lines += [f"{key}: {value}" for key, value in fields.items()]
        blocks.append("\n".join([*lines, "END_OPERATOR_CMD"]))
    return "\n\n".join(blocks) + "\n"


def raw_characters(text: str) -> list[str]:
    """The characters of ``text`` a screen would not show as themselves (line breaks apart)."""
    return [
        f"U+{ord(char):04X}"
        for char in text
        if char != "\n" and unicodedata.category(char) in {"Cc", "Cf", "Zl", "Zp", "Cs"}
    ]
