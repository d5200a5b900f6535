"""Players' ratings: openskill's Plackett-Luce model, a rating per game (and per player
count where the game changes with it), anchored by the bots' reference ratings.

**Pools.** A rating belongs to a pool: a game, or a game at some player counts. A
game that can be played by two and by more has two pools, because a duel is
another game than a table of several (every point a rival gains is yours lost, no
third player to play off against the leader): ``belly-battle.2`` and
``belly-battle.3-6``. A game of one size, or only of three or more, has one pool.

    >>> pool_of("belly-battle", 2), pool_of("belly-battle", 5), pool_of("cafe-carnage", 6)
    ('belly-battle.2', 'belly-battle.3-6', 'cafe-carnage')

**Rated.** A table is rated when its creator asked for it and every seat is an
account or a bot of a difficulty whose reference rating this server holds
(``rateable_levels``); a rated table's bot plays exactly the spec that was
measured, which has no time budget (``rated_spec``: the hard level's search
stops at a number of simulations, so it plays the same on every machine). When a rated
game ends, every account's rating in the table's pool is updated from the places
(``rate``): the bots take part with their fixed reference ratings and keep them,
so a rating means the same on every server with the same bots. A seat that a bot
played at the end (its player timed out, left or was replaced, and did not come
back) is an abandonment: ranked last, below every other seat.

    >>> new = rate([Standing(25.0, 8.333), BOT], [2, 1], leavers=set())
    >>> new[0].mu < 25.0
    True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from potluck.agents import effective_spec
from potluck.engine.game import Game
from potluck.engine.registry import load_game
from potluck.server.botpool import DIFFICULTIES

#: The bots' reference ratings, measured with ``potluck arena`` (``python -m
#: potluck.server.botratings`` measures them again and rewrites this file).
REFERENCE_FILE = Path(__file__).parent / "bot_ratings.json"

#: A new account's rating in a pool: openskill's defaults (mu 25, sigma 25/3).
START_MU = 25.0
START_SIGMA = 25.0 / 3


@dataclass(frozen=True)
class Standing:
    """A rating: ``mu`` the estimate, ``sigma`` its uncertainty."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating the leaderboards order by: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma


START = Standing(START_MU, START_SIGMA)
#: A doctest's bot (see the module's docstring).
BOT = Standing(27.0, 1.0)


@dataclass(frozen=True)
class Pool:
    """A rating pool: ``game`` at ``low`` to ``high`` players."""

    id: str
    game: str
    low: int
    high: int
    #: The player count its bots' reference ratings were measured at.
    measured_players: int

    def label(self, title: str) -> str:
        if self.id == self.game:
            return title
        count = str(self.low) if self.low == self.high else f"{self.low}-{self.high}"
        return f"{title}, {count} players"

    def to_json(self) -> dict[str, Any]:
        game = load_game(self.game)
        return {
            "id": self.id,
            "game": self.game,
            "title": self.label(game.title),
            "players": [self.low, self.high],
        }


def pools_of(game: Game[Any, Any]) -> list[Pool]:
    """The rating pools of ``game`` (see the module's docstring)."""
    low, high = game.min_players, game.max_players
    if low == high or low >= 3:
        return [Pool(game.id, game.id, low, high, min(max(low, 4), high))]
    return [
        Pool(f"{game.id}.2", game.id, 2, 2, 2),
        Pool(f"{game.id}.3-{high}", game.id, 3, high, min(4, high)),
    ]


def pool_of(game_id: str, num_players: int) -> str:
    """The pool of a ``num_players`` table of ``game_id``."""
    for pool in pools_of(load_game(game_id)):
        if pool.low <= num_players <= pool.high:
            return pool.id
    raise ValueError(f"{game_id} has no pool for {num_players} players")


def all_pools() -> list[Pool]:
    from potluck.engine.registry import list_games

    return [pool for game in sorted(list_games()) for pool in pools_of(load_game(game))]


def find_pool(pool_id: str) -> Pool | None:
    return next((pool for pool in all_pools() if pool.id == pool_id), None)


@cache
def references() -> dict[str, Any]:
    """The measured reference ratings (``bot_ratings.json``), as stored."""
    if not REFERENCE_FILE.exists():
        return {"pools": {}}
    data: dict[str, Any] = json.loads(REFERENCE_FILE.read_text(encoding="utf-8"))
    return data


def rateable_levels(game: Game[Any, Any], pool_id: str) -> dict[str, Standing]:
    """The difficulties a rated table of this pool may seat, with their reference
    ratings: those measured for the pool whose bot, resolved with the game's tuned
    defaults today, is still the one measured (a level whose bot changed since is left
    out until measured again)."""
    measured = references().get("pools", {}).get(pool_id, {}).get("levels", {})
    found = {}
    for level in DIFFICULTIES:
        entry = measured.get(level)
        if entry is None or str(effective_spec(game, entry["spec"])) != entry["resolved"]:
            continue
        found[level] = Standing(float(entry["mu"]), float(entry["sigma"]))
    return found


def rated_spec(game: Game[Any, Any], pool_id: str, level: str) -> str | None:
    """The bot a rated table's ``level`` seat plays: the spec its reference rating was
    measured with (no time budget: the same moves on every machine), if rateable."""
    if level not in rateable_levels(game, pool_id):
        return None
    return str(references()["pools"][pool_id]["levels"][level]["spec"])


def rate(players: Sequence[Standing], places: Sequence[int], leavers: set[int]) -> list[Standing]:
    """Every seat's rating after a game: ``players`` and ``places`` (1 for the winners;
    shared places for ties) by seat; ``leavers`` (seats a bot played at the end) are
    ranked last together, below every other seat. Bots' new ratings are computed
    like anyone's and thrown away by the caller."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ranks = counted_places(places, leavers)
    teams = [[model.rating(mu=p.mu, sigma=p.sigma)] for p in players]
    rated = model.rate(teams, ranks=[float(r) for r in ranks])
    return [Standing(float(team[0].mu), float(team[0].sigma)) for team in rated]


def counted_places(places: Sequence[int], leavers: set[int]) -> list[int]:
    """The places the rating counted: a leaver's is last, below every other seat.

    >>> counted_places([1, 2, 3], {0})
    [4, 2, 3]
    """
    last = max((place for seat, place in enumerate(places) if seat not in leavers), default=0) + 1
    return [last if seat in leavers else place for seat, place in enumerate(places)]
