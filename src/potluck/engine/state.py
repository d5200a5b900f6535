"""The part of every game state that the engine itself relies on."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Self

from mypy_extensions import mypyc_attr

from potluck.engine.action import Action
from potluck.engine.chance import seeded


def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the same state as ``rng``."""
    # Seeded with 0 only to skip the default seeding from the OS (a system call),
    # which the state set next overwrites anyway.
    twin = _new_random(random.Random, 0)  # type: ignore[call-arg]  # typeshed omits the seed
    twin.setstate(rng.getstate())
    return twin


# Random.__new__ with a seed skips the Python-level __init__ and seed() calls.
_new_random = random.Random.__new__


def rng_to_json(rng: random.Random) -> list[Any]:
    version, internal, gauss_next = rng.getstate()
    return [version, list(internal), gauss_next]


def rng_from_json(data: list[Any]) -> random.Random:
    rng = random.Random()
    version, internal, gauss_next = data
    rng.setstate((version, tuple(internal), gauss_next))
    return rng


@mypyc_attr(allow_interpreted_subclasses=True)
class State:
    """Base class of every game's state.

    A state is a compact mutable object. The engine reads and writes these
    fields; a game adds its own slots and implements ``clone``:

    - ``num_players``, ``seed``, ``options``: how the game was created
      (``options`` is never mutated, so clones share it).
    - ``rng``: the only source of chance, seeded from ``seed``.
    - ``acting``: the seats that must act now (``Game.to_act``); several at once
      for sealed simultaneous choices, ``()`` once the game is over.
    - ``history``: every ``(seat, action)`` applied so far: with the seed and
      options, it *is* the game (see ``Game.record``).
    """

    __slots__ = (
        "_rng",
        "_rng_seed",
        "_rng_shared",
        "acting",
        "history",
        "num_players",
        "options",
        "seed",
    )

    num_players: int
    seed: int
    options: Mapping[str, Any]
    _rng: random.Random
    _rng_shared: bool
    #: A seed the generator is still to be made from (``seed_rng``), or -1.
    _rng_seed: int
    acting: tuple[int, ...]
    history: list[tuple[int, Action]]

    def __init__(self, num_players: int, seed: int, options: Mapping[str, Any]) -> None:
        self.num_players = num_players
        self.seed = seed
        self.options = options
        # ``random.Random(seed)`` made without the library's Python ``__init__`` and
        # ``seed`` (``chance.seeded``: the same generator): a new game is a tenth of a
        # random game's time in some games, and that Python code was a fifth of it.
        self.rng = seeded(seed) if type(seed) is int else random.Random(seed)
        self.acting = ()
        self.history = []

    @property
    def rng(self) -> random.Random:
        """The state's generator. A clone shares its source's generator until either
        of them draws (copy on write): copying a generator's 625 words is most of a
        clone's cost, and many clones (views, search) never draw."""
        if self._rng_shared:
            if self._rng_seed >= 0:
                self._rng = seeded(self._rng_seed)
                self._rng_seed = -1
            else:
                self._rng = copy_rng(self._rng)
            self._rng_shared = False
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_seed = -1
        self._rng_shared = False

    def seed_rng(self, seed: int) -> None:
        """Give the state the generator ``random.Random(seed)`` (``seed`` >= 0), made
        when it is first drawn from: seeding one costs more than drawing a whole world
        of Belle of the Ball, and a search's world often ends before it draws.

            >>> import random
            >>> state = State(2, seed=1, options={})
            >>> state.seed_rng(99)
            >>> state.rng.random() == random.Random(99).random()
            True
        """
        if seed < 0:
            raise ValueError(f"a generator's seed here is 0 or more, not {seed}")
        self._rng_seed = seed
        self._rng_shared = True

    def clone(self) -> Self:
        """An independent copy; a game whose state holds mutable containers overrides it.

        This default copies every slot of the game's state class by reference,
        which is right for slots holding ints, strings and tuples.
        """
        twin = self._blank_copy()
        for name in _game_slots(type(self)):
            if hasattr(self, name):
                setattr(twin, name, getattr(self, name))
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        # clone() is the game's own deep copy, and far cheaper than copy.deepcopy's walk
        # (OpenSpiel deep-copies Python states to clone them).
        return self.clone()

    def _blank_copy(self) -> Self:
        """A new object with the engine's fields copied; the caller copies the game's own."""
        twin = type(self).__new__(type(self))
        twin.num_players = self.num_players
        twin.seed = self.seed
        twin.options = self.options
        # Both now share one generator (or a seed still to be made into one); whichever
        # draws first takes its own copy.
        self._rng_shared = True
        twin._rng = self._rng
        twin._rng_seed = self._rng_seed
        twin._rng_shared = True
        twin.acting = self.acting
        twin.history = self.history.copy()
        return twin


def _game_slots(cls: type[State]) -> tuple[str, ...]:
    """The slots a game's state class adds to those of ``State``."""
    names = _SLOTS.get(cls)
    if names is None:
        names = tuple(
            name
            for klass in cls.__mro__
            if klass is not State and klass is not object
            for name in _slot_names(klass)
        )
        _SLOTS[cls] = names
    return names


def _slot_names(klass: type) -> tuple[str, ...]:
    slots = klass.__dict__.get("__slots__", ())
    names = (slots,) if isinstance(slots, str) else tuple(slots)
    return tuple(name for name in names if name not in ("__weakref__", "__dict__"))


_SLOTS: dict[type[State], tuple[str, ...]] = {}
