"""The structure round trip over real files of every claimed language (tests/data/structure_real).

Per definition: read, replace with its own text (byte-identical), replaceText there and
back (byte-identical), delete then insert, move to the end of its parent. The thresholds
are the bar the engine is held to: replace byte-identical at 99.5% or more, moves leaving
a file that parses no worse with the text intact at 99% or more, files refused for parse
errors under 5%. A failure message lists the definitions that failed. The rate tests are
slow (about a minute): the default run leaves them out, CI runs them (`pytest -m slow`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from llm_operator.core.engines.structure import SUPPORTED_LANGUAGES, language_for_path
from support.paths import DATA
from support.structure_roundtrip import Rates, trip_file

REAL = DATA / "structure_real"
# Definitions tripped per file (an even spread): keeps the suite quick on long files.
MAX_DEFINITIONS = 25


def _files() -> list[Path]:
    return sorted(p for p in REAL.rglob("*") if p.is_file() and p.name != "README.md")


def test_every_claimed_language_has_real_samples() -> None:
    languages = {language_for_path(p.name) for p in _files()}
    assert languages == set(SUPPORTED_LANGUAGES)
    readme = (REAL / "README.md").read_text()
    for path in _files():
        assert f"| {path.parent.name}/{path.name} |" in readme, path


@pytest.fixture(scope="module")
def rates() -> dict[str, Rates]:
    per_language: dict[str, Rates] = {}
    for path in _files():
        language = language_for_path(path.name) or ""
        per_language.setdefault(language, Rates()).add(
            trip_file(path.name, path.read_bytes(), MAX_DEFINITIONS)
        )
    return per_language


def _total(rates: dict[str, Rates]) -> Rates:
    total = Rates()
    for one in rates.values():
        total.add(one)
    print("\n" + "\n".join(f"{lang:10} {r.summary()}" for lang, r in sorted(rates.items())))
    print(f"{'all':10} {total.summary()}")
    return total


@pytest.mark.slow
def test_replace_with_own_text_is_byte_identical(rates: dict[str, Rates]) -> None:
    total = _total(rates)
    assert total.tried("replace") > 700
    failures = [f for f in total.failures if " replace " in f + " "]
    assert total.rate("replace") >= 0.995, failures[:20]
    assert total.rate("replace_text") >= 0.995, [f for f in total.failures if "replace_text" in f]


@pytest.mark.slow
def test_move_leaves_a_parsing_file_with_the_text_intact(rates: dict[str, Rates]) -> None:
    total = _total(rates)
    assert total.rate("move") >= 0.99, [f for f in total.failures if " move " in f][:20]
    # No bar in the issue: delete then re-insert before the first sibling also moves the
    # structure, and comma-separated members (JS object literals) keep their own commas.
    assert total.rate("delete_insert") >= 0.9, [f for f in total.failures if "delete" in f][:20]


@pytest.mark.slow
def test_few_files_are_refused_for_parse_errors(rates: dict[str, Rates]) -> None:
    total = _total(rates)
    assert total.refused_rate < 0.05, [f for f in total.failures if "load" in f]
    assert total.refused_definitions_rate < 0.05
    assert total.outcomes["crash"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_each_language_reads_and_replaces(rates: dict[str, Rates], language: str) -> None:
    one = rates[language]
    assert one.definitions > 0
    assert one.tried("replace") > 0
    assert one.rate("replace") >= 0.95, [f for f in one.failures if " replace " in f + " "]
