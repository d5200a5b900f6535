"""``potluck.engine.chance`` draws exactly what ``random.Random`` draws: the same order,
the same pick and the generator left in the same state (the games' deals and the
search's worlds depend on it, in both builds)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.engine import chance


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**64), st.lists(st.integers(), max_size=140))
def test_shuffle_is_the_library_shuffle(seed: int, items: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    mine, library = list(items), list(items)
    chance.shuffle(ours, mine)
    theirs.shuffle(library)
    assert mine == library
    assert ours.getstate() == theirs.getstate()


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**64), st.lists(st.text(), min_size=1, max_size=70))
def test_choice_and_below_are_the_library_draws(seed: int, items: list[str]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert chance.choice(ours, items) == theirs.choice(items)
    assert chance.choice(ours, tuple(items)) == theirs.choice(tuple(items))
    assert chance.below(ours, len(items) * 37 + 1) == theirs.randrange(len(items) * 37 + 1)
    assert chance.randrange(ours, len(items) * 5 + 2) == theirs.randrange(len(items) * 5 + 2)
    assert chance.permutation(ours, items) == theirs.sample(items, len(items))
    assert chance.permutation(ours, items[:3]) == theirs.sample(items[:3], len(items[:3]))
    assert ours.getstate() == theirs.getstate()


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=0, max_value=2**64),
    st.integers(min_value=0, max_value=200),
    st.integers(min_value=-1, max_value=60),
)
def test_sample_is_the_library_sample(seed: int, size: int, k: int) -> None:
    """Every population size and ``k``: the pool method where the library takes it, the
    set method elsewhere, and the library's own error for a ``k`` out of range."""
    ours, theirs = random.Random(seed), random.Random(seed)
    population = range(size)
    try:
        expected = theirs.sample(population, k)
    except ValueError:
        expected = None
    if expected is None:
        with pytest.raises(ValueError, match="larger than population"):
            chance.sample(ours, population, k)
    else:
        assert chance.sample(ours, population, k) == expected
        assert chance.sample(ours, list(population), k // 2) == theirs.sample(
            list(population), k // 2
        )
    assert ours.getstate() == theirs.getstate()


class _Loaded(random.Random):
    """A generator of its own class (overriding ``random``) is asked through its methods."""

    def random(self) -> float:
        return 0.0


def test_another_generator_class_uses_its_own_methods() -> None:
    mine, library = list(range(20)), list(range(20))
    chance.shuffle(_Loaded(1), mine)
    _Loaded(1).shuffle(library)
    assert mine == library
    assert chance.choice(_Loaded(2), "abcdef") == _Loaded(2).choice("abcdef")
    assert chance.permutation(_Loaded(3), "abcdef") == _Loaded(3).sample("abcdef", 6)
    assert chance.sample(_Loaded(5), "abcdef", 2) == _Loaded(5).sample("abcdef", 2)
    assert chance.randrange(_Loaded(4), 9) == _Loaded(4).randrange(9)
    assert chance.uniform(_Loaded(6)) == 0.0
    assert chance.below(_Bits(7), 1000) == _Bits(7).randrange(1000) == 999


class _Bits(random.Random):
    """A generator of its own class overriding ``getrandbits``: ``below`` asks it."""

    def getrandbits(self, k: int, /) -> int:
        return (1 << k) - 1 if k < 10 else 999


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=1, max_value=2**70))
def test_uniform_and_below_are_the_library_draws(seed: int, n: int) -> None:
    """``uniform`` and ``below`` call the C generator's methods straight (a
    ``random.Random``'s own, not looked up on it): the same draws as the library's."""
    ours, theirs = random.Random(seed), random.Random(seed)
    for _ in range(5):
        assert chance.uniform(ours) == theirs.random()
        assert chance.below(ours, n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**200))
def test_seeded_is_the_library_generator(seed: int) -> None:
    ours, theirs = chance.seeded(seed), random.Random(seed)
    assert ours.getstate() == theirs.getstate()
    assert ours.random() == theirs.random()
    assert ours.gauss(0.0, 1.0) == theirs.gauss(0.0, 1.0)
    assert ours.getstate() == theirs.getstate()
