"""The bots' generators are seeded at their first use (``potluck.sim.SeededOnFirstUse``).

A bot that never draws never pays for seeding; one that does must see exactly the
draws of ``random.Random(text)``, whatever it does first: draw, read or replace the
state, re-seed, copy or pickle the generator, or hold a method bound before it drew.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.engine import chance
from potluck.sim import SeededOnFirstUse, bot_rng

Use = Callable[[random.Random], Any]


def _shuffled(rng: random.Random) -> list[int]:
    cards = list(range(20))
    rng.shuffle(cards)
    return cards


def _shuffled_compiled(rng: random.Random) -> list[int]:
    cards = list(range(20))
    chance.shuffle(rng, cards)
    return cards


def _after_setstate(rng: random.Random) -> float:
    rng.setstate(random.Random(11).getstate())
    return rng.random()


def _after_seed(rng: random.Random) -> float:
    rng.seed("again")
    return rng.random()


USES: dict[str, Use] = {
    "random": lambda rng: rng.random(),
    "getrandbits": lambda rng: rng.getrandbits(70),
    "randrange": lambda rng: rng.randrange(10**12),
    "choice": lambda rng: rng.choice("abcdefg"),
    "shuffle": _shuffled,
    "sample": lambda rng: rng.sample(range(50), 5),
    "gauss": lambda rng: [rng.gauss(0.0, 1.0) for _ in range(3)],
    "uniform": lambda rng: rng.uniform(-2.0, 3.0),
    "randbytes": lambda rng: rng.randbytes(9),
    "getstate": lambda rng: rng.getstate(),
    "setstate": _after_setstate,
    "seed": _after_seed,
    "pickle": lambda rng: pickle.loads(pickle.dumps(rng)).random(),
    "deepcopy": lambda rng: copy.deepcopy(rng).random(),
    "copy": lambda rng: copy.copy(rng).random(),
    "compiled choice": lambda rng: chance.choice(rng, "abcdefg"),
    "compiled shuffle": _shuffled_compiled,
}


@settings(deadline=None)
@given(
    text=st.text(max_size=30),
    uses=st.lists(st.sampled_from(sorted(USES)), min_size=1, max_size=6),
)
def test_a_generator_seeded_at_first_use_draws_as_one_seeded_at_once(
    text: str, uses: list[str]
) -> None:
    lazy, eager = SeededOnFirstUse(text), random.Random(text)
    for name in uses:
        assert USES[name](lazy) == USES[name](eager), name
    assert lazy.getstate() == eager.getstate()
    assert type(lazy) is random.Random


def test_a_method_bound_before_the_first_draw_still_draws_the_same() -> None:
    lazy, eager = SeededOnFirstUse("bound"), random.Random("bound")
    draw, draw_bits = lazy.random, lazy.getrandbits
    assert [draw() for _ in range(3)] == [eager.random() for _ in range(3)]
    assert draw_bits(40) == eager.getrandbits(40)


def test_bot_generators_draw_as_before_seeding_was_put_off() -> None:
    # The text each (seed, seat) was seeded from since the first recorded games.
    assert bot_rng(7, 2).random() == random.Random("potluck-bot:7:2").random()
    assert type(bot_rng(7, 2)) is SeededOnFirstUse
