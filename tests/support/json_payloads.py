"""Values for ``*_json`` fields: random JSON, edit lists, what no encoder writes, and
JSON cut or spliced with junk (hypothesis strategies)."""

from __future__ import annotations

import json

from hypothesis import strategies as st

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["version", "edits", "op", "find", "text", "x"]), inner)
    ),
    max_leaves=12,
)
EDITS = st.fixed_dictionaries(
    {
        "version": st.sampled_from([1, 1.0, "1", 2, True]),
        "edits": st.lists(
            st.fixed_dictionaries(
                {"op": st.sampled_from(["replaceFirst", "replaceAll", "insertAfter", "x"])},
                optional={
                    "find": SCALARS,
                    "text": SCALARS,
                    "anchor": SCALARS,
                    "startLine": SCALARS,
                    "regex": SCALARS,
                },
            ),
            max_size=3,
        ),
    }
)
# What no encoder writes but a model or a broken client may: numbers past every limit,
# non-JSON constants, lone surrogates, deep nesting, keys twice, cut-off text.
HOSTILE = st.sampled_from(
    [
        "9" * 5000,
        "-" + "9" * 4301,
        '{"version":1,"edits":[{"op":"replaceFirst","find":"a","text":"b","x":'
        + "9" * 5000
        + "}]}",
        '"' + "x" * 40_000 + '"',
        "1e999",
        "-1e400",
        "NaN",
        "Infinity",
        "-Infinity",
        '"\\ud83d"',
        '"\\ude00x"',
        '{"version":1,"edits":[{"op":"replaceFirst","find":"\\ud800","text":"b"}]}',
        "[" * 5000 + "]" * 5000,
        "[" * 150 + "]" * 150,
        '{"version":1,"edits":' + "[" * 300 + "]" * 300 + "}",
        '{"version":1,"version":1,"edits":[]}',
        '{"a":1,"a":2}',
        '"unterminated',
        "{",
        "",
        "null",
        "true",
        "[]",
        "{}",
        '"\\u0000"',
    ]
)


def broken(text: str, cut: int, junk: str) -> str:
    """``text`` cut somewhere and given junk: JSON that is almost right."""
    at = cut % (len(text) + 1)
    return text[:at] + junk + text[at:]


PAYLOADS = st.one_of(
    VALUES.map(lambda value: json.dumps(value, ensure_ascii=True)),
    EDITS.map(lambda value: json.dumps(value, ensure_ascii=True)),
    HOSTILE,
    st.builds(
        broken,
        VALUES.map(lambda value: json.dumps(value, ensure_ascii=True)),
        st.integers(min_value=0),
        st.sampled_from(['"', "{", "]", ",", "\\", "\\u", "\\ud83d", "NaN", "9" * 4400]),
    ),
    st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=30),
)
