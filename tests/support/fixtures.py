"""Shared fixtures for the protocol core: a workspace, a state dir, and a reply runner.

Helpers are handed out as fixtures (``cmd``, ``raw_block``, ``parse_results``,
``run_reply``...) because importing from a conftest module is ambiguous once several
test folders have one. ``run_reply`` drives a pasted reply through ``Session`` exactly
as the window and ``llm-operator exec`` do (prepare, decide, execute), encodes the
results in both forms (readable and strict base64), parses each back and checks they
carry the same details, so every test also checks the wire format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.run import APPROVE, REJECT, Decision, Pending
from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.encoder import Result, ResultForm, encode_results
from llm_operator.core.protocol.readable_details import readable_details
from llm_operator.core.protocol.result_reader import read_results
from llm_operator.core.store.workspace import Workspace
from support.actions import snapshot

REPEAT_NOTE = "[repeat:"


@dataclass(frozen=True)
class Decoded:
    """One OPERATOR_RESULT block, parsed back from the wire text."""

    id: str
    ok: bool
    summary: str
    details: str | None

    @property
    def repeat(self) -> bool:
        return REPEAT_NOTE in self.summary

    def json(self) -> Any:
        """The details' JSON: all of them, or the first line of a write's details, which
        the lines of what landed follow."""
        assert self.details is not None, f"{self.id} has no details"
        try:
            return json.loads(self.details)
        except ValueError:
            return json.loads(self.details.split("\n", 1)[0])

    @property
    def landed(self) -> list[str]:
        """The lines of what landed, from ``# landed in`` on."""
        lines = (self.details or "").split("\n")
        first = next((n for n, line in enumerate(lines) if line.startswith("# landed in")), None)
        return [] if first is None else [line for line in lines[first:] if line]

    @property
    def code(self) -> str | None:
        """The ERR_ code named in parentheses in the summary, if any."""
        found = re.search(r"\((ERR_[A-Z0-9_]+)\)", self.summary)
        return found.group(1) if found else None


def parse_results(text: str, form: ResultForm | None = None) -> list[Decoded]:
    """Parse encoded results; fail unless ``text`` is exactly blocks joined by one blank line,
    every block with details in ``form`` (either form when None)."""
    out: list[Decoded] = []
    for block in read_results(text):
        if form is not None and block.form is not None:
            assert block.form is form, f"{block.id}: details in {block.form}, expected {form}"
        details = block.details
        text_of = None if details is None else details.decode("utf-8", "surrogateescape")
        out.append(Decoded(block.id, block.ok, block.summary, text_of))
    return out


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def parse_both_forms(results: list[Result]) -> list[Decoded]:
    """``results`` encoded in both forms and parsed back: the same ids, summaries, details,
    but for the details the readable form shows otherwise (a structure action's result
    JSON, shown as lines): those are the readable rendering of the strict ones, and the
    strict ones (the JSON a test reads) are returned."""
    readable = parse_results(encode_results(results, ResultForm.READABLE), ResultForm.READABLE)
    strict = parse_results(encode_results(results, ResultForm.BASE64), ResultForm.BASE64)
    out = []
    for result, one, two in zip(results, readable, strict, strict=True):
        if result.outcome.readable_as is not None:
            assert (one.id, one.ok, one.summary) == (two.id, two.ok, two.summary)
            assert one.details == (readable_details(result.outcome) or None), one.id
            out.append(two)
            continue
        out.append(one)
        if one.details is not None and not _is_utf8(one.details):
            continue  # bytes that are not UTF-8 travel only in the readable form
        assert one == two, f"{one.id}: the two result forms differ"
    return out


def cmd(cmd_id: str | None, action: str | None, *extra: str, **fields: object) -> str:
    """An OPERATOR_CMD block. ``fields`` become ``key: value`` lines (a trailing ``_`` is
    dropped, so ``from_=3`` gives ``from: 3``); ``extra`` lines are added verbatim."""
    lines = ["OPERATOR_CMD", "version: 1"]
    if cmd_id is not None:
        lines.append(f"id: {cmd_id}")
    if action is not None:
        lines.append(f"action: {action}")
    lines += [f"{key.rstrip('_')}: {value}" for key, value in fields.items()]
    lines += extra
    lines.append("END_OPERATOR_CMD")
    return "\n".join(lines)


def raw_block(*lines: str) -> str:
    """A block with exactly the given inner lines."""
    return "\n".join(["OPERATOR_CMD", *lines, "END_OPERATOR_CMD"])


def reply(*blocks: str) -> str:
    """A reply the way an LLM writes it: a little prose, then the blocks."""
    return "I will do that now.\n\n" + "\n\n".join(blocks) + "\n\nDone.\n"


Decide = bool | None | Mapping[str, bool]
RunReply = Callable[..., list[Decoded]]


def run_session(session: Session, text: str, approve: Decide = None) -> list[Decoded]:
    """Run ``text`` through ``session``. ``approve``: True/False for every pending
    command, None to leave them undecided (the session rejects), or {id: bool}."""
    run = session.prepare(text)

    def decide(pending_items: list[Pending]) -> dict[int, Decision]:
        decisions = {}
        for pending in pending_items:
            if isinstance(approve, Mapping):
                if pending.id in approve:
                    decisions[pending.index] = APPROVE if approve[pending.id] else REJECT
            elif approve is not None:
                decisions[pending.index] = APPROVE if approve else REJECT
        return decisions

    decisions = decide(run.pending)
    # Writes on secret-looking files are planned once let in; the same answer decides
    # their change.
    decisions |= decide(session.open_held(run, decisions))
    results = session.execute(run, decisions)
    answers = [result for result in results if not result.notice]
    notices = results[: len(results) - len(answers)]
    assert all(result.notice for result in notices), "undo notices come first, before any answer"
    assert len(answers) == len(run.items), "every scanned block must get exactly one result"
    return parse_both_forms(results)


@pytest.fixture(name="cmd")
def cmd_fixture() -> Callable[..., str]:
    return cmd


@pytest.fixture(name="raw_block")
def raw_block_fixture() -> Callable[..., str]:
    return raw_block


@pytest.fixture(name="reply")
def reply_fixture() -> Callable[..., str]:
    return reply


@pytest.fixture(name="parse_results")
def parse_results_fixture() -> Callable[[str], list[Decoded]]:
    return parse_results


@pytest.fixture(name="snapshot")
def snapshot_fixture() -> Callable[[Path], dict[str, bytes]]:
    return snapshot


@pytest.fixture(autouse=True)
def private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Settings (and the secret patterns the command line reads) come from tmp_path."""
    folder = tmp_path / "config"
    monkeypatch.setenv("LLM_OPERATOR_CONFIG_DIR", str(folder))
    return folder


@pytest.fixture(autouse=True)
def trash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every delete of every core test goes to a trash under tmp_path, never the user's."""
    from support.actions import redirect_trash

    return redirect_trash(tmp_path, monkeypatch)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A small project: a README, a source file and a nested folder."""
    root = tmp_path / "ws"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "README.md").write_text("# Demo\n\nA demo project.\n", encoding="utf-8")
    (root / "src" / "main.py").write_text(
        "import sys\n\n\ndef main():\n    print('hello')\n    return 0\n", encoding="utf-8"
    )
    (root / "src" / "pkg" / "util.py").write_text("VALUE = 42\n", encoding="utf-8")
    return root


@pytest.fixture
def state_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "state"
    folder.mkdir()
    return folder


@pytest.fixture
def make_session(workspace: Path, state_dir: Path) -> Callable[[], Session]:
    """A new Session on the shared workspace and state dir (as a new ``exec`` run is)."""

    def make() -> Session:
        return Session(Workspace(workspace), state_dir)

    return make


@pytest.fixture
def run_reply(make_session: Callable[[], Session]) -> RunReply:
    """Run one reply through a fresh Session (memory shared through the state dir)."""

    def run(text: str, approve: Decide = True) -> list[Decoded]:
        return run_session(make_session(), text, approve)

    return run


ExpectRefused = Callable[..., Decoded]


@pytest.fixture
def expect_refused(workspace: Path, run_reply: RunReply) -> ExpectRefused:
    """Run ``bad`` next to an approved, valid write and check that only ``bad`` failed.

    The refused command gets exactly one result: ``ok: false``, the id given, a summary
    ``Invalid OPERATOR_CMD (<code>): ...`` and the operator.error JSON as details. The
    valid write still ran, and nothing else in the workspace changed.
    """

    def check(bad: str, code: str, result_id: str, *, bad_first: bool = True) -> Decoded:
        good = cmd("independent-write", "fs.write", path="independent.txt", content="still ran")
        before = snapshot(workspace)
        blocks = (bad, good) if bad_first else (good, bad)
        results = run_reply(reply(*blocks), True)
        ids = [result.id for result in results]
        expected_ids = [result_id, "independent-write"]
        assert ids == (expected_ids if bad_first else expected_ids[::-1])
        refused = results[0] if bad_first else results[1]
        other = results[1] if bad_first else results[0]
        assert not refused.ok
        assert refused.summary.startswith(f"Invalid OPERATOR_CMD ({code}): "), refused.summary
        payload = refused.json()
        assert payload["message"] == refused.summary
        if result_id.startswith("error-"):
            assert "related_id" not in payload
        else:
            assert payload["related_id"] == result_id
        assert set(payload) <= {"message", "related_id"}
        assert other.ok, other.summary
        assert snapshot(workspace) == {**before, "independent.txt": b"still ran"}
        return refused

    return check


@pytest.fixture
def outline_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the structure engine really parsed for an outline, in order (a spy at
    ``engines.structure.outline_structures``: it still parses)."""
    import llm_operator.core.engines.structure as structure

    seen: list[str] = []
    real = structure.outline_structures

    def counting(
        data: bytes, path: str, depth: int = 2, symbols: bool = True, values: bool = False
    ) -> Any:
        seen.append(path)
        return real(data, path, depth, symbols, values)

    monkeypatch.setattr(structure, "outline_structures", counting)
    return seen
