"""RE2 patterns as the edits and searches use them: Python re's meaning where both accept a
pattern, linear time where re backtracks, and templates expanded as Match.expand does."""

from __future__ import annotations

import re

import pytest

from llm_operator.core.engines.linear_regex import (
    CharOffsets,
    LinearPattern,
    PatternError,
    Template,
    TemplateError,
    encode,
)


def matches(pattern: LinearPattern, text: str) -> list[str]:
    data = encode(text)
    return [data[s:e].decode() for (s, e), *_ in pattern.finditer(data)]


@pytest.mark.parametrize(
    ("source", "text"),
    [
        (r"ab|abc", "abc ab abcd"),
        (r"\d+", "a1 22 333"),
        (r"^\s*def (\w+)", "def a():\n  def b():\nx def c"),
        (r"x$", "ax\nbx\r\nx"),
        (r"(?P<n>o)+", "foo boo"),
        (r"é+", "ééé e é"),
    ],
)
def test_matches_are_those_of_python_re(source: str, text: str) -> None:
    expected = [m.group() for m in re.finditer(source, text, re.MULTILINE | re.ASCII)]
    assert matches(LinearPattern.compile(source), text) == expected


@pytest.mark.parametrize(
    ("source", "text"),
    [
        ("foo", "foo foox xfoo foo_ (foo) foo"),
        ("-", "-- a-b -"),
        ("ab|abc", "abc ab abcd"),
        ("a", "a a aa a"),
        ("straße", "Straße straßen straße"),
        ("-?x", "-x"),
        ("x", "éx x xé x"),
    ],
)
def test_whole_word_is_pythons_lookaround_meaning(source: str, text: str) -> None:
    python = re.compile(rf"(?<!\w)(?:{source})(?!\w)", re.MULTILINE)
    expected = [m.group() for m in python.finditer(text)]
    assert matches(LinearPattern.compile(source, whole_word=True), text) == expected


def test_whole_word_spans_are_the_inner_match() -> None:
    pattern = LinearPattern.compile("foo", whole_word=True)
    data = encode("(foo) foo")
    assert [spans[0] for spans in pattern.finditer(data)] == [(1, 4), (6, 9)]


def test_case_insensitive_folds_unicode() -> None:
    pattern = LinearPattern.compile("ÉTÉ", case_sensitive=False)
    assert matches(pattern, "été Été x") == ["été", "Été"]


def test_nested_quantifiers_finish_at_once() -> None:
    pattern = LinearPattern.compile(r"(a+)+$")
    data = b"a" * 200_000 + b"b"
    assert pattern.search(data) is None  # Python's re would take longer than the universe


@pytest.mark.parametrize(
    ("source", "hint"),
    [
        (r"(a)\1", "backreferences"),
        ("(?=a)", "lookahead"),
        ("(?<=a)b", "lookbehind"),
        (r"a\Z", r"\z"),
        ("a{2000}", "1000"),
    ],
)
def test_unsupported_constructs_are_named(source: str, hint: str) -> None:
    with pytest.raises(PatternError) as caught:
        LinearPattern.compile(source)
    assert hint in str(caught.value)
    assert "(?m)" not in str(caught.value)


@pytest.mark.parametrize(
    ("find", "template", "text"),
    [
        (r"(\w+)=(\w+)", r"\2=\1", "a=b c=d"),
        (r"(?P<k>\w+)=(?P<v>\w+)", r"\g<v>:\g<k>;\g<0>", "a=b"),
        (r"(a)|(b)", r"[\1|\2]", "ab"),
        (r"(x)", r"\\1\n\t", "x"),
        (r"(x)", r"a\.b", "x"),
        (r"(é)", r"\1\1", "é"),
    ],
)
def test_templates_expand_as_python_does(find: str, template: str, text: str) -> None:
    expected = re.sub(find, template, text)
    pattern = LinearPattern.compile(find)
    parsed = Template.parse(template, pattern)
    data = encode(text)
    pieces, last = [], 0
    chars = CharOffsets(data)
    for spans in pattern.finditer(data):
        start, end = spans[0]
        pieces.append(text[last : chars(start)])
        pieces.append(parsed.expand(data, spans))
        last = chars(end)
    pieces.append(text[last:])
    assert "".join(pieces) == expected


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        (r"\2", "invalid group reference 2"),
        (r"\g<nope>", "unknown group name"),
        (r"\q", r"bad escape \q"),
        ("a\\", "lone"),
        (r"\g<1", r"\g must be followed"),
    ],
)
def test_bad_templates_are_refused(template: str, problem: str) -> None:
    with pytest.raises(TemplateError, match=re.escape(problem)):
        Template.parse(template, LinearPattern.compile("(x)"))


def test_whole_word_templates_number_the_pattern_groups() -> None:
    pattern = LinearPattern.compile(r"(\w+)@(\w+)", whole_word=True)
    data = encode("mail a@b now")
    spans = pattern.search(data)
    assert spans is not None
    assert Template.parse(r"\2 at \1", pattern).expand(data, spans) == "b at a"
