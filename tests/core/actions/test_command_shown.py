"""No absolute path of the person's machine in what run.check, run.command and the primer
say ran: a program given by absolute path is shown by its base name."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.primer import primer_text
from llm_operator.core.store.checks import Check, add_check
from llm_operator.core.store.command_shown import shown_command
from support.fixtures import RunReply, cmd, reply

PY = sys.executable
BASE = Path(PY).name


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("/home/ann/.venv/bin/python -m pytest -q", "python -m pytest -q"),
        ("  /usr/bin/make  -j2", "make  -j2"),
        ("'/home/ann/my env/bin/py test' -k 'a  b'", "'py test' -k 'a  b'"),
        ("python -m pytest", "python -m pytest"),
        ("./run.sh /home/ann/x", "./run.sh /home/ann/x"),  # only the program is renamed
        ("/opt/x 'open", "x 'open"),  # the rest cannot be split: the program still is
        ("'/opt/x", "'/opt/x"),  # no first word to read: shown as it is
    ],
)
def test_a_program_given_by_absolute_path_is_shown_by_its_base_name(line: str, shown: str) -> None:
    assert shown_command(line) == shown


@pytest.fixture
def with_check(make_session: Callable[[], Session]) -> Callable[[Check], None]:
    def add(check: Check) -> None:
        session = make_session()
        assert session.state is not None
        assert session.state.store is not None
        add_check(session.state.store, check)

    return add


def test_a_check_summary_names_the_check_and_not_the_interpreter_path(
    workspace: Path, run_reply: RunReply, with_check: Callable[[Check], None]
) -> None:
    (workspace / "test_it.py").write_text("def test_ok():\n    assert True\n")
    with_check(Check("tests", f"{PY} -m pytest -q -p no:cacheprovider test_it.py"))
    [result] = run_reply(reply(cmd("c1", "run.check", name="tests")), None)
    assert result.ok, result.summary
    shown = f'Ran check "tests" ({BASE} -m pytest -q -p no:cacheprovider test_it.py) in .'
    assert result.summary.startswith(shown + ": exit 0 in ")
    assert str(Path(PY).parent) not in result.summary
    assert str(workspace) not in result.summary


def test_a_command_summary_shows_its_program_by_base_name(
    workspace: Path, run_reply: RunReply
) -> None:
    [result] = run_reply(reply(cmd("t1", "run.command", command=f"{PY} -c 'print(1)'")))
    assert result.ok, result.summary
    assert result.summary.startswith(f"Ran {BASE} -c 'print(1)' in .: exit 0 in ")
    assert str(Path(PY).parent) not in result.summary


def test_the_primer_checks_line_holds_no_absolute_path() -> None:
    text = primer_text(checks=[("tests", f"{PY} -m pytest -q")])
    [line] = [x for x in text.splitlines() if x.startswith("CHECKS ")]
    assert line == f"CHECKS (run.check name: <name>): tests ({BASE} -m pytest -q)"
