"""What a structure edit cannot keep is said in its plan, before approval.

Real files (tests/data/structure_real, sources in its README): a method of Flask's
views.py whose docstring keeps its bytes while the method moves out of its class, and a
method of Rack's multipart generator whose heredoc is written flush left.
"""

from __future__ import annotations

import base64
import shutil
from pathlib import Path
from typing import Any

from llm_operator.core.plan.preview import describe_pending
from llm_operator.core.plan.run import REJECT

REAL = Path(__file__).resolve().parents[2] / "data" / "structure_real"
KEEP = "line(s) inside multi-line string literals keep their indentation"


def _prepare(make_session: Any, cmd: Any, workspace: Path, sample: str, **fields: str) -> Any:
    name = Path(sample).name
    shutil.copyfile(REAL / sample, workspace / name)
    session = make_session()
    run = session.prepare(cmd("m1", "fs.moveStructure", path=name, **fields))
    return session, run


def test_a_moved_docstring_is_named_before_approval(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    sample = "python/flask-flask-views.py"
    session, run = _prepare(
        make_session, cmd, workspace, sample, symbol="View/dispatch_request", position="end"
    )
    (pending,) = run.pending
    assert pending.plan is not None
    (note,) = pending.plan.notes
    assert note.startswith(f"3 {KEEP} (4 spaces base)"), note
    shown = describe_pending(pending)
    assert f"note: 3 {KEEP}" in shown
    # The review reads the note after the diff it is about.
    assert shown.index("+def dispatch_request(self)") < shown.index("note: ")
    (result,) = session.execute(run, {pending.index: REJECT})
    assert not result.outcome.ok
    assert (workspace / "flask-flask-views.py").read_bytes() == (REAL / sample).read_bytes()


def test_a_flush_left_heredoc_stays_at_column_0_and_its_body_is_named(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    sample = "ruby/rack-multipart-generator.rb"
    levels = "\n".join(
        ["module Rack", "module Multipart", "class Generator", "def content_for_other(file, name)"]
    )
    session, run = _prepare(
        make_session, cmd, workspace, sample, target_b64=_b64(levels), position="end"
    )
    (pending,) = run.pending
    (change,) = pending.changes
    after = change.after.decode("utf-8")
    # The method leaves its class for the file's end: its code moves to column 0 and the
    # heredoc (opened at column 0 on purpose) stays there, its body byte for byte.
    assert after.endswith(
        "end\n\ndef content_for_other(file, name)\n<<-EOF\n--#{MULTIPART_BOUNDARY}\\r\n"
        'content-disposition: form-data; name="#{name}"\\r\n\\r\n#{file}\\r\nEOF\nend\n'
    ), after[-300:]
    (note,) = pending.plan.notes
    assert note.startswith(f"5 {KEEP} (6 spaces base) while the code around them moves to 0")
    assert f"note: 5 {KEEP}" in describe_pending(pending)
    (result,) = session.execute(run, {pending.index: REJECT})
    assert not result.outcome.ok
    assert (workspace / "rack-multipart-generator.rb").read_bytes() == (REAL / sample).read_bytes()


def test_an_edit_that_keeps_everything_carries_no_note(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    sample = "ruby/rack-multipart-generator.rb"
    levels = "\n".join(["module Rack", "module Multipart", "class Generator"])
    _, run = _prepare(
        make_session,
        cmd,
        workspace,
        sample,
        target_b64=_b64(levels + "\ndef content_for_other(file, name)"),
        position="start",
        dest_target_b64=_b64(levels),
    )
    (pending,) = run.pending
    assert pending.plan.notes == ()
    assert "note:" not in describe_pending(pending)


def _b64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8")).decode("ascii")
