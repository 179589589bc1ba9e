"""Byte fidelity of every edit through the session: BOM, CRLF, final newline, mixed line
breaks, permission bits; a file that is not UTF-8 is refused and left as it was."""

from __future__ import annotations

import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from support.actions import b64, edits_b64, expect_failure

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX modes")

BOM = b"\xef\xbb\xbf"
PATH = "src/calc.py"
BEFORE = "import os\n# OPERATOR_BEGIN body\nvalue = 1\n# OPERATOR_END body\nprint(value)\n"

# What each action makes of BEFORE, as LF text.
AFTER = {
    "fs.patch": "import os\n# OPERATOR_BEGIN body\nvalue = 2\nextra = 3\n"
    "# OPERATOR_END body\nprint(value)\n",
    "fs.applyEdits": "import os\n# OPERATOR_BEGIN body\nvalue = 2\nextra = 3\n"
    "# OPERATOR_END body\nprint(value)\n",
    "fs.write": "import os\n# OPERATOR_BEGIN body\nvalue = 2\nextra = 3\n"
    "# OPERATOR_END body\nprint(value)\n",
    "fs.replaceRegion": "import os\n# OPERATOR_BEGIN body\nvalue = 2\nextra = 3\n"
    "# OPERATOR_END body\nprint(value)\n",
    "fs.insertRegion": "import os\n# OPERATOR_BEGIN extra\nextra = 3\n# OPERATOR_END extra\n"
    "# OPERATOR_BEGIN body\nvalue = 1\n# OPERATOR_END body\nprint(value)\n",
    "fs.deleteRegion": "import os\n# OPERATOR_BEGIN body\n# OPERATOR_END body\nprint(value)\n",
}
ACTIONS = list(AFTER)


def fields_for(action: str, final_newline: bool = True) -> dict[str, str]:
    if action == "fs.patch":
        patch = (
            "--- a/src/calc.py\n+++ b/src/calc.py\n@@ -2,3 +2,4 @@\n # OPERATOR_BEGIN body\n"
            "-value = 1\n+value = 2\n+extra = 3\n # OPERATOR_END body\n"
        )
        return {"patch_b64": b64(patch)}
    if action == "fs.applyEdits":
        return {
            "edits_b64": edits_b64(
                {"op": "replaceFirst", "find": "value = 1", "text": "value = 2\nextra = 3"}
            )
        }
    if action == "fs.write":
        text = AFTER[action] if final_newline else AFTER[action][:-1]
        return {"content_b64": b64(text)}
    if action == "fs.replaceRegion":
        return {"marker_id": "body", "content_b64": b64("value = 2\nextra = 3\n")}
    if action == "fs.insertRegion":
        return {"marker_id": "extra", "anchor": "import os", "content_b64": b64("extra = 3")}
    return {"marker_id": "body"}


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


VARIANTS = {
    # name: (bytes of a text, whether the text keeps its final newline)
    "bom": (lambda t: BOM + t.encode(), True),
    "crlf": (lambda t: crlf(t).encode(), True),
    "no-final-newline": (lambda t: t[:-1].encode(), False),
    "bom-crlf-no-final-newline": (lambda t: BOM + crlf(t[:-1]).encode(), False),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("action", ACTIONS)
def test_encoding_style_survives(
    run_reply: Any, cmd: Any, workspace: Path, action: str, variant: str
) -> None:
    encode, final_newline = VARIANTS[variant]
    target = workspace / PATH
    target.write_bytes(encode(BEFORE))
    (result,) = run_reply(cmd("c1", action, path=PATH, **fields_for(action, final_newline)))
    assert result.ok, result.summary
    assert target.read_bytes() == encode(AFTER[action])


@pytest.mark.parametrize("action", ACTIONS)
def test_mixed_line_breaks_keep_untouched_lines(
    run_reply: Any, cmd: Any, workspace: Path, action: str
) -> None:
    target = workspace / PATH
    lines = BEFORE.splitlines(keepends=True)
    mixed = [
        lines[0].replace("\n", "\r\n"),
        lines[1],
        lines[2].replace("\n", "\r\n"),
        lines[3].replace("\n", "\r\n"),
        lines[4],
    ]
    target.write_bytes("".join(mixed).encode())
    (result,) = run_reply(cmd("c1", action, path=PATH, **fields_for(action)))
    assert result.ok, result.summary
    after = target.read_bytes()
    assert after.replace(b"\r\n", b"\n") == AFTER[action].encode()
    # Every line the action did not touch keeps its own break.
    assert after.startswith(b"import os\r\n")
    assert b"# OPERATOR_BEGIN body\n" in after
    assert after.endswith(b"# OPERATOR_END body\r\nprint(value)\n")
    assert b"\r\r" not in after


@pytest.mark.parametrize("mode", [0o755, 0o600])
@pytest.mark.parametrize("action", ACTIONS)
def test_permission_bits_survive(
    run_reply: Any, cmd: Any, workspace: Path, action: str, mode: int
) -> None:
    target = workspace / PATH
    target.write_bytes(BEFORE.encode())
    target.chmod(mode)
    (result,) = run_reply(cmd("c1", action, path=PATH, **fields_for(action)))
    assert result.ok, result.summary
    assert target.read_bytes() == AFTER[action].encode()
    assert stat.S_IMODE(target.stat().st_mode) == mode


LATIN1 = "import os\n# caf\xe9\n# OPERATOR_BEGIN body\nvalue = 1\n# OPERATOR_END body\n".encode(
    "latin-1"
)


@pytest.mark.parametrize("action", [a for a in ACTIONS if a != "fs.write"])
def test_latin1_file_is_refused_and_left_byte_identical(
    run_reply: Any, cmd: Any, workspace: Path, action: str
) -> None:
    (workspace / PATH).write_bytes(LATIN1)
    fields = fields_for(action)
    if action == "fs.patch":
        fields = {"patch_b64": b64("@@ -4 +4 @@\n-value = 1\n+value = 2\n")}
    result = expect_failure(
        run_reply,
        workspace,
        cmd("c1", action, path=PATH, **fields),
        "ERR_ENCODING_ERROR",
        "c1",
        path=PATH,
    )
    assert "0xe9" in result.summary


def test_write_replaces_a_latin1_file_whole_with_the_utf8_given(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    # fs.write does not edit the old text, it replaces it: nothing of it has to be decoded.
    (workspace / PATH).write_bytes(LATIN1)
    (workspace / PATH).chmod(0o640)
    (result,) = run_reply(cmd("c1", "fs.write", path=PATH, content_b64=b64("caf\u00e9 = 1\n")))
    assert result.ok, result.summary
    assert (workspace / PATH).read_bytes() == "caf\u00e9 = 1\n".encode()
    assert stat.S_IMODE((workspace / PATH).stat().st_mode) == 0o640
