"""OpenSpiel's ISMCTS next to ours: its speed, and games between the two.

OpenSpiel's reference ISMCTS (``open_spiel.python.algorithms.ismcts``; the C++
``pyspiel.ISMCTSBot`` crashes on Python games) plays through our ``potluck_<id>``
OpenSpiel games with UCT (``uct_c`` 2), worlds from ``resample_from_infostate``
(the game's ``redeal``) and one random rollout per leaf. The rollout runs on
the engine state directly, about twice as fast as OpenSpiel's own
``RandomRolloutEvaluator`` through the adapter, so the speed compared is the
faster of the two ways OpenSpiel's search can run here. Needs the ``rl`` extra.

At equal CPU time (``head_to_head(..., equal_time=True)``) OpenSpiel's bot
searches each decision until it has used, by this process's CPU clock, as many
seconds as our bot has used a decision so far in the match (a running mean;
before our first decision, what our bot takes on that very position):
:class:`TimedISMCTS`.
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from potluck.agents import decide, effective_spec, make_agent
from potluck.bench import clock_named
from potluck.engine.registry import load_game
from potluck.interop.openspiel import PotluckState, game_name
from potluck.intervals import wilson_interval
from potluck.search.openspiel_bot import TimedISMCTS, _EngineRollouts
from potluck.sim import bot_rng


def openspiel_searcher(spiel_game: Any, simulations: int, seed: int, timed: bool = False) -> Any:
    """OpenSpiel's ISMCTS bot, every draw seeded from ``seed``; with ``timed`` a
    :class:`TimedISMCTS` (set its ``seconds`` before each step)."""
    searcher = (TimedISMCTS if timed else ismcts.ISMCTSBot)(
        spiel_game,
        _EngineRollouts(random.Random(seed)),
        2.0,
        1 << 30 if timed else simulations,
        random_state=np.random.RandomState(seed % 2**32),
    )
    sampler = pyspiel.UniformProbabilitySampler(seed % 2**31, 0.0, 1.0)
    searcher.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    return searcher


def compare_speed(
    game_id: str,
    players: int,
    spec: str,
    simulations: int,
    positions: int = 12,
    seed: int = 0,
    clock: str = "wall",
) -> dict[str, float]:
    """Both searches on the same positions, one after the other on each: simulations per
    second of ours (``spec``) and of OpenSpiel's (``simulations`` a decision).

    The positions are decisions with a choice, spread over games between greedy bots
    dealt from ``seed`` on. Timing the two alternately on the same positions keeps
    a shared machine's changing load, and how far into a game the positions are
    (rollouts are shorter late), out of the ratio. ``clock="cpu"`` times both by this
    process's CPU seconds (``potluck.bench.CLOCKS``), so time spent waiting for a
    busy machine's cores counts for neither: the steadier ratio on a shared machine.
    """
    game = load_game(game_id)
    ours = make_agent(game, spec)
    greedy = make_agent(game, "greedy")
    spiel_game = pyspiel.load_game(game_name(game_id), {"players": players, "seed": seed})
    found: list[Any] = []
    number = 0
    while len(found) < positions:
        state = game.new_game(players, seed + number)
        candidates = []
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            if len(game.legal_actions(state, seat)) > 1:
                candidates.append(state.clone())
            game.step(state, seat, decide(greedy, game, state, seat, bot_rng(number, seat)))
        stride = max(1, len(candidates) // positions)
        found.extend(candidates[::stride][: positions - len(found)])
        number += 1
    before = getattr(ours, "simulations_run", 0)
    mine = theirs = 0.0
    now = clock_named(clock)
    for k, state in enumerate(found):
        seat = game.to_act(state)[0]
        start = now()
        decide(ours, game, state, seat, random.Random(seed + k))
        mine += now() - start
        searcher = openspiel_searcher(spiel_game, simulations, seed + k)
        wrapped = PotluckState(spiel_game, state.clone())
        start = now()
        searcher.step(wrapped)
        theirs += now() - start
    ran = getattr(ours, "simulations_run", before) - before
    ours_rate = ran / mine if mine > 0 else 0.0
    their_rate = len(found) * simulations / theirs if theirs > 0 else 0.0
    return {
        "positions": float(len(found)),
        "simulations_per_second_same_positions": ours_rate,
        "openspiel_simulations_per_second": their_rate,
        "speedup_vs_openspiel": ours_rate / their_rate if their_rate > 0 else 0.0,
    }


def openspiel_speed(
    game_id: str, players: int, simulations: int, seconds: float = 2.0, seed: int = 0
) -> dict[str, float]:
    """OpenSpiel's ISMCTS in every seat for about ``seconds`` of its thinking."""
    spiel_game = pyspiel.load_game(game_name(game_id), {"players": players, "seed": seed})
    thinking, searches, number = 0.0, 0, 0
    while thinking < seconds:
        searcher = openspiel_searcher(spiel_game, simulations, seed + number)
        state = spiel_game.new_initial_state()
        while not state.is_terminal() and thinking < seconds:
            if len(state.legal_actions()) == 1:
                state.apply_action(state.legal_actions()[0])
                continue
            start = time.perf_counter()
            action = searcher.step(state)
            thinking += time.perf_counter() - start
            searches += 1
            state.apply_action(action)
        number += 1
    return {
        "openspiel_decisions": searches,
        "openspiel_seconds": thinking,
        "openspiel_simulations_per_second": searches * simulations / thinking,
    }


def placements(players: int, seats: int) -> list[tuple[int, ...]]:
    """The seat sets our bot takes on one deal of a head-to-head: ``seats`` seats spread
    evenly round the table, turned one seat at a time until a set comes round again, so
    every seat is ours equally often on each deal.

    >>> placements(4, 1)
    [(0,), (1,), (2,), (3,)]
    >>> placements(4, 2)
    [(0, 2), (1, 3)]
    >>> placements(2, 1)
    [(0,), (1,)]
    """
    if not 1 <= seats < players:
        raise ValueError(f"our bot takes 1 to {players - 1} of {players} seats, not {seats}")
    base = [j * players // seats for j in range(seats)]
    found: list[tuple[int, ...]] = []
    for turn in range(players):
        placed = tuple(sorted((b + turn) % players for b in base))
        if placed in found:
            break
        found.append(placed)
    return found


class CpuLedger:
    """Our bot's CPU seconds a decision over a match, which sets OpenSpiel's budget at
    equal time (a running mean, so both sides get the same seconds on average)."""

    def __init__(self, ours: list[float] | None = None, theirs: list[float] | None = None):
        self.ours: list[float] = list(ours or [])
        self.theirs: list[float] = list(theirs or [])

    def budget(self) -> float | None:
        return sum(self.ours) / len(self.ours) if self.ours else None


def duel(
    game_id: str,
    players: int,
    spec: str,
    simulations: int,
    number: int,
    seed: int = 0,
    seats: int = 1,
    ledger: CpuLedger | None = None,
) -> dict[str, Any]:
    """Game ``number`` of a head-to-head (see :func:`head_to_head`): its deal, our seats,
    their share, and both sides' CPU seconds for each decision. With a ``ledger`` it
    is played at equal CPU time (OpenSpiel's bot timed by the ledger, which the game's
    decisions are added to); else at ``simulations`` a decision for OpenSpiel's."""
    game = load_game(game_id)
    ours = make_agent(game, spec)
    spiel_game = pyspiel.load_game(game_name(game_id), {"players": players, "seed": seed})
    turns = placements(players, seats)
    deal = seed + number // len(turns)
    mine = turns[number % len(turns)]
    searcher = openspiel_searcher(spiel_game, simulations, seed + number, timed=ledger is not None)
    state = PotluckState(spiel_game, spiel_game.table.new_state(deal))
    rngs = {seat: bot_rng(seed + number, seat) for seat in mine}
    cpu: dict[str, list[float]] = {"ours": [], "openspiel": []}
    sims = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        side = "ours" if seat in rngs else "openspiel"
        if side == "openspiel" and ledger is not None:
            budget = ledger.budget()
            if budget is None:  # what ours would take here: its first time, then its mean
                began = time.process_time()
                decide(ours, game, state.engine_state, seat, random.Random(seed + number))
                ledger.ours.append(time.process_time() - began)
                budget = ledger.budget()
            searcher.seconds = budget
        start = time.process_time()
        if side == "ours":
            action = decide(ours, game, state.engine_state, seat, rngs[seat]).index
        else:
            action = searcher.step(state)
        took = time.process_time() - start
        cpu[side].append(took)
        if ledger is not None:
            (ledger.ours if side == "ours" else ledger.theirs).append(took)
        state.apply_action(action)
    if isinstance(searcher, TimedISMCTS):
        sims = searcher.simulations
    returns = state.returns()
    return {
        "game": number,
        "deal": deal,
        "seats": list(mine),
        "share": sum(returns[s] for s in mine),
        "cpu_ours": cpu["ours"],
        "cpu_openspiel": cpu["openspiel"],
        "openspiel_simulations": sims
        if ledger is not None
        else simulations * len(cpu["openspiel"]),
    }


def head_to_head(
    game_id: str,
    players: int,
    spec: str,
    simulations: int,
    games: int,
    seed: int = 0,
    seats: int = 1,
    equal_time: bool = False,
) -> dict[str, Any]:
    """Our bot ``spec`` in ``seats`` seats, OpenSpiel's ISMCTS in the others: our seats'
    summed win share per game, its mean and 95% Wilson interval.

    OpenSpiel's bot runs ``simulations`` a decision, or with ``equal_time`` as many
    CPU seconds a decision as ours has used on average so far in the match
    (:class:`TimedISMCTS`, :class:`CpuLedger`). Deals are paired: game ``i`` is
    dealt from seed ``seed + i // k`` and seats our bot in
    ``placements(players, seats)[i % k]`` (``k`` placements), so each deal is played
    once with every placement and a deal's seat luck falls on both sides equally when
    ``games`` is a multiple of ``k``. The fair share is ``seats / players``. Decisions
    with one legal move are played without a search, on both sides.
    """
    game = load_game(game_id)
    ledger = CpuLedger() if equal_time else None
    results = [
        duel(game_id, players, spec, simulations, number, seed, seats, ledger)
        for number in range(games)
    ]
    return summarise_duels(game_id, players, spec, seats, results, simulations, equal_time, game)


def summarise_duels(
    game_id: str,
    players: int,
    spec: str,
    seats: int,
    results: list[dict[str, Any]],
    simulations: int,
    equal_time: bool,
    game: Any = None,
) -> dict[str, Any]:
    """The figures of a head-to-head from its games (:func:`duel`'s rows)."""
    game = game or load_game(game_id)
    games = len(results)
    won = sum(row["share"] for row in results)
    low, high = wilson_interval(won, games) if games else (0.0, 1.0)
    ours = [c for row in results for c in row["cpu_ours"]]
    theirs = [c for row in results for c in row["cpu_openspiel"]]
    their_sims = sum(row["openspiel_simulations"] for row in results)
    return {
        "games": games,
        "spec": str(effective_spec(game, spec)),
        "seats": seats,
        "equal_time": equal_time,
        "win_share": won / games if games else 0.0,
        "ci95": [low, high],
        "fair_share": seats / players,
        "openspiel_simulations": simulations if not equal_time else None,
        "openspiel_simulations_per_decision": their_sims / max(1, len(theirs)),
        "seconds_per_decision": sum(ours) / max(1, len(ours)),
        "openspiel_seconds_per_decision": sum(theirs) / max(1, len(theirs)),
        "results": [{k: row[k] for k in ("deal", "seats", "share")} for row in results],
    }
