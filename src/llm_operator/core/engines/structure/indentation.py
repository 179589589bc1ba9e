"""Re-basing content written at zero indent onto the indentation of its destination.

- The content's common leading indentation is removed, then the destination's added.
- Relative indentation is kept. When the content indents consistently with another unit
  than the file (tabs against spaces, 2 against 4 spaces), each level is converted to the
  file's unit, which is measured from the file itself.
- A multi-line string with a continuation line at column 0 is whitespace-sensitive text
  written flush left: all its continuation lines stay exactly as given. Other strings
  (indented docstrings) move with the code. Whitespace-only lines stay as given.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .boundaries import indent_of
from .source import parser_for

if TYPE_CHECKING:
    from tree_sitter import Node

    from .languages import LanguageSpec

_SAMPLE_LINES = 4000


def describe(indent: str) -> str:
    tabs = indent.count("\t")
    spaces = len(indent) - tabs
    parts = [f"{tabs} tab{'s' * (tabs != 1)}"] if tabs else []
    if spaces or not tabs:
        parts.append(f"{spaces} space{'s' * (spaces != 1)}")
    return " + ".join(parts)


def detect_unit(lines: list[str]) -> str:
    """The file's indent unit: a tab, or the most common step between indented lines."""
    tabs = spaces = 0
    steps: Counter[int] = Counter()
    previous = 0
    for line in lines[:_SAMPLE_LINES]:
        indent = indent_of(line)
        if len(indent) == len(line):
            continue
        if indent.startswith("\t"):
            tabs += 1
            continue
        if indent:
            spaces += 1
        if 0 < len(indent) - previous <= 8:
            steps[len(indent) - previous] += 1
        previous = len(indent)
    if tabs > spaces:
        return "\t"
    if steps:
        return " " * max(steps, key=lambda step: (steps[step], -step))
    return "    "


def _content_unit(indents: list[str]) -> str | None:
    """The content's own unit, or None when it is absent or inconsistent."""
    if any("\t" in i for i in indents):
        return "\t" if all(set(i) <= {"\t"} for i in indents) else None
    widths = {len(i) for i in indents}
    if not widths:
        return None
    step = min(widths)
    return " " * step if all(w % step == 0 for w in widths) else None


def _common_indent(indents: list[str]) -> str:
    if not indents:
        return ""
    shortest = min(indents, key=len)
    for i, char in enumerate(shortest):
        if any(indent[i] != char for indent in indents):
            return shortest[:i]
    return shortest


def _convert(line: str, unit: str, file_unit: str) -> str:
    indent = indent_of(line)
    if unit == "\t":
        levels, rest = len(indent), ""
    elif "\t" in indent:
        return line
    else:
        levels, remainder = divmod(len(indent), len(unit))
        rest = " " * remainder
    return file_unit * levels + rest + line[len(indent) :]


def string_rows(spec: LanguageSpec, text: str) -> list[range]:
    """For each multi-line string literal in ``text``, the rows that continue it."""
    if spec.name == "markdown" or "\n" not in text:
        return []
    found: list[range] = []
    stack: list[Node] = [parser_for(spec.name).parse(text.encode("utf-8")).root_node]
    while stack:
        node = stack.pop()
        first, last = node.start_point.row, node.end_point.row
        if last == first:
            continue
        if "string" in node.type or "heredoc" in node.type:
            found.append(range(first + 1, last + 1))
            continue
        stack.extend(node.children)
    return found


@dataclass(frozen=True)
class Rebased:
    lines: list[str]
    # Rows inside string literals or blank: not code, so not checked for indentation.
    unchecked: frozenset[int]


def rebase(content: str, indent: str, file_unit: str, spec: LanguageSpec) -> Rebased:
    lines = content.split("\n")
    continued: set[int] = set()
    flush_left: set[int] = set()
    for rows in string_rows(spec, content):
        continued.update(rows)
        if any(lines[r].strip() and not indent_of(lines[r]) for r in rows):
            flush_left.update(rows)
    verbatim = frozenset(i for i, line in enumerate(lines) if not line.strip() or i in flush_left)
    code = [line for i, line in enumerate(lines) if i not in verbatim]
    prefix = _common_indent([indent_of(line) for line in code])
    relative = [
        line[len(prefix) :]
        for i, line in enumerate(lines)
        if i not in verbatim and i not in continued
    ]
    unit = _content_unit([i for i in map(indent_of, relative) if i])
    convert = unit is not None and unit != file_unit
    out: list[str] = []
    for i, line in enumerate(lines):
        if i in verbatim:
            out.append(line)
            continue
        body = line[len(prefix) :] if line.startswith(prefix) else line.lstrip(" \t")
        out.append(indent + (_convert(body, unit, file_unit) if convert and unit else body))
    return Rebased(out, verbatim | continued)


def check_indentation(
    block: Rebased, first_row: int, file_unit: str, spec: LanguageSpec
) -> list[dict[str, Any]]:
    """INDENTATION_INCONSISTENT warnings for the lines just written."""
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
    return warnings
