"""Hostile ``*_json`` values in real ``exec`` runs: each refusal costs its own block only,
names what to fix, and leaves the files as they were (never a traceback)."""

from __future__ import annotations

from pathlib import Path

from support.actions import b64, cli
from support.fixtures import Decoded, cmd, parse_results, reply

DEEP = "[" * 1000 + "]" * 1000


def run(root: Path, state: Path, *blocks: str) -> list[Decoded]:
    done = cli("exec", "--workspace", root, "--state-dir", state, "--yes", stdin=reply(*blocks))
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stderr
    return parse_results(done.stdout)


def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.txt").write_text("Alpha\nBeta\n", encoding="utf-8")
    return root


def test_deeply_nested_json_is_refused_for_its_block_only(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    deep_edits = '{"edits":' + DEEP + "}"
    results = run(
        root,
        tmp_path / "s",
        cmd("w1", "fs.write", path="new.txt", content_json=DEEP),
        cmd("e1", "fs.applyEdits", path="a.txt", edits_json=DEEP),
        cmd("e2", "fs.applyEdits", path="a.txt", edits_json=deep_edits),
        cmd("e3", "fs.applyEdits", path="a.txt", edits_b64=b64(deep_edits)),
        cmd("r1", "fs.read", path="a.txt"),
    )
    assert [r.id for r in results] == ["w1", "e1", "e2", "e3", "r1"]
    assert [r.code for r in results[:3]] == ["ERR_INVALID_JSON"] * 3
    assert results[3].code == "ERR_INVALID_EDITS_JSON"
    for result in results[:4]:
        assert "too deeply" in result.summary, result.summary
    assert results[4].ok
    assert results[4].details == "Alpha\nBeta\n"
    assert not (root / "new.txt").exists()


def test_a_lone_surrogate_in_edit_texts_is_refused_naming_its_place(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    literal = '{"version":1,"edits":[{"op":"replaceFirst","find":"Alpha","text":"x\\ud800y"}]}'
    template = (
        '{"version":1,"edits":[{"op":"replaceAll","find":"B.ta","regex":true,'
        '"text":"\\\\g<0>\\ud800"}]}'
    )
    results = run(
        root,
        tmp_path / "s",
        cmd("e1", "fs.applyEdits", path="a.txt", edits_json=literal),
        cmd("e2", "fs.applyEdits", path="a.txt", edits_json=template),
        cmd("e3", "fs.applyEdits", path="a.txt", edits_b64=b64(literal)),
    )
    assert [r.code for r in results] == ["ERR_INVALID_EDITS_JSON"] * 3, results
    assert "edits[0].text holds a lone surrogate \\ud800 at character 2" in results[0].summary
    assert "edits[0].text holds a lone surrogate \\ud800 at character 6" in results[1].summary
    assert "edits[0].text holds a lone surrogate" in results[2].summary
    assert (root / "a.txt").read_text(encoding="utf-8") == "Alpha\nBeta\n"


def test_a_key_given_twice_in_an_edit_list_is_refused(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    twice_find = (
        '{"version":1,"edits":[{"op":"replaceFirst","find":"Alpha","find":"Beta","text":"x"}]}'
    )
    twice_edits = (
        '{"version":1,"edits":[{"op":"replaceFirst","find":"Alpha","text":"x"}],'
        '"edits":[{"op":"replaceFirst","find":"Beta","text":"y"}]}'
    )
    results = run(
        root,
        tmp_path / "s",
        cmd("e1", "fs.applyEdits", path="a.txt", edits_json=twice_find),
        cmd("e2", "fs.applyEdits", path="a.txt", edits_json=twice_edits),
        cmd("e3", "fs.applyEdits", path="a.txt", edits_b64=b64(twice_find)),
    )
    assert [r.code for r in results] == ["ERR_INVALID_EDITS_JSON"] * 3, results
    assert "the key 'find' is given twice" in results[0].summary
    assert "the key 'edits' is given twice" in results[1].summary
    assert "the key 'find' is given twice" in results[2].summary
    assert (root / "a.txt").read_text(encoding="utf-8") == "Alpha\nBeta\n"


def test_advice_for_a_file_over_2_mb_says_what_really_works(tmp_path: Path) -> None:
    root = workspace(tmp_path)
    with (root / "big.log").open("wb") as big:
        big.truncate(2_000_001)
    (root / "huge.log").write_bytes(b"x\n" * 5_500_000)  # 11 MB: over what writes handle
    (root / "mid.txt").write_bytes(b"y\n" * 150_000)  # 300 KB: fs.readSlice reads it
    results = run(
        root,
        tmp_path / "s",
        cmd("r1", "fs.read", path="big.log"),
        cmd("r2", "fs.readSlice", path="big.log", start="1", lines="10"),
        cmd("r3", "fs.search", path="big.log", query="x"),
        cmd("e1", "fs.applyEdits", path="huge.log", edits_json=edits_one("x", "z")),
        cmd("r4", "fs.read", path="mid.txt"),
        cmd("r5", "fs.readSlice", path="mid.txt", start="1", lines="2"),
    )
    for result in results[:4]:
        assert result.code == "ERR_FILE_TOO_LARGE", result.summary
        assert "Use fs.readSlice" not in result.summary
        assert "readSlice reads parts" not in result.summary
        assert "ask the user for the part you need" in result.summary, result.summary
    assert results[4].summary == "File too large for fs.read (300000 bytes). Use fs.readSlice."
    assert results[5].ok, results[5].summary
    assert (root / "huge.log").stat().st_size == 11_000_000


def edits_one(find: str, text: str) -> str:
    import json

    edit = {"op": "replaceAll", "find": find, "text": text}
    return json.dumps({"version": 1, "edits": [edit]})


def test_json_numbers_and_constants_python_cannot_hold_are_refused_by_name(
    tmp_path: Path,
) -> None:
    """Python converts at most 4,300 digits and takes NaN for JSON: each is a named
    refusal of its own block (never ERR_INTERNAL), in every field that reads JSON."""
    root = workspace(tmp_path)
    huge = "9" * 5000
    in_edits = (
        '{"version":1,"edits":[{"op":"replaceFirst","find":"Alpha","text":"x","startLine":'
        + huge
        + "}]}"
    )
    results = run(
        root,
        tmp_path / "s",
        cmd("w1", "fs.write", path="new.txt", content_json=huge),
        cmd("e1", "fs.applyEdits", path="a.txt", edits_json=huge),
        cmd("q1", "fs.search", path="a.txt", query_json=huge),
        cmd("e2", "fs.applyEdits", path="a.txt", edits_json=in_edits),
        cmd("e3", "fs.applyEdits", path="a.txt", edits_b64=b64(in_edits)),
        cmd("w2", "fs.write", path="new.txt", content_json="NaN"),
        cmd("r1", "fs.read", path="a.txt"),
    )
    assert [r.code for r in results[:6]] == ["ERR_INVALID_JSON"] * 4 + [
        "ERR_INVALID_EDITS_JSON",
        "ERR_INVALID_JSON",
    ], results
    for result, field in zip(
        results[:4], ["content_json", "edits_json", "query_json", "edits_json"], strict=True
    ):
        assert f"{field} cannot be read: a number has 5000 digits" in result.summary
    assert "the edits cannot be read: a number has 5000 digits" in results[4].summary
    assert "NaN is not JSON" in results[5].summary
    assert results[6].ok
    assert not (root / "new.txt").exists()
    assert (root / "a.txt").read_text(encoding="utf-8") == "Alpha\nBeta\n"
