"""The everyday run tries fewer property examples; CI's tries every one (support/examples.py)."""

from __future__ import annotations

from hypothesis import settings

from support import examples as scale


def test_a_quarter_with_a_floor_every_day_and_all_in_ci() -> None:
    if scale.FULL:
        assert scale.examples(600) == 600
        assert scale.examples(30) == 30
        assert settings.default.max_examples == 100
    else:
        assert scale.examples(600) == 150
        assert scale.examples(30) == 10
        assert scale.examples(8) == 8
        assert settings.default.max_examples == 25
