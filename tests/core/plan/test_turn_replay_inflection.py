"""A real task with a real test suite, replayed (tests/data/turns/inflection_options).

A chat model with no tools added options to two functions of the inflection library and
fixed a singularize bug test first, over 13 replies, running the project's own pytest
suite through ``run.check`` five times (the fourth fails: the new test before the fix).
Every reply runs again here through a fresh Session on a copy of the original files, with
the same check (a real pytest subprocess), and what goes back to the chat must be what the
app sent then, but for times and the interpreter's name. The kept results were updated
where the app's answers changed on purpose since (tests/data/turns/inflection_options/
README.md, "Kept results"). The files must end as the model
left them (final.diff).
"""

from __future__ import annotations

import difflib
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from llm_operator.core.plan.run import APPROVE
from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.encoder import ResultForm, encode_results
from llm_operator.core.protocol.result_reader import read_results
from llm_operator.core.store.checks import Check, add_check
from llm_operator.core.store.workspace import Workspace
from support.paths import DATA

TURNS = DATA / "turns" / "inflection_options"
# The workspace's test module is kept as .txt so this suite does not collect it.
STORED = {"test_inflection.py.txt": "test_inflection.py"}
RECORDED_PYTHON = "/work/main/.venv/bin/python"
EDITED = ("inflection/__init__.py", "test_inflection.py")
# The one command that fails: the check run on the new test before the fix.
FAILS = {"check-28": "run.check failed (ERR_EXIT_STATUS)"}
TIMES = (
    (re.compile(r"exit (\d+) in [0-9.]+ s"), r"exit \1 in <t> s"),
    (re.compile(r"^\| # time: [0-9.]+ s$", re.MULTILINE), "| # time: <t> s"),
    (re.compile(r" passed in [0-9.]+s$", re.MULTILINE), " passed in <t>s"),
)


def copy_workspace(root: Path) -> None:
    source = TURNS / "workspace"
    for found in sorted(source.rglob("*")):
        if found.is_file():
            rel = found.relative_to(source).as_posix()
            target = root / STORED.get(rel, rel)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(found, target)


def masked(text: str, python: str) -> str:
    # A check's summary names its program by base name only (no absolute path in the chat).
    text = text.replace(f"({Path(python).name} -m pytest -q)", "(<python> -m pytest -q)")
    text = text.replace(python, "<python>")
    for pattern, replacement in TIMES:
        text = pattern.sub(replacement, text)
    return text


def turns() -> list[Path]:
    return sorted(TURNS.glob("turn-*.txt"), key=lambda p: int(p.stem.split("-")[1]))


@pytest.mark.slow
def test_the_turns_replay_with_the_real_check_and_send_what_was_sent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The check inherits the environment: no bytecode files to report as changed, and pytest's
    # progress lines as wide as in the recorded run (its output went to a pipe).
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("COLUMNS", "80")
    # pytest stops cutting its summary lines to the width when it sees a CI runner.
    # Nor may the caller's options or colours reach it.
    for name in ("CI", "BUILD_NUMBER", "PYTEST_ADDOPTS", "PY_COLORS", "FORCE_COLOR", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    # The suite's own plugins (Qt, xdist, hypothesis) print nothing under -q; not loading
    # them in the check's pytest saves a second of CPU per run.
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    root, state = tmp_path / "ws", tmp_path / "state"
    root.mkdir()
    copy_workspace(root)
    python = shlex.quote(sys.executable)
    first = Session(Workspace(root), state)
    assert first.state is not None
    assert first.state.store is not None
    add_check(first.state.store, Check("tests", f"{python} -m pytest -q"))

    sent: list[str] = []
    pasted = 0
    checks = 0
    failures: dict[str, str] = {}
    for number, turn in enumerate(turns(), 1):
        text = turn.read_text("utf-8")
        pasted += len(text)
        session = Session(Workspace(root), state)  # each paste is a new exec run
        prepared = session.prepare(text)
        results = session.execute(prepared, {p.index: APPROVE for p in prepared.pending})
        failures |= {r.id: r.outcome.summary.split(":")[0] for r in results if not r.ok}
        kept = TURNS / f"results-{number}.txt"
        if not results:  # the closing summary: prose only, nothing to send back
            assert not kept.exists()
            continue
        out = encode_results(results, ResultForm.READABLE) + "\n"
        sent.append(out)
        assert masked(out, sys.executable) == masked(kept.read_text("utf-8"), RECORDED_PYTHON)
        checks += sum(r.id.startswith("check-") for r in read_results(out))

    assert failures == FAILS
    assert checks == 5
    red = next(r for r in read_results(sent[-2]) if r.id == "check-28")
    assert red.details is not None
    assert "E       AssertionError: assert 'reserve' == 'reserf'" in red.details.decode()
    assert "2 failed, 485 passed in " in red.details.decode()
    last = [r for r in read_results(sent[-1]) if r.id.startswith("check-")][-1]
    assert last.ok
    assert last.details is not None
    details = last.details.decode("utf-8")
    assert details.splitlines()[0] == "# exit: 0"
    assert re.search(r"^487 passed in ", details, re.MULTILINE)

    made = []
    for rel in EDITED:
        stored = next((k for k, v in STORED.items() if v == rel), rel)
        before = (TURNS / "workspace" / stored).read_text("utf-8").splitlines(keepends=True)
        after = (root / rel).read_text("utf-8").splitlines(keepends=True)
        made += difflib.unified_diff(before, after, f"a/{rel}", f"b/{rel}")
    assert "".join(made) == (TURNS / "final.diff").read_text("utf-8")
    for rel in ("LICENSE", "tox.ini", "inflection/py.typed"):
        assert (root / rel).read_bytes() == (TURNS / "workspace" / rel).read_bytes()

    back = sum(len(text) for text in sent)
    with capsys.disabled():
        print(
            f"\nturn replay (inflection, {len(turns())} replies, {checks} checks): "
            f"{pasted} characters pasted in, {back} sent back"
        )
