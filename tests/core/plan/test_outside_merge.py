"""A file changed on disk while its review is open: merged when the change is apart from
the edit and the merged change was shown, refused (with the lines named) otherwise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from llm_operator.core.plan.outside_merge import rebase_pending
from llm_operator.core.plan.run import Decision
from llm_operator.core.plan.session import Session

LINES = "".join(f"line {n}\n" for n in range(1, 21))


def edit(cmd: Any, cmd_id: str, find: str, text: str, path: str = "notes.txt") -> str:
    return cmd(cmd_id, "fs.applyEdits", path=path, edits_json=_edits(find, text))


def _edits(find: str, text: str) -> str:
    import json

    return json.dumps({"version": 1, "edits": [{"op": "replaceFirst", "find": find, "text": text}]})


def _prepared(make_session: Any, text: str) -> tuple[Session, Any]:
    session = make_session()
    run = session.prepare(text)
    assert run.pending, run.results
    return session, run


def _approve_merged(session: Session, run: Any) -> dict[int, Decision]:
    """What the review does: merge every pending command's changed files and approve the
    merged changes it showed."""
    found = rebase_pending(session.workspace, run.pending)
    decisions = {}
    for item in run.pending:
        shown = tuple(r.shown for r in found.get(item.index, ()) if r.shown is not None)
        decisions[item.index] = Decision(True, merged=shown)
    return decisions


def test_an_edit_apart_from_the_outside_change_lands_merged_and_undo_gives_it_back(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    target = workspace / "notes.txt"
    target.write_text(LINES, encoding="utf-8")
    session, run = _prepared(make_session, edit(cmd, "e1", "line 3\n", "line three\n"))
    outside = LINES.replace("line 5\n", "line 5 (edited outside)\n")
    target.write_text(outside, encoding="utf-8")

    found = rebase_pending(session.workspace, run.pending)
    (rebased,) = found[run.pending[0].index]
    assert rebased.change is not None
    assert rebased.preview is not None
    assert "+line three" in rebased.preview.diff
    assert "-line 3\n" in rebased.preview.diff
    assert rebased.change.before == outside.encode()  # the diff is against the file now
    assert "line 5 of the file now" in rebased.describe()
    assert " line 4\n line 5 (edited outside)\n" in rebased.preview.diff

    (result,) = session.execute(run, _approve_merged(session, run))
    assert result.ok, result.outcome.summary
    assert "merged" in result.outcome.summary
    # The run's history shows what landed: the merged change, not the one first planned.
    (item,) = [i for i in run.items if i.id == "e1"]
    assert item.pending is not None
    assert [p.diff for p in item.pending.previews] == [rebased.preview.diff]
    merged = outside.replace("line 3\n", "line three\n")
    assert target.read_text(encoding="utf-8") == merged

    make_session().undo_last()
    assert target.read_text(encoding="utf-8") == outside  # the outside edit, not the base


def test_without_the_merged_change_shown_the_edit_is_refused_naming_the_lines(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    target = workspace / "notes.txt"
    target.write_text(LINES, encoding="utf-8")
    session, run = _prepared(make_session, edit(cmd, "e1", "line 3\n", "line three\n"))
    outside = LINES.replace("line 15\n", "line 15 (edited outside)\n")
    target.write_text(outside, encoding="utf-8")
    (result,) = session.execute(run, {run.pending[0].index: Decision(True)})
    assert not result.ok
    summary = result.outcome.summary
    assert "ERR_STALE_FILE" in summary
    assert "line 15 of the file now" in summary
    assert "none of it overlaps this edit" in summary
    assert target.read_text(encoding="utf-8") == outside


def test_an_overlapping_outside_change_is_refused_with_its_lines(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    target = workspace / "notes.txt"
    target.write_text(LINES, encoding="utf-8")
    session, run = _prepared(make_session, edit(cmd, "e1", "line 3\n", "line three\n"))
    outside = LINES.replace("line 3\n", "line 3 (edited outside)\n")
    target.write_text(outside, encoding="utf-8")
    found = rebase_pending(session.workspace, run.pending)
    (rebased,) = found[run.pending[0].index]
    assert rebased.change is None
    assert rebased.shown is None
    assert "line 3 of the file now overlaps" in rebased.describe()
    (result,) = session.execute(run, _approve_merged(session, run))
    assert not result.ok
    assert "overlaps this edit" in result.outcome.summary
    assert "line 3 of the file now" in result.outcome.summary
    assert target.read_text(encoding="utf-8") == outside


def test_a_change_after_the_merged_change_was_shown_still_refuses(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    target = workspace / "notes.txt"
    target.write_text(LINES, encoding="utf-8")
    session, run = _prepared(make_session, edit(cmd, "e1", "line 3\n", "line three\n"))
    target.write_text(LINES.replace("line 15\n", "line 15 (1)\n"), encoding="utf-8")
    decisions = _approve_merged(session, run)
    later = LINES.replace("line 15\n", "line 15 (2)\n")
    target.write_text(later, encoding="utf-8")
    (result,) = session.execute(run, decisions)
    assert not result.ok
    assert "again after its merged change was shown" in result.outcome.summary
    assert target.read_text(encoding="utf-8") == later


def test_two_edits_of_one_file_both_land_merged(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    """The day's case: two edits of one file, the file changed elsewhere meanwhile."""
    target = workspace / "notes.txt"
    target.write_text(LINES, encoding="utf-8")
    text = (
        edit(cmd, "e1", "line 3\n", "line three\n")
        + "\n"
        + edit(cmd, "e2", "line 7\n", "line seven\n")
    )
    session, run = _prepared(make_session, text)
    assert len(run.pending) == 2
    outside = LINES.replace("line 18\n", "line 18 (outside)\n")
    target.write_text(outside, encoding="utf-8")
    results = session.execute(run, _approve_merged(session, run))
    assert all(r.ok for r in results), [r.outcome.summary for r in results]
    want = outside.replace("line 3\n", "line three\n").replace("line 7\n", "line seven\n")
    assert target.read_text(encoding="utf-8") == want


def test_crlf_and_bom_survive_a_merge(make_session: Any, cmd: Any, workspace: Path) -> None:
    target = workspace / "notes.txt"
    data = b"\xef\xbb\xbf" + LINES.replace("\n", "\r\n").encode()
    target.write_bytes(data)
    session, run = _prepared(make_session, edit(cmd, "e1", "line 3\n", "line three\n"))
    outside = data.replace(b"line 12\r\n", b"line 12 changed\r\n")
    target.write_bytes(outside)
    (result,) = session.execute(run, _approve_merged(session, run))
    assert result.ok, result.outcome.summary
    assert target.read_bytes() == outside.replace(b"line 3\r\n", b"line three\r\n")


def test_a_secret_looking_file_is_never_compared(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    target = workspace / ".env"
    target.write_text("A=1\nB=2\nC=3\nD=4\nE=5\n", encoding="utf-8")
    session = make_session()
    run = session.prepare(edit(cmd, "e1", "A=1\n", "A=9\n", path=".env"))
    (held,) = run.pending
    shown = session.open_held(run, {held.index: Decision(True)})
    assert shown
    target.write_text("A=1\nB=2\nC=3\nD=4\nE=SECRET-VALUE\n", encoding="utf-8")
    found = rebase_pending(session.workspace, shown)
    (rebased,) = found[shown[0].index]
    assert rebased.change is None
    assert rebased.preview is None
    assert "secret-looking" in rebased.describe()
    (result,) = [r for r in session.execute(run, {held.index: Decision(True)}) if r.id == "e1"]
    assert not result.ok
    assert "ERR_STALE_FILE" in result.outcome.summary
    assert "line 5" not in result.outcome.summary
    assert "SECRET" not in (result.outcome.summary + (result.outcome.details or ""))


def test_a_link_named_like_a_secret_is_never_compared_either(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    """An edit through ``.env`` -> config.txt changes config.txt, a plain name: the command
    named a secret-looking file, so neither the review nor the refusal compares it."""
    target = workspace / "config.txt"
    target.write_text("A=1\nB=2\nC=3\nD=4\nE=5\n", encoding="utf-8")
    (workspace / ".env").symlink_to("config.txt")
    session = make_session()
    run = session.prepare(edit(cmd, "e1", "A=1\n", "A=9\n", path=".env"))
    (held,) = run.pending
    shown = session.open_held(run, {held.index: Decision(True)})
    assert [c.path for p in shown for c in p.changes] == ["config.txt"]
    target.write_text("A=1\nB=2\nC=3\nD=4\nE=SECRET-VALUE\n", encoding="utf-8")
    (rebased,) = rebase_pending(session.workspace, shown)[shown[0].index]
    assert rebased.change is None
    assert rebased.preview is None
    (result,) = [r for r in session.execute(run, {shown[0].index: Decision(True)}) if r.id == "e1"]
    assert not result.ok
    assert "ERR_STALE_FILE" in result.outcome.summary
    assert "line 5" not in result.outcome.summary
    assert "Changed outside" not in result.outcome.summary


def test_deletes_of_folders_and_links_are_not_flagged(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    """A folder or a link has no bytes to compare: nothing is flagged for them (their own
    check before the delete still refuses a change); a file to delete that changed is."""
    (workspace / "old").mkdir()
    (workspace / "old" / "x.txt").write_text("x\n", encoding="utf-8")
    (workspace / "link").symlink_to("README.md")
    (workspace / "gone.txt").write_text("a\n", encoding="utf-8")
    text = "\n".join(
        cmd(f"d{n}", "fs.delete", path=path) for n, path in enumerate(["old", "link", "gone.txt"])
    )
    session, run = _prepared(make_session, text)
    assert rebase_pending(session.workspace, run.pending) == {}
    (workspace / "gone.txt").write_text("a\nb\n", encoding="utf-8")
    found = rebase_pending(session.workspace, run.pending)
    ((rebased,),) = found.values()
    assert rebased.path == "gone.txt"
    assert rebased.problem == "a delete is never merged"


def test_a_link_put_in_the_files_place_is_not_followed(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    """notes.txt swapped for a link to another file while the review is open: the
    comparison does not read through it (the review would show a merge into a file the
    write never reaches), and the write is refused. A link to a secret-looking file is
    never read either (it counts as one)."""
    target = workspace / "notes.txt"
    target.write_text(LINES, encoding="utf-8")
    session, run = _prepared(make_session, edit(cmd, "e1", "line 3\n", "line three\n"))
    (workspace / "other.txt").write_text(LINES.replace("line 9", "line nine"))
    target.unlink()
    target.symlink_to("other.txt")
    (rebased,) = rebase_pending(session.workspace, run.pending)[run.pending[0].index]
    assert rebased.change is None
    assert rebased.preview is None
    assert "gone" in rebased.problem
    (result,) = session.execute(run, _approve_merged(session, run))
    assert not result.ok
    assert "ERR_STALE_FILE" in result.outcome.summary
    assert (workspace / "other.txt").read_text() == LINES.replace("line 9", "line nine")
    target.unlink()
    (workspace / ".env").write_text(LINES.replace("line 9", "TOKEN=SECRET-VALUE"))
    target.symlink_to(".env")
    (rebased,) = rebase_pending(session.workspace, run.pending)[run.pending[0].index]
    assert rebased.preview is None
    assert "SECRET" not in rebased.describe()
