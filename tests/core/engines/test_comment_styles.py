from __future__ import annotations

import json

import pytest

from llm_operator.core.engines.comment_styles import (
    ALIASES,
    CUSTOM,
    EXTENSIONS,
    FILE_NAMES,
    STYLES,
    CommentStyle,
    all_styles_json,
    resolve_comment_style,
    resolve_language,
    style_for_path,
)
from llm_operator.core.errors import OperatorError


def _error(excinfo: pytest.ExceptionInfo[OperatorError]) -> OperatorError:
    return excinfo.value


# --- the table ---------------------------------------------------------------------------


def test_table_covers_the_common_languages() -> None:
    wanted = {
        "python", "js", "ts", "go", "rust", "java", "c", "cpp", "csharp", "ruby", "php",
        "bash", "html", "xml", "css", "scss", "sql", "lua", "yaml", "toml", "markdown",
        "kotlin", "swift", "r", "perl", "haskell", "ini", "dockerfile", "makefile", "vue",
        "svelte",
    }  # fmt: skip
    assert wanted <= set(STYLES)
    assert len(STYLES) >= 25


def test_every_style_is_keyed_by_its_own_language() -> None:
    for key, style in STYLES.items():
        assert style.language == key


def test_every_alias_extension_and_file_name_points_at_a_key() -> None:
    for table in (ALIASES, EXTENSIONS, FILE_NAMES):
        assert table
        assert set(table.values()) <= set(STYLES)
    # An alias that is another language's key would make that key unreachable.
    assert not set(ALIASES) & set(STYLES)


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("typescript", "ts"),
        ("TypeScript", "ts"),
        ("tsx", "ts"),
        ("py", "python"),
        (".py", "python"),
        ("javascript", "js"),
        ("jsx", "js"),
        ("c++", "cpp"),
        ("c#", "csharp"),
        ("shell", "bash"),
        ("sh", "bash"),
        ("zsh", "bash"),
        ("yml", "yaml"),
        ("md", "markdown"),
        ("rs", "rust"),
        ("golang", "go"),
        (" python ", "python"),
    ],
)
def test_aliases_resolve_to_the_key(name: str, key: str) -> None:
    assert resolve_language(name) is STYLES[key]


def test_unknown_language_lists_the_supported_keys_and_a_suggestion() -> None:
    with pytest.raises(OperatorError) as excinfo:
        resolve_language("pyhton")
    error = _error(excinfo)
    assert error.code == "ERR_UNKNOWN_LANGUAGE"
    assert "'python'" in error.message  # the suggestion
    for key in ("python", "ts", "html", "yaml"):
        assert key in error.details["supported"]
        assert key in error.message
    assert "operator.getCommentStyle" in error.message


def test_empty_language_is_unknown() -> None:
    with pytest.raises(OperatorError, match="ERR_UNKNOWN_LANGUAGE"):
        resolve_language("")


# --- operator.getCommentStyle payloads -----------------------------------------------------


def test_single_style_json_uses_the_resolved_key() -> None:
    assert resolve_language("typescript").to_json() == {
        "language": "ts",
        "type": "line",
        "line_prefix": "//",
    }
    assert resolve_language("HTML").to_json() == {
        "language": "html",
        "type": "block",
        "block_start": "<!--",
        "block_end": "-->",
    }
    assert resolve_language("python").to_json()["line_prefix"] == "#"
    assert resolve_language("css").to_json()["block_start"] == "/*"
    assert resolve_language("markdown").to_json()["block_end"] == "-->"


def test_all_styles_json_is_complete_ordered_and_serialisable() -> None:
    payload = all_styles_json()
    assert list(payload) == ["styles"]
    styles = payload["styles"]
    keys = [entry["language"] for entry in styles]
    assert keys == sorted(STYLES)
    assert json.dumps(payload) == json.dumps(all_styles_json())
    for entry in styles:
        # Each entry is the single-style object plus the mapping that leads to it.
        style_part = {
            k: v
            for k, v in entry.items()
            if k in {"language", "type", "line_prefix", "block_start", "block_end"}
        }
        assert style_part == STYLES[entry["language"]].to_json()
        assert set(entry) - set(style_part) == {"aliases", "extensions", "file_names"}
    ts = next(entry for entry in styles if entry["language"] == "ts")
    assert "typescript" in ts["aliases"]
    assert ".tsx" in ts["extensions"]
    docker = next(entry for entry in styles if entry["language"] == "dockerfile")
    assert "Dockerfile" in docker["file_names"]


# --- default style by path ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("src/app.tsx", "ts"),
        ("src/app.TS", "ts"),
        ("lib/x.py", "python"),
        ("dir\\win.py", "python"),
        ("Dockerfile", "dockerfile"),
        ("deploy/Dockerfile.prod", "dockerfile"),
        ("build/app.dockerfile", "dockerfile"),
        ("Makefile", "makefile"),
        ("GNUmakefile", "makefile"),
        ("CMakeLists.txt", "cmake"),
        ("analysis/model.R", "r"),
        ("README.md", "markdown"),
        ("web/index.html", "html"),
        ("web/site.css", "css"),
        ("conf/app.yml", "yaml"),
        ("setup.cfg", "ini"),
        ("scripts/run.bat", "batch"),
        ("home/.bashrc", "bash"),
        ("Gemfile", "ruby"),
    ],
)
def test_style_for_path(path: str, key: str) -> None:
    assert style_for_path(path) is STYLES[key]


@pytest.mark.parametrize("path", ["data.json", "notes.txt", "LICENSE", ".gitignore", "a/b/"])
def test_style_for_path_unknown(path: str) -> None:
    assert style_for_path(path) is None


# --- resolve_comment_style: precedence -----------------------------------------------------


def test_path_extension_is_the_default() -> None:
    assert resolve_comment_style("a.py") is STYLES["python"]


def test_language_beats_the_extension() -> None:
    assert resolve_comment_style("a.py", language="sql") is STYLES["sql"]


def test_line_override_beats_language_free_extension() -> None:
    style = resolve_comment_style("a.py", comment_line_prefix="//")
    assert style == CommentStyle(CUSTOM, line_prefix="//")


def test_block_override_beats_the_extension() -> None:
    style = resolve_comment_style("a.py", comment_block_start="{#", comment_block_end="#}")
    assert style.to_json() == {
        "language": CUSTOM,
        "type": "block",
        "block_start": "{#",
        "block_end": "#}",
    }


def test_override_resolves_a_file_with_no_default() -> None:
    assert resolve_comment_style("notes.txt", comment_line_prefix=" ; ").line_prefix == ";"


def test_override_agreeing_with_language_keeps_the_language_key() -> None:
    style = resolve_comment_style("x.txt", comment_line_prefix="#", language="py")
    assert style is STYLES["python"]
    style = resolve_comment_style(
        "x.txt", comment_block_start="<!--", comment_block_end="-->", language="html"
    )
    assert style is STYLES["html"]


# --- resolve_comment_style: errors ---------------------------------------------------------


def _invalid(**fields: str | None) -> OperatorError:
    with pytest.raises(OperatorError) as excinfo:
        resolve_comment_style("a.py", **fields)
    error = _error(excinfo)
    assert error.code == "ERR_INVALID_COMMENT_STYLE"
    return error


def test_block_start_without_end() -> None:
    error = _invalid(comment_block_start="/*")
    assert "comment_block_start was sent without comment_block_end" in error.message


def test_block_end_without_start() -> None:
    error = _invalid(comment_block_end="*/")
    assert "comment_block_end was sent without comment_block_start" in error.message


def test_line_prefix_with_block_fields() -> None:
    error = _invalid(comment_line_prefix="//", comment_block_start="/*", comment_block_end="*/")
    assert "comment_line_prefix was sent together with comment_block_start and" in error.message
    assert "send comment_line_prefix alone" in error.message


def test_line_prefix_with_half_a_block() -> None:
    error = _invalid(comment_line_prefix="//", comment_block_end="*/")
    assert error.details["fields"] == ["comment_line_prefix", "comment_block_end"]


def test_override_contradicting_language() -> None:
    error = _invalid(comment_line_prefix="//", language="python")
    assert "'#'" in error.message
    assert "'//'" in error.message
    assert "send only language, or only the comment_* fields" in error.message


def test_block_override_contradicting_line_language() -> None:
    error = _invalid(comment_block_start="/*", comment_block_end="*/", language="go")
    assert "line comments" in error.message


@pytest.mark.parametrize("value", ["", "   "])
def test_blank_override_is_invalid(value: str) -> None:
    error = _invalid(comment_line_prefix=value)
    assert "comment_line_prefix is empty" in error.message


def test_override_with_line_break_is_invalid() -> None:
    error = _invalid(comment_block_start="/*\n", comment_block_end="*/")
    assert "line break" in error.message


def test_unknown_language_is_refused_even_with_an_override() -> None:
    with pytest.raises(OperatorError) as excinfo:
        resolve_comment_style("a.txt", comment_line_prefix="#", language="klingon")
    assert _error(excinfo).code == "ERR_UNKNOWN_LANGUAGE"


def test_nothing_resolves() -> None:
    with pytest.raises(OperatorError) as excinfo:
        resolve_comment_style("data/notes.txt")
    error = _error(excinfo)
    assert error.code == "ERR_COMMENT_STYLE_REQUIRED"
    for needed in (
        "language",
        "comment_line_prefix",
        "comment_block_start",
        "comment_block_end",
        "operator.getCommentStyle",
        "data/notes.txt",
    ):
        assert needed in error.message


# --- the value type ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"line_prefix": "#", "block_start": "/*", "block_end": "*/"},
        {"block_start": "/*"},
        {"line_prefix": ""},
        {"line_prefix": " #"},
    ],
)
def test_comment_style_refuses_impossible_values(fields: dict[str, str]) -> None:
    with pytest.raises(ValueError, match="comment"):
        CommentStyle("x", **fields)


def test_kind_and_describe() -> None:
    assert STYLES["go"].kind == "line"
    assert STYLES["css"].kind == "block"
    assert STYLES["css"].describe() == "'/* ... */'"
