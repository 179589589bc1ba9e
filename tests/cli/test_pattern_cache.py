"""The literal patterns compiled once and kept (``llm_operator.pattern_cache``): a pattern
made from the table is the very pattern ``re`` makes, a second run parses nothing, a
pattern built at run time (from a reply, a file, a setting) is never kept, and a table that
cannot be trusted or written changes nothing."""

from __future__ import annotations

import marshal
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from llm_operator import pattern_cache

COMPILER = re._compiler  # type: ignore[attr-defined]


@pytest.fixture
def hooked(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """re's compiler as it is, restored after the test whatever a table did to it."""
    monkeypatch.setattr(COMPILER, "_sre", COMPILER._sre)
    monkeypatch.setattr(COMPILER, "compile", COMPILER.compile)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    re.purge()
    yield monkeypatch
    re.purge()


def _use(monkeypatch: pytest.MonkeyPatch, table: Path) -> pattern_cache._Patterns:
    patterns = pattern_cache._Patterns(str(table), COMPILER)
    patterns.built_too = False  # as after the run's set-up: only literals are kept
    monkeypatch.setattr(COMPILER, "compile", patterns.compile)
    re.purge()  # re's own in-process cache would answer before the table is asked
    return patterns


def _literals() -> list[re.Pattern[str] | re.Pattern[bytes]]:
    return [
        re.compile(r"(?P<key>[A-Za-z_][\w-]*)\s*:\s*(?P<value>.*)"),
        re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@", re.MULTILINE),
        re.compile(r"[\u200b-\u200f\u202a-\u202e\ufeff]|é+", re.IGNORECASE),
        re.compile(rb"[\x80-\xff]+(?=\n)"),
        re.compile(r"(a|b)*?c{2,5}(?!d)\Z", re.DOTALL | re.VERBOSE),
    ]


def test_patterns_made_from_the_table_are_the_ones_re_makes(
    tmp_path: Path, hooked: pytest.MonkeyPatch
) -> None:
    fresh = _literals()
    table = tmp_path / "regex.marshal"
    first = _use(hooked, table)
    assert _literals() == fresh  # Pattern equality compares the engine's code itself
    assert first.compiled
    first.save()
    assert table.is_file()

    second = _use(hooked, table)
    kept = _literals()
    assert kept == fresh
    assert not second.compiled  # every pattern came from the table
    assert len(second.used) == len(fresh)
    text = "name: value\n@@ -3,2 +4 @@\n\u200bÉé"
    for new, old in zip(kept, fresh, strict=True):
        subject: str | bytes = "ab\xffé\n".encode() if isinstance(new.pattern, bytes) else text
        assert [m.span() for m in new.finditer(subject)] == [  # type: ignore[arg-type]
            m.span()
            for m in old.finditer(subject)  # type: ignore[arg-type]
        ]
        assert (new.groups, new.groupindex, new.flags) == (old.groups, old.groupindex, old.flags)


def test_a_pattern_built_at_run_time_is_never_kept(
    tmp_path: Path, hooked: pytest.MonkeyPatch
) -> None:
    table = tmp_path / "regex.marshal"
    patterns = _use(hooked, table)
    secret = "sk-" + "".join(chr(ord("a") + n) for n in range(12))
    built = re.compile(re.escape(secret) + r"\d+")
    assert built.match(secret + "42")
    re.compile(r"kept\d+")
    patterns.save()
    kept = marshal.loads(table.read_bytes())
    assert [pattern for pattern, _ in kept] == [r"kept\d+"]
    assert secret.encode() not in table.read_bytes()


def test_an_entry_the_engine_refuses_is_compiled_afresh(
    tmp_path: Path, hooked: pytest.MonkeyPatch
) -> None:
    fresh = re.compile(r"x(y+)z")
    table = tmp_path / "regex.marshal"
    table.write_bytes(marshal.dumps({(r"x(y+)z", 0): (32, [17, 4, 9, 99999], 1, {}, (None,))}))
    patterns = _use(hooked, table)
    assert re.compile(r"x(y+)z") == fresh
    assert patterns.compiled  # made again, and the good entry replaces the bad one
    assert patterns.table[(r"x(y+)z", 0)][1] != [17, 4, 9, 99999]


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not marshal",
        marshal.dumps([1, 2]),
        marshal.dumps({("a", 0): (0, ["not an int"], 0, {}, ())}),
        marshal.dumps({("a", "flags"): (0, [1], 0, {}, ())}),
        marshal.dumps({("a", 0): (0, [1], 0, {1: 2}, ())}),
    ],
)
def test_a_table_that_cannot_be_trusted_is_ignored(
    tmp_path: Path, content: bytes, hooked: pytest.MonkeyPatch
) -> None:
    table = tmp_path / "regex.marshal"
    table.write_bytes(content)
    patterns = _use(hooked, table)
    assert patterns.table == {}
    assert _literals() == _literals()


def test_nothing_is_written_without_bytecode_writing_or_a_writable_folder(
    tmp_path: Path, hooked: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    patterns = _use(hooked, folder / "regex.marshal")
    _literals()
    hooked.setattr(sys, "dont_write_bytecode", True)
    patterns.save()
    assert not list(folder.iterdir())
    hooked.setattr(sys, "dont_write_bytecode", False)
    blocked = folder / "file"
    blocked.write_text("")
    patterns.path = str(blocked / "regex.marshal")  # its folder is a file
    patterns.save()  # no error
    assert sorted(p.name for p in folder.iterdir()) == ["file"]


def test_an_exec_uses_the_table_and_keeps_nothing_of_the_reply(tmp_path: Path) -> None:
    """Two real runs: the second parses no pattern, and no text of the reply (a glob, an
    exclude, a regex query) or of a file it read is in the table."""
    path = pattern_cache.table_path()
    assert path is not None
    assert Path(path).parent.name == "__pycache__"
    code = (
        "import sys\n"
        "from llm_operator import cli, pattern_cache\n"
        "status = cli.main(sys.argv[1:])\n"
        "(patterns,) = pattern_cache._installed\n"
        "print('parsed' if patterns.compiled else 'all from the table', file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.txt").write_text("marker_in_a_file_4471\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    said = []
    for n in range(2):
        reply = (
            f"OPERATOR_CMD\nversion: 1\nid: s{n}\naction: fs.searchTree\npath: .\n"
            "query: reply_regex_[0-9]{3}_x\nregex: true\nglob: *.glob_from_reply\n"
            "exclude: exclude_from_reply/**\nEND_OPERATOR_CMD\n"
            f"OPERATOR_CMD\nversion: 1\nid: r{n}\naction: fs.read\npath: a.txt\n"
            "END_OPERATOR_CMD\n"
        )
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
        said.append(done.stderr.strip().splitlines()[-1])
    assert said[1] == "all from the table"
    kept = Path(path).read_bytes()
    for text in (b"reply_regex", b"glob_from_reply", b"exclude_from_reply", b"marker_in_a"):
        assert text not in kept


def test_a_pattern_built_while_the_run_sets_itself_up_is_kept(
    tmp_path: Path, hooked: pytest.MonkeyPatch
) -> None:
    """Before the reply and the files (the settings' secret-looking file patterns, joined)
    a built pattern is kept; after ``literals_only`` it is not."""
    table = tmp_path / "regex.marshal"
    patterns = _use(hooked, table)
    patterns.built_too = True  # as a run starts
    hooked.setattr(pattern_cache, "_installed", [patterns])
    parts = ["settings", "pattern"]
    re.compile("|".join(parts))
    pattern_cache.literals_only()
    re.compile("_".join(parts))
    patterns.save()
    assert [pattern for pattern, _ in marshal.loads(table.read_bytes())] == ["settings|pattern"]


def test_a_table_that_is_not_a_regular_file_or_too_big_is_not_read(tmp_path: Path) -> None:
    """A FIFO in a table's place would block every run in its open; a huge file would
    cost its reading: neither is read, and the run goes on without a table."""
    from llm_operator import kept_tables, method_cache

    fifo = tmp_path / "regex.marshal"
    os.mkfifo(fifo)
    assert kept_tables.read_table(str(fifo)) is None  # returns at once
    assert pattern_cache._read(str(fifo)) == {}
    assert method_cache._read(str(fifo)) == {}
    big = tmp_path / "big.marshal"
    with big.open("wb") as handle:
        handle.truncate(kept_tables.MAX_BYTES + 1)
    assert kept_tables.read_table(str(big)) is None
    link = tmp_path / "link.marshal"
    link.symlink_to(big)
    assert kept_tables.read_table(str(link)) is None
