"""Re-basing content onto the indentation of its destination.

- The content is shifted by one offset: its base indentation (the common indentation of
  its code lines) is replaced by the destination's. Relative indentation is kept.
- Indent units are measured from structure, never guessed from the smallest indent: a
  file's unit is the step between a definition line and the definitions nested in it
  (so ``/** ... * Docs */`` continuation lines, string contents, C++ access labels and
  continuation alignment never count); content's unit is the step after its block
  openers, measured on code lines only. Only when both are measured, they differ in kind
  (tabs against spaces) or width, and the file's unit is not among the content's steps,
  is each level converted to the file's unit.
- Lines inside multi-line string literals are never changed: a string's value is not
  indentation. When the shift would have moved such lines, a warning says so (the
  plan carries it, so it is read before approval).
  Whitespace-only lines stay as given.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from .boundaries import indent_of
from .source import parse

if TYPE_CHECKING:
    from tree_sitter import Node

    from .languages import LanguageSpec
    from .source import Source

_SAMPLE_PAIRS = 400
# Languages whose preprocessor lines (#if, #region) sit at any column, often column 0.
_DIRECTIVE_LANGUAGES = frozenset({"c", "cpp", "csharp", "swift"})
_DEFAULT_UNIT = "    "


def describe(indent: str) -> str:
    tabs = indent.count("\t")
    spaces = len(indent) - tabs
    parts = [f"{tabs} tab{'s' * (tabs != 1)}"] if tabs else []
    if spaces or not tabs:
        parts.append(f"{spaces} space{'s' * (spaces != 1)}")
    return " + ".join(parts)


def _unit_of(steps: Counter[str]) -> str | None:
    if not steps:
        return None
    tabs = sum(n for step, n in steps.items() if "\t" in step)
    spaces = sum(n for step, n in steps.items() if "\t" not in step)
    if tabs > spaces:
        return "\t"
    widths = Counter({s: n for s, n in steps.items() if "\t" not in s})
    return max(widths, key=lambda s: (widths[s], -len(s)))


def structural_steps(source: Source) -> Counter[str]:
    """Steps between definition lines and the definition lines nested directly in them."""
    from .targeting import children

    steps: Counter[str] = Counter()
    frontier = [(source.root, "", -1)]
    pairs = 0
    while frontier and pairs < _SAMPLE_PAIRS:
        node, indent, row = frontier.pop(0)
        for kid in children(source, node):
            kid_indent = indent_of(source.lines[kid.def_row])
            if row >= 0 and kid.def_row != row and kid_indent.startswith(indent):
                step = kid_indent[len(indent) :]
                if step and set(step) <= {" ", "\t"}:
                    steps[step] += 1
                    pairs += 1
            frontier.append((kid.node, kid_indent, kid.def_row))
    return steps


def detect_unit(lines: list[str], source: Source | None = None) -> str:
    """The file's indent unit, measured from its structures (or its block openers)."""
    if source is not None:
        unit = _unit_of(structural_steps(source))
        if unit is not None:
            return unit
        skipped = frozenset(r for rows in literal_rows(source.root) for r in rows)
        unit = _unit_of(opener_steps(lines, skipped, source.spec.block_openers or ("{",)))
        if unit is not None:
            return unit
    unit = _unit_of(opener_steps(lines, frozenset(), ("{", ":")))
    return unit if unit is not None else _DEFAULT_UNIT


def opener_steps(
    lines: list[str], skipped: frozenset[int], openers: tuple[str, ...]
) -> Counter[str]:
    """Steps from a line ending with a block opener to the next code line, when deeper."""
    steps: Counter[str] = Counter()
    previous: str | None = None
    for row, line in enumerate(lines):
        if row in skipped or not line.strip():
            continue
        if previous is not None:
            before, now = indent_of(previous), indent_of(line)
            if len(now) > len(before) and now.startswith(before):
                steps[now[len(before) :]] += 1
        previous = line if openers and line.rstrip().endswith(openers) else None
    return steps


def literal_rows(root: Node) -> list[range]:
    """Rows that continue a multi-line string or comment (not code, so not measured)."""
    found: list[range] = []
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        first, last = node.start_point.row, node.end_point.row
        if last == first:
            continue
        kind = node.type
        if "string" in kind or "heredoc" in kind or "comment" in kind or kind == "template_literal":
            found.append(range(first + 1, last + 1))
            continue
        stack.extend(node.children)
    return found


# Literals whose line breaks and indentation are not part of their value: Ruby's word
# and symbol arrays (``%w[...]``, ``%i[...]``); a regex with the x flag ignores them too.
_FREE_SPACING = frozenset({"string_array", "symbol_array"})
_REGEX_FLAGS = re.compile(rb"[a-z]*$")


def _free_spacing(node: Node) -> bool:
    if node.type in _FREE_SPACING:
        return True
    if node.type != "regex":
        return False
    text = node.text or b""
    flags = _REGEX_FLAGS.search(text)
    return flags is not None and b"x" in flags.group(0) and len(flags.group(0)) < len(text)


def string_rows(root: Node) -> list[range]:
    """For each multi-line string literal under ``root``, the rows that continue it."""
    found: list[range] = []
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        first, last = node.start_point.row, node.end_point.row
        if last == first:
            continue
        kind = node.type
        if "comment" in kind or _free_spacing(node):
            continue
        if "string" in kind or "heredoc" in kind or kind == "template_literal":
            # The row holding the closing quote alone is still the string's last row.
            found.append(range(first + 1, last + 1))
            continue
        stack.extend(node.children)
    return found


# Members (a constructor, a method) parse as members only inside a class.
_CLASS_WRAPPED = frozenset({"java", "csharp", "php", "kotlin", "swift", "cpp"})


def _parse_content(spec: LanguageSpec, content: str) -> tuple[Node, int]:
    """The tree of a piece of code, and how many rows were put before it to parse it: a
    piece of PHP is code only after ``<?php`` (before, it is all inline text), and a
    member taken out of its class parses as one inside a class (a Java constructor alone
    does not, and its strings' rows would be misread)."""
    head = "<?php\n" if spec.name == "php" and not content.lstrip().startswith("<?") else ""
    root = parse(spec.name, (head + content).encode("utf-8")).root_node
    lead = head.count("\n")
    if root.has_error and spec.name in _CLASS_WRAPPED:
        opened = head + "class Member_ {\n"
        closed = "\n};\n" if spec.name == "cpp" else "\n}\n"
        wrapped = parse(spec.name, (opened + content + closed).encode("utf-8")).root_node
        if not wrapped.has_error:
            return wrapped, opened.count("\n")
    return root, lead


def column_zero_comments(root: Node, spec: LanguageSpec) -> set[int]:
    """Rows of comments that start at column 0 (all their rows), at any depth."""
    found: set[int] = set()
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        if node.type in spec.comment_types:
            if node.start_point.column == 0:
                found.update(range(node.start_point.row, node.end_point.row + 1))
            continue
        stack.extend(node.children)
    return found


@dataclass(frozen=True)
class Rebased:
    """Content shifted onto a new indentation: its lines, and the rows not checked as code."""

    lines: list[str]
    # Rows inside string literals or blank: not code, so not checked for indentation.
    unchecked: frozenset[int]
    # Warnings about lines the shift could not move (string contents).
    notes: tuple[dict[str, Any], ...] = ()


def _common_indent(indents: list[str]) -> str:
    if not indents:
        return ""
    shortest = min(indents, key=len)
    for i, char in enumerate(shortest):
        if any(indent[i] != char for indent in indents):
            return shortest[:i]
    return shortest


def local_unit(lines: list[str], spec: LanguageSpec) -> str | None:
    """The unit a block of lines uses after its own block openers, if it is consistent."""
    return _content_unit(opener_steps(lines, frozenset(), spec.block_openers))


def _content_unit(steps: Counter[str]) -> str | None:
    """The content's unit when its block steps agree (four in five at least)."""
    unit = _unit_of(steps)
    if unit is None or steps[unit] * 5 < sum(steps.values()) * 4:
        return None
    return unit


def _convert(relative: str, unit: str, file_unit: str) -> str:
    if unit == "\t":
        tabs = len(relative) - len(relative.lstrip("\t"))
        return file_unit * tabs + relative[tabs:]
    if "\t" in relative:
        return relative
    levels, remainder = divmod(len(relative), len(unit))
    return file_unit * levels + " " * remainder


class _Rows(NamedTuple):
    """The content's lines that are not shifted like code, by row."""

    strings: frozenset[int]  # inside string literals that keep their bytes
    literal: frozenset[int]  # inside literals whose indentation is content
    verbatim: frozenset[int]  # blank, or a string row: copied as they are
    directives: frozenset[int]  # kept at column 0 (directives, flush comments, heredocs)


def rebase(
    content: str,
    indent: str,
    file_unit: str,
    spec: LanguageSpec,
    *,
    moved: bool = False,
    content_unit: str | None = None,
) -> Rebased:
    """``content`` shifted onto ``indent``.

    ``content_unit`` is the unit of the file the content comes from (a move): it decides
    the conversion instead of the steps measured in the content, so a line indented
    its own way (spaces then a tab, in a file of spaces) keeps it within its own file.

    ``moved`` content is text taken from a file: its string literals keep every byte.
    Content given by the sender is written relative to its own base, so an indented
    string literal (a docstring) follows the code; one with a line at column 0 is
    whitespace-sensitive text written flush left and stays as given.
    """
    lines = content.split("\n")
    rows = _special_rows(content, lines, spec, moved)
    code = [
        line
        for i, line in enumerate(lines)
        if i not in rows.verbatim and i not in rows.literal and i not in rows.directives
    ]
    if _mixes_styles(code):
        return _rebase_mixed(lines, indent, file_unit, rows.verbatim, rows.literal, rows.directives)
    prefix = _common_indent([indent_of(line) for line in code])
    width = len(file_unit) if "\t" not in file_unit else 4
    if (
        moved
        and ("\t" in prefix) != ("\t" in indent)
        and _depth(prefix, width) == _depth(indent, width)
    ):
        # Moved to its own depth in a file that mixes tabs and spaces: every line keeps
        # its own indentation.
        indent = prefix
    steps = opener_steps(
        [line if i not in rows.verbatim else "" for i, line in enumerate(lines)],
        rows.literal,
        spec.block_openers,
    )
    unit = _content_unit(steps) if content_unit is None else content_unit
    # YAML's levels are free (a mapping in a list item aligns with the text after its
    # "- "): converting them from one unit to another would change the structure.
    convert = (
        unit is not None and unit != file_unit and file_unit not in steps and spec.name != "yaml"
    )
    if moved and unit is not None:
        # Moved text keeps its widths (the file's own choice); only tabs against spaces
        # (another file's style) are converted.
        convert = convert and ("\t" in unit) != ("\t" in file_unit)
    out, moved_strings = _shifted(
        lines, rows, indent, prefix, (unit, file_unit) if convert and unit else None
    )
    notes = _strings_note(moved_strings, prefix, indent) if moved_strings else ()
    # Lines that keep their own mix of tabs and spaces are the file's as they were.
    own = frozenset(
        i
        for i, line in enumerate(out)
        if not convert and moved and ("\t" in indent_of(line)) != ("\t" in file_unit)
    )
    return Rebased(out, rows.verbatim | rows.strings | rows.literal | own, notes)


def _special_rows(content: str, lines: list[str], spec: LanguageSpec, moved: bool) -> _Rows:
    strings: set[int] = set()
    literal: set[int] = set()
    flush_comments: set[int] = set()
    if spec.name != "markdown" and "\n" in content:
        root, lead = _parse_content(spec, content)
        for found in string_rows(root):
            rows = range(found.start - lead, found.stop - lead)
            flush_left = any(lines[r].strip() and not indent_of(lines[r]) for r in rows)
            if moved or flush_left:
                strings.update(rows)
        for found in literal_rows(root):
            literal.update(r - lead for r in found)
        flush_comments.update(r - lead for r in column_zero_comments(root, spec))
    verbatim = frozenset(i for i, line in enumerate(lines) if not line.strip() or i in strings)
    first_code = next((i for i, line in enumerate(lines) if line.strip()), 0)
    # Directives inside the structure (``#if DEBUG`` at column 0 in a method) do not set
    # its base; a structure that is itself a directive (``#define``) does. Comments at
    # column 0 (code commented out in a method) are kept at column 0 the same way.
    # So is a code line written at column 0 inside an indented structure (a Ruby
    # ``<<-EOF`` opening a heredoc flush left in a method): placed there on purpose.
    indented = bool(indent_of(lines[first_code])) if lines else False
    directives = frozenset(
        i
        for i, line in enumerate(lines)
        if i != first_code
        and (
            (spec.name in _DIRECTIVE_LANGUAGES and line.lstrip().startswith("#"))
            or i in flush_comments
            or (indented and i not in verbatim and line.strip() and not indent_of(line))
        )
    )
    return _Rows(frozenset(strings), frozenset(literal), verbatim, directives)


def _shifted(
    lines: list[str],
    rows: _Rows,
    indent: str,
    prefix: str,
    units: tuple[str, str] | None,
) -> tuple[list[str], int]:
    """Each line moved from ``prefix`` onto ``indent`` (its relative indentation converted
    from the content's unit to the file's when ``units`` says so), and how many lines of
    string literals stayed as they were."""
    out: list[str] = []
    moved_strings = 0
    for i, line in enumerate(lines):
        if i in rows.verbatim:
            out.append(line)
            moved_strings += i in rows.strings and bool(line.strip())
            continue
        if line.startswith(prefix):
            relative = indent_of(line)[len(prefix) :]
            body = line[len(prefix) + len(relative) :]
        elif i in rows.directives:
            # ``#if`` and friends written left of the code (at column 0) stay there.
            out.append(line)
            continue
        else:
            relative, body = "", line.lstrip(" \t")
        if units is not None:
            relative = _convert(relative, *units)
        out.append(indent + relative + body)
    return out, moved_strings


def _strings_note(moved_strings: int, prefix: str, indent: str) -> tuple[dict[str, Any], ...]:
    if prefix == indent:
        return ()
    return (
        {
            "type": "STRING_NOT_REINDENTED",
            "message": (
                f"{moved_strings} line(s) inside multi-line string literals keep their "
                f"indentation ({describe(prefix)} base) while the code around them moves "
                f"to {describe(indent)}: re-indenting them would change the strings' "
                "values. Check them and adjust the text if the strings should follow the "
                "code."
            ),
            "details": {"lines": moved_strings},
        },
    )


def _mixes_styles(code: list[str]) -> bool:
    return any(line.startswith("\t") for line in code) and any(
        line.startswith(" ") for line in code
    )


def _depth(indent: str, space_unit: int) -> int:
    tabs = len(indent) - len(indent.lstrip("\t"))
    return tabs + (len(indent) - tabs) // space_unit


def _rebase_mixed(
    lines: list[str],
    indent: str,
    file_unit: str,
    verbatim: frozenset[int],
    literal: frozenset[int],
    directives: frozenset[int],
) -> Rebased:
    """Text whose lines mix tab and space indentation (a file edited by people with
    different settings): every line moves by the same number of levels in its own style,
    a tab per level for a tab-indented line, the file's space unit for the others; text
    replaced by itself stays byte-identical."""
    spaces = [indent_of(line) for line in lines if line.startswith(" ")]
    space_unit = len(file_unit) if "\t" not in file_unit else 0
    if not space_unit:
        steps = Counter(s for s in spaces if s)
        space_unit = min((len(s) for s in steps), default=4)
    first = next(i for i, line in enumerate(lines) if line.strip() and i not in verbatim)
    shift = _depth(indent, space_unit) - _depth(indent_of(lines[first]), space_unit)
    out: list[str] = []
    tabbed: set[int] = set()
    for i, line in enumerate(lines):
        if i in verbatim or (i in directives and not line[:1].isspace()):
            out.append(line)
            continue
        own = indent_of(line)
        body = line[len(own) :]
        if own.startswith("\t"):
            tabs = len(own) - len(own.lstrip("\t"))
            out.append("\t" * max(0, tabs + shift) + own[tabs:] + body)
            tabbed.add(i)
        else:
            out.append(" " * max(0, len(own) + shift * space_unit) + body)
    return Rebased(out, verbatim | literal | frozenset(tabbed))


def check_indentation(
    block: Rebased, first_row: int, file_unit: str, spec: LanguageSpec
) -> list[dict[str, Any]]:
    """INDENTATION_INCONSISTENT warnings for the lines just written (after the rebase's
    own notes)."""
    notes = list(block.notes)
    warnings: list[dict[str, Any]] = []
    previous: str | None = None
    for i, line in enumerate(block.lines):
        if i in block.unchecked:
            continue
        indent = indent_of(line)
        expected: str | None = None
        if indent and file_unit == "\t" and indent.startswith(" "):
            expected = "\t" * max(1, len(indent) // 4)
        elif indent and file_unit != "\t" and "\t" in indent:
            expected = indent.replace("\t", file_unit)
        elif previous is not None and spec.block_openers:
            opener = previous.rstrip().endswith(spec.block_openers)
            deeper = indent_of(previous) + file_unit
            if opener and len(indent) > len(indent_of(previous)) and indent != deeper:
                expected = deeper
        if expected is not None and len(warnings) < 5:
            warnings.append(
                {
                    "type": "INDENTATION_INCONSISTENT",
                    "message": (
                        f"line {first_row + i + 1} is indented with {describe(indent)} where "
                        f"the file's style expects {describe(expected)}; check the nesting "
                        "and re-indent the content if it is wrong."
                    ),
                    "details": {
                        "expected_indent": describe(expected),
                        "actual_indent": describe(indent),
                        "line": first_row + i + 1,
                    },
                }
            )
        previous = line
    return notes + warnings
