"""The words that differ between a removed line and the added line paired with it,
marked as character spans within budgets: the review's word-level highlights.

Invariants:
- Marking is bounded: lines over MAX_SPAN_LINE characters get none; difflib pairs the
  words of lines of at most MAX_SPAN_WORDS words a side while the run's ``SpanWork``
  lasts, other lines are matched at their ends in linear time, and past MAX_SPAN_PAIRS
  pairs a run marks no more.
- A pair too different to read as one line changed (MIN_SIMILARITY) gets no spans: the
  whole line is the change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .diff_rows import DiffLine, Span, pairs

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
# Word spans are only worth computing for lines a person reads; past this they cost time.
MAX_SPAN_LINE = 1000
# difflib's matching of two lines' words costs up to the cube of their word count where
# words repeat ("a a a ...": 400 words took 3.5 s, and a file holds thousands of lines).
# So difflib pairs the words of lines of at most MAX_SPAN_WORDS words a side, and in the
# previews of one run only while the sum of the pairs' word-count products stays under
# SPAN_WORK; other lines get one span a side, between the words they start and end with
# in common, found in linear time.
MAX_SPAN_WORDS = 96
SPAN_WORK = 400_000
# Past this many changed lines the previews of one run mark no more words: nobody reads
# that many, and even splitting them into words would cost seconds in a file of 10 MB.
MAX_SPAN_PAIRS = 2_000
# Paired lines sharing less than this fraction of tokens are shown as wholly changed.
MIN_SIMILARITY = 0.3


@dataclass
class SpanWork:
    """What is left of the word marks' budgets, spent as line pairs are marked: the sum of
    the pairs' word-count products (of SPAN_WORK) and the pairs (of MAX_SPAN_PAIRS)."""

    work: int = SPAN_WORK
    pairs: int = MAX_SPAN_PAIRS


def with_word_spans(rows: list[DiffLine], budget: SpanWork) -> tuple[DiffLine, ...]:
    """Pair each run of removed lines with the added run after it, line by line; mark
    their changed words while ``budget`` (spent here) lasts."""
    out = list(rows)
    where = {id(row): index for index, row in enumerate(out)}
    paired = pairs(rows)[: max(budget.pairs, 0)]
    budget.pairs -= len(paired)
    for old, new in paired:
        spans = word_spans(old.text, new.text, budget)
        if spans is not None:
            out[where[id(old)]] = _replace_spans(old, spans[0])
            out[where[id(new)]] = _replace_spans(new, spans[1])
    return tuple(out)


def _ends_opcodes(a: list[str], b: list[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib-style opcodes that keep the words ``a`` and ``b`` start and end with in
    common and replace the rest: linear in the words, whatever they are."""
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    codes = [("equal", 0, head, 0, head)] if head else []
    if head < len(a) - tail or head < len(b) - tail:
        codes.append(("replace", head, len(a) - tail, head, len(b) - tail))
    if tail:
        codes.append(("equal", len(a) - tail, len(a), len(b) - tail, len(b)))
    return codes


def _replace_spans(line: DiffLine, spans: tuple[Span, ...]) -> DiffLine:
    return DiffLine(line.kind, line.text, line.old_no, line.new_no, spans)


def word_spans(
    old: str, new: str, budget: SpanWork | None = None
) -> tuple[tuple[Span, ...], tuple[Span, ...]] | None:
    """Character spans that differ between two versions of a line, word by word.

    None when the lines are too long to be worth it or too different to pair: then the
    whole line is the change. ``budget.work``: what is left of the previews'
    ``SPAN_WORK`` (spent here); lines past it, or of more than ``MAX_SPAN_WORDS`` words,
    are matched only at their ends.
    """
    if len(old) > MAX_SPAN_LINE or len(new) > MAX_SPAN_LINE:
        return None
    a = [m.span() for m in _TOKEN.finditer(old)]
    b = [m.span() for m in _TOKEN.finditer(new)]
    a_words, b_words = [old[s:e] for s, e in a], [new[s:e] for s, e in b]
    cost = len(a) * len(b)
    opcodes: Sequence[tuple[str, int, int, int, int]]
    if max(len(a), len(b)) > MAX_SPAN_WORDS or (budget is not None and budget.work < cost):
        opcodes = _ends_opcodes(a_words, b_words)
    else:
        import difflib

        if budget is not None:
            budget.work -= cost
        matcher = difflib.SequenceMatcher(None, a_words, b_words, autojunk=False)
        opcodes = matcher.get_opcodes()
    # Similarity counts the characters of matched words; shared spaces say nothing.
    same = sum(
        len(old[a[i][0] : a[i][1]].strip())
        for tag, i1, i2, _j1, _j2 in opcodes
        if tag == "equal"
        for i in range(i1, i2)
    )
    total = len("".join(old.split())) + len("".join(new.split()))
    if total == 0 or 2 * same / total < MIN_SIMILARITY:
        return None
    old_spans: list[Span] = []
    new_spans: list[Span] = []
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            continue
        if i2 > i1:
            old_spans.append((a[i1][0], a[i2 - 1][1]))
        if j2 > j1:
            new_spans.append((b[j1][0], b[j2 - 1][1]))
    return tuple(old_spans), tuple(new_spans)
