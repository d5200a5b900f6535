"""Hypothesis helpers for conformance tests (needs the ``hypothesis`` dev dependency).

>>> import potluck
>>> from hypothesis import given
>>> from potluck.testing import run_conformance
>>> from potluck.testing.strategies import conformance_settings, seeds
>>> game = potluck.load_game("cafe-carnage")
>>> @conformance_settings(max_examples=2)
... @given(seed=seeds())
... def test_cafe_carnage_conforms(seed: int) -> None:
...     run_conformance(game, 4, seed)
>>> test_cafe_carnage_conforms()
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

#: The largest seed a playout draws: seeds are any 32-bit number.
MAX_SEED = 2**32 - 1


def seeds() -> st.SearchStrategy[int]:
    """Game seeds: any 32-bit number (shrinks towards 0)."""
    return st.integers(0, MAX_SEED)


def conformance_settings(max_examples: int = 5, *, derandomize: bool = True) -> settings:
    """Settings for playout tests: a few examples, no deadline (a playout is slow next
    to a unit test), derandomized by default so that CI runs the same seeds each time,
    and no shrinking: a smaller seed is not a simpler game, and each try is a playout."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=derandomize,
        database=None,
        phases=(Phase.explicit, Phase.generate),
        suppress_health_check=[HealthCheck.too_slow],
    )
