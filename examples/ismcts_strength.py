"""Benchmark: one search seat against greedy opponents (or any others), win share with 95% CI.

Game ``i`` is dealt from ``seed + i`` and the tested bot sits in seat ``i % players``,
so every seat hosts it equally often. A shared win counts as a share (1/k for k
winners). The interval is Wilson's on the summed shares
(``potluck.intervals.wilson_interval``). ``--bot ismcts`` is the search bot with
the game's tuned defaults (``potluck.agents.search_defaults``).

    python examples/ismcts_strength.py cafe-carnage --players 4 --games 200 \\
        --bot ismcts --others greedy --json

It plays through ``potluck.agents.decide``, the call every surface uses, so the
search bot sees only its seat's information set. This is a benchmark: run it
with ``nice`` and expect minutes, not seconds.

Thinking time is measured twice: by the wall clock and by the process's CPU
clock (``time.process_time``, which a busy machine's waiting does not inflate);
``cpu_median_decision_seconds`` and ``cpu_slowest_decision_seconds`` are the
latter. ``--baseline greedy`` also plays every deal with that bot in the tested
seat (the paired baseline, reported as ``baseline_win_share``). ``--stop-below X``
is a futility stop written down before a run: after every 50 games, the run stops
once the 99% Wilson interval's upper end is below ``X`` (the target cannot be met).

``--decide-at Z`` is a sequential test for tuning (never for a pre-registered run):
with a baseline, after every 20 games the run stops once the tested bot's mean
per-deal lead over the baseline (``paired_difference``) is ``Z`` standard errors
from 0 either way.

``--results FILE.jsonl`` makes a long run resumable: every game is appended to the
file as it ends (its deal, the tested seat, its share, the baseline's share, each
decision's CPU seconds), and a run started again with the same file and settings
plays only the games the file does not hold yet (game ``i`` is always dealt from
``seed + i`` with the tested bot in seat ``i % players``, so a resumed run keeps
the registered seats), then reports on all of them. A game's record may come in
parts (its share in one line, its baseline in another); the parts are merged.
A long run may be played as blocks side by side, each from its own first game
(``--from-game``) in its own file, and reported as one with ``--merge FILE...``
(the futility and sequential stops then see only their own block).

    python examples/ismcts_strength.py burger-joint --players 2 --games 200 \
        --seed 60000 --baseline greedy --results runs/burger.jsonl --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import potluck
from potluck.agents import decide, effective_spec, make_agent
from potluck.intervals import wilson_interval
from potluck.sim import bot_rng

#: z of a two-sided 99% interval, for the futility stop.
Z99 = 2.5758293035489


def one_game(
    game: Any, players: int, deal: int, hero: int, tested: Any, rival: Any, cpu: list[float]
) -> tuple[float, float, float]:
    """The hero's win share in one game, with its wall seconds and its slowest wall
    decision; appends each decision's CPU seconds to ``cpu``."""
    state = game.new_game(players, deal)
    rngs = [bot_rng(deal, s) for s in range(players)]
    thinking = slowest = 0.0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        if seat == hero and len(game.legal_actions(state, seat)) > 1:
            began, began_cpu = time.perf_counter(), time.process_time()
            action = decide(tested, game, state, seat, rngs[seat])
            cpu.append(time.process_time() - began_cpu)
            took = time.perf_counter() - began
            thinking += took
            slowest = max(slowest, took)
        else:
            action = decide(tested if seat == hero else rival, game, state, seat, rngs[seat])
        game.step(state, seat, action)
    return game.outcome(state).win_shares()[hero], thinking, slowest


def read_results(path: Path, header: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The games already in a results file, merged by index (``{}`` if there is none).

    The file's first line is its run's settings (all but the number of games, so a run
    may be extended); a file written by other settings is refused, so runs never mix."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"run": header}) + "\n")
        return {}
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if not lines or lines[0].get("run") != header:
        found = lines[0].get("run") if lines else None
        raise SystemExit(f"{path} holds another run: {found} (this one: {header})")
    games: dict[int, dict[str, Any]] = {}
    for line in lines[1:]:
        games.setdefault(int(line["index"]), {}).update(line)
    return games


def paired_difference(records: list[dict[str, Any]]) -> tuple[float, float]:
    """The tested bot's mean lead over the baseline on the same deals and seats, and its
    standard error (``(0, 0)`` with fewer than two paired games)."""
    diffs = [r["share"] - r["baseline_share"] for r in records if "baseline_share" in r]
    if len(diffs) < 2:
        return 0.0, 0.0
    return statistics.fmean(diffs), statistics.stdev(diffs) / len(diffs) ** 0.5


def summary(
    game: Any,
    header: dict[str, Any],
    records: list[dict[str, Any]],
    stopped: bool,
    seconds: float,
    simulations: float,
    planned: int,
) -> dict[str, Any]:
    """The run's figures over ``records`` (one merged record a game)."""
    shares = [float(r["share"]) for r in records]
    played = len(shares)
    low, high = wilson_interval(sum(shares), played) if played else (0.0, 1.0)
    cpu = [c for r in records for c in r.get("cpu") or []]
    timed = [r for r in records if r.get("cpu") is not None]
    decisions = len(cpu)
    thinking = sum(float(r.get("wall", 0.0)) for r in timed)
    result: dict[str, Any] = {
        "game": header["game"],
        "players": header["players"],
        "games": played,
        "games_planned": planned,
        "stopped_for_futility": stopped,
        "bot": header["bot"],
        "effective_spec": str(effective_spec(game, header["bot"])),
        "games_timed": len(timed),
        "decisions": decisions,
        "seconds_per_decision": thinking / max(1, decisions),
        "slowest_decision_seconds": max((float(r.get("slowest", 0.0)) for r in timed), default=0.0),
        "cpu_mean_decision_seconds": sum(cpu) / max(1, decisions),
        "cpu_median_decision_seconds": statistics.median(cpu) if cpu else 0.0,
        "cpu_slowest_decision_seconds": max(cpu, default=0.0),
        "simulations_per_decision": simulations,
        "others": header["others"],
        "seed": header["seed"],
        "wins": sum(shares),
        "win_share": sum(shares) / max(1, played),
        "ci95": [low, high],
        "fair_share": 1.0 / header["players"],
        "seconds": seconds,
    }
    based = [float(r["baseline_share"]) for r in records if "baseline_share" in r]
    if header.get("baseline") and based:
        result["baseline"] = header["baseline"]
        result["baseline_games"] = len(based)
        result["baseline_wins"] = sum(based)
        result["baseline_win_share"] = sum(based) / len(based)
        result["baseline_ci95"] = list(wilson_interval(sum(based), len(based)))
        mean, error = paired_difference(records)
        result["paired_difference"] = mean
        result["paired_difference_stderr"] = error
    return result


def play(
    game_id: str,
    players: int,
    games: int,
    bot: str,
    others: str,
    seed: int,
    baseline: str | None = None,
    stop_below: float | None = None,
    results: Path | None = None,
    decide_at: float | None = None,
    first: int = 0,
    tested_agent: Any = None,
) -> dict[str, Any]:
    """Play the run (``main``'s arguments). ``tested_agent``: a bot built by the caller
    (a lever that no spec names, ``examples/food_advice_levers.py``) that plays as
    ``bot``, which then only labels the run."""
    game = potluck.load_game(game_id)
    tested = make_agent(game, bot) if tested_agent is None else tested_agent
    rival = make_agent(game, others)
    paired = make_agent(game, baseline) if baseline else None
    header = {
        "game": game_id,
        "players": players,
        "bot": bot,
        "others": others,
        "seed": seed,
        "baseline": baseline,
    }
    done = read_results(results, header) if results is not None else {}
    stopped = False
    start = time.perf_counter()
    decisions_now = 0
    for i in range(first, games):
        record = done.setdefault(i, {"index": i})
        hero = i % players
        new: dict[str, Any] = {}
        if "share" not in record:
            cpu: list[float] = []
            share, took, worst = one_game(game, players, seed + i, hero, tested, rival, cpu)
            decisions_now += len(cpu)
            new.update(share=share, wall=took, slowest=worst, cpu=cpu)
        if paired is not None and "baseline_share" not in record:
            new["baseline_share"] = one_game(game, players, seed + i, hero, paired, rival, [])[0]
        if new:
            new.update(index=i, deal=seed + i, hero=hero)
            record.update(new)
            if results is not None:
                with results.open("a") as out:
                    out.write(json.dumps(new) + "\n")
        so_far = [done[j] for j in sorted(done) if j <= i and "share" in done[j]]
        if new:
            base = [r["baseline_share"] for r in so_far if "baseline_share" in r]
            # Progress after every game, so a run cut short still says something.
            mean = sum(r["share"] for r in so_far) / len(so_far)
            print(
                f"{len(so_far)} games: win share {mean:.3f} "
                f"(game {seed + i}: {record['share']:.2f})"
                + (f" baseline {sum(base) / len(base):.3f}" if base else ""),
                file=sys.stderr,
                flush=True,
            )
        played = [r["share"] for r in so_far]
        if (
            stop_below is not None
            and len(played) % 50 == 0
            and i + 1 < games
            and wilson_interval(sum(played), len(played), Z99)[1] < stop_below
        ):
            stopped = True
            break
        if decide_at is not None and len(so_far) % 20 == 0 and i + 1 < games:
            mean, error = paired_difference(so_far)
            if error > 0 and abs(mean) >= decide_at * error:
                break
    records = [done[j] for j in sorted(done) if "share" in done[j]]
    simulations = getattr(tested, "simulations_run", 0) / max(1, decisions_now)
    return summary(game, header, records, stopped, time.perf_counter() - start, simulations, games)


def merge(paths: list[Path], first: int = 0) -> dict[str, Any]:
    """The figures of one run played as blocks (``--from-game``) in several results files,
    which must hold the same settings; a game in two files counts once. ``first``: only
    the games from that index on (``--merge ... --from-game N``)."""
    heads = [json.loads(path.read_text().splitlines()[0])["run"] for path in paths]
    if any(head != heads[0] for head in heads):
        raise SystemExit(f"the files hold different runs: {heads}")
    done = _records(paths)
    records = [done[j] for j in sorted(done) if "share" in done[j] and j >= first]
    game = potluck.load_game(heads[0]["game"])
    planned = max(done, default=-1) + 1
    return summary(game, heads[0], records, False, 0.0, 0.0, planned)


def against(paths: list[Path], others: list[Path], first: int = 0) -> dict[str, Any]:
    """``merge(paths)``'s figures with the tested bot's lead over another run's tested bot
    on the same deals and seats (``others``: that run's results files), deal by deal:
    two candidates each played in their own run are paired as ``--baseline`` pairs."""
    mine, theirs = _records(paths), _records(others)
    head, other = (json.loads(p[0].read_text().splitlines()[0])["run"] for p in (paths, others))
    for key in ("game", "players", "others", "seed"):
        if head[key] != other[key]:
            raise SystemExit(f"the runs differ in {key}: {head[key]} and {other[key]}")
    both = sorted(
        i for i in mine if i >= first and "share" in mine[i] and "share" in theirs.get(i, {})
    )
    diffs = [float(mine[i]["share"]) - float(theirs[i]["share"]) for i in both]
    result = merge(paths, first)
    result["against"] = other["bot"]
    result["against_games"] = len(both)
    result["against_win_share"] = statistics.fmean(float(theirs[i]["share"]) for i in both)
    result["win_share_on_those_games"] = statistics.fmean(float(mine[i]["share"]) for i in both)
    result["lead_over_against"] = statistics.fmean(diffs)
    result["lead_over_against_stderr"] = statistics.stdev(diffs) / len(diffs) ** 0.5
    result["games_ended_differently"] = [
        sum(1 for d in diffs if d > 0),
        sum(1 for d in diffs if d < 0),
    ]
    return result


def _records(paths: list[Path]) -> dict[int, dict[str, Any]]:
    head = json.loads(paths[0].read_text().splitlines()[0])["run"]
    done: dict[int, dict[str, Any]] = {}
    for path in paths:
        for index, record in read_results(path, head).items():
            done.setdefault(index, {}).update(record)
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?")
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--from-game", type=int, default=0, help="play games from this index on")
    parser.add_argument("--merge", type=Path, nargs="+", help="only report on these results files")
    parser.add_argument(
        "--against",
        type=Path,
        nargs="+",
        help="with --merge: also the lead over these results files' bot, deal by deal",
    )
    parser.add_argument("--bot", default="ismcts")
    parser.add_argument("--others", default="greedy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--baseline", help="also play each deal with this bot in the seat")
    parser.add_argument("--stop-below", type=float, help="futility stop (see above)")
    parser.add_argument("--decide-at", type=float, help="sequential stop for tuning (above)")
    parser.add_argument("--results", type=Path, help="append each game here; resume from it")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.merge:
        first = args.from_game
        found = (
            against(args.merge, args.against, first) if args.against else merge(args.merge, first)
        )
        print(json.dumps(found))
        return 0
    if args.game is None or args.players is None:
        parser.error("GAME and --players are needed to play")
    result = play(
        args.game,
        args.players,
        args.games,
        args.bot,
        args.others,
        args.seed,
        args.baseline,
        args.stop_below,
        args.results,
        args.decide_at,
        args.from_game,
    )
    if args.json:
        print(json.dumps(result))
    else:
        low, high = result["ci95"]
        print(
            f"{args.game} {args.players}p: {args.bot} vs {args.others}: win share "
            f"{result['win_share']:.3f} [{low:.3f}, {high:.3f}] over {result['games']} games "
            f"(fair share {result['fair_share']:.3f}), {result['seconds']:.0f} s, "
            f"{result['seconds_per_decision']:.2f} s a decision "
            f"(slowest {result['slowest_decision_seconds']:.2f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
