"""The dataclass methods compiled once and kept (``llm_operator.method_cache``): a class made
with the table behaves exactly as one made without it, a second run compiles nothing, and
a table that cannot be trusted or written changes nothing."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from llm_operator import method_cache


def _make_classes() -> tuple[type, type]:
    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        y: int = 0
        tags: tuple[str, ...] = ()

    @dataclasses.dataclass(order=True)
    class Box:
        size: int
        items: list[str] = dataclasses.field(default_factory=list)

    return Point, Box


def _behaviour(point: type, box: type) -> list[object]:
    p, q = point(1), point(1, 0, ())
    frozen = False
    try:
        p.x = 2
    except dataclasses.FrozenInstanceError:
        frozen = True
    b = box(3)
    b.items.append("a")
    return [
        repr(p),
        p == q,
        hash(p) == hash(q),
        frozen,
        repr(b),
        box(1) < box(2),
        box(4).items is not box(4).items,
        [f.name for f in dataclasses.fields(point)],
        point.__match_args__,
        point.__doc__,
    ]


def test_classes_made_with_the_table_behave_as_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _behaviour(*_make_classes())
    table = str(tmp_path / "methods.marshal")
    monkeypatch.setattr(sys, "dont_write_bytecode", False)

    first = method_cache._Methods(table)
    monkeypatch.setattr(dataclasses, "exec", first.exec, raising=False)
    assert _behaviour(*_make_classes()) == expected
    assert first.compiled
    first.save()
    assert os.path.isfile(table)

    second = method_cache._Methods(table)
    monkeypatch.setattr(dataclasses, "exec", second.exec, raising=False)
    assert _behaviour(*_make_classes()) == expected
    assert not second.compiled  # every method came from the table
    assert second.used


@pytest.mark.parametrize("content", [b"", b"not marshal", b"\xe9\x00\x00", None])
def test_a_table_that_cannot_be_read_is_ignored(
    tmp_path: Path, content: bytes | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import marshal

    table = tmp_path / "methods.marshal"
    table.write_bytes(marshal.dumps({"text": "not code"}) if content is None else content)
    methods = method_cache._Methods(str(table))
    assert methods.codes == {}
    monkeypatch.setattr(dataclasses, "exec", methods.exec, raising=False)
    assert _behaviour(*_make_classes()) == _behaviour(*_make_classes())


def test_nothing_is_written_without_bytecode_writing_or_a_writable_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    methods = method_cache._Methods(str(folder / "methods.marshal"))
    monkeypatch.setattr(dataclasses, "exec", methods.exec, raising=False)
    _make_classes()
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    methods.save()
    assert not list(folder.iterdir())
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    blocked = folder / "file"
    blocked.write_text("")
    methods.path = str(blocked / "methods.marshal")  # its folder is a file
    methods.save()  # no error
    assert sorted(p.name for p in folder.iterdir()) == ["file"]


def test_an_exec_keeps_the_table_beside_the_bytecode_and_uses_it(tmp_path: Path) -> None:
    path = method_cache.table_path()
    assert path is not None
    assert Path(path).parent.name == "__pycache__"
    code = (
        "import sys\n"
        "from llm_operator import cli, method_cache\n"
        "status = cli.main(sys.argv[1:])\n"
        "(methods,) = method_cache._installed\n"
        "print('compiled' if methods.compiled else 'all from the table', file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.txt").write_text("one\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    said = []
    for n in range(2):
        reply = f"OPERATOR_CMD\nversion: 1\nid: w{n}\naction: fs.write\npath: a.txt\n"
        reply += f"content: run {n}\nEND_OPERATOR_CMD\n"
        argv = ["exec", "--yes", "--workspace", str(ws), "--state-dir", str(tmp_path / "state")]
        done = subprocess.run(
            [sys.executable, "-c", code, *argv, "-"],
            input=reply,
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "ok: true" in done.stdout
        said.append(done.stderr.strip().splitlines()[-1])
    assert said[1] == "all from the table"
    assert (ws / "a.txt").read_text() == "run 1"
