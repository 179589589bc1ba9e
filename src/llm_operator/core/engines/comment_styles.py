"""Which comment syntax a file uses, so region markers can be written into it and found again.

The table is what ``operator.getCommentStyle`` serves and what the region actions fall back to
when a command names no style. Each language has one resolved key (``ts``, ``python``,
``html``...), which is the ``"language"`` the LLM sees; aliases (``typescript``, ``py``,
``c++``...) and the language's file extensions (without the dot) resolve to that key.

Every language has exactly one style, line or block, even where the language allows both:
markers are found only in the style they were written in, so a second accepted style would
make the same file parse differently depending on who wrote the markers.

This module is imported at CLI start-up: keep its imports to the standard library's cheapest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..errors import OperatorError

LINE = "line"
BLOCK = "block"

# The name a style gets when it comes from comment_* overrides rather than from the table.
CUSTOM = "custom"

_SPEC_FIELDS = "comment_line_prefix, or comment_block_start together with comment_block_end"


@dataclass(frozen=True)
class CommentStyle:
    """One comment syntax: a line prefix, or a block start and end (never both)."""

    language: str
    line_prefix: str | None = None
    block_start: str | None = None
    block_end: str | None = None

    def __post_init__(self) -> None:
        is_line = self.line_prefix is not None
        is_block = self.block_start is not None and self.block_end is not None
        half_block = (self.block_start is None) != (self.block_end is None)
        if is_line == is_block or half_block:
            raise ValueError(f"a comment style is a line prefix or a block pair: {self!r}")
        for part in (self.line_prefix, self.block_start, self.block_end):
            if part is not None and (not part.strip() or part != part.strip()):
                raise ValueError(f"comment delimiters are non-blank and unpadded: {self!r}")

    @property
    def kind(self) -> str:
        return LINE if self.line_prefix is not None else BLOCK

    def to_json(self) -> dict[str, str]:
        if self.line_prefix is not None:
            return {"language": self.language, "type": LINE, "line_prefix": self.line_prefix}
        assert self.block_start is not None
        assert self.block_end is not None
        return {
            "language": self.language,
            "type": BLOCK,
            "block_start": self.block_start,
            "block_end": self.block_end,
        }

    def describe(self) -> str:
        """The style as a reader would write it, for messages: ``'//'`` or ``'<!-- ... -->'``."""
        if self.line_prefix is not None:
            return f"'{self.line_prefix}'"
        return f"'{self.block_start} ... {self.block_end}'"

    def same_syntax(self, other: CommentStyle) -> bool:
        return (self.line_prefix, self.block_start, self.block_end) == (
            other.line_prefix,
            other.block_start,
            other.block_end,
        )


@dataclass(frozen=True)
class _Language:
    """One language of the table: its comment style, its other names, and the extensions and
    file names that default to it."""

    style: CommentStyle
    aliases: tuple[str, ...]
    extensions: tuple[str, ...]
    file_names: tuple[str, ...]


def _line(
    key: str,
    prefix: str,
    aliases: tuple[str, ...] = (),
    ext: tuple[str, ...] = (),
    names: tuple[str, ...] = (),
) -> _Language:
    return _Language(CommentStyle(key, line_prefix=prefix), aliases, ext, names)


def _block(
    key: str,
    start: str,
    end: str,
    aliases: tuple[str, ...] = (),
    ext: tuple[str, ...] = (),
    names: tuple[str, ...] = (),
) -> _Language:
    return _Language(CommentStyle(key, block_start=start, block_end=end), aliases, ext, names)


# Extensions are lower case without the dot; file names are matched case-insensitively.
_LANGUAGES: tuple[_Language, ...] = (
    # "#" line comments
    _line("python", "#", ("python3", "py3"), ("py", "pyi", "pyw")),
    _line(
        "ruby",
        "#",
        (),
        ("rb", "rake", "gemspec"),
        ("Gemfile", "Rakefile", "Vagrantfile", "Podfile"),
    ),
    _line("perl", "#", (), ("pl", "pm")),
    _line(
        "bash",
        "#",
        ("shell", "sh", "zsh", "ksh", "shellscript"),
        ("sh", "bash", "zsh", "ksh"),
        (".bashrc", ".bash_profile", ".zshrc", ".profile"),
    ),
    _line("powershell", "#", ("pwsh", "ps"), ("ps1", "psm1", "psd1")),
    _line("r", "#", ("rlang",), ("r",)),
    _line("julia", "#", (), ("jl",)),
    _line("elixir", "#", (), ("ex", "exs")),
    _line("nix", "#", (), ("nix",)),
    _line("yaml", "#", (), ("yaml", "yml")),
    _line("toml", "#", (), ("toml",)),
    _line("properties", "#", ("java-properties",), ("properties",)),
    _line(
        "dockerfile",
        "#",
        ("docker", "containerfile"),
        ("dockerfile",),
        ("Dockerfile", "Containerfile"),
    ),
    _line(
        "makefile", "#", ("make", "gnumake"), ("mk", "mak"), ("Makefile", "makefile", "GNUmakefile")
    ),
    _line("cmake", "#", (), ("cmake",), ("CMakeLists.txt",)),
    _line("terraform", "#", ("hcl", "tf"), ("tf", "tfvars", "hcl")),
    _line("graphql", "#", (), ("graphql", "gql")),
    # "//" line comments
    _line(
        "js",
        "//",
        ("javascript", "jsx", "node", "nodejs", "ecmascript"),
        ("js", "mjs", "cjs", "jsx"),
    ),
    _line("ts", "//", ("typescript", "tsx"), ("ts", "mts", "cts", "tsx")),
    _line("go", "//", ("golang",), ("go",)),
    _line("rust", "//", (), ("rs",)),
    _line("java", "//", (), ("java",)),
    _line("kotlin", "//", (), ("kt", "kts")),
    _line("swift", "//", (), ("swift",)),
    _line("scala", "//", (), ("scala", "sc")),
    _line("groovy", "//", ("gradle",), ("groovy", "gradle"), ("Jenkinsfile",)),
    _line("c", "//", (), ("c", "h")),
    _line("cpp", "//", ("c++", "cplusplus", "cxx"), ("cpp", "cc", "cxx", "hpp", "hh", "hxx")),
    _line("csharp", "//", ("c#", "cs", "dotnet"), ("cs",)),
    _line("objc", "//", ("objective-c", "objectivec", "obj-c"), ("m", "mm")),
    _line("fsharp", "//", ("f#",), ("fs", "fsx", "fsi")),
    _line("php", "//", (), ("php", "phtml")),
    _line("dart", "//", (), ("dart",)),
    _line("zig", "//", (), ("zig",)),
    _line("solidity", "//", (), ("sol",)),
    _line("protobuf", "//", ("proto",), ("proto",)),
    _line("jsonc", "//", ("json5",), ("jsonc", "json5")),
    _line("scss", "//", ("sass",), ("scss",)),
    _line("less", "//", (), ("less",)),
    # "--" line comments
    _line("sql", "--", ("postgres", "postgresql", "mysql", "sqlite", "plsql"), ("sql",)),
    _line("lua", "--", (), ("lua",)),
    _line("haskell", "--", (), ("hs",)),
    _line("elm", "--", (), ("elm",)),
    # other line comments
    _line("ini", ";", ("cfg",), ("ini", "cfg")),
    _line("clojure", ";", (), ("clj", "cljs", "cljc", "edn")),
    _line(
        "lisp", ";", ("elisp", "emacs-lisp", "common-lisp", "scheme"), ("lisp", "lsp", "el", "scm")
    ),
    _line("latex", "%", ("tex",), ("tex", "sty", "cls")),
    _line("erlang", "%", (), ("erl", "hrl")),
    _line("vim", '"', ("vimscript", "viml"), ("vim",), (".vimrc",)),
    _line("batch", "REM", ("bat", "cmd", "batchfile"), ("bat", "cmd")),
    _line("vb", "'", ("vbnet", "vb.net", "visualbasic", "vbscript"), ("vb", "vbs", "bas")),
    # block comments
    _block("html", "<!--", "-->", (), ("html", "htm", "xhtml")),
    _block("xml", "<!--", "-->", (), ("xml", "svg", "xsd", "xsl", "xslt", "xaml", "plist")),
    _block("markdown", "<!--", "-->", (), ("md", "markdown", "mkd")),
    _block("vue", "<!--", "-->", (), ("vue",)),
    _block("svelte", "<!--", "-->", (), ("svelte",)),
    _block("css", "/*", "*/", (), ("css",)),
    _block("ocaml", "(*", "*)", (), ("ml", "mli")),
)


def _build() -> tuple[dict[str, _Language], dict[str, str], dict[str, str], dict[str, str]]:
    languages: dict[str, _Language] = {}
    aliases: dict[str, str] = {}
    extensions: dict[str, str] = {}
    file_names: dict[str, str] = {}

    def claim(table: dict[str, str], name: str, key: str, what: str) -> None:
        # A name that could mean two languages would make resolution depend on table order.
        if table.get(name, key) != key:
            raise ValueError(f"{what} {name!r} maps to both {table[name]!r} and {key!r}")
        table[name] = key

    for language in _LANGUAGES:
        key = language.style.language
        if key in languages:
            raise ValueError(f"language {key!r} is listed twice")
        languages[key] = language
    for key, language in languages.items():
        for alias in language.aliases:
            if alias in languages and alias != key:
                raise ValueError(f"alias {alias!r} of {key!r} is another language's key")
            claim(aliases, alias, key, "alias")
        for ext in language.extensions:
            claim(extensions, ext, key, "extension")
        for name in language.file_names:
            claim(file_names, name.lower(), key, "file name")
    # An extension is accepted as a language name too ("rs", "md", "yml"), unless the name
    # already means something else.
    for ext, key in extensions.items():
        if ext not in languages and ext not in aliases:
            aliases[ext] = key
    return languages, aliases, extensions, file_names


_BY_KEY, _ALIASES, _EXTENSIONS, _FILE_NAMES = _build()

STYLES: Mapping[str, CommentStyle] = MappingProxyType(
    {key: _BY_KEY[key].style for key in sorted(_BY_KEY)}
)
"""Every supported language's style, keyed by its resolved language key, in key order."""

ALIASES: Mapping[str, str] = MappingProxyType(dict(sorted(_ALIASES.items())))
"""Other accepted language names (aliases and bare extensions) and the key each resolves to."""

EXTENSIONS: Mapping[str, str] = MappingProxyType(dict(sorted(_EXTENSIONS.items())))
"""File extensions (lower case, no dot) and the language key each defaults to."""

FILE_NAMES: Mapping[str, str] = MappingProxyType(dict(sorted(_FILE_NAMES.items())))
"""Special file names (lower case) and the language key each defaults to."""

# Variants such as "Dockerfile.dev" or "Makefile.linux" keep their base name's style.
_FILE_NAME_PREFIXES: tuple[tuple[str, str], ...] = (
    ("dockerfile.", "dockerfile"),
    ("containerfile.", "dockerfile"),
    ("makefile.", "makefile"),
)


def _how_to_choose() -> str:
    return f"pass language (one of the keys listed by operator.getCommentStyle) or {_SPEC_FIELDS}"


def resolve_language(name: str) -> CommentStyle:
    """The table style for a language key, alias or bare extension (case-insensitive)."""
    wanted = name.strip().lower().removeprefix(".")
    key = wanted if wanted in STYLES else ALIASES.get(wanted)
    if key is not None:
        return STYLES[key]
    import difflib  # only on failure: keeps the module's import cheap

    names = [*STYLES, *ALIASES]
    close = difflib.get_close_matches(wanted, names, n=3, cutoff=0.6)
    hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    raise OperatorError(
        "ERR_UNKNOWN_LANGUAGE",
        f"unknown language {name!r}.{hint} Supported languages: {', '.join(STYLES)}. "
        f"Common aliases (typescript, py, c++, yml...) are accepted too; call "
        f"operator.getCommentStyle for the full table, or send {_SPEC_FIELDS} instead.",
        {"language": name, "supported": list(STYLES), "suggestions": close},
    )


def style_for_path(path: str) -> CommentStyle | None:
    """The default style for a file, from its special name or its extension; None if unknown."""
    name = path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].lower()
    key = _FILE_NAMES.get(name)
    if key is None:
        key = next((k for prefix, k in _FILE_NAME_PREFIXES if name.startswith(prefix)), None)
    if key is None and "." in name.lstrip("."):
        key = _EXTENSIONS.get(name.rsplit(".", 1)[1])
    return STYLES[key] if key is not None else None


def all_styles_json() -> dict[str, list[dict[str, Any]]]:
    """The ``operator.getCommentStyle`` payload without a language, in key order.

    Each entry is the single-style object plus ``aliases``, ``extensions`` and ``file_names``,
    so the LLM can see which files get which style by default.
    """
    styles: list[dict[str, Any]] = []
    for key, style in STYLES.items():
        entry: dict[str, Any] = dict(style.to_json())
        entry["aliases"] = sorted(
            a for a, k in ALIASES.items() if k == key and a not in _BY_KEY[key].extensions
        )
        entry["extensions"] = ["." + ext for ext in _BY_KEY[key].extensions]
        entry["file_names"] = list(_BY_KEY[key].file_names)
        styles.append(entry)
    return {"styles": styles}


def _given(field: str, value: str | None) -> str | None:
    """An override value as sent, stripped; None when absent. A blank one is an error."""
    if value is None:
        return None
    if not value.strip():
        raise OperatorError(
            "ERR_INVALID_COMMENT_STYLE",
            f"{field} is empty; send a non-empty delimiter such as '//' or '#', "
            "or leave the field out",
            {"field": field},
        )
    if "\n" in value or "\r" in value:
        raise OperatorError(
            "ERR_INVALID_COMMENT_STYLE",
            f"{field} contains a line break; a comment delimiter is a few characters on one line",
            {"field": field},
        )
    return value.strip()


def _override(
    line_prefix: str | None, block_start: str | None, block_end: str | None
) -> CommentStyle | None:
    line_prefix = _given("comment_line_prefix", line_prefix)
    block_start = _given("comment_block_start", block_start)
    block_end = _given("comment_block_end", block_end)
    if line_prefix is not None and (block_start is not None or block_end is not None):
        block_fields = [
            field
            for field, value in (
                ("comment_block_start", block_start),
                ("comment_block_end", block_end),
            )
            if value is not None
        ]
        raise OperatorError(
            "ERR_INVALID_COMMENT_STYLE",
            f"comment_line_prefix was sent together with {' and '.join(block_fields)}; a file's "
            "markers use one comment style: send comment_line_prefix alone (e.g. '//'), or "
            "comment_block_start and comment_block_end together (e.g. '<!--' and '-->')",
            {"fields": ["comment_line_prefix", *block_fields]},
        )
    if (block_start is None) != (block_end is None):
        sent, missing = (
            ("comment_block_start", "comment_block_end")
            if block_start is not None
            else ("comment_block_end", "comment_block_start")
        )
        raise OperatorError(
            "ERR_INVALID_COMMENT_STYLE",
            f"{sent} was sent without {missing}; a block comment style needs both "
            "comment_block_start and comment_block_end (e.g. '/*' and '*/'), "
            "or send comment_line_prefix alone for line comments",
            {"fields": [sent], "missing": missing},
        )
    if line_prefix is not None:
        return CommentStyle(CUSTOM, line_prefix=line_prefix)
    if block_start is not None and block_end is not None:
        return CommentStyle(CUSTOM, block_start=block_start, block_end=block_end)
    return None


def resolve_comment_style(
    path: str,
    *,
    comment_line_prefix: str | None = None,
    comment_block_start: str | None = None,
    comment_block_end: str | None = None,
    language: str | None = None,
) -> CommentStyle:
    """The style a region command uses for ``path``.

    Precedence: explicit comment_* overrides, then ``language``, then the file's name or
    extension. An override sent together with a language must agree with that language's
    style (the result then carries the language key); a language that is sent is always
    checked, even when an override makes it redundant.
    """
    override = _override(comment_line_prefix, comment_block_start, comment_block_end)
    named = resolve_language(language) if language is not None else None
    if override is not None and named is not None:
        if not override.same_syntax(named):
            raise OperatorError(
                "ERR_INVALID_COMMENT_STYLE",
                f"language {language!r} uses {named.kind} comments {named.describe()}, but the "
                f"comment_* fields ask for {override.kind} comments {override.describe()}; "
                "send only language, or only the comment_* fields",
                {"language": named.language, "override": override.to_json()},
            )
        return named
    if override is not None:
        return override
    if named is not None:
        return named
    by_path = style_for_path(path)
    if by_path is not None:
        return by_path
    raise OperatorError(
        "ERR_COMMENT_STYLE_REQUIRED",
        f"no default comment style for {path!r} (its name or extension is not in the table); "
        f"{_how_to_choose()}. Call operator.getCommentStyle to see the supported languages.",
        {"path": path},
    )
