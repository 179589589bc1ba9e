"""fs.searchTree options (regex, case_sensitive, glob, exclude, after), odd names, unreadable
entries, trash folders, and continuation over a whole tree."""

from __future__ import annotations

import base64
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.actions.search_tree import MAX_FILES, MAX_MATCHES
from llm_operator.core.protocol.result_reader import read_results

IDS = itertools.count(1)
HIT = re.compile(r"(?P<path>[^:]+):(?P<line>[0-9]+): (?P<text>.*)\Z")


def write(root: Path, rel: str, text: str | bytes) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")


def search(run_reply: Any, cmd: Any, query: str, path: str = ".", **options: str) -> Any:
    (result,) = run_reply(
        cmd(f"opt-{next(IDS)}", "fs.searchTree", path=path, query=query, **options)
    )
    return result


def hits(result: Any) -> list[tuple[str, int, str]]:
    assert result.ok, result.summary
    found = []
    for line in result.details.rstrip("\n").split("\n"):
        if line.startswith("#"):
            continue
        match = HIT.match(line)
        assert match, f"not <path>:<line>: <text>: {line!r}"
        found.append((match["path"], int(match["line"]), match["text"]))
    return found


def header(result: Any, prefix: str) -> str:
    (line,) = [h for h in result.details.split("\n") if h.startswith(prefix)]
    return line


def more_after(result: Any) -> str | None:
    found = [h for h in result.details.split("\n") if h.startswith("# more: after: ")]
    return found[0].removeprefix("# more: after: ") if found else None


# -- regex and case -------------------------------------------------------------------


def test_regex_matches_per_line(run_reply: Any, cmd: Any, workspace: Path) -> None:
    write(workspace, "code/a.py", "def alpha():\n    x = 1\ndef beta2():\n  define = 3\n")
    result = search(run_reply, cmd, r"^def \w+\d?\(\):$", path="code", regex="true")
    assert hits(result) == [("code/a.py", 1, "def alpha():"), ("code/a.py", 3, "def beta2():")]
    assert "# mode: regex" in result.details
    # ^ and $ hold at every line; \s never reaches across a line break.
    spanning = search(run_reply, cmd, r"1\s+def", path="code", regex="true")
    assert hits(spanning) == []


def test_regex_without_regex_true_is_literal(run_reply: Any, cmd: Any, workspace: Path) -> None:
    write(workspace, "lit.txt", "a.b\naxb\n")
    assert hits(search(run_reply, cmd, "a.b")) == [("lit.txt", 1, "a.b")]
    assert [h[1] for h in hits(search(run_reply, cmd, "a.b", regex="true"))] == [1, 2]


def test_a_query_with_a_line_break_stays_on_its_header_line(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    write(workspace, "q.txt", "plain\n")
    fake = "x\nq.txt:1: injected"
    encoded = base64.b64encode(fake.encode()).decode()
    (result,) = run_reply(cmd(f"opt-{next(IDS)}", "fs.searchTree", path=".", query_b64=encoded))
    assert "# query: x\\nq.txt:1: injected" in result.details
    assert hits(result) == []
    regex = search(run_reply, cmd, r"\w+ain", regex="true")
    assert "# query: \\w+ain" in regex.details  # backslashes of a regex shown as sent


def test_bad_regex_says_what_is_wrong(run_reply: Any, cmd: Any) -> None:
    result = search(run_reply, cmd, "foo(bar", regex="true")
    assert not result.ok
    assert result.code == "ERR_INVALID_REGEX"
    assert "not a valid RE2 regular expression (missing ): foo(bar)" in result.summary
    assert result.json()["details"]["reason"] == "missing ): foo(bar"


def test_a_backreference_is_refused_with_what_to_do(run_reply: Any, cmd: Any) -> None:
    result = search(run_reply, cmd, r"(a)\1", regex="true")
    assert result.code == "ERR_INVALID_REGEX"
    assert "backreferences (\\1)" in result.summary
    assert "RE2 syntax" in result.summary


def test_case_insensitive(run_reply: Any, cmd: Any, workspace: Path) -> None:
    write(workspace, "case.txt", "Needle\nNEEDLE\nneedle\nnoodle\nSTRAẞE\n")
    assert [h[1] for h in hits(search(run_reply, cmd, "needle"))] == [3]
    loose = search(run_reply, cmd, "needle", case_sensitive="false")
    assert [h[1] for h in hits(loose)] == [1, 2, 3]
    assert "case-insensitive" in loose.details
    both = search(run_reply, cmd, "^n[eo]+dle$", regex="true", caseSensitive="false")
    assert [h[1] for h in hits(both)] == [1, 2, 3, 4]
    bad = search(run_reply, cmd, "x", case_sensitive="maybe")
    assert not bad.ok
    assert bad.code == "ERR_INVALID_FIELD"


# -- glob and exclude -------------------------------------------------------------------


@pytest.fixture
def mixed(workspace: Path) -> Path:
    for rel in [
        "app/main.py",
        "app/util.ts",
        "app/vendor/lib.py",
        "app/tests/test_main.py",
        "docs/guide.md",
        "docs/api/ref.md",
        "setup.py",
    ]:
        write(workspace, rel, "needle\n")
    return workspace


def paths(result: Any) -> list[str]:
    return [h[0] for h in hits(result)]


def test_glob_picks_files_relative_to_the_path(run_reply: Any, cmd: Any, mixed: Path) -> None:
    assert paths(search(run_reply, cmd, "needle", glob="*.py")) == [
        "app/main.py",
        "app/tests/test_main.py",
        "app/vendor/lib.py",
        "setup.py",
    ]
    assert paths(search(run_reply, cmd, "needle", glob="docs/**/*.md, *.ts")) == [
        "app/util.ts",
        "docs/api/ref.md",
        "docs/guide.md",
    ]
    # Relative to the searched folder: /main.py is anchored at app/.
    assert paths(search(run_reply, cmd, "needle", path="app", glob="/main.py")) == ["app/main.py"]


def test_exclude_drops_files_and_whole_folders(run_reply: Any, cmd: Any, mixed: Path) -> None:
    result = search(run_reply, cmd, "needle", path="app", exclude="vendor/, tests/, *.ts")
    assert paths(result) == ["app/main.py"]
    assert "3 left out by glob/exclude" in header(result, "# files scanned:")
    both = search(run_reply, cmd, "needle", glob="*.py", exclude="app/tests/")
    assert paths(both) == ["app/main.py", "app/vendor/lib.py", "setup.py"]
    empty = search(run_reply, cmd, "needle", glob=" , ")
    assert not empty.ok
    assert empty.code == "ERR_INVALID_FIELD"


# -- continuation -------------------------------------------------------------------------


def test_continuation_covers_2000_files_exactly_once(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    expected = []
    for n in range(2000):
        rel = f"big/d{n % 7}/sub{n % 3}/f{n:04d}.txt"
        # Some files hold many matches, so both caps bind along the way.
        count = 150 if n % 97 == 0 else 1
        write(workspace, rel, "".join(f"needle {k}\n" for k in range(count)))
        expected += [(rel, k + 1) for k in range(count)]
    expected.sort(key=lambda hit: (hit[0].split("/"), hit[1]))
    seen: list[tuple[str, int]] = []
    after: str | None = None
    calls = 0
    while True:
        options = {"after": after} if after else {}
        result = search(run_reply, cmd, "needle", path="big", **options)
        found = hits(result)
        assert len(found) <= MAX_MATCHES
        assert int(header(result, "# files scanned:").split()[3].rstrip(";")) <= MAX_FILES
        seen += [(path, line) for path, line, _ in found]
        calls += 1
        after = more_after(result)
        if after is None:
            assert "(complete)" in result.details
            break
        assert "truncated" in result.details
        assert f"after: {after}" in result.summary
    assert seen == expected  # every match once, in the same order as one long search
    assert calls >= 2000 // MAX_FILES


def test_a_file_with_more_matches_than_the_cap_is_cut_and_said(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    write(workspace, "huge/a.txt", "needle\n" * (MAX_MATCHES + 50))
    write(workspace, "huge/b.txt", "needle\n")
    first = search(run_reply, cmd, "needle", path="huge")
    assert len(hits(first)) == MAX_MATCHES
    assert "huge/a.txt has more than 200 matches; use fs.search" in first.details
    assert more_after(first) == "huge/a.txt"
    rest = search(run_reply, cmd, "needle", path="huge", after="huge/a.txt")
    assert paths(rest) == ["huge/b.txt"]


def test_the_walk_stops_at_the_cap(run_reply: Any, cmd: Any, workspace: Path) -> None:
    # A dangling link sorts after the files the capped search reads: a walk that went on
    # after the cap would count it as unreadable.
    for n in range(MAX_FILES + 10):
        write(workspace, f"cap/a{n:04d}.txt", "hay\n")
    os.symlink("missing-target", workspace / "cap/zz-dangling.txt")
    capped = search(run_reply, cmd, "needle", path="cap")
    assert "0 unreadable" in header(capped, "# files scanned:")
    assert more_after(capped) == f"cap/a{MAX_FILES - 1:04d}.txt"
    tail = search(run_reply, cmd, "needle", path="cap", after=more_after(capped))
    assert "1 unreadable" in header(tail, "# files scanned:")
    assert more_after(tail) is None


# -- odd names, unreadable entries, trash -----------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX names")
def test_odd_names_make_no_fake_entry(run_reply: Any, cmd: Any, workspace: Path) -> None:
    write(workspace, "odd/a\nb.txt", "needle\n")
    write(workspace, "odd/n\nsrc/x.py", "needle\n")
    write(workspace, "odd/n/x.py", "hay\n")
    write(workspace, os.fsdecode(b"odd/bad\xff.txt"), "needle\n")
    write(workspace, "odd/plain.txt", "needle\n")
    result = search(run_reply, cmd, "needle", path="odd")
    assert paths(result) == ["odd/plain.txt"]  # no "src/x.py:1: needle" from n\nsrc
    assert "3 with names that cannot be shown on one line" in header(result, "# files scanned:")
    os.symlink("odd/n\nsrc", workspace / "via-link")  # a command path cannot hold \n itself
    through = search(run_reply, cmd, "needle", path="via-link")
    assert not through.ok
    assert through.code == "ERR_INVALID_PATH"
    assert "\n" not in through.summary
    (listed,) = run_reply(cmd(f"ls-{next(IDS)}", "fs.list", path="odd"))
    assert listed.details.rstrip("\n").split("\n") == [
        "a\\nb.txt",
        "bad\\xff.txt",
        "n/",
        "n\\nsrc/",
        "plain.txt",
    ]


def test_trash_folders_are_never_listed_searched_or_read(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    write(workspace, ".Trash-0/files/deleted.txt", "needle deleted text\n")
    write(workspace, ".Trash/old.txt", "needle old\n")
    write(workspace, "sub/.Trash-0/kept.txt", "needle kept\n")  # only the root's are trash
    (listed,) = run_reply(cmd(f"ls-{next(IDS)}", "fs.list", path="."))
    assert ".Trash-0/" not in listed.details
    assert ".Trash/" not in listed.details
    assert paths(search(run_reply, cmd, "needle")) == ["sub/.Trash-0/kept.txt"]
    for action in ("fs.read", "fs.searchTree"):
        extra = {"query": "needle"} if action == "fs.searchTree" else {}
        (refused,) = run_reply(
            cmd(f"t-{next(IDS)}", action, path=".Trash-0/files/deleted.txt", **extra)
        )
        assert not refused.ok
        assert refused.code == "ERR_PATH_PROTECTED", refused.summary
        assert "deleted text" not in (refused.details or "")


# Runs as root, drops to ``nobody`` once every module exec needs is imported (the
# interpreter lives where ``nobody`` cannot read), then runs exec for real.
AS_NOBODY = """
import contextlib, io, os, sys
from llm_operator import cli
warm_ws, ws, state, block = sys.argv[1:5]
with contextlib.redirect_stdout(io.StringIO()):
    cli.main(["exec", "--workspace", warm_ws, "--state-dir", state + "-warm", "--no", block])
os.setgid(65534)
os.setuid(65534)
sys.exit(cli.main(["exec", "--workspace", ws, "--state-dir", state, "--no", block]))
"""


@pytest.mark.skipif(not hasattr(os, "setuid") or os.geteuid() != 0, reason="needs root")
def test_an_unreadable_folder_is_skipped_and_counted() -> None:
    """As root every folder is readable, so exec runs as ``nobody`` in a world-readable
    workspace where one folder and one file are mode 000."""
    base = Path(tempfile.mkdtemp(prefix="llmop-unreadable-", dir="/tmp"))
    try:
        ws = base / "ws"
        for rel in ["a/one.txt", "a/unreadable.txt", "locked/hidden.txt", "z/two.txt"]:
            write(ws, rel, "needle\n")
        write(base / "warm", "w.txt", "needle\n")
        (base / "block.txt").write_text(
            "OPERATOR_CMD\nversion: 1\nid: tree\naction: fs.searchTree\npath: .\n"
            "query: needle\nEND_OPERATOR_CMD\n",
            encoding="utf-8",
        )
        for folder, _, files in os.walk(base):
            os.chmod(folder, 0o777)
            for name in files:
                os.chmod(Path(folder) / name, 0o644)
        (ws / "a/unreadable.txt").chmod(0o000)
        (ws / "locked").chmod(0o000)
        env = dict(os.environ, HOME=str(base), LLM_OPERATOR_CONFIG_DIR=str(base / "config"))
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                AS_NOBODY,
                str(base / "warm"),
                str(ws),
                str(base / "state"),
                str(base / "block.txt"),
            ],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        (result,) = read_results(done.stdout)
        assert result.details, done.stdout + done.stderr
        details = result.details.decode("utf-8")
        assert [line for line in details.split("\n") if line.endswith(":1: needle")] == [
            "a/one.txt:1: needle",
            "z/two.txt:1: needle",
        ]
        assert "2 unreadable" in details, details
    finally:
        (base / "ws" / "locked").chmod(0o755)
        shutil.rmtree(base, ignore_errors=True)


SWAPPER = """
import os, sys, time
ws, outside, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
real, link, spare = ws + "/sub", ws + "/sub-link", ws + "/sub-real"
os.symlink(outside, link)
end = time.monotonic() + seconds
while time.monotonic() < end:
    os.rename(real, spare)  # sub is gone for a moment
    os.rename(link, real)  # sub is now a symlink to the outside
    os.rename(real, link)
    os.rename(spare, real)  # sub is a folder again
"""


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="symlinks")
def test_a_folder_swapped_for_a_symlink_never_leads_the_walk_outside(
    run_reply: Any, cmd: Any, workspace: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    write(outside, "leak.txt", "needle OUTSIDE-SENTINEL\n")
    write(outside, "deeper/leak2.txt", "needle OUTSIDE-SENTINEL\n")
    write(workspace, "sub/inside.txt", "needle inside\n")
    write(workspace, "sub/deeper/inside2.txt", "needle inside\n")
    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(workspace), str(outside), "4"])
    searches = 0
    try:
        while swapper.poll() is None:
            for path in (".", "sub", "sub/deeper"):
                result = search(run_reply, cmd, "needle", path=path)
                text = result.summary + (result.details or "")
                assert "OUTSIDE-SENTINEL" not in text
                assert "leak" not in text
                searches += 1
    finally:
        swapper.wait(timeout=30)
    assert swapper.returncode == 0
    assert searches > 10


def test_skipped_files_count_toward_the_visit_limit(
    run_reply: Any, cmd: Any, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Binary files are read to be skipped: their number is capped too, and resumable."""
    import llm_operator.core.actions.search_tree as search_tree

    monkeypatch.setattr(search_tree, "MAX_VISITS", 50)
    for n in range(120):
        write(workspace, f"bin/b{n:03d}.dat", b"\x00needle\n")
    write(workspace, "bin/z.txt", "needle\n")
    seen: list[str] = []
    after: str | None = None
    for _ in range(5):
        result = search(run_reply, cmd, "needle", path="bin", **({"after": after} if after else {}))
        seen += paths(result)
        after = more_after(result)
        if after is None:
            break
        assert "(truncated: visit limit)" in result.details
    assert after is None
    assert seen == ["bin/z.txt"]


@pytest.mark.parametrize(
    ("after", "code"),
    [
        ("/tmp/elsewhere", "ERR_PATH_OUTSIDE_WORKSPACE"),
        ("..", "ERR_PATH_OUTSIDE_WORKSPACE"),
        ("other/x.py", "ERR_INVALID_FIELD"),
        ("src/../other/x.py", "ERR_INVALID_FIELD"),
    ],
)
def test_an_after_outside_the_searched_folder_is_refused_not_reported_complete(
    run_reply: Any, cmd: Any, workspace: Path, after: str, code: str
) -> None:
    result = search(run_reply, cmd, "def", path="src", after=after)
    assert not result.ok
    assert f"({code})" in result.summary
    assert "(complete)" not in (result.details or "")
