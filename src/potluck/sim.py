"""Simulations: bots playing whole games against each other, and what came of it.

This is a library with no printing, so that the CLI, the lab and the server can
share it; they only format what it returns::

    >>> import potluck
    >>> from potluck.sim import play_game, simulate
    >>> g = potluck.load_game("cafe-carnage")
    >>> result = play_game(g, 4, ["greedy", "random", "random", "random"], seed=7)
    >>> len(result.outcome.scores), result.steps > 0
    (4, True)
    >>> summary = simulate(g, games=10, num_players=4, agents=["greedy", "random"])
    >>> round(sum(summary.win_rate_by_seat), 6)
    1.0

Determinism: game ``i`` of a simulation is dealt from ``seed + i``, and the bot
in seat ``s`` draws from its own generator :func:`bot_rng` ``(game seed, s)``,
so a simulation gives the same figures on every run and machine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from potluck.agents import SearchBot, decide, make_agent
from potluck.engine.bots import Bot, PlainChooser
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.outcome import Outcome

__all__ = [
    "GameResult",
    "SeededOnFirstUse",
    "SimulationSummary",
    "bot_rng",
    "lineup",
    "play_game",
    "simulate",
]


class SeededOnFirstUse(random.Random):
    """A :class:`random.Random` seeded from ``text`` when it is first used.

    It draws exactly what ``random.Random(text)`` draws. Seeding from text costs
    about 17 µs (SHA-512 and the 624-word state), four times a game, more than a
    fast game's greedy decisions; a bot that never draws (the greedy bots) never
    pays it. The first use seeds the generator and turns it into a plain
    ``random.Random`` (the same layout), so later draws cost nothing extra::

        >>> lazy, eager = SeededOnFirstUse("x"), random.Random("x")
        >>> [lazy.randrange(100) for _ in range(3)] == [eager.randrange(100) for _ in range(3)]
        True
        >>> type(lazy) is random.Random
        True
    """

    def __init__(self, text: str) -> None:
        # random.Random.__init__ is not called: seeding is what is put off.
        self._seed_text = text
        self.gauss_next = None

    # Every draw of random.Random goes through random() or getrandbits(); the
    # rest read or replace the state. Each calls random.Random's own method, not
    # self's: a method bound before the first draw (gauss binds self.random) is
    # still this class's after it.
    def random(self) -> float:
        _seed_if_pending(self)
        return random.Random.random(self)

    def getrandbits(self, k: int, /) -> int:
        _seed_if_pending(self)
        return random.Random.getrandbits(self, k)

    def getstate(self) -> tuple[Any, ...]:
        _seed_if_pending(self)
        return random.Random.getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        _seed_if_pending(self)
        random.Random.setstate(self, state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        _seed_if_pending(self)
        random.Random.seed(self, a, version)

    def randbytes(self, n: int) -> bytes:
        _seed_if_pending(self)
        return random.Random.randbytes(self, n)

    def __reduce__(self) -> str | tuple[Any, ...]:
        _seed_if_pending(self)
        return random.Random.__reduce__(self)


def _seed_if_pending(generator: random.Random) -> None:
    text = generator.__dict__.pop("_seed_text", None)
    if text is not None:
        generator.__class__ = random.Random
        random.Random.seed(generator, text)


def bot_rng(seed: int, seat: int) -> random.Random:
    """The generator of the bot in ``seat`` in the game dealt from ``seed``.

    Seeded from text so that no two (seed, seat) pairs share a stream, which
    arithmetic such as ``seed * 10 + seat`` would not guarantee; string seeds
    are hashed with SHA-512 by :mod:`random`, the same on every machine. The
    seeding waits for the first draw (:class:`SeededOnFirstUse`).

        >>> bot_rng(1, 0).random() == bot_rng(1, 0).random() != bot_rng(1, 1).random()
        True
    """
    return SeededOnFirstUse(f"potluck-bot:{seed}:{seat}")


def lineup(agents: Sequence[str], num_players: int, rotation: int = 0) -> tuple[str, ...]:
    """The agent in each seat: ``agents`` in seat order, cycled to fill the table, then
    the table turned by ``rotation`` seats.

    Seat ``s`` gets table position ``(s + rotation) % num_players``. Every game
    has the same line-up (say 3 greedy and 2 random at 5 players) and over
    ``num_players`` consecutive games each seat hosts each position once, so
    seat effects are measured apart from the bots. (Rotating the agent list
    instead would change the line-up from game to game at odd table sizes.)

        >>> lineup(["greedy", "random"], 4)
        ('greedy', 'random', 'greedy', 'random')
        >>> lineup(["a", "b", "c"], 3, rotation=1)
        ('b', 'c', 'a')
        >>> lineup(["greedy", "random"], 5, rotation=1)
        ('random', 'greedy', 'random', 'greedy', 'greedy')
    """
    if not agents:
        raise PotluckError("give at least one agent")
    if len(agents) > num_players:
        raise PotluckError(
            f"{len(agents)} agents for {num_players} seats: give at most one agent per seat"
        )
    table = [agents[seat % len(agents)] for seat in range(num_players)]
    return tuple(table[(seat + rotation) % num_players] for seat in range(num_players))


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game: who sat where, how it ended and how long it took."""

    seed: int
    agents: tuple[str, ...]
    outcome: Outcome
    steps: int
    metrics: Mapping[str, float | int | str] = field(default_factory=dict)
    #: ``Game.seat_metrics`` of each seat, indexed by seat.
    seat_metrics: tuple[Mapping[str, float | int], ...] = ()
    #: ``Game.record`` of the game when ``play_game(..., keep_record=True)``.
    record: dict[str, Any] | None = None


def play_game(
    game: Game[Any, Any],
    num_players: int,
    agents: Sequence[str],
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    *,
    keep_record: bool = False,
) -> GameResult:
    """Play one game to its end with the bot named ``agents[s]`` in seat ``s``.

    Bots see only their seat's view (built only for bots with ``needs_view``).
    Raises ``PotluckError`` for an unknown bot, and if the game runs past
    ``game.max_steps`` (a broken game must not hang a simulation).
    """
    if len(agents) != num_players:
        raise PotluckError(f"{num_players} seats need {num_players} agents, not {len(agents)}")
    state = game.new_game(num_players, seed, options)
    bots: list[Bot] = [make_agent(game, name) for name in agents]
    rngs = [bot_rng(seed, seat) for seat in range(num_players)]
    # A search bot decides from its information set (``potluck.agents.decide``); a
    # plain bot through a ``PlainChooser`` made once for the game, its dispatch settled
    # then rather than at every move.
    choosers = [None if isinstance(bot, SearchBot) else PlainChooser(bot, game) for bot in bots]
    # Bound methods in locals: this loop runs millions of times in the lab.
    to_act, step = game.to_act, game.step
    limit = game.max_steps(num_players)
    steps = 0
    acting = to_act(state)
    while acting:
        # One seat at a time, re-reading to_act: after a sealed choice the set shrinks.
        seat = acting[0]
        chooser = choosers[seat]
        if chooser is None:
            action = decide(bots[seat], game, state, seat, rngs[seat])
        else:
            # (its input, then an ``EarlyChooser``'s early answer before the legal list)
            action = chooser(state, seat, rngs[seat])
        step(state, seat, action)
        steps += 1
        if steps > limit:
            raise PotluckError(
                f"{game.id} ran past its bound of {limit} steps for {num_players} players "
                f"(seed {seed}); the game's rules or max_steps are wrong"
            )
        acting = to_act(state)
    return GameResult(
        seed=seed,
        agents=tuple(agents),
        outcome=game.outcome(state),
        steps=steps,
        metrics=game.metrics(state),
        seat_metrics=tuple(game.seat_metrics(state, seat) for seat in range(num_players)),
        record=game.record(state) if keep_record else None,
    )


@dataclass(slots=True)
class SimulationSummary:
    """Totals over a simulation; the rates and means are derived from them.

    A shared win counts ``1/k`` to each of the ``k`` winners, so the win rates
    by seat sum to 1 and an agent's win rate is its share of its seat-games won.
    """

    game: str
    num_players: int
    agents: tuple[str, ...]
    seed: int
    options: dict[str, Any]
    games: int = 0
    steps: int = 0
    seconds: float = 0.0
    wins_by_seat: list[float] = field(default_factory=list)
    score_by_seat: list[float] = field(default_factory=list)
    seat_games_by_agent: dict[str, int] = field(default_factory=dict)
    wins_by_agent: dict[str, float] = field(default_factory=dict)
    score_by_agent: dict[str, float] = field(default_factory=dict)
    #: Sums of the numeric ``Game.metrics`` over the games that reported them.
    metric_totals: dict[str, float] = field(default_factory=dict)
    metric_counts: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.wins_by_seat:
            self.wins_by_seat = [0.0] * self.num_players
            self.score_by_seat = [0.0] * self.num_players
        for name in self.agents:
            self.seat_games_by_agent.setdefault(name, 0)
            self.wins_by_agent.setdefault(name, 0.0)
            self.score_by_agent.setdefault(name, 0.0)

    def add(self, result: GameResult) -> None:
        """Count one finished game."""
        self.games += 1
        self.steps += result.steps
        outcome = result.outcome
        share = 1.0 / len(outcome.winners) if outcome.winners else 0.0
        for seat, name in enumerate(result.agents):
            score = float(outcome.scores[seat])
            self.score_by_seat[seat] += score
            self.score_by_agent[name] = self.score_by_agent.get(name, 0.0) + score
            self.seat_games_by_agent[name] = self.seat_games_by_agent.get(name, 0) + 1
        for seat in outcome.winners:
            name = result.agents[seat]
            self.wins_by_seat[seat] += share
            self.wins_by_agent[name] = self.wins_by_agent.get(name, 0.0) + share
        for key, value in result.metrics.items():
            # Text metrics (e.g. "how it ended") cannot be averaged; the lab tallies those.
            if isinstance(value, int | float) and not isinstance(value, bool):
                self.metric_totals[key] = self.metric_totals.get(key, 0.0) + value
                self.metric_counts[key] = self.metric_counts.get(key, 0) + 1

    @property
    def win_rate_by_seat(self) -> list[float]:
        return [wins / self.games if self.games else 0.0 for wins in self.wins_by_seat]

    @property
    def mean_score_by_seat(self) -> list[float]:
        return [total / self.games if self.games else 0.0 for total in self.score_by_seat]

    @property
    def win_rate_by_agent(self) -> dict[str, float]:
        return {
            name: self.wins_by_agent[name] / count if count else 0.0
            for name, count in self.seat_games_by_agent.items()
        }

    @property
    def mean_score_by_agent(self) -> dict[str, float]:
        return {
            name: self.score_by_agent[name] / count if count else 0.0
            for name, count in self.seat_games_by_agent.items()
        }

    @property
    def mean_steps(self) -> float:
        return self.steps / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def mean_metrics(self) -> dict[str, float]:
        return {key: total / self.metric_counts[key] for key, total in self.metric_totals.items()}

    def to_json(self) -> dict[str, Any]:
        """Every figure as JSON-ready data (what ``potluck simulate --json`` prints)."""
        return {
            "game": self.game,
            "games": self.games,
            "players": self.num_players,
            "agents": list(self.agents),
            "seed": self.seed,
            "options": dict(self.options),
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "steps": self.steps,
            "mean_steps": self.mean_steps,
            "wins_by_seat": list(self.wins_by_seat),
            "win_rate_by_seat": self.win_rate_by_seat,
            "mean_score_by_seat": self.mean_score_by_seat,
            "seat_games_by_agent": dict(self.seat_games_by_agent),
            "wins_by_agent": dict(self.wins_by_agent),
            "win_rate_by_agent": self.win_rate_by_agent,
            "mean_score_by_agent": self.mean_score_by_agent,
            "mean_metrics": self.mean_metrics,
        }


def simulate(
    game: Game[Any, Any],
    games: int,
    num_players: int,
    agents: Sequence[str],
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[GameResult], None] | None = None,
) -> SimulationSummary:
    """Play ``games`` games between ``agents`` and total the results.

    Game ``i`` is dealt from ``seed + i`` with the line-up ``lineup(agents,
    num_players, i)``; ``progress``, if given, is called with each finished
    game's result (the CLI advances its progress bar with it).
    """
    if games < 0:
        raise PotluckError(f"the number of games cannot be negative ({games})")
    agents = tuple(agents)
    lineup(agents, num_players)  # rejects an empty list before any game is dealt
    for name in dict.fromkeys(agents):
        make_agent(game, name)  # an unknown bot fails now, naming the game's bots
    # Resolve once: a bad option fails before any game, and the summary shows every value.
    resolved = game.new_game(num_players, seed, options).options
    summary = SimulationSummary(
        game=game.id, num_players=num_players, agents=agents, seed=seed, options=dict(resolved)
    )
    start = time.perf_counter()
    for i in range(games):
        result = play_game(game, num_players, lineup(agents, num_players, i), seed + i, options)
        summary.add(result)
        if progress is not None:
            progress(result)
    summary.seconds = time.perf_counter() - start
    return summary
