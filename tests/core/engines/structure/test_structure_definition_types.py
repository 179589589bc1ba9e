"""Which node types define something (the outline lists them, targets name them) is
decided by word sets, not by regular expressions compiled at every start. The sets must
decide as the expressions they replace did, for every node type of every grammar."""

from __future__ import annotations

import re

from llm_operator.core.engines.structure.definitions import _type_defines
from llm_operator.core.engines.structure.languages import SPECS
from llm_operator.core.engines.structure.source import grammar_of

# The expressions as they were (the oracle).
DEFINITION = re.compile(
    r"(?:^|_)(?:class|function|method|constructor|interface|struct|enum|trait|impl|module|"
    r"namespace|protocol|extension|union|record|singleton|mod)(?:_|$)|"
    r"^(?:type_alias|type_spec|type_alias_declaration|companion_object|object_declaration|"
    r"type_item|type_declaration|type_definition|annotation_type_declaration|"
    r"macro_definition|decorated_definition|template_declaration)$"
)
NOT_DEFINITION = re.compile(
    r"^(?!function|class|generator).*_expression$|_call_expression$|_invocation$|"
    r"_(?:identifier|literal|pattern|call|arguments?)$"
)


WORDS = [
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
]
ENDINGS = "expression call_expression invocation identifier literal pattern call argument"


def _made_up_types() -> set[str]:
    """Every word and type of the expressions, alone and with words around it, and with
    each ending of the second expression: also those no grammar has today."""
    kinds: set[str] = set()
    for lead in ("function", "class", "generator", "generators", "x"):
        kinds |= {f"{lead}_method_expression", f"{lead}_expression", f"{lead}_mod_call"}
    for word in WORDS:
        kinds |= {word, f"x_{word}", f"{word}_x", f"x_{word}_y", f"x{word}", f"{word}s"}
        for ending in [*ENDINGS.split(), "arguments"]:
            kinds |= {f"{word}_{ending}", f"x_{word}_{ending}", f"{word}_{ending}_x"}
    return kinds


def _every_node_type() -> set[str]:
    kinds: set[str] = set()
    for language in SPECS:
        grammar = grammar_of(language)
        for kind_id in range(grammar.node_kind_count):
            kind = grammar.node_kind_for_id(kind_id)
            if kind is not None:
                kinds.add(kind)
    return kinds


def test_every_node_type_defines_as_the_expressions_said() -> None:
    kinds = (
        _every_node_type()
        | _made_up_types()
        | {
            "_expression",
            "function_call_expression",
            "class_expression",
            "generator_expression",
            "struct_expression",
            "mod",
            "x_mod_y",
            "modifier",
            "enum__body",
            "type_alias_x",
            "simple_symbol",
            "record_pattern",
            "call_arguments",
            "impl_argument",
        }
    )
    assert len(kinds) > 2000
    expected = {k for k in kinds if DEFINITION.search(k) and not NOT_DEFINITION.search(k)}
    assert {k for k in kinds if _type_defines(k)} == expected
    assert len(expected) > 100
