"""Every rule the primer states, found in the served spec and shown by the app.

Each sentence of the primer's rules (HARD RULES and the prose under FORMAT) must be
claimed by a rule of ``RULES`` below: the words the primer uses, the words the served
spec uses for the same rule, and a check that pastes a real reply into a session on a
temp workspace and sees the app do what the rule says. A rule about the model's own
conduct (read before editing, claim nothing early) has nothing the app could show: its
check is ``None`` and the reason says so, but its spec counterpart is still required.
A sentence added to the primer without a rule here fails the first test.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from llm_operator.core.actions.operator import interface_spec
from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.primer import primer_text
from llm_operator.core.store.workspace import Workspace
from support.fixtures import Decoded, run_session

Check = Callable[["Bench"], None]


@dataclass
class Bench:
    """A workspace and a session on it, and a way to paste one reply."""

    root: Path
    session: Session

    def paste(self, text: str, approve: bool | dict[str, bool] = True) -> list[Decoded]:
        return run_session(self.session, text, approve)

    def file(self, rel: str) -> str:
        return (self.root / rel).read_text("utf-8")


def block(cmd_id: str, action: str, **fields: str) -> str:
    lines = ["OPERATOR_CMD", "version: 1", f"id: {cmd_id}", f"action: {action}"]
    lines += [f"{key}: {value}" for key, value in fields.items()]
    return "\n".join([*lines, "END_OPERATOR_CMD"])


def one(results: list[Decoded]) -> Decoded:
    (result,) = results
    return result


# -- the checks: what the app really does ---------------------------------------------


def _block_shape(bench: Bench) -> None:
    ok = one(bench.paste(block("r1", "fs.read", path="a.txt")))
    assert ok.ok
    glued = "OPERATOR_CMD\nversion: 1\nid: r2\naction: fs.read\n\npath: a.txt\nEND_OPERATOR_CMD"
    assert one(bench.paste(glued)).code == "ERR_EMPTY_LINE_IN_CMD"
    assert one(bench.paste(block("r3", "fs.read", Path="a.txt"))).code == "ERR_UNKNOWN_KEY"


def _path_rules(bench: Bench) -> None:
    assert one(bench.paste(block("p1", "fs.read", path="sub/b.txt"))).ok
    assert one(bench.paste(block("p2", "fs.list", path="."))).ok
    assert one(bench.paste(block("p3", "fs.read"))).code == "ERR_ACTION_REQUIRES_PATH"
    no_path = block("p4", "operator.getCommentStyle", path="a.txt")
    assert one(bench.paste(no_path)).code == "ERR_ACTION_FORBIDS_PATH"
    workspace = block("p5", "fs.read", path="a.txt", workspace="/tmp")
    assert one(bench.paste(workspace)).code == "ERR_UNKNOWN_KEY"


def _ascii_and_json(bench: Bench) -> None:
    assert one(bench.paste(block("j1", "fs.write", path="u.txt", content="caf\u00e9"))).code == (
        "ERR_NON_ASCII_IN_CMD"
    )
    written = one(
        bench.paste(block("j2", "fs.write", path="u.txt", content_json='"caf\\u00e9\\n"'))
    )
    assert written.ok
    assert bench.file("u.txt") == "caf\u00e9\n"
    both = block("j3", "fs.write", path="u.txt", content="x", content_b64="eA==")
    assert one(bench.paste(both)).code == "ERR_CONFLICTING_FIELDS"
    assert one(bench.paste(block("j4", "fs.write", path="v.txt", content_b64="eAp5Cg=="))).ok
    assert bench.file("v.txt") == "x\ny\n"


def _edge_spaces(bench: Bench) -> None:
    """A plain value loses its edge spaces; its *_json twin keeps them."""
    plain = "OPERATOR_CMD\nversion: 1\nid: e1\naction: fs.write\npath: s.txt\n"
    plain += "content:   two spaces   \nEND_OPERATOR_CMD"
    assert one(bench.paste(plain)).ok
    assert bench.file("s.txt") == "two spaces"
    kept = block("e2", "fs.write", path="s.txt", content_json='"   two spaces   "')
    assert one(bench.paste(kept)).ok
    assert bench.file("s.txt") == "   two spaces   "


def _fresh_ids(bench: Bench) -> None:
    write = block("w1", "fs.write", path="n.txt", content="one")
    assert not one(bench.paste(write)).repeat
    again = one(bench.paste(write))
    assert again.ok
    assert again.repeat
    assert "already ran at" in again.summary
    read = block("r1", "fs.read", path="n.txt")
    one(bench.paste(read))
    (bench.root / "n.txt").write_text("changed", "utf-8")
    reread = one(bench.paste(read))
    assert reread.repeat
    assert reread.details == "changed"
    other = block("w1", "fs.write", path="n.txt", content="two")
    assert one(bench.paste(other)).code == "ERR_DUPLICATE_ID"
    one(bench.paste(block("w2", "fs.write", path="m.txt", content="m")))
    bench.session.undo_last()
    notice, rerun = bench.paste(block("w2", "fs.write", path="m.txt", content="m"))
    assert notice.id.startswith("undo-")
    assert "w2" in notice.summary
    assert rerun.ok
    assert not rerun.repeat
    assert bench.file("m.txt") == "m"


def _read_after_write(bench: Bench) -> None:
    """Commands run in message order: a read before a write sees the file as it was, a read
    after it sees the write when approved and the old file when rejected."""
    reply = "\n".join(
        [
            block("o1", "fs.read", path="a.txt"),
            block("o2", "fs.write", path="a.txt", content="new"),
            block("o3", "fs.read", path="a.txt"),
        ]
    )
    before, wrote, after = bench.paste(reply, True)
    assert (before.details, wrote.ok, after.details) == ("Alpha\nBeta\n", True, "new")
    (bench.root / "a.txt").write_text("Alpha\nBeta\n", "utf-8")
    rejected = reply.replace("id: o", "id: q")
    before, wrote, after = bench.paste(rejected, False)
    assert (before.details, wrote.code, after.details) == (
        "Alpha\nBeta\n",
        "ERR_REJECTED_BY_USER",
        "Alpha\nBeta\n",
    )


def _results_readable(bench: Bench) -> None:
    from llm_operator.core.protocol.encoder import ResultForm, encode_results

    run = bench.session.prepare(block("x1", "fs.read", path="a.txt"))
    text = encode_results(bench.session.execute(run, {}), ResultForm.READABLE)
    assert "details_lines: 2\n| Alpha\n| Beta\n" in text


def _fences_and_prose(bench: Bench) -> None:
    fenced = "Here it is:\n```text\n" + block("f1", "fs.read", path="a.txt") + "\n```\n"
    assert one(bench.paste(fenced)).ok
    prose = "I will now send END_OPERATOR_CMD soon.\n" + block("f2", "fs.read", path="a.txt")
    assert one(bench.paste(prose)).ok
    escaped = block("f3", "fs.read", path="a.txt").replace("OPERATOR_CMD\n", "OPERATOR\\_CMD\n", 1)
    assert bench.paste(escaped)[0].code == "ERR_ESCAPED_MARKER"


def _rejection(bench: Bench) -> None:
    result = one(bench.paste(block("k1", "fs.write", path="a.txt", content="x"), False))
    assert result.code == "ERR_REJECTED_BY_USER"
    assert bench.file("a.txt") == "Alpha\nBeta\n"


def _landed_lines(bench: Bench) -> None:
    edits = '{"version":1,"edits":[{"op":"replaceFirst","find":"Beta","text":"Gamma"}]}'
    result = one(bench.paste(block("l1", "fs.applyEdits", path="a.txt", edits_json=edits)))
    assert result.landed == ["# landed in a.txt:", "2: Gamma"]


def _structure_targets(bench: Bench) -> None:
    by_line = one(bench.paste(block("t1", "fs.readStructure", path="m.py", target="def g(self):")))
    assert by_line.ok
    assert "Outer/g" in by_line.summary
    by_symbol = one(bench.paste(block("t2", "fs.readStructure", path="m.py", symbol="Outer/g")))
    assert by_symbol.ok


def _edits_all_or_none(bench: Bench) -> None:
    edits = (
        '{"version":1,"edits":[{"op":"replaceFirst","find":"Alpha","text":"One"},'
        '{"op":"replaceFirst","find":"One","text":"Two"},'
        '{"op":"replaceFirst","find":"Nowhere","text":"x"}]}'
    )
    failed = one(bench.paste(block("a1", "fs.applyEdits", path="a.txt", edits_json=edits)))
    assert failed.code == "ERR_ANCHOR_NOT_FOUND"
    assert bench.file("a.txt") == "Alpha\nBeta\n"
    chained = edits.rsplit(',{"op":"replaceFirst","find":"Nowhere"', 1)[0] + "]}"
    assert one(bench.paste(block("a2", "fs.applyEdits", path="a.txt", edits_json=chained))).ok
    assert bench.file("a.txt") == "Two\nBeta\n"


def _line_edges(bench: Bench) -> None:
    one(bench.paste(block("g1", "fs.write", path="w.txt", content_json='"x\\ny\\n"')))
    assert bench.file("w.txt") == "x\ny\n"
    edits = '{"version":1,"edits":[{"op":"replaceRange","startLine":1,"endLine":1,"text":"X"}]}'
    one(bench.paste(block("g2", "fs.applyEdits", path="w.txt", edits_json=edits)))
    assert bench.file("w.txt") == "X\ny\n"
    # The anchor ends its line: the break is put between them, as the primer says.
    after = '{"version":1,"edits":[{"op":"insertAfter","anchor":"y","text":"z"}]}'
    one(bench.paste(block("g3", "fs.applyEdits", path="w.txt", edits_json=after)))
    assert bench.file("w.txt") == "X\ny\nz\n"
    # Inside a line: exactly as sent, beside the anchor text.
    inside = '{"version":1,"edits":[{"op":"insertBefore","anchor":"z","text":"-"}]}'
    one(bench.paste(block("g4", "fs.applyEdits", path="w.txt", edits_json=inside)))
    assert bench.file("w.txt") == "X\ny\n-\nz\n"
    mid = '{"version":1,"edits":[{"op":"insertAfter","anchor":"X","text":"!"}]}'
    edited = one(bench.paste(block("g5", "fs.applyEdits", path="w.txt", edits_json=mid)))
    assert edited.ok
    assert bench.file("w.txt") == "X\n!\ny\n-\nz\n"
    word = '{"version":1,"edits":[{"op":"insertAfter","anchor":"!","text":"?"}]}'
    one(bench.paste(block("g6", "fs.applyEdits", path="w.txt", edits_json=word)))
    assert bench.file("w.txt") == "X\n!\n?\ny\n-\nz\n"


def _anchor_twice(bench: Bench) -> None:
    """insertAfter/insertBefore refuse an anchor found twice unless occurrence is given."""
    (bench.root / "d.txt").write_text("Beta\nBeta\n", "utf-8")
    for op in ("insertAfter", "insertBefore"):
        edits = f'{{"version":1,"edits":[{{"op":"{op}","anchor":"Beta","text":"\\nX"}}]}}'
        refused = one(
            bench.paste(block(f"{op}-1", "fs.applyEdits", path="d.txt", edits_json=edits))
        )
        assert refused.code == "ERR_INVALID_ANCHOR_OCCURRENCE", refused.summary
        assert "occurrence" in refused.summary
        assert bench.file("d.txt") == "Beta\nBeta\n"
    picked = (
        '{"version":1,"edits":[{"op":"insertAfter","anchor":"Beta","text":"X","occurrence":2}]}'
    )
    assert one(bench.paste(block("pick", "fs.applyEdits", path="d.txt", edits_json=picked))).ok
    assert bench.file("d.txt") == "Beta\nBeta\nX\n"


def _structure_content(bench: Bench) -> None:
    """Blank lines at the content's edges are kept; content is re-indented to its place."""
    content = '"def g(self):\\n    return 20\\n"'
    result = one(
        bench.paste(
            block(
                "c1",
                "fs.replaceStructure",
                path="m.py",
                symbol="Outer/g",
                **{"content_json": content},
            )
        )
    )
    assert result.ok, result.summary
    assert "    def g(self):\n        return 20\n" in bench.file("m.py")
    spaced = one(
        bench.paste(
            block(
                "c2",
                "fs.insertAfterStructure",
                path="m.py",
                symbol="Outer/g",
                content_json='"def h(self):\\n    return 3\\n"',
            )
        )
    )
    assert spaced.ok
    assert "blank line" in spaced.summary
    assert "        return 20\n\n    def h(self):\n        return 3\n" in bench.file("m.py")


def _examples_run(bench: Bench) -> None:
    """The worked examples run verbatim elsewhere (test_primer.py); here: the one read."""
    result = one(bench.paste(block("z1", "fs.readSlice", path="a.txt", start="1", lines="80")))
    assert "1: Alpha" in (result.details or "")


@dataclass(frozen=True)
class Rule:
    id: str
    primer: tuple[str, ...]  # words of the primer's sentences that state it
    spec: tuple[str, ...]  # words of the served spec that state the same rule
    check: Check | None
    why_no_check: str = ""


CONDUCT = "the model's own conduct: nothing the app does could show it"

RULES = (
    Rule(
        "block-shape",
        ("A command block is a line OPERATOR_CMD", "No empty lines, bullets", "Keys exactly"),
        ("ONLY lines of the form", "keys are case-sensitive", "Marker lines MUST be alone"),
        _block_shape,
    ),
    Rule(
        "required-fields-and-path",
        ("Every block has version: 1", "fs.* actions need path", "Never send a workspace"),
        ("MUST include: version: 1", "REQUIRE a path field", "Workspace is NOT part"),
        _path_rules,
    ),
    Rule(
        "ascii-and-json",
        (
            "ASCII only inside blocks",
            "goes in a *_json field",
            "ONE line of JSON",
            "*_b64 (base64 of UTF-8",
            "Never give two forms",
        ),
        ("Use ASCII only inside", "The *_b64 twin", "Give one form of a field"),
        _ascii_and_json,
    ),
    Rule(
        "edge-spaces",
        ("single-line only", "a plain value loses its edge spaces"),
        ("with surrounding spaces removed", "edge spaces matter goes in the"),
        _edge_spaces,
    ),
    Rule(
        "fresh-ids-and-repeats",
        (
            "fresh id for EVERY command",
            "resent with identical content",
            "The same id with different content",
            "user undid",
        ),
        ("marked as a repeat", "runs again on the file as it is now", "ERR_DUPLICATE_ID"),
        _fresh_ids,
    ),
    Rule(
        "read-before-edit",
        ("Read before you edit", "verify with a new read"),
        ("Do NOT guess file contents", "immediately verify the change"),
        None,
        CONDUCT,
    ),
    Rule(
        "claim-only-ok",
        ("Claim nothing until", "got no result did not run"),
        ("Never claim a side effect", "treat the command as not executed"),
        None,
        CONDUCT,
    ),
    Rule(
        "message-order",
        ("Commands run in message order: a read after a write",),
        ("Commands run in message order", "runs after the writes, so it sees the result"),
        _read_after_write,
    ),
    Rule(
        "results-form",
        (
            "Never write result blocks",
            "Results come as OPERATOR_RESULT",
            "END_OPERATOR_RESULT: id, ok, summary",
            "Details follow",
            'N as N lines: "| " + the line',
        ),
        ("You never write OPERATOR_RESULT", "Readable details (the default)"),
        _results_readable,
    ),
    Rule(
        "result-parts",
        ("Long results come in parts",),
        ("Results too long for one chat message arrive in parts",),
        None,
        "held by tests/core/protocol/test_parts.py (the split of real results)",
    ),
    Rule(
        "prose-and-fences",
        ("Never start or end a prose line", "A code fence", "Never escape an underscore"),
        ("Never start or end a prose line", "ERR_ESCAPED_MARKER"),
        _fences_and_prose,
    ),
    Rule(
        "rejected-and-undo",
        ("ERR_REJECTED_BY_USER: the user said no", "Ask what they want", "After an undo"),
        ("a rejected write returns ok: false", "After an undo, the next results"),
        _rejection,
    ),
    Rule(
        "landed-lines",
        ("An ok write's details list the lines that landed",),
        ("Every ok write's details also show what landed",),
        _landed_lines,
    ),
    Rule(
        "structure-targets",
        ("Structure actions name code by its definition line",),
        ("a one-line target that names no top-level", "symbol: a second, short way"),
        _structure_targets,
    ),
    Rule(
        "edits-all-or-none",
        ("fs.applyEdits takes edits_json", "each sees the ones before it"),
        ("first failure aborts and no changes are written", "Each edit sees the result"),
        _edits_all_or_none,
    ),
    Rule(
        "line-edges",
        (
            "fs.write content is the whole file",
            "replaceRange text replaces whole lines",
            "insertAfter/insertBefore text goes in as sent",
        ),
        (
            "overwrites or creates the file",
            "replaceRange text is whole lines",
            'Operator will prepend "\\n"',
            'Operator appends "\\n"',
        ),
        _line_edges,
    ),
    Rule(
        "anchor-twice",
        ("an anchor found twice is refused unless occurrence",),
        ("An anchor found more than once is refused",),
        _anchor_twice,
    ),
    Rule(
        "structure-content",
        (
            "region and structure content keep exactly the blank lines",
            "structure content is re-indented to its place",
        ),
        (
            "keeps exactly the blank lines it starts or ends with",
            "Content is written at zero indent; the app shifts it",
        ),
        _structure_content,
    ),
    Rule(
        "format-example",
        ("FORMAT (a read of lines 1-80",),
        ("Params: start (1-based line, default 1); lines (default 120, max 400)",),
        _examples_run,
    ),
)


def primer_rule_sentences() -> list[str]:
    """The sentences of the primer's rules: HARD RULES and the prose under FORMAT."""
    text = primer_text()
    rules = text[text.index("HARD RULES") : text.index("Ops and their keys:")]
    rules = re.sub(r"OPERATOR_CMD\n(?:.*\n)*?END_OPERATOR_CMD\n-> .*\n", "", rules)
    rules = re.sub(r"^\d+\. ", "", rules, flags=re.MULTILINE).replace("\n", " ")
    # A sentence ends at ". " before a capital letter or a digit (not inside "e.g." or JSON).
    return [s.strip() for s in re.split(r"(?<=[.:])\s+(?=[A-Z*])", rules) if s.strip()]


def test_every_sentence_of_the_primers_rules_is_claimed_by_a_rule() -> None:
    unclaimed = [
        sentence
        for sentence in primer_rule_sentences()
        if sentence not in ("HARD RULES", "Ops and their keys:")
        and not any(words in sentence for rule in RULES for words in rule.primer)
    ]
    assert not unclaimed, "primer sentences without a rule in RULES:\n" + "\n".join(unclaimed)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.id)
def test_the_rule_is_in_the_primer_and_in_the_served_spec(rule: Rule) -> None:
    # Words are compared with every run of spaces and line breaks as one space.
    primer = " ".join(primer_text().split())
    spec = " ".join(interface_spec().split())
    for words in rule.primer:
        words = " ".join(words.split())
        assert words in primer, f"{rule.id}: the primer no longer says {words!r}"
    for words in rule.spec:
        words = " ".join(words.split())
        assert words in spec, f"{rule.id}: the served spec does not say {words!r}"
    assert rule.check is not None or rule.why_no_check


@pytest.mark.parametrize("rule", [r for r in RULES if r.check], ids=lambda rule: rule.id)
def test_the_app_does_what_the_rule_says(rule: Rule, tmp_path: Path, state_dir: Path) -> None:
    root = tmp_path / "ws"
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("Alpha\nBeta\n", "utf-8")
    (root / "sub" / "b.txt").write_text("b\n", "utf-8")
    (root / "m.py").write_text(
        "class Outer:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n",
        "utf-8",
    )
    assert rule.check is not None
    rule.check(Bench(root, Session(Workspace(root), state_dir)))
