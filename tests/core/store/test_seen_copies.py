"""The note about files changed outside the app: names, compact diffs from the copies the
app kept, never a secret-looking file's bytes, never a byte from outside the workspace,
and a bounded size."""

from __future__ import annotations

import os
from pathlib import Path

from llm_operator.core.store.seen_copies import MAX_NOTE_CHARS, SeenCopies, changed_note
from llm_operator.core.store.workspace import Workspace


def test_the_note_shows_what_changed_and_tells_the_llm_to_read_again(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    body = "".join(f"line {n}\n" for n in range(50))
    (root / "a.txt").write_text(body)
    (root / ".env").write_text("API_KEY=old-SECRET-1\n")
    (root / "gone.txt").write_text("bye\n")
    (root / "untracked.txt").write_text("x\n")
    copies = SeenCopies(Workspace(root))
    copies.remember(["a.txt", ".env", "gone.txt"])
    assert copies.earlier(".env") is None  # never a copy of a secret-looking file
    (root / "a.txt").write_text(body.replace("line 20\n", "line twenty\n"))
    (root / ".env").write_text("API_KEY=new-SECRET-2\n")
    (root / "gone.txt").unlink()
    (root / "untracked.txt").write_text("y\n")
    note = changed_note(copies, [".env", "a.txt", "gone.txt", "untracked.txt"])
    assert note.startswith("Note from LLM Operator: 4 files changed outside the app")
    assert "read each one again before you edit them" in note
    assert "- a.txt: changed; what changed since you saw it:" in note
    assert "    --- a.txt (as you last saw it)" in note
    assert "    -line 20\n    +line twenty" in note
    assert "line 18" not in note  # compact: one line of context
    assert "- .env: changed (secret-looking: its content is not shown here)" in note
    assert "SECRET" not in note
    assert "- gone.txt: deleted, or no longer a readable file" in note
    assert "- untracked.txt: changed (no earlier copy to compare)" in note


def test_names_are_shown_and_nothing_outside_the_workspace_is_read(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("PRIVATE outside bytes\n")
    (root / "link.txt").write_text("inside\n")
    (root / "evil\u202etxt.sh").write_text("one\n")
    copies = SeenCopies(Workspace(root))
    copies.remember(["link.txt", "evil\u202etxt.sh"])
    (root / "link.txt").unlink()
    os.symlink(outside, root / "link.txt")
    (root / "evil\u202etxt.sh").write_text("two\u200b\n")
    note = changed_note(copies, ["link.txt", "evil\u202etxt.sh"])
    assert "PRIVATE" not in note
    assert "- link.txt: deleted, or no longer a readable file" in note
    assert "evil<U+202E>txt.sh" in note
    assert "+two<U+200B>" in note
    assert "\u202e" not in note
    assert "\u200b" not in note


def test_the_note_has_a_bounded_size_and_names_every_file_before_any_diff(
    tmp_path: Path,
) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    names = [f"file{n:03}.txt" for n in range(100)]
    for name in names:
        (root / name).write_text("".join(f"old {n}\n" for n in range(200)))
    copies = SeenCopies(Workspace(root))
    copies.remember(names)
    for name in names:
        (root / name).write_text("".join(f"new {n}\n" for n in range(200)))
    note = changed_note(copies, names)
    assert len(note) <= MAX_NOTE_CHARS
    assert "- file000.txt: changed; what changed since you saw it:" in note
    assert "more diff lines not shown" in note
    assert "changed (no room for its diff)" in note
    assert all(f"- {name}: changed" in note for name in names)
    for count in (150, 1200):  # more names than the note holds: counted, not cut mid-line
        note = changed_note(copies, [f"f{n:04}.txt" for n in range(count)])
        assert len(note) <= MAX_NOTE_CHARS
        if count == 1200:
            assert note.split("\n")[-1].startswith("... and ")
            assert note.split("\n")[-1].endswith("more files, not listed: the note is full")


def test_a_file_of_repeated_lines_changed_outside_gets_its_note(tmp_path: Path) -> None:
    # 60,000 lines cycling through 100 values, then reordered: difflib's matching of such
    # lines took minutes. The note uses the review's bounded diff: it comes at once, and
    # a line added among them shows as that line.
    root = tmp_path / "ws"
    root.mkdir()
    lines = [f"L{n % 100:02d}\n" for n in range(60_000)]
    (root / "data.txt").write_text("".join(lines))
    (root / "log.txt").write_text("".join(lines))
    copies = SeenCopies(Workspace(root))
    copies.remember(["data.txt", "log.txt"])
    (root / "data.txt").write_text("".join(f"L{n * 7 % 100:02d}\n" for n in range(60_000)))
    (root / "log.txt").write_text("".join(lines[:30_000]) + "added\n" + "".join(lines[30_000:]))
    note = changed_note(copies, ["data.txt", "log.txt"])
    assert "- data.txt: changed; what changed since you saw it:" in note
    assert note.endswith(
        "- log.txt: changed; what changed since you saw it:\n"
        "    --- log.txt (as you last saw it)\n"
        "    +++ log.txt (now)\n"
        "    @@ -30000,2 +30000,3 @@\n"
        "     L99\n"
        "    +added\n"
        "     L00"
    )
