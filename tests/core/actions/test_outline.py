"""fs.outline: file outlines in several languages, folder outlines, caps, continuation,
secret-looking files and bad parameters."""

from __future__ import annotations

import itertools
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.actions.outline import MAX_FILES, MAX_LINES
from support.paths import ROOT

IDS = itertools.count(1)
SAMPLES = ROOT / "tests" / "data" / "structure"
ENTRY = re.compile(
    r"(?P<indent> *)(?P<start>\d+)-(?P<end>\d+): (?P<line>.+?)(  \(symbol: [^)]*\))?\Z"
)


def outline(run_reply: Any, cmd: Any, path: str, approve: Any = True, **extra: Any) -> Any:
    (result,) = run_reply(cmd(f"outline-{next(IDS)}", "fs.outline", path=path, **extra), approve)
    return result


def body(details: str) -> list[str]:
    return [line for line in details.rstrip("\n").split("\n") if not line.startswith("#")]


def header(details: str) -> list[str]:
    return [line for line in details.rstrip("\n").split("\n") if line.startswith("#")]


def copy_sample(workspace: Path, name: str, rel: str | None = None) -> str:
    rel = rel or f"samples/{name}"
    (workspace / rel).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SAMPLES / name, workspace / rel)
    return rel


EXPECTED = {
    "sample.py": [
        "6-9: def helper(x):  (symbol: helper)",
        "12-22: class UserAuth:  (symbol: UserAuth)",
        "  15-16: def __init__(self):  (symbol: UserAuth/__init__)",
        "  18-22: def validate(self):  (symbol: UserAuth/validate)",
        "25-26: def tail():  (symbol: tail)",
    ],
    "sample.go": [
        "5-8: type Server struct {",
        "10-16: func (s *Server) Start() error {  (symbol: Start)",
        "18-20: func main() {  (symbol: main)",
    ],
    "sample.rs": [
        "3-7: struct Foo {  (symbol: Foo[1])",
        "9-17: impl Foo {  (symbol: Foo[2])",
        "  10-14: fn bar(&self) -> i32 {  (symbol: Foo/bar)",
        "  16-16: fn baz(&self) {}  (symbol: Foo/baz)",
        "19-22: fn main() {  (symbol: main)",
    ],
    "sample.ts": [
        "3-16: export class AppComponent {  (symbol: AppComponent)",
        "  8-11: greet(): string {  (symbol: AppComponent/greet)",
        "  13-15: reset(): void {  (symbol: AppComponent/reset)",
        "18-20: export interface Options {  (symbol: Options)",
        "22-24: export function main(): void {  (symbol: main)",
    ],
    "sample.java": [
        "5-19: public class A {  (symbol: A)",
        "  10-14: public void run() {  (symbol: A/run)",
        "  16-18: public int get() {  (symbol: A/get)",
    ],
    "sample.rb": [
        "3-14: class Greeter  (symbol: Greeter)",
        "  7-9: def initialize(name)  (symbol: Greeter/initialize)",
        "  11-13: def greet  (symbol: Greeter/greet)",
    ],
    "sample.md": [
        "1-20: # Title  (symbol: Title)",
        "  5-16: ## Install  (symbol: Title/Install)",
        "  18-20: ## Usage  (symbol: Title/Usage)",
    ],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_file_outline_in_several_languages(
    run_reply: Any, cmd: Any, workspace: Path, name: str
) -> None:
    rel = copy_sample(workspace, name)
    result = outline(run_reply, cmd, rel)
    assert result.ok, result.summary
    assert body(result.details) == EXPECTED[name]
    assert header(result.details)[0] == f"# path: {rel}"
    assert f"Outlined {rel} ({len(EXPECTED[name])} structures;" in result.summary


def test_each_range_is_the_structure_as_read_slice_shows_it(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    rel = copy_sample(workspace, "sample.py")
    lines = (workspace / rel).read_text().split("\n")
    for entry in body(outline(run_reply, cmd, rel).details):
        match = ENTRY.match(entry)
        assert match, entry
        span = lines[int(match["start"]) - 1 : int(match["end"])]
        assert match["line"] in [line.strip() for line in span]


def test_depth_one_shows_top_level_only_and_depth_three_goes_deeper(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "nest.py").write_text(
        "class A:\n    def m(self):\n        def inner():\n            pass\n        return 1\n"
    )
    shallow = outline(run_reply, cmd, "nest.py", depth=1)
    assert body(shallow.details) == ["1-5: class A:  (symbol: A; +2 inside)"]
    assert "2 definitions deeper than depth 1 not shown" in shallow.details
    assert "send depth: 3 to see them" in shallow.details
    assert body(outline(run_reply, cmd, "nest.py").details) == [
        "1-5: class A:  (symbol: A)",
        "  2-5: def m(self):  (symbol: A/m; +1 inside)",
    ]
    full = outline(run_reply, cmd, "nest.py", depth=3)
    assert body(full.details)[-1] == "    3-4: def inner():  (symbol: A/m/inner)"
    assert "deeper than" not in full.details


def test_definitions_inside_conditional_blocks_still_show(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "cond.py").write_text(
        "import os\nX = 1\nif os.name == 'nt':\n    def win():\n        pass\n"
    )
    assert body(outline(run_reply, cmd, "cond.py").details) == [
        "2-2: X =",
        "4-5: def win():  (symbol: win)",
    ]


def test_a_file_with_syntax_errors_is_still_outlined_and_says_so(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "broken.py").write_text("def ok():\n    return 1\n\ndef bad(:\n    pass\n")
    result = outline(run_reply, cmd, "broken.py")
    assert result.ok
    assert "1-2: def ok():  (symbol: ok)" in body(result.details)
    assert "parse error" in result.details


def test_unsupported_file_is_language_unsupported(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "notes.txt").write_text("hello\n")
    result = outline(run_reply, cmd, "notes.txt")
    assert not result.ok
    assert result.code == "ERR_LANGUAGE_UNSUPPORTED"


@pytest.mark.parametrize("depth", ["0", "9", "two"])
def test_bad_depth_is_refused(run_reply: Any, cmd: Any, workspace: Path, depth: str) -> None:
    result = outline(run_reply, cmd, "src/main.py", depth=depth)
    assert not result.ok
    assert result.code == "ERR_INVALID_OUTLINE_PARAMS"


def test_after_on_a_file_is_refused(run_reply: Any, cmd: Any, workspace: Path) -> None:
    result = outline(run_reply, cmd, "src/main.py", after="a.py")
    assert result.code == "ERR_INVALID_OUTLINE_PARAMS"


def test_missing_path_is_file_not_found(run_reply: Any, cmd: Any, workspace: Path) -> None:
    assert outline(run_reply, cmd, "nope.py").code == "ERR_FILE_NOT_FOUND"


def test_path_outside_the_workspace_is_refused(run_reply: Any, cmd: Any) -> None:
    assert outline(run_reply, cmd, "../x.py").code == "ERR_PATH_OUTSIDE_WORKSPACE"


# -- folders -----------------------------------------------------------------------------


def test_folder_outline_lists_supported_files_in_walk_order(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    for name in ("sample.py", "sample.go", "sample.md"):
        copy_sample(workspace, name)
    (workspace / "samples" / "readme.txt").write_text("no parser\n")
    (workspace / "samples" / "sub").mkdir()
    copy_sample(workspace, "sample.rs", "samples/sub/lib.rs")
    (workspace / "samples" / ".gitignore").write_text("ignored.py\n")
    (workspace / "samples" / "ignored.py").write_text("def hidden():\n    pass\n")
    result = outline(run_reply, cmd, "samples")
    assert result.ok
    lines = body(result.details)
    titles = [line for line in lines if not line.startswith(" ")]
    assert titles == [
        "samples/sample.go (go, 20 lines)",
        "samples/sample.md (markdown, 20 lines)",
        "samples/sample.py (python, 26 lines)",
        "samples/sub/lib.rs (rust, 22 lines)",
    ]
    py = lines.index("samples/sample.py (python, 26 lines)")
    # A folder outline names no symbols (it shares its form with the context pack's map).
    plain = [line.split("  (symbol: ")[0] for line in EXPECTED["sample.py"]]
    assert lines[py + 1 : py + 6] == [f"  {line}" for line in plain]
    heads = header(result.details)
    assert "# complete" in heads
    assert any("1 ignored by .gitignore" in h for h in heads)
    assert "hidden" not in result.details


def test_folder_outline_counts_binary_and_large_files(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "bin.py").write_bytes(b"\0\1\2def x(): pass\n")
    (workspace / "big.py").write_text("x = 1\n" * 100_000)
    (workspace / "latin.py").write_bytes(b"s = '\xe9'\n")
    heads = header(outline(run_reply, cmd, ".").details)
    line = next(h for h in heads if h.startswith("# files outlined"))
    assert "1 binary" in line
    assert "1 over 500000 bytes" in line
    assert "1 unreadable, not UTF-8" in line


def test_folder_outline_never_enters_git_or_follows_folder_links(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / ".git").mkdir()
    (workspace / ".git" / "hook.py").write_text("def hook():\n    pass\n")
    (workspace / "loop").symlink_to(workspace, target_is_directory=True)
    details = outline(run_reply, cmd, ".").details
    assert "hook" not in details
    assert "loop/" not in details


def _many(workspace: Path, count: int) -> list[str]:
    names = []
    for n in range(count):
        rel = f"many/d{n // 50:02d}/m{n:04d}.py"
        (workspace / rel).parent.mkdir(parents=True, exist_ok=True)
        (workspace / rel).write_text(f"def f{n}():\n    return {n}\n")
        names.append(rel)
    return names


@pytest.mark.slow
def test_continuation_covers_a_large_tree_exactly_once(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    names = _many(workspace, 2000)
    seen: list[str] = []
    after = None
    calls = 0
    while True:
        extra = {"after": after} if after else {}
        result = outline(run_reply, cmd, "many", **extra)
        calls += 1
        titles = [line.split(" (")[0] for line in body(result.details) if line[0] != " "]
        seen += titles
        more = [h for h in header(result.details) if h.startswith("# more: after: ")]
        if not more:
            assert "# complete" in header(result.details)
            break
        assert len(titles) == MAX_FILES
        after = more[0].removeprefix("# more: after: ")
        assert after == titles[-1]
        assert f"after: {after}" in result.summary
    assert calls == 7  # 6 full calls of 300 files, then the last 200
    assert seen == names


def test_line_cap_cuts_a_folder_outline(run_reply: Any, cmd: Any, workspace: Path) -> None:
    funcs = "".join(f"def f{n}():\n    pass\n" for n in range(150))
    for n in range(25):
        (workspace / f"w{n:02d}.py").write_text(funcs)
    result = outline(run_reply, cmd, ".")
    heads = header(result.details)
    assert f"# truncated at the line limit {MAX_LINES}" in heads
    assert "# more: after: w19.py" in heads  # 20 files of 151 lines reach 3000


def test_one_big_file_shows_200_structures_in_a_folder_outline(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "big.py").write_text("".join(f"def f{n}():\n    pass\n" for n in range(500)))
    lines = body(outline(run_reply, cmd, ".").details)
    start = lines.index("big.py (python, 1000 lines)")
    assert lines[start + 200] == "  399-400: def f199():"
    assert lines[start + 201] == "  ... 300 more structures: fs.outline of big.py shows them all"
    assert len(body(outline(run_reply, cmd, "big.py").details)) == 500


def test_secret_file_outline_needs_approval(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "server.key.py").write_text("def token():\n    return 'hunter2'\n")
    (workspace / ".env.py").write_text("def password():\n    pass\n")
    rejected = outline(run_reply, cmd, ".env.py", approve=False)
    assert not rejected.ok
    assert "password" not in (rejected.details or "") + rejected.summary
    approved = outline(run_reply, cmd, ".env.py", approve=True)
    assert approved.ok
    assert "1-2: def password():" in approved.details


def test_folder_outline_leaves_secret_files_out_and_counts_them(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    (workspace / "conf").mkdir()
    (workspace / "conf" / ".env.py").write_text("def secret_name():\n    pass\n")
    (workspace / "conf" / "app.py").write_text("def public_name():\n    pass\n")
    for approve in (False, True):  # nothing to approve: the folder outline never reads it
        folder = outline(run_reply, cmd, "conf", approve=approve)
        assert folder.ok
        assert "public_name" in folder.details
        assert "secret_name" not in folder.details
        assert "# left out: 1 secret-looking file(s), never opened" in folder.details
    alone = outline(run_reply, cmd, "conf/.env.py", approve=True)
    assert "secret_name" in alone.details


@pytest.mark.parametrize(("link", "target"), [("notes.py", ".env.py"), (".env.py", "notes.py")])
def test_a_link_is_secret_by_its_own_name_or_its_target(
    run_reply: Any, cmd: Any, workspace: Path, link: str, target: str
) -> None:
    (workspace / target).write_text("def hidden_name():\n    pass\n")
    (workspace / link).symlink_to(workspace / target)
    rejected = outline(run_reply, cmd, link, approve=False)
    assert not rejected.ok
    assert "hidden_name" not in (rejected.details or "") + rejected.summary
    folder = outline(run_reply, cmd, ".", approve=False)
    assert f"\n{link} (" not in folder.details  # the link is secret-looking either way
    assert "# left out: " in folder.details


def test_a_capped_folder_outline_stops_walking_at_the_cap(
    run_reply: Any, cmd: Any, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from llm_operator.core.actions import outline as outline_module

    _many(workspace, 1000)
    walked: list[str] = []
    real_walk = outline_module.walk_files

    def counting(*args: Any, **kwargs: Any) -> Any:
        for found in real_walk(*args, **kwargs):
            walked.append(found.rel)
            yield found

    monkeypatch.setattr(outline_module, "walk_files", counting)
    result = outline(run_reply, cmd, "many")
    assert "# more: after: many/d05/m0299.py" in result.details
    assert len(walked) == MAX_FILES + 1  # the one file that showed the cap was reached


@pytest.mark.parametrize(
    ("after", "code"),
    [
        ("/tmp/elsewhere", "ERR_PATH_OUTSIDE_WORKSPACE"),
        ("zzz/../../etc", "ERR_PATH_OUTSIDE_WORKSPACE"),
        ("..", "ERR_PATH_OUTSIDE_WORKSPACE"),
        ("other/x.py", "ERR_INVALID_OUTLINE_PARAMS"),
        ("src/../other/x.py", "ERR_INVALID_OUTLINE_PARAMS"),
        ("src", "ERR_INVALID_OUTLINE_PARAMS"),
    ],
)
def test_an_after_outside_the_outlined_folder_is_refused_not_reported_complete(
    run_reply: Any, cmd: Any, workspace: Path, after: str, code: str
) -> None:
    result = outline(run_reply, cmd, "src", after=after)
    assert not result.ok
    assert f"({code})" in result.summary
    assert "# complete" not in (result.details or "")


def test_a_valid_after_with_a_dot_segment_resumes_like_the_clean_path(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    clean = outline(run_reply, cmd, "src", after="src/main.py")
    dotted = outline(run_reply, cmd, "src", after="src/./main.py")
    assert clean.ok
    assert body(dotted.details) == body(clean.details)
    assert "src/pkg/util.py" in clean.details
    assert "src/main.py (" not in clean.details
