"""A parent with two bodies: a Go ``for`` over a ``[]struct { ... }`` holds the struct's
fields in its header and the loop's statements in its block (urfave/cli's
suggestions_test.go, tests/data/structure_real). A field moved to the end of the ``for``
stays among the fields; a statement goes to the end of the block; a lone field is
already at its end and is not put among the statements. A part nested in a body is no
other body: a Kotlin file's imports are part of the file (koin's MockParameter.kt)."""

from __future__ import annotations

import pytest

from llm_operator.core.engines.structure import move_structure
from llm_operator.core.engines.structure.source import load_source
from llm_operator.core.errors import OperatorError
from support.paths import DATA

NAME = "go/cli-suggestions_test.go"
DATA_BYTES = (DATA / "structure_real" / NAME).read_bytes()
JARO = ["func TestJaroWinkler(t *testing.T) {", "for _, testCase := range []struct {"]
FLAG = ["func TestSuggestFlag(t *testing.T) {", "for _, testCase := range []struct {"]


def _moved(target: list[str], parent: list[str]) -> str:
    moved = move_structure(DATA_BYTES, NAME, target, "end", dest_target=parent)
    assert not load_source(moved.new_source, NAME).errors
    return moved.new_source.decode("utf-8")


def test_a_field_moves_to_the_end_of_the_fields() -> None:
    after = _moved([*JARO, "a, b     string"], JARO)
    assert "range []struct {\n\t\texpected float64\n\t\ta, b     string\n\t}{\n" in after


def test_a_statement_moves_to_the_end_of_the_block() -> None:
    after = _moved([*JARO, "res := jaroWinkler(testCase.a, testCase.b)"], JARO)
    assert (
        "\t} {\n\n\t\t// Then\n\t\tassert.Equal(t, testCase.expected, res)\n\n"
        "\t\t// When\n\t\tres := jaroWinkler(testCase.a, testCase.b)\n\t}\n}\n"
    ) in after


def test_a_lone_field_is_already_at_its_end() -> None:
    with pytest.raises(OperatorError) as caught:
        move_structure(
            DATA_BYTES, NAME, [*FLAG, "provided, expected string"], "end", dest_target=FLAG
        )
    assert caught.value.code == "ERR_INVALID_POSITION"
    assert "'provided, expected string' is alone in its body" in str(caught.value)


def test_a_kotlin_class_moved_to_the_files_end_stays_after_the_imports() -> None:
    name = "kotlin/koin-parameter-MockParameter.kt"
    data = (DATA / "structure_real" / name).read_bytes()
    moved = move_structure(data, name, ["class MockParameter("], "end", dest_target=[])
    assert not load_source(moved.new_source, name).errors
    assert moved.new_source == data


def test_the_only_member_of_an_object_in_a_call_is_not_moved_out_of_it() -> None:
    # zod's map.test.ts: ``z.string().refine(..., { message: "..." })`` inside
    # ``const map = z.map(``. The object's member is alone in its body; the end of the
    # ``const`` is outside the object.
    name = "typescript/zod-tests-map.test.ts"
    data = (DATA / "structure_real" / name).read_bytes()
    parent = ['test("dirty", async () => {', "const map = z.map("]
    with pytest.raises(OperatorError) as caught:
        move_structure(
            data, name, [*parent, 'message: "Keys must be uppercase",'], "end", dest_target=parent
        )
    assert caught.value.code == "ERR_INVALID_POSITION"
    assert "is alone in its body in 'const map = z.map('" in str(caught.value)


def test_a_member_does_not_move_into_another_object_of_the_same_parent() -> None:
    # zod's v3 transformer.test.ts: ``z.object({ id: ... }).parse({ id: 5 })`` under
    # ``expect(() =>``. The one-line ``{ id: 5 }`` is another object, not the moved
    # member's body.
    name = "typescript/zod-v3-tests-transformer.test.ts"
    data = (DATA / "structure_real" / name).read_bytes()
    parent = ['test("sync coercion async error", async () => {', "expect(() =>"]
    with pytest.raises(OperatorError) as caught:
        move_structure(data, name, [*parent, "id: asyncNumberToString,"], "end", dest_target=parent)
    assert caught.value.code == "ERR_INVALID_POSITION"
    assert "'id: asyncNumberToString,' is alone in its body" in str(caught.value)
