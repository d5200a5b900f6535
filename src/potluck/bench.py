"""Benchmark: whole games on one core, with a bot in every seat (random by default).

With the random bot it measures the rules engine itself (``to_act``,
``legal_actions``, ``step``), which the lab and search bots call millions of
times; the harness adds as little as it can per step, so the figure is the
game's, not ours. With another bot (``bot="greedy"``) every seat decides through
:func:`potluck.agents.decide`, view and all, as in a simulation, and the bot's
own thinking time is kept apart (``decisions_per_second``; a search bot's
``simulations_per_second`` too, per second of its thinking). ``clones_per_second``
times ``state.clone()`` of a mid-game state, what search bots do most::

    >>> import potluck
    >>> from potluck.bench import bench_game
    >>> result = bench_game(potluck.load_game("cafe-carnage"), seconds=0.2)
    >>> result.games >= 1 and result.steps_per_second > 0
    True
    >>> greedy = bench_game(potluck.load_game("cafe-carnage"), 4, 0.2, bot="greedy")
    >>> greedy.decisions_per_second > 0 and greedy.clones_per_second > 0
    True
    >>> search = bench_game(potluck.load_game("burger-joint"), 2, 0.2, bot="ismcts:sims=8")
    >>> search.simulations_per_second > 0, greedy.simulations_per_second
    (True, None)

``python -m potluck.bench --all --json`` measures every game, next to OpenSpiel's
C++ hearts driven from Python in the same process when pyspiel is installed. Every
row says which build of the rules ran (``"rules"``: ``"compiled"`` or ``"pure"``,
``potluck.native``); the text report says it on its first line.

Every figure is timed by one clock: ``"wall"`` (``time.perf_counter``, what a user
waits) or ``"cpu"`` (``time.process_time``, the CPU seconds this process got). On a
machine other programs share, the wall clock mostly measures their load; CPU seconds
are the engine's own cost on one core, so ``clock="cpu"`` is the figure to compare
across runs (the ratio to hearts, timed by the same clock, holds under either)::

    >>> cpu = bench_game(potluck.load_game("burger-joint"), seconds=0.2, clock="cpu")
    >>> cpu.clock, cpu.steps_per_second > 0
    ('cpu', True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final

from potluck import native
from potluck.engine.bots import PlainChooser, choose_seen
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game

__all__ = [
    "CLOCKS",
    "BenchResult",
    "bench_best",
    "bench_clone",
    "bench_game",
    "bench_hearts",
    "main",
]

#: The clocks a benchmark can time by: the wall clock, or this process's CPU seconds.
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def clock_named(name: str) -> Callable[[], float]:
    """The clock called ``name`` (``"wall"`` or ``"cpu"``); ``PotluckError`` otherwise."""
    try:
        return CLOCKS[name]
    except KeyError:
        raise PotluckError(
            f"no clock called {name!r}: choose {' or '.join(repr(c) for c in CLOCKS)}"
        ) from None


@dataclass(frozen=True, slots=True)
class BenchResult:
    """How many whole games and steps one core played in ``seconds``, and how fast."""

    game: str
    players: int
    games: int
    steps: int
    seconds: float
    #: Steps per second of every trial when the figure is the best of several.
    trials: tuple[float, ...] = ()
    #: The bot spec in every seat.
    bot: str = "random"
    #: Calls to the bot (the random bot decides every step).
    decisions: int = 0
    #: Seconds the bot spent deciding (all of ``seconds`` for the random bot's fast loop;
    #: for another bot but a search, its timed games' (``_TIMED_EVERY``) per decision).
    thinking: float = 0.0
    #: ``state.clone()`` calls per second on a mid-game state.
    clones_per_second: float = 0.0
    #: The clock every figure was timed by (``CLOCKS``).
    clock: str = "wall"
    #: Of ``thinking``, the seconds spent building the seat's view for a bot that reads one.
    viewing: float = 0.0
    #: Simulations a search bot ran (its ``simulations_run``); ``None`` for other bots.
    simulations: int | None = None

    @property
    def simulations_per_second(self) -> float | None:
        """A search bot's simulations per second of its thinking (``None``: no search)."""
        if self.simulations is None:
            return None
        return self.simulations / self.thinking if self.thinking > 0 else 0.0

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.thinking if self.thinking > 0 else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """A flat object of named figures; other tools add their own keys beside them
        (a search bot's ``simulations_per_second``, the OpenSpiel comparison)."""
        return {
            "players": self.players,
            "bot": self.bot,
            "games": self.games,
            "steps": self.steps,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "steps_per_second": self.steps_per_second,
            "trials_steps_per_second": list(self.trials or (self.steps_per_second,)),
            "decisions": self.decisions,
            "decisions_per_second": self.decisions_per_second,
            "clones_per_second": self.clones_per_second,
            "clock": self.clock,
            "view_share_of_thinking": self.viewing / self.thinking if self.thinking else 0.0,
            "simulations_per_second": self.simulations_per_second,
            # Which build of the rules ran: "compiled" (mypyc) or "pure" (potluck.native).
            "rules": native.status().build,
        }


def bench_game(
    game: Game[Any, Any],
    num_players: int | None = None,
    seconds: float = 2.0,
    seed: int = 0,
    bot: str = "random",
    clock: str = "wall",
) -> BenchResult:
    """Play games with ``bot`` in every seat for about ``seconds`` of ``clock`` (at least
    one whole game).

    ``num_players`` defaults to the game's minimum. Game ``i`` is dealt from
    ``seed + i``; random moves are drawn from one generator seeded by ``seed`` and
    another bot in seat ``s`` draws from ``potluck.sim.bot_rng(seed + i, s)``, so the
    sequence of games is the same on every run; only how many fit in the time varies.
    """
    players = game.min_players if num_players is None else num_players
    if seconds <= 0:
        raise PotluckError(f"the benchmark needs a positive time, not {seconds} seconds")
    now_of = clock_named(clock)
    game.new_game(players, seed)  # a bad player count fails here, with the game's message
    clones = bench_clone(game, players, seed, clock=clock)
    if bot != "random":
        return replace(
            _bench_bot_games(game, players, seconds, seed, bot, now_of),
            clones_per_second=clones,
            clock=clock,
        )
    # Everything the loop touches is a local: attribute and global look-ups
    # would cost more per step than some games' rules do.
    rand = random.Random(seed).random
    new_game, to_act, legal_actions, step = (
        game.new_game,
        game.to_act,
        game.legal_actions,
        game.step,
    )
    games = steps = 0
    start = now_of()
    deadline = start + seconds
    while True:
        state = new_game(players, seed + games)
        acting = to_act(state)
        while acting:
            seat = acting[0]
            legal = legal_actions(state, seat)
            step(state, seat, legal[int(rand() * len(legal))])
            steps += 1
            acting = to_act(state)
        games += 1
        # The clock is read once per game, not per step.
        now = now_of()
        if now >= deadline:
            break
    took = now - start
    return BenchResult(
        game.id,
        players,
        games,
        steps,
        took,
        decisions=steps,
        thinking=took,
        clones_per_second=clones,
        clock=clock,
    )


#: A bot other than a search is timed part by part (view, thought) in one game of this
#: many, from the first; the others run with no clock read between the moves, as the
#: random bot's loop does, so that ``games_per_second`` does not pay the clock's cost.
_TIMED_EVERY: Final = 8


def _bench_bot_games(
    game: Game[Any, Any],
    players: int,
    seconds: float,
    seed: int,
    spec: str,
    clock: Callable[[], float],
) -> BenchResult:
    from potluck.agents import decide, is_search_bot, make_agent
    from potluck.sim import bot_rng

    agent = make_agent(game, spec)
    searching = is_search_bot(agent)
    # A search bot counts its simulations (``ISMCTSBot.simulations_run``).
    counted = searching and isinstance(getattr(agent, "simulations_run", None), int)
    simulations_before = getattr(agent, "simulations_run", 0) if counted else 0
    games = steps = decisions = timed = 0
    # The timed games of a bot that does not search (one in ``_TIMED_EVERY``): how many and
    # how long they took (their steps are ``timed``), left out of the rates below when
    # other games ran.
    timed_games = 0
    timed_seconds = thinking = viewing = 0.0
    chooser = None if searching else PlainChooser(agent, game)
    read = None if chooser is None else chooser.read
    step, to_act = game.step, game.to_act
    start = clock()
    deadline = start + seconds
    while True:
        state = game.new_game(players, seed + games)
        rngs = [bot_rng(seed + games, seat) for seat in range(players)]
        acting = to_act(state)
        if searching or games % _TIMED_EVERY == 0:
            game_began = clock()
            while acting:
                seat = acting[0]
                began = clock()
                if searching or read is None:
                    action = decide(agent, game, state, seat, rngs[seat])
                else:
                    # decide()'s own steps for a bot that reads views, timed apart: how
                    # much of a decision is building the seat's view rather than the
                    # bot's thought
                    view = read(state, seat)
                    viewing += clock() - began
                    action = choose_seen(agent, game, state, seat, rngs[seat], view)
                thinking += clock() - began
                decisions += 1
                timed += 1
                step(state, seat, action)
                steps += 1
                acting = to_act(state)
            if not searching:
                timed_games += 1
                timed_seconds += clock() - game_began
        else:
            # decide()'s steps with no clock read: a timed decision's three reads of a CPU
            # clock cost about a microsecond, a sixth of a cheap bot's whole decision.
            assert chooser is not None  # (a search bot's games are all timed)
            while acting:
                seat = acting[0]
                step(state, seat, chooser(state, seat, rngs[seat]))
                decisions += 1
                steps += 1
                acting = to_act(state)
        games += 1
        now = clock()
        if now >= deadline:
            break
    took = now - start
    if games > timed_games > 0:
        # The rates are the untimed games': a timed game reads the CPU clock three times a
        # decision (measured: 1 in 8 games timed cost 5-17% of greedy games/s, the pace of
        # the measurement, not of the bot's play).
        games -= timed_games
        steps -= timed  # a decision a step, and every timed decision a timed game's
        decisions -= timed
        took -= timed_seconds
    if 0 < timed != decisions:
        # The timed games' thinking, per decision, stands for every decision's.
        thinking *= decisions / timed
        viewing *= decisions / timed
    return BenchResult(
        game.id,
        players,
        games,
        steps,
        took,
        bot=spec,
        decisions=decisions,
        thinking=thinking,
        viewing=viewing,
        simulations=getattr(agent, "simulations_run", 0) - simulations_before if counted else None,
    )


def mid_game_state(game: Game[Any, Any], players: int, seed: int = 0) -> Any:
    """The state halfway through a random game dealt from ``seed``."""
    rng = random.Random(seed)
    state = game.new_game(players, seed)
    while game.to_act(state):
        seat = game.to_act(state)[0]
        game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
    half = len(state.history) // 2
    record = game.record(state)
    return game.replay(record, upto=half)


def bench_clone(
    game: Game[Any, Any], players: int, seed: int = 0, seconds: float = 0.2, clock: str = "wall"
) -> float:
    """``clone()`` calls per second of ``clock`` on a mid-game state (best of three short
    trials)."""
    now_of = clock_named(clock)
    state = mid_game_state(game, players, seed)
    clone = state.clone
    best = 0.0
    for _ in range(3):
        count, start = 0, now_of()
        deadline = start + seconds / 3
        while True:
            for _ in range(100):
                clone()
            count += 100
            now = now_of()
            if now >= deadline:
                break
        best = max(best, count / (now - start))
    return best


def bench_best(
    game: Game[Any, Any],
    num_players: int | None = None,
    seconds: float = 2.0,
    seed: int = 0,
    repeat: int = 3,
    bot: str = "random",
    clock: str = "wall",
) -> BenchResult:
    """The fastest of ``repeat`` trials of ``seconds / repeat`` each, timed by ``clock``.

    A shared machine slows some trials down and never speeds one up, so the
    fastest trial is the best estimate of the engine's own speed (as ``timeit``
    advises); every trial's figure is kept in ``trials``.
    """
    if repeat < 1:
        raise PotluckError(f"the benchmark needs at least one trial, not {repeat}")
    results = [
        bench_game(game, num_players, seconds / repeat, seed, bot, clock) for _ in range(repeat)
    ]
    best = max(results, key=lambda r: r.steps_per_second)
    return replace(best, trials=tuple(r.steps_per_second for r in results))


def bench_hearts(seconds: float = 2.0, seed: int = 0, clock: str = "wall") -> float:
    """Steps per second of OpenSpiel's C++ hearts played at random from Python.

    The yardstick for our own random play: ``pyspiel.load_game("hearts")``, every
    ``apply_action`` counted (chance deals included), moves drawn the same way as
    ours. ``ImportError`` without the rl extra.
    """
    import pyspiel

    now_of = clock_named(clock)
    hearts = pyspiel.load_game("hearts")
    rand = random.Random(seed).random
    steps = 0
    start = now_of()
    deadline = start + seconds
    while True:
        state = hearts.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rand() * len(legal))])
            steps += 1
        now = now_of()
        if now >= deadline:
            return steps / (now - start)


def with_hearts(row: dict[str, Any], seconds: float, seed: int = 0) -> dict[str, Any]:
    """``row`` with OpenSpiel hearts' random steps per second, timed right after it by
    the row's clock, and the ratio of ours to it (above 1: ours is faster); unchanged
    without pyspiel."""
    try:
        hearts = bench_hearts(seconds, seed, row.get("clock", "wall"))
    except ImportError:
        return row
    return {
        **row,
        "openspiel_hearts_steps_per_second": hearts,
        "steps_ratio_to_openspiel_hearts": row["steps_per_second"] / hearts,
    }


def main(argv: list[str] | None = None) -> None:
    """``python -m potluck.bench [GAME ...] [--all] [--bot SPEC] [--json]``."""
    import argparse
    import json

    from potluck.engine.registry import list_games, load_game

    parser = argparse.ArgumentParser(
        prog="python -m potluck.bench",
        description="Games, steps, decisions and clones per second on one core, "
        "next to OpenSpiel's C++ hearts (random play) when pyspiel is installed.",
    )
    parser.add_argument("games", nargs="*", metavar="GAME")
    parser.add_argument("--all", action="store_true", help="every registered game")
    parser.add_argument("--bot", default="random", metavar="SPEC")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per game")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="time by the wall clock or by this process's CPU seconds (steadier on a "
        "shared machine)",
    )
    parser.add_argument("--no-hearts", action="store_true", help="skip OpenSpiel's hearts")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    ids = list_games() if args.all or not args.games else args.games
    if not args.json:
        print(native.status().line(), flush=True)
    results: dict[str, dict[str, Any]] = {}
    for game_id in ids:
        game = load_game(game_id)
        row = bench_best(
            game, args.players, args.seconds, args.seed, args.repeat, args.bot, args.clock
        )
        data = row.to_json()
        if not args.no_hearts:
            data = with_hearts(data, args.seconds / args.repeat, args.seed)
        results[game_id] = data
        if not args.json:
            ratio = data.get("steps_ratio_to_openspiel_hearts")
            print(
                f"{game_id:18} {row.players}p {args.bot:10} {row.steps_per_second:>10,.0f} steps/s "
                f"{row.games_per_second:>9,.1f} games/s {row.decisions_per_second:>10,.0f} "
                f"decisions/s {row.clones_per_second:>9,.0f} clones/s"
                + (
                    ""
                    if row.simulations_per_second is None
                    else f" {row.simulations_per_second:>9,.0f} simulations/s"
                )
                + ("" if ratio is None else f"  x{ratio:.2f} of OpenSpiel hearts"),
                flush=True,
            )
    if args.json:
        print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
