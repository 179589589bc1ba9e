"""`llm-operator pack` numbers the lines of a file as reads and edits do: CRLF and a lone CR
(classic Mac, or one in a mixed file) each end one line, and no CR reaches the message."""

from __future__ import annotations

from pathlib import Path

from support.actions import cli


def test_pack_numbers_cr_and_mixed_files_as_reads_do(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "mac.txt").write_bytes(b"one\rtwo\rthree\r")
    (root / "mixed.txt").write_bytes(b"one\r\ntwo\rthree\n")
    done = cli("pack", "--workspace", root, "mac.txt", "mixed.txt")
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stdout
    for name in ("mac.txt", "mixed.txt"):
        body = done.stdout.split(f"=== FILE: {name} (3 lines) ===\n", 1)[1]
        assert body.startswith("| 1: one\n| 2: two\n| 3: three\n=== END FILE"), body[:80]
