"""Chance drawn exactly as :mod:`random` draws it, at compiled speed (mypyc compiles this).

``random.Random.shuffle``, ``choice``, ``sample`` and ``randrange`` are Python code in
the standard library: a search draws a world per simulation, and in Belle of the Ball
the world's shuffles were a third of a simulation. :func:`shuffle`, :func:`choice`,
:func:`sample`, :func:`permutation` (a whole ``sample``) and :func:`randrange` (from 0)
do what the library's do, draw for draw from the same generator (``getrandbits``, the C part), and
:func:`seeded` makes ``random.Random(seed)``, so a game that calls them deals the same
cards from the same seed; ``tests/test_chance.py`` holds them equal to the library's
over random lists, seeds and generators. A generator of another class (one that
overrides ``random``) is passed to its own method.

    >>> import random
    >>> cards, same = list(range(10)), list(range(10))
    >>> shuffle(random.Random(7), cards)
    >>> random.Random(7).shuffle(same)
    >>> cards == same
    True
    >>> choice(random.Random(3), "abc") == random.Random(3).choice("abc")
    True
"""

from __future__ import annotations

import _random
import random
from collections.abc import Sequence
from math import ceil, log
from typing import Any, Final, TypeVar

T = TypeVar("T")

_RANDOM: Final = random.Random
_NEW = random.Random.__new__
_SEED = _random.Random.seed
#: The C generator's own methods, which ``random.Random`` inherits unchanged: called
#: with the generator, they skip looking the method up on it at every draw (a bound
#: method made and freed at each ``getrandbits``, half of a draw's instructions in the
#: compiled build, issue 36). Only for a generator whose class is ``random.Random``.
_GETRANDBITS: Final = _random.Random.getrandbits
_RANDOM_FLOAT: Final = _random.Random.random


def seeded(seed: int) -> random.Random:
    """``random.Random(seed)`` for a whole number ``seed``, made without the library's
    Python ``__init__`` and ``seed`` around the C seeding (the same generator: the
    library's ``seed`` hands a whole number straight to the C part).

        >>> seeded(2**64 - 1).getstate() == random.Random(2**64 - 1).getstate()
        True
    """
    rng: random.Random = _NEW(_RANDOM, 0)  # type: ignore[call-arg]  # typeshed omits the seed
    _SEED(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # the library's own attribute
    return rng


def uniform(rng: random.Random) -> float:
    """What ``rng.random()`` gives, the same draw (a float in ``[0, 1)``): a dice roll's or
    a random bot's pick, called at most steps of a random game.

        >>> uniform(random.Random(8)) == random.Random(8).random()
        True
    """
    if type(rng) is _RANDOM:
        return _RANDOM_FLOAT(rng)
    return rng.random()


def below(rng: random.Random, n: int) -> int:
    """A whole number in ``0..n-1`` drawn as ``random.Random`` draws one for ``shuffle``
    and ``choice`` (``_randbelow``: ``n``'s bit length of fresh bits, again while too
    big); ``n`` is above 0."""
    k = _bit_length(n)
    if type(rng) is _RANDOM:
        r: int = _GETRANDBITS(rng, k)
        while r >= n:
            r = _GETRANDBITS(rng, k)
        return r
    getrandbits = rng.getrandbits
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def randrange(rng: random.Random, n: int) -> int:
    """What ``rng.randrange(n)`` would give for ``n`` above 0, drawn alike (the library
    draws it as ``_randbelow``, as ``below`` does).

        >>> randrange(random.Random(5), 37) == random.Random(5).randrange(37)
        True
    """
    if type(rng) is not _RANDOM:
        return rng.randrange(n)
    return below(rng, n)


def _bit_length(n: int) -> int:
    k = 0
    while n:
        k += 1
        n >>= 1
    return k


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` would."""
    if type(rng) is not _RANDOM:
        rng.shuffle(items)
        return
    n = len(items)
    if n < 2:
        return
    k = _bit_length(n)
    while n > 1:
        # pick an element of items[:n] to exchange with items[n - 1], as the library does
        if n < 1 << (k - 1):  # k is n's bit length, as the library asks for
            k -= 1
        j: int = _GETRANDBITS(rng, k)
        while j >= n:
            j = _GETRANDBITS(rng, k)
        last = n - 1
        items[last], items[j] = items[j], items[last]
        n = last


def sample(rng: random.Random, items: Sequence[T], k: int) -> list[T]:
    """What ``rng.sample(items, k)`` would give, drawn alike: the library's pool method,
    which it takes whenever ``items`` is short enough for ``k``, else its set method
    (draw again while the draw was drawn before); a ``k`` out of range is handed to the
    library itself, which says what is wrong.

        >>> sample(random.Random(4), range(6), 4) == random.Random(4).sample(range(6), 4)
        True
        >>> sample(random.Random(4), range(30), 4) == random.Random(4).sample(range(30), 4)
        True
    """
    n = len(items)
    if type(rng) is not _RANDOM or not 0 <= k <= n:
        return rng.sample(items, k)
    if n > _pool_limit(k):
        # The set method (Belly Battle deals 4 of 24 restaurants this way at every new
        # game: the library's Python code was 0.7% of a random step, issue 36).
        chosen: list[T] = []
        drawn: set[int] = set()
        for _ in range(k):
            j = below(rng, n)
            while j in drawn:
                j = below(rng, n)
            drawn.add(j)
            chosen.append(items[j])
        return chosen
    pool = list(items)
    result = pool[:k]
    for i in range(k):
        j = below(rng, n - i)
        result[i] = pool[j]
        pool[j] = pool[n - i - 1]  # the one not chosen moves into the vacancy
    return result


def _pool_limit(k: int) -> int:
    """The longest population that ``random.Random.sample`` draws ``k`` from by its pool
    method (its ``setsize``, computed as the library computes it)."""
    limit = 21
    if k > 5:
        limit += 4 ** ceil(log(k * 3, 4))
    return limit


def permutation(rng: random.Random, items: Sequence[T]) -> list[T]:
    """What ``rng.sample(items, len(items))`` would give: the items in a random order,
    drawn alike (a whole sample always takes the library's pool method)."""
    return sample(rng, items, len(items))


def choice(rng: random.Random, items: Sequence[T]) -> T:
    """What ``rng.choice(items)`` would give, drawn alike (``items`` is not empty)."""
    if type(rng) is not _RANDOM:
        return rng.choice(items)
    if not items:
        raise IndexError("Cannot choose from an empty sequence")
    return items[below(rng, len(items))]
