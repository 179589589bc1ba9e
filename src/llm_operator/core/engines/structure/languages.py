"""Which grammar parses a file, and which of its nodes are structures.

A structure is a named node whose parent is one of the language's *containers* (the
node types that hold a sequence of statements, members or entries: a module, a block,
a class body, a JSON object, a Markdown section). This one rule gives the nesting the
targets need: the children of a structure are the structures found inside it, looking
through any non-container nodes (a function's ``block``, a TypeScript ``export``, a Go
``statement_list``) on the way down.

A container that is itself a child of a container is a structure too (a Markdown
section, a Go ``const (...)`` block) unless listed in ``non_structures``: a C header's
``#ifndef`` guard is looked through, so it does not add a level.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

_COMMENTS = frozenset(
    {"comment", "line_comment", "block_comment", "html_comment", "multiline_comment"}
)


@dataclass(frozen=True)
class LanguageSpec:
    """One language's rules for the structure engine: which nodes hold structures and which are
    structures, and how its code is indented and spaced."""

    name: str
    containers: frozenset[str]
    # None: every named child of a container is a structure (except those below).
    structure_types: frozenset[str] | None = None
    non_structures: frozenset[str] = frozenset()
    comment_types: frozenset[str] = _COMMENTS
    # Nodes skipped when finding the definition line: decorators, annotations, attributes.
    prefix_types: frozenset[str] = frozenset()
    # Sibling nodes directly above a structure that belong to it (besides comments).
    attached_types: frozenset[str] = frozenset()
    # Containers whose header fields (an #ifdef's name, a bash if's condition) hold no
    # structures.
    headed_containers: frozenset[str] = frozenset()
    # Lines ending with one of these open a block one indent unit deeper.
    block_openers: tuple[str, ...] = ("{",)
    # Containers only when they group members in parentheses (Go's ``type ( ... )``):
    # a lone ``type X struct {`` stays one structure.
    grouped_containers: frozenset[str] = frozenset()
    pep8: bool = False
    def_types: frozenset[str] = field(default_factory=frozenset)


_C_CONTAINERS = frozenset(
    {
        "translation_unit",
        "compound_statement",
        "field_declaration_list",
        "enumerator_list",
        "preproc_ifdef",
        "preproc_if",
        "preproc_else",
        "preproc_elif",
        "preproc_elifdef",
        "case_statement",
    }
)
_C_PREPROC = frozenset({"preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif"})

_JS_CONTAINERS = frozenset(
    {"program", "statement_block", "class_body", "switch_body", "switch_case", "object"}
)
_TS_CONTAINERS = _JS_CONTAINERS | {"interface_body", "enum_body", "object_type"}
_JS_PREFIX = frozenset({"decorator"})

SPECS: dict[str, LanguageSpec] = {
    "python": LanguageSpec(
        "python",
        containers=frozenset({"module", "block"}),
        prefix_types=frozenset({"decorator"}),
        block_openers=(":",),
        pep8=True,
        def_types=frozenset({"function_definition", "class_definition", "decorated_definition"}),
    ),
    # A method's decorators are its siblings in the class body: attached above it.
    "javascript": LanguageSpec(
        "javascript", containers=_JS_CONTAINERS, prefix_types=_JS_PREFIX, attached_types=_JS_PREFIX
    ),
    "typescript": LanguageSpec(
        "typescript", containers=_TS_CONTAINERS, prefix_types=_JS_PREFIX, attached_types=_JS_PREFIX
    ),
    "tsx": LanguageSpec(
        "tsx", containers=_TS_CONTAINERS, prefix_types=_JS_PREFIX, attached_types=_JS_PREFIX
    ),
    "go": LanguageSpec(
        "go",
        containers=frozenset(
            {
                "source_file",
                "statement_list",
                "field_declaration_list",
                "interface_type",
                "const_declaration",
                "var_declaration",
                "import_spec_list",
                "expression_switch_statement",
                "type_switch_statement",
                "select_statement",
            }
        ),
        non_structures=frozenset({"statement_list", "import_spec_list"}),
        headed_containers=frozenset({"expression_switch_statement", "type_switch_statement"}),
        grouped_containers=frozenset({"type_declaration"}),
    ),
    "rust": LanguageSpec(
        "rust",
        containers=frozenset(
            {
                "source_file",
                "declaration_list",
                "block",
                "field_declaration_list",
                "enum_variant_list",
                "match_block",
            }
        ),
        attached_types=frozenset({"attribute_item"}),
        non_structures=frozenset({"attribute_item", "inner_attribute_item"}),
    ),
    "java": LanguageSpec(
        "java",
        containers=frozenset(
            {
                "program",
                "class_body",
                "interface_body",
                "enum_body",
                "enum_body_declarations",
                "annotation_type_body",
                "block",
                "constructor_body",
                "switch_block",
                "switch_block_statement_group",
            }
        ),
        non_structures=frozenset({"enum_body_declarations"}),
        prefix_types=frozenset({"annotation", "marker_annotation"}),
        headed_containers=frozenset({"switch_block_statement_group"}),
    ),
    "c": LanguageSpec(
        "c",
        containers=_C_CONTAINERS,
        non_structures=_C_PREPROC,
        headed_containers=_C_PREPROC | {"case_statement"},
    ),
    "cpp": LanguageSpec(
        "cpp",
        containers=_C_CONTAINERS | {"declaration_list"},
        non_structures=_C_PREPROC | {"access_specifier"},
        prefix_types=frozenset({"template", "template_parameter_list", "attribute_declaration"}),
        headed_containers=_C_PREPROC | {"case_statement"},
    ),
    "csharp": LanguageSpec(
        "csharp",
        containers=frozenset(
            {
                "compilation_unit",
                "declaration_list",
                "block",
                "enum_member_declaration_list",
                "switch_body",
                "switch_section",
                "accessor_list",
            }
        ),
        prefix_types=frozenset({"attribute_list"}),
        headed_containers=frozenset({"switch_section"}),
    ),
    "ruby": LanguageSpec(
        "ruby",
        containers=frozenset(
            {"program", "body_statement", "then", "else", "do", "block_body", "begin", "when"}
        ),
        non_structures=frozenset({"else", "then", "do"}),
        headed_containers=frozenset({"when"}),
        block_openers=(),
    ),
    "php": LanguageSpec(
        "php",
        containers=frozenset(
            {"program", "compound_statement", "declaration_list", "enum_declaration_list"}
        ),
        non_structures=frozenset({"php_tag", "text", "text_interpolation"}),
        prefix_types=frozenset({"attribute_list"}),
    ),
    "bash": LanguageSpec(
        "bash",
        containers=frozenset(
            {
                "program",
                "compound_statement",
                "do_group",
                "if_statement",
                "elif_clause",
                "else_clause",
                "case_item",
            }
        ),
        non_structures=frozenset({"elif_clause", "else_clause"}),
        headed_containers=frozenset({"if_statement", "elif_clause", "case_item"}),
        block_openers=("{", "then", "do"),
    ),
    "kotlin": LanguageSpec(
        "kotlin",
        containers=frozenset(
            {"source_file", "class_body", "enum_class_body", "statements", "import_list"}
        ),
        non_structures=frozenset({"statements", "import_list"}),
        prefix_types=frozenset({"annotation", "file_annotation"}),
    ),
    "swift": LanguageSpec(
        "swift",
        containers=frozenset(
            {"source_file", "class_body", "protocol_body", "enum_class_body", "statements"}
        ),
        non_structures=frozenset({"statements"}),
        prefix_types=frozenset({"attribute"}),
    ),
    "html": LanguageSpec(
        "html",
        containers=frozenset({"document", "element"}),
        structure_types=frozenset({"element", "script_element", "style_element", "doctype"}),
        block_openers=(),
    ),
    "css": LanguageSpec(
        "css",
        containers=frozenset({"stylesheet", "block", "keyframe_block_list"}),
    ),
    "json": LanguageSpec("json", containers=frozenset({"object", "array"})),
    "yaml": LanguageSpec(
        "yaml",
        containers=frozenset({"block_mapping", "block_sequence"}),
        block_openers=(":",),
    ),
    "toml": LanguageSpec(
        "toml",
        containers=frozenset({"document", "table", "table_array_element"}),
        non_structures=frozenset({"bare_key", "dotted_key", "quoted_key"}),
        block_openers=(),
    ),
    "markdown": LanguageSpec(
        "markdown",
        containers=frozenset({"document", "section", "list", "list_item", "block_quote"}),
        structure_types=frozenset(
            {"section", "list_item", "fenced_code_block", "indented_code_block", "block_quote"}
        ),
        comment_types=frozenset(),
        block_openers=(),
    ),
}

_EXTENSIONS: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".pyw": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".c++": "cpp",
    ".hh": "cpp",
    ".hpp": "cpp",
    ".hxx": "cpp",
    ".h++": "cpp",
    ".cs": "csharp",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".swift": "swift",
    ".rb": "ruby",
    ".rake": "ruby",
    ".gemspec": "ruby",
    ".php": "php",
    ".sh": "bash",
    ".bash": "bash",
    ".html": "html",
    ".htm": "html",
    ".css": "css",
    ".json": "json",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
    ".md": "markdown",
    ".markdown": "markdown",
}

SUPPORTED_LANGUAGES: tuple[str, ...] = tuple(SPECS)
SUPPORTED_EXTENSIONS: tuple[str, ...] = tuple(sorted(_EXTENSIONS))


def language_for_path(path: str) -> str | None:
    """The tree-sitter-language-pack grammar name for ``path``, from its extension."""
    name = os.path.basename(path.replace("\\", "/"))
    if name in {"Rakefile", "Gemfile"}:
        return "ruby"
    return _EXTENSIONS.get(os.path.splitext(name)[1].lower())
