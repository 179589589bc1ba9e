"""Session memory: what is kept on disk for repeats, and what is deliberately not."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from llm_operator.core.outcome import Outcome
from llm_operator.core.store.memory import MAX_KEPT_DETAILS, SessionMemory


def test_large_details_are_not_kept_and_the_repeat_says_so(tmp_path: Path) -> None:
    memory = SessionMemory(tmp_path)
    memory.remember("big", "fp", Outcome(True, "Read big.txt", "x" * (MAX_KEPT_DETAILS + 1)))
    memory.remember("small", "fp", Outcome(True, "Read small.txt", "tiny"))
    memory.save()
    again = SessionMemory(tmp_path)
    big = again.lookup("big", 0)
    small = again.lookup("small", 0)
    assert big is not None
    assert small is not None
    assert big.outcome.details is None
    assert "details not kept" in big.outcome.summary
    assert small.outcome.details == "tiny"


def test_private_details_never_reach_the_disk(tmp_path: Path) -> None:
    memory = SessionMemory(tmp_path)
    memory.remember("env", "fp", Outcome(True, "Read .env", "TOKEN=hunter2"), private=True)
    memory.save()
    stored = b"".join(path.read_bytes() for path in tmp_path.glob("state.sqlite3*"))
    assert b"hunter2" not in stored
    assert b"Read .env" in stored


def test_an_approved_secret_read_repeated_later_asks_again_and_reads_afresh(
    workspace: Path,
    make_session: Callable[[], object],
    cmd: Callable[..., str],
    state_dir: Path,
) -> None:
    from llm_operator.core.plan.run import APPROVE
    from llm_operator.core.plan.session import Session

    (workspace / ".env").write_text("API_KEY=sk-live-123\n", encoding="utf-8")
    text = cmd("secret-1", "fs.read", path=".env")
    first = make_session()
    assert isinstance(first, Session)
    run = first.prepare(text)
    results = first.execute(run, {p.index: APPROVE for p in run.pending})
    assert results[0].ok
    assert "sk-live-123" in (results[0].outcome.details or "")
    assert not any(
        "sk-live-123" in path.read_text("utf-8", "replace")
        for path in state_dir.rglob("*")
        if path.is_file()
    )
    (workspace / ".env").write_text("API_KEY=sk-live-456\n", encoding="utf-8")
    second = make_session()
    assert isinstance(second, Session)
    repeat = second.prepare(text)
    assert not repeat.results  # a read runs again: with consent, as a first one does
    (pending,) = repeat.pending
    assert pending.reveal is not None
    again = second.execute(repeat, {pending.index: APPROVE})
    assert "[repeat: this id already ran at " in again[0].outcome.summary
    assert again[0].outcome.details == "API_KEY=sk-live-456\n"  # the file as it is now
    assert not any(
        "sk-live-456" in path.read_text("utf-8", "replace")
        for path in state_dir.rglob("*")
        if path.is_file()
    )


def test_failed_results_are_not_remembered(tmp_path: Path) -> None:
    memory = SessionMemory(tmp_path)
    memory.remember("bad", "fp", Outcome(False, "fs.read failed (ERR_FILE_NOT_FOUND): x"))
    assert memory.lookup("bad", 0) is None
