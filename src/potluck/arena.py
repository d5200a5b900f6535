"""A rating ladder: bot specs play each other, and each gets a rating with its uncertainty.

    >>> import potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> ladder = run_arena(game, 4, ["greedy", "random"], games=8, seed=1)
    >>> sorted(entry.spec for entry in ladder.entries)
    ['greedy', 'random']
    >>> ladder.games
    8

How games are seated. Games come in *blocks* of ``num_players`` games that all
use one deal (one seed): the first game seats a line-up, and each next game of
the block turns it one seat, so every agent of the block plays every seat on the
same cards (the deal's luck cancels within a block, as in duplicate bridge).
With as many specs as seats, every block seats all of them; otherwise each
block draws its line-up from the specs at random (without repeats while there
are enough specs, else every spec once and the rest drawn), from the arena's
seed. So the ladder is reproducible from ``seed``.

Ratings are openskill's Plackett-Luce model (Weng and Lin 2011), built for
free-for-all games of several players: each game is one ranking of the seats by
their places (ties share a place). A spec that holds two seats of a game is
ranked once, at the mean place of its seats. ``mu`` is the estimate and
``sigma`` its uncertainty; ``mu ± 2 sigma`` is shown as an interval, and the
ladder is ordered by the conservative ``mu − 3 sigma``. Win shares count a
shared win ``1/k`` to each of ``k`` winners, with 95% Wilson intervals against a
fair share of ``1 / num_players``.

A long ladder can keep its games as they end (``on_game``, which ``potluck arena
--results FILE`` writes a line of JSON each) and go on from them after a crash:
``run_arena(..., played=games)`` counts those games again in order instead of
playing them, so the ladder is the one an uncut run gives.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from potluck.agents import make_agent
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.intervals import wilson_interval
from potluck.sim import GameResult, play_game

__all__ = ["ArenaEntry", "ArenaGame", "Ladder", "plan_lineups", "run_arena"]


@dataclass
class ArenaEntry:
    """One spec's standing on the ladder."""

    spec: str
    mu: float
    sigma: float
    seat_games: int = 0
    wins: float = 0.0
    mean_score: float = 0.0

    @property
    def ordinal(self) -> float:
        """The conservative rating the ladder is ordered by: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    @property
    def win_share(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = wilson_interval(self.wins, self.seat_games)
        return {
            **asdict(self),
            "ordinal": self.ordinal,
            "rating_low": self.mu - 2 * self.sigma,
            "rating_high": self.mu + 2 * self.sigma,
            "win_share": self.win_share,
            "win_share_low": low,
            "win_share_high": high,
        }


@dataclass(frozen=True)
class ArenaGame:
    """One game of an arena as the ladder counts it: its deal, who sat where, and how
    it ended (or why it crashed); ``to_json`` is a results file's line.

        >>> game = ArenaGame(7, ("greedy", "random"), (1, 2), (1.0, 0.0), (30, 12))
        >>> ArenaGame.from_json(game.to_json()) == game
        True
    """

    deal: int
    seats: tuple[str, ...]
    places: tuple[int, ...] = ()
    shares: tuple[float, ...] = ()
    scores: tuple[float, ...] = ()
    #: Why the game crashed (``None``: it ended, and ``places`` say how).
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.error is not None:
            return {"deal": self.deal, "seats": list(self.seats), "error": self.error}
        return {
            "deal": self.deal,
            "seats": list(self.seats),
            "places": list(self.places),
            "shares": list(self.shares),
            "scores": list(self.scores),
        }

    @classmethod
    def from_json(cls, data: Any) -> ArenaGame:
        """The game a results line holds; a ``PotluckError`` says what is wrong with it."""
        if not isinstance(data, dict):
            raise PotluckError(f"a game is a JSON object, not {type(data).__name__}")
        deal, seats = data.get("deal"), data.get("seats")
        if not isinstance(deal, int) or isinstance(deal, bool):
            raise PotluckError(f"a game's 'deal' is a whole number, not {deal!r}")
        if not isinstance(seats, list) or not seats or not all(isinstance(x, str) for x in seats):
            raise PotluckError(f"a game's 'seats' is a list of bot specs, not {seats!r}")
        if "error" in data:
            if not isinstance(data["error"], str):
                raise PotluckError(f"a game's 'error' is text, not {data['error']!r}")
            return cls(deal, tuple(seats), error=data["error"])
        fields: dict[str, tuple[Any, ...]] = {}
        for name, kind in (("places", int), ("shares", float), ("scores", float)):
            values = data.get(name)
            if (
                not isinstance(values, list)
                or len(values) != len(seats)
                or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
            ):
                raise PotluckError(
                    f"a game's {name!r} is a list of {len(seats)} numbers (one a seat),"
                    f" not {values!r}"
                )
            fields[name] = tuple(kind(v) for v in values)
        return cls(deal, tuple(seats), fields["places"], fields["shares"], fields["scores"])


@dataclass
class Ladder:
    """The arena's result: every spec's rating and win share, best first."""

    game: str
    num_players: int
    seed: int
    games: int
    entries: list[ArenaEntry] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def fair_share(self) -> float:
        return 1 / self.num_players

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.num_players,
            "seed": self.seed,
            "games": self.games,
            "fair_share": self.fair_share,
            "rating_model": "openskill Plackett-Luce",
            "ladder": [entry.to_json() for entry in self.entries],
            "errors": self.errors,
        }


def plan_lineups(specs: Sequence[str], num_players: int, blocks: int, seed: int) -> list[list[str]]:
    """The first line-up of each block (see the module's docstring).

    >>> plan_lineups(["a", "b", "c"], 3, 2, seed=0)
    [['a', 'b', 'c'], ['a', 'b', 'c']]
    >>> len(plan_lineups(["a", "b", "c", "d"], 2, 3, seed=0))
    3
    """
    if len(specs) == num_players:
        return [list(specs) for _ in range(blocks)]
    rng = random.Random(seed)
    lineups = []
    for _ in range(blocks):
        if len(specs) > num_players:
            lineups.append(rng.sample(list(specs), num_players))
        else:
            table = list(specs) + [rng.choice(list(specs)) for _ in range(num_players - len(specs))]
            rng.shuffle(table)
            lineups.append(table)
    return lineups


def run_arena(
    game: Game[Any, Any],
    num_players: int,
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    progress: Callable[[GameResult | None], None] | None = None,
    *,
    played: Sequence[ArenaGame] = (),
    on_game: Callable[[ArenaGame], None] | None = None,
) -> Ladder:
    """Play about ``games`` games (a whole number of blocks) between ``specs`` and rate them.

    Every spec is checked first (a bad one is a ``PotluckError`` naming it). A game
    that raises is counted in ``errors`` and left out of the ratings. ``played`` are
    this arena's first games, kept from an earlier run (``on_game`` is given each
    game as it ends): they are counted, not played again, and each must have the
    deal and seats this arena gives it (else a ``PotluckError``: they are another
    arena's).
    """
    from openskill.models import PlackettLuce

    if len(specs) < 2:
        raise PotluckError("an arena needs at least two bot specs")
    if len(set(specs)) != len(specs):
        raise PotluckError(f"the specs repeat one: {', '.join(specs)}")
    if games < 1:
        raise PotluckError(f"an arena plays at least one game, not {games}")
    for spec in specs:
        make_agent(game, spec)
    model = PlackettLuce()
    ratings = {spec: model.rating(name=spec) for spec in specs}
    entries = {spec: ArenaEntry(spec, ratings[spec].mu, ratings[spec].sigma) for spec in specs}
    scores: dict[str, float] = dict.fromkeys(specs, 0.0)
    blocks = -(-games // num_players)
    if len(played) > blocks * num_players:
        raise PotluckError(
            f"{len(played)} games were kept, but this arena plays {blocks * num_players}"
        )
    ladder = Ladder(game.id, num_players, seed, 0)
    index = 0
    for block, first in enumerate(plan_lineups(specs, num_players, blocks, seed)):
        deal = seed + block
        for turn in range(num_players):
            seats = [first[(s + turn) % num_players] for s in range(num_players)]
            result: GameResult | None = None
            if index < len(played):
                counted = played[index]
                if (counted.deal, list(counted.seats)) != (deal, seats):
                    raise PotluckError(
                        f"kept game {index + 1} was dealt from seed {counted.deal} with seats"
                        f" {list(counted.seats)}, but this arena deals its game {index + 1} from"
                        f" seed {deal} with seats {seats}: the games are another arena's"
                    )
            else:
                try:
                    result = play_game(game, num_players, seats, deal, options)
                except PotluckError:
                    raise
                except Exception as error:  # a crashing bot must not lose the whole ladder
                    counted = ArenaGame(
                        deal, tuple(seats), error=f"{type(error).__name__}: {error}"
                    )
                else:
                    outcome = result.outcome
                    counted = ArenaGame(
                        deal,
                        tuple(seats),
                        tuple(outcome.places),
                        tuple(outcome.win_shares()),
                        tuple(float(score) for score in outcome.scores),
                    )
                if on_game is not None:
                    on_game(counted)
            index += 1
            if counted.error is not None:
                ladder.errors.append(f"deal {deal}, seats {seats}: {counted.error}")
            else:
                ladder.games += 1
                _rate(model, ratings, entries, scores, counted)
            if progress is not None and index > len(played):
                progress(result)
    for spec, entry in entries.items():
        entry.mu, entry.sigma = ratings[spec].mu, ratings[spec].sigma
        entry.mean_score = scores[spec] / entry.seat_games if entry.seat_games else 0.0
    ladder.entries = sorted(entries.values(), key=lambda e: (-e.ordinal, e.spec))
    return ladder


def _rate(
    model: Any,
    ratings: dict[str, Any],
    entries: dict[str, ArenaEntry],
    scores: dict[str, float],
    counted: ArenaGame,
) -> None:
    """Count one ended game: its seats' wins and scores, and one openskill update."""
    places: dict[str, list[int]] = {}
    for seat, spec in enumerate(counted.seats):
        places.setdefault(spec, []).append(counted.places[seat])
        entry = entries[spec]
        entry.seat_games += 1
        entry.wins += counted.shares[seat]
        scores[spec] += counted.scores[seat]
    present = list(places)
    rated = model.rate(
        [[ratings[spec]] for spec in present],
        ranks=[sum(places[spec]) / len(places[spec]) for spec in present],
    )
    for spec, (new,) in zip(present, rated, strict=True):
        ratings[spec] = new
