"""A win-chance estimate for an unfinished game, fitted to how games really end.

The search bot's cut-off score (``scoring.standings``: wealth plus three rounds of
expected Munch Fees) is a guess written by hand. This model is fitted instead: a
*conditional logit* over the seats, each seat's chance of winning being

    exp(u_i) / sum_j exp(u_j),   u_i = sum_f (a_f + b_f * progress) * x_f(seat i)

where the ``x_f`` are the seat's features below, ``progress`` is the rounds played
over ten (capped at 2, so late games weigh alike) and ``a_f`` and ``b_f`` are the
fitted weights of ``data/win_model.toml``. The weights are game data, fitted by
maximum likelihood to greedy self-play by ``examples/belly_win_model.py``, which
writes the file and records in it the command, the seeds and the held-out fit.
They were fitted on the built-in board and four seats; a game on a board file
of its own, or at another table size, uses them all the same (an estimate, not
a rule: only search bots with ``cutoff=fitted`` read it).

A seat's features (amounts in Brupees):

- ``wealth``: its wealth (``scoring.wealth``) over 1000; a bankrupt seat 0;
- ``cash``: its cash over 1000 (what it can pay fees and upgrades with);
- ``income``: the Munch Fees its cards may expect from the rivals in one round, over 100;
- ``outgo``: the fees it may expect to pay the others in one round, over 100;
- ``short``: how far its cash is below 300, over 300 (0 at 300 or more): near
  bankruptcy.

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> s = g.new_game(4, seed=1)
    >>> chances = g.win_chances(s)
    >>> len(chances), round(sum(chances), 6), all(0 < c < 1 for c in chances)
    (4, 1.0, True)
"""

from __future__ import annotations

import math
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from potluck.engine.data import DataSource, load_data
from potluck.games.belly_battle.scoring import expected_fees, outcome, wealth
from potluck.games.belly_battle.state import NOBODY, OVER, BellyState
from potluck.games.belly_battle.tables import BellyTables

#: The features of one seat, in the order ``seat_features`` gives them.
FEATURES = ("wealth", "cash", "income", "outgo", "short")
#: Cash below this counts as ``short`` (near bankruptcy).
SHORT_CASH = 300.0
#: Rounds over which ``progress`` grows by 1, and its cap.
PROGRESS_ROUNDS, PROGRESS_CAP = 10.0, 2.0


class FittedBy(BaseModel):
    """How the weights were made, so anyone can make them again."""

    model_config = ConfigDict(extra="forbid")

    command: str = Field(min_length=1, max_length=400)
    players: int = Field(ge=2, le=6)
    seeds: str = Field(min_length=1, max_length=100, description="the games' deal seeds")
    bots: str = Field(min_length=1, max_length=200, description="who played the games")
    games: int = Field(ge=1)
    positions: int = Field(ge=1)
    held_out_games: int = Field(ge=0)
    held_out_log_loss: float = Field(ge=0)
    held_out_accuracy: float = Field(ge=0, le=1)
    #: The same held-out games scored by the standings fitted as a one-weight logit.
    held_out_standings_log_loss: float = Field(ge=0)


class WinModelData(BaseModel):
    """The weights file: ``[weights]`` gives each feature ``[a, b]`` (its weight,
    and what it gains per unit of progress); ``[fitted]`` says how they were made."""

    model_config = ConfigDict(extra="forbid")

    fitted: FittedBy
    weights: dict[str, list[float]]

    @model_validator(mode="after")
    def _check_weights(self) -> WinModelData:
        names = set(self.weights)
        if names != set(FEATURES):
            missing = ", ".join(f for f in FEATURES if f not in names) or "none"
            unknown = ", ".join(sorted(names - set(FEATURES))) or "none"
            raise ValueError(
                f"weights must name exactly the features {', '.join(FEATURES)} "
                f"(missing: {missing}; unknown: {unknown})"
            )
        for name, pair in self.weights.items():
            if len(pair) != 2 or not all(math.isfinite(w) and abs(w) < 1e3 for w in pair):
                raise ValueError(
                    f"weight {name!r} must be two finite numbers below 1000 "
                    f"([weight, gain per unit of progress]), not {pair}"
                )
        return self


class WinModel:
    """The fitted weights, ready to score states.

    >>> model = load_win_model()
    >>> len(model.base) == len(model.late) == len(FEATURES)
    True
    """

    def __init__(self, data: WinModelData) -> None:
        self.data = data
        self.base = tuple(data.weights[f][0] for f in FEATURES)
        self.late = tuple(data.weights[f][1] for f in FEATURES)

    def chances(self, game: BellyTables, state: BellyState) -> tuple[float, ...]:
        """Each seat's estimated chance of winning; a finished game's win shares."""
        if state.phase == OVER:
            return outcome(game, state).win_shares()
        t = progress(state)
        weights = [a + b * t for a, b in zip(self.base, self.late, strict=True)]
        utilities = [
            sum(w * x for w, x in zip(weights, row, strict=True))
            for row in seat_features(game, state)
        ]
        top = max(utilities)
        exps = [math.exp(u - top) for u in utilities]
        total = sum(exps)
        return tuple(e / total for e in exps)


def progress(state: BellyState) -> float:
    """Rounds played over ``PROGRESS_ROUNDS``, at most ``PROGRESS_CAP``."""
    return min(state.round / PROGRESS_ROUNDS, PROGRESS_CAP)


def seat_features(game: BellyTables, state: BellyState) -> list[list[float]]:
    """Every seat's features (``FEATURES``, scaled as the module says), seat by seat.

    >>> import potluck
    >>> g = potluck.load_game("belly-battle")
    >>> [round(x, 2) for x in seat_features(g, g.new_game(2, seed=1))[0]]
    [1.14, 1.0, 0.0, 0.01, 0.0]
    """
    n = state.num_players
    income = [expected_fees(game, state, s, 1.0) for s in range(n)]
    total = sum(income)
    rows = []
    for s in range(n):
        cash = state.cash[s]
        bankrupt = s == state.bankrupt and state.bankrupt != NOBODY
        rows.append(
            [
                0.0 if bankrupt else wealth(game, state, s) / 1000.0,
                cash / 1000.0,
                income[s] / 100.0,
                # Each rival's income comes from the n - 1 others alike.
                (total - income[s]) / max(1, n - 1) / 100.0,
                max(0.0, SHORT_CASH - cash) / SHORT_CASH,
            ]
        )
    return rows


def load_win_model(source: DataSource = None) -> WinModel:
    """The weights from ``source`` (a TOML path or a parsed table; ``None``: the
    game's own ``data/win_model.toml``); a broken file raises ``DataError``."""
    return WinModel(
        load_data(WinModelData, source, package=__package__, default="data/win_model.toml")
    )


def default_path() -> Any:
    """Where the game's own weights file lives (``examples/belly_win_model.py``
    writes it there)."""
    return resources.files(__package__).joinpath("data/win_model.toml")
