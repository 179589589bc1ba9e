"""How Markdown structures are named.

A section is named by its heading line (``## Install``), a list item by its text after the
marker (``Install the tools``, or the whole line ``- Install the tools``), a code block by
its language tag (``python``), its fence line or its first line of code, and a blockquote
by its first line with or without the ``>`` marker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


def _after(line: bytes, column: int) -> str:
    return line[column:].decode("utf-8", errors="replace").strip()


def markdown_keys(node: Node, lines: list[str], def_row: int) -> tuple[str, ...]:
    line = lines[def_row]
    keys = [line.strip()]
    raw = line.encode("utf-8")
    if node.type == "section":
        heading = node.named_children[0] if node.named_children else None
        if heading is not None and heading.type == "setext_heading":
            keys = [lines[heading.start_point.row].strip()]
    elif node.type == "list_item":
        marker = next((c for c in node.children if c.type.startswith("list_marker")), None)
        if marker is not None and marker.end_point.row == def_row:
            keys.insert(0, _after(raw, marker.end_point.column))
    elif node.type == "block_quote":
        keys.append(line.strip().lstrip(">").strip())
    elif node.type == "fenced_code_block":
        info = next((c for c in node.named_children if c.type == "info_string"), None)
        if info is not None:
            keys.insert(0, _text(info).strip())
            language = next((c for c in info.named_children if c.type == "language"), None)
            if language is not None:
                keys.insert(0, _text(language))
        content = next((c for c in node.named_children if c.type == "code_fence_content"), None)
        if content is not None and content.start_point.row < len(lines):
            keys.append(lines[content.start_point.row].strip())
    return tuple(k for k in dict.fromkeys(keys) if k)
