"""Which structures are definitions a reader navigates by, and which statements are
looked through on the way to them. The outline lists the first; targets look through the
second as the outline does, so every line the outline shows names its structure."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from .source import Source

# Node types that define something a reader navigates by, across the grammars: classes,
# functions, methods, types, modules. Other statements are looked through, so a def
# inside ``if TYPE_CHECKING:`` or ``#ifdef`` still shows, at the level of its parent.
# A type defines when one of its "_"-separated words is a definition word, or it is one
# of the definition types; sets, not a regular expression, which would be compiled at
# every start (a test holds these to the expressions they replace, over every node type
# of every grammar).
_DEFINITION_WORDS = frozenset(
    {
        "class",
        "function",
        "method",
        "constructor",
        "interface",
        "struct",
        "enum",
        "trait",
        "impl",
        "module",
        "namespace",
        "protocol",
        "extension",
        "union",
        "record",
        "singleton",
        "mod",
    }
)
_DEFINITION_TYPES = frozenset(
    {
        "type_alias",
        "type_spec",
        "type_alias_declaration",
        "companion_object",
        "object_declaration",
        "type_item",
        "type_declaration",
        "type_definition",
        "annotation_type_declaration",
        "macro_definition",
        "decorated_definition",
        "template_declaration",
    }
)
# Expressions that merely mention a definition word (``struct_expression``, a Ruby
# ``simple_symbol``) define nothing: any ``*_expression`` but function, class and
# generator ones, and calls, invocations, identifiers, literals, patterns and arguments.
_EXPRESSION_DEFINES = ("function", "class", "generator")
_NEVER_DEFINES = (
    "_call_expression",
    "_invocation",
    "_identifier",
    "_literal",
    "_pattern",
    "_call",
    "_argument",
    "_arguments",
)
# Languages whose structures are data (keys, rules, elements): every structure shows.
_DATA_LANGUAGES = frozenset({"json", "yaml", "toml", "css", "html"})
_WRAPPER_DEPTH = 3
# What a statement returns or throws is a value, not a definition of the file.
_NEVER_WRAPS = frozenset({"return_statement", "throw_statement"})
_OBJECT_LITERALS = frozenset({"object"})


_TYPE_DEFINES: dict[str, bool] = {}
# Only in these grammars do definitions hide inside wrappers (``export class``,
# ``const f = () => ...``, ``describe("x", () => ...)``); elsewhere the node type says it.
_WRAPPING_LANGUAGES = frozenset({"javascript", "typescript", "tsx"})


def _type_defines(kind: str) -> bool:
    known = _TYPE_DEFINES.get(kind)
    if known is None:
        named = kind in _DEFINITION_TYPES or not _DEFINITION_WORDS.isdisjoint(kind.split("_"))
        mention = kind.endswith(_NEVER_DEFINES) or (
            kind.endswith("_expression") and not kind.startswith(_EXPRESSION_DEFINES)
        )
        known = _TYPE_DEFINES[kind] = named and not mention
    return known


def _defines(node: Node, containers: frozenset[str], reach: int) -> bool:
    """Whether ``node`` is a definition, or wraps one near its top, never looking into a
    body (``if X:`` is no definition)."""
    if _type_defines(node.type):
        return True
    if reach == 0 or node.type in _NEVER_WRAPS:
        return False
    for child in node.named_children[:4]:
        if not child.child_count:
            continue
        if child.type in containers:
            if child.type in _OBJECT_LITERALS and _has_members(child):
                return True
            continue
        if _defines(child, containers, reach - 1):
            return True
    return False


def _has_members(literal: Node) -> bool:
    """Whether an object literal holds a method, accessor or function-valued key (the
    members of ``module.exports = { get header() {...} }``), which the outline lists."""
    for member in literal.named_children:
        if _type_defines(member.type):
            return True
        value = member.child_by_field_name("value") if member.type == "pair" else None
        if value is not None and _type_defines(value.type):
            return True
    return False


def _holds_block(node: Node, containers: frozenset[str]) -> bool:
    """Whether a statement has a body of its own (``if``, ``try``) or a definition right
    inside (a C# ``#if`` around a namespace); other statements are not walked, which keeps
    big literals cheap."""
    return any(
        child.type in containers or _type_defines(child.type) for child in node.named_children
    )


def shows(source: Source, node: Node) -> bool:
    """Whether the outline lists the structure ``node``: a definition (or, in a data
    language, any structure; in Markdown, a section)."""
    language = source.spec.name
    if language == "markdown":
        return node.type == "section"
    if language in _DATA_LANGUAGES:
        return True
    reach = _WRAPPER_DEPTH if language in _WRAPPING_LANGUAGES else 1
    return _defines(node, source.spec.containers, reach)


def looked_through(source: Source, node: Node) -> bool:
    """Whether the structure ``node`` is a statement the outline looks through (``if``,
    ``try``, ``#if``, ``with``), listing the definitions inside it at its own level; a
    target looks through it the same way."""
    if source.spec.name in _DATA_LANGUAGES or source.spec.name == "markdown":
        return False
    return not shows(source, node) and _holds_block(node, source.spec.containers)
