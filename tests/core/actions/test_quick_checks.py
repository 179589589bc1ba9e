"""Simple read commands are checked without building the models, and that changes nothing.

A quick check (ActionSpec.quick) may only accept what the action's model accepts, with
the same values; whatever it does not take goes to the model, which words the error. Here
both are run on the same commands (generated, and chosen by hand) and compared through
the validator, and a real ``exec`` shows the models are not loaded for a simple read.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llm_operator.core import actions
from llm_operator.core.actions.base import ActionSpec
from llm_operator.core.protocol.scanner import CommandBlock, scan
from llm_operator.core.protocol.validator import Command, Invalid, validate
from support.examples import examples

QUICK = [spec.name for spec in actions.all_specs() if spec.quick is not None]
VALUES = [
    "", "0", "1", "007", "40", "120", "400", "401", "999999999", "1234567890", "-1", "+3",
    "1.0", "1e3", "1_0", "abc", "src/m0.py", ".", "a b", "x",
]  # fmt: skip
EXTRA_KEYS = ["line", "from", "count", "len", "q", "query_b64", "content", "bogus"]


def block_of(action: str, params: dict[str, str]) -> CommandBlock:
    lines = ["OPERATOR_CMD", "version: 1", "id: q1", f"action: {action}"]
    lines += [f"{key}: {value}" for key, value in params.items()]
    (item,) = scan("\n".join([*lines, "END_OPERATOR_CMD"])).items
    assert isinstance(item, CommandBlock)
    return item


@pytest.fixture
def without_quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """The action table as it would be with no quick checks (every command to its model)."""
    for name in QUICK:
        spec = actions.get_spec(name)
        monkeypatch.setitem(actions._loaded, name, dataclasses.replace(spec, quick=None))


def outcome(checked: Command | Invalid) -> object:
    """What the rest of the app sees of a validation: the refusal, or the field values."""
    if isinstance(checked, Invalid):
        return checked
    fields = checked.fields
    names = ["path", "start", "lines", "text"]
    values = {name: getattr(fields, name) for name in names if hasattr(fields, name)}
    texts = sorted(v for v in fields.model_dump().values() if isinstance(v, str))
    return values, texts


def both_ways(action: str, params: dict[str, str]) -> tuple[object, object]:
    block = block_of(action, params)
    quick = validate(block)
    spec = actions.get_spec(action)
    slow = dataclasses.replace(spec, quick=None)
    actions._loaded[action] = slow
    try:
        model = validate(block)
    finally:
        actions._loaded[action] = spec
    return outcome(quick), outcome(model)


def test_the_read_family_has_quick_checks() -> None:
    assert set(QUICK) == {"fs.list", "fs.read", "fs.readSlice", "fs.search", "fs.stat"}


@pytest.mark.parametrize("name", QUICK)
def test_a_quick_check_knows_every_key_of_its_model(name: str) -> None:
    spec = actions.get_spec(name)
    assert spec.quick is not None
    model_keys = {*spec.fields.model_fields, *getattr(spec.fields, "ALIASES", {})}
    assert spec.quick.keys == model_keys


@pytest.mark.parametrize(
    ("action", "params"),
    [
        ("fs.readSlice", {"path": "a.txt", "Start": "2"}),
        ("fs.search", {"path": "a.txt", "Query": "x"}),
        ("fs.read", {"Path": "a.txt", "path": "b.txt"}),
    ],
)
def test_key_case_errors_are_worded_alike(action: str, params: dict[str, str]) -> None:
    quick, model = both_ways(action, params)
    assert isinstance(quick, Invalid)
    assert quick == model


@pytest.mark.parametrize(
    ("action", "params"),
    [
        ("fs.read", {"path": "src/m0.py"}),
        ("fs.readSlice", {"path": "a.txt"}),
        ("fs.readSlice", {"path": "a.txt", "start": "7", "lines": "3"}),
        ("fs.readSlice", {"path": "a.txt", "from": "007", "len": "400"}),
        ("fs.search", {"path": "a.txt", "q": "needle"}),
        ("fs.stat", {"path": "."}),
        ("fs.list", {"path": "src"}),
    ],
)
def test_simple_commands_take_the_quick_path(action: str, params: dict[str, str]) -> None:
    spec = actions.get_spec(action)
    assert spec.quick is not None
    assert spec.quick.check(params) is not None
    quick, model = both_ways(action, params)
    assert quick == model


@pytest.mark.parametrize(
    ("action", "params"),
    [
        ("fs.readSlice", {"path": "a.txt", "start": "0"}),
        ("fs.readSlice", {"path": "a.txt", "lines": "401"}),
        ("fs.readSlice", {"path": "a.txt", "start": "x"}),
        ("fs.readSlice", {"path": "a.txt", "line": "2", "start": "3"}),
        ("fs.readSlice", {"path": "a.txt", "bogus": "1"}),
        ("fs.search", {"path": "a.txt", "query": ""}),
        ("fs.search", {"path": "a.txt", "query_b64": "bmVlZGxl"}),
        ("fs.search", {"path": "a.txt", "query": "a", "query_b64": "YQ=="}),
        ("fs.read", {"path": "a.txt", "start": "1"}),
    ],
)
def test_everything_else_goes_to_the_model(action: str, params: dict[str, str]) -> None:
    spec = actions.get_spec(action)
    assert spec.quick is not None
    assert spec.quick.check(params) is None
    quick, model = both_ways(action, params)
    assert quick == model


@settings(max_examples=examples(300), deadline=None)
@given(
    action=st.sampled_from(QUICK),
    params=st.dictionaries(
        st.sampled_from(["path", "start", "lines", "query", *EXTRA_KEYS]),
        st.sampled_from(VALUES),
        max_size=4,
    ),
)
def test_quick_and_model_agree_on_any_command(action: str, params: dict[str, str]) -> None:
    params = {"path": "a.txt", **params}
    quick, model = both_ways(action, params)
    assert quick == model


def test_a_spec_without_quick_is_unchanged(without_quick: None) -> None:
    checked = validate(block_of("fs.readSlice", {"path": "a.txt", "start": "2"}))
    assert isinstance(checked, Command)
    assert type(checked.fields).__name__ == "SliceFields"
    assert isinstance(actions.get_spec("fs.readSlice"), ActionSpec)


def exec_imports(workspace: Path, tmp_path: Path, block: str) -> tuple[str, bool]:
    """The reply ``exec`` printed, and whether it loaded the read models (and pydantic with
    them: a simple read loads neither)."""
    reply = tmp_path / "reply.txt"
    reply.write_text(block, encoding="utf-8")
    script = (
        "import sys\n"
        "from llm_operator import cli\n"
        "status = cli.main(sys.argv[1:])\n"
        "print('pydantic' in sys.modules, file=sys.stderr)\n"
        "print('llm_operator.core.actions.read_fields' in sys.modules, file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    argv = ["exec", "--workspace", str(workspace), "--state-dir", str(tmp_path / "s"), str(reply)]
    done = subprocess.run(
        [sys.executable, "-c", script, *argv], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    *_, pydantic, models = done.stderr.split()
    assert pydantic == models
    return done.stdout, models == "True"


def test_exec_of_a_simple_read_does_not_load_the_models(workspace: Path, tmp_path: Path) -> None:
    block = "OPERATOR_CMD\nversion: 1\nid: r1\naction: fs.readSlice\npath: src/main.py\n"
    out, imported = exec_imports(workspace, tmp_path, block + "lines: 2\nEND_OPERATOR_CMD\n")
    assert "summary: Read lines 1-2 of 6 from src/main.py" in out
    assert not imported


def test_exec_of_a_read_with_base64_uses_the_model(workspace: Path, tmp_path: Path) -> None:
    block = (
        "OPERATOR_CMD\nversion: 1\nid: s1\naction: fs.search\npath: src/main.py\n"
        "query_b64: cHJpbnQ=\nEND_OPERATOR_CMD\n"
    )
    out, imported = exec_imports(workspace, tmp_path, block)
    assert "summary: Found 1 matching line in src/main.py" in out
    assert imported
