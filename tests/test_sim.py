"""The simulation and benchmark libraries (potluck.sim, potluck.bench).

They are tested against ``ToyGame``, a tiny game defined here that has what
the real games have: a sealed simultaneous choice, a sequential step, hidden
information, an option, and two bots (one that needs its view). The CLI tests
import it from here.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

import pytest

import potluck
from potluck import Action, Game, Option, Outcome, PotluckError, RandomBot, State
from potluck.bench import BenchResult, bench_best, bench_game
from potluck.engine.bots import EarlyChooser, bot_input
from potluck.engine.errors import IllegalActionError, InvalidActionError, OptionError
from potluck.sim import GameResult, bot_rng, lineup, play_game, simulate

TOY_ID = "toy-table"
ACTIONS = (Action(0, "low"), Action(1, "high"), Action(2, "pass"), Action(3, "bonus"))
BY_TEXT = {action.text: action for action in ACTIONS}
MAX_ROUNDS = 5


class ToyState(State):
    __slots__ = ("choices", "last", "phase", "round", "scores", "secrets")

    round: int
    phase: str
    scores: list[int]
    secrets: list[int]
    choices: list[int | None]
    last: list[int] | None

    def clone(self) -> ToyState:
        twin = self._blank_copy()
        twin.round, twin.phase, twin.last = self.round, self.phase, self.last
        twin.scores, twin.secrets = self.scores.copy(), self.secrets.copy()
        twin.choices = self.choices.copy()
        return twin


class ToyGame(Game[ToyState, Action]):
    """Each round every seat bids low (1 point) or high (2 points, 0 if another bids high),
    sealed and at once; then one seat may take a bonus of a third of its secret number."""

    id: ClassVar[str] = TOY_ID
    title: ClassVar[str] = "Toy Table"
    version: ClassVar[int] = 1
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options: ClassVar[Mapping[str, Option]] = {
        "rounds": Option(int, 2, "How many rounds (1 to 5)."),
    }
    summary: ClassVar[str] = "# Toy Table\n\nBid **low** or **high**, then maybe take a bonus."
    notation: ClassVar[str] = "`low`, `high` when bidding; `pass` or `bonus` after."

    def __init__(self, data: Any = None) -> None:
        self.data_source = None if data is None else str(data)

    def _new_game(self, num_players: int, seed: int, options: Mapping[str, Any]) -> ToyState:
        if not 1 <= options["rounds"] <= MAX_ROUNDS:
            raise OptionError(f"rounds must be 1 to {MAX_ROUNDS}")
        state = ToyState(num_players, seed, options)
        state.round, state.phase, state.last = 0, "bid", None
        state.scores = [0] * num_players
        state.secrets = [state.rng.randint(1, 9) for _ in range(num_players)]
        state.choices = [None] * num_players
        state.acting = tuple(range(num_players))
        return state

    def legal_actions(self, state: ToyState, seat: int) -> list[Action]:
        if seat not in state.acting:
            return []
        return list(ACTIONS[:2] if state.phase == "bid" else ACTIONS[2:])

    def parse_action(self, state: ToyState, seat: int, text: str) -> Action:
        return self._action_from_text(text)

    def _action_from_text(self, text: str) -> Action:
        try:
            return BY_TEXT[text.strip().lower()]
        except KeyError:
            raise InvalidActionError(f"{text!r} is not low, high, pass or bonus") from None

    def _why_illegal(self, state: ToyState, seat: int, action: Action) -> str:
        return "You are bidding: low or high." if state.phase == "bid" else "Pass or bonus now."

    def _step(self, state: ToyState, seat: int, action: Action) -> None:
        n = state.num_players
        if state.phase == "bid":
            state.choices[seat] = action.index
            state.acting = tuple(s for s in state.acting if s != seat)
            if not state.acting:
                highs = state.choices.count(1)
                for s, choice in enumerate(state.choices):
                    state.scores[s] += 1 if choice == 0 else (2 if highs == 1 else 0)
                state.last = [c or 0 for c in state.choices]
                state.choices = [None] * n
                state.phase, state.acting = "bonus", (state.round % n,)
            return
        if action.text == "bonus":
            state.scores[seat] += state.secrets[seat] // 3
        state.round += 1
        if state.round < state.options["rounds"]:
            state.phase, state.acting = "bid", tuple(range(n))
        else:
            state.acting = ()

    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "round": state.round + 1,
            "phase": state.phase,
            "players": [
                {"seat": s, "score": state.scores[s], "chosen": state.choices[s] is not None}
                for s in range(state.num_players)
            ],
            "last_round": None
            if state.last is None
            else {"bids": ["high" if c else "low" for c in state.last]},
            "log": [f"round {r + 1}" for r in range(state.round)],
        }
        if seat is not None:
            choice = state.choices[seat]
            view["you"] = {
                "seat": seat,
                "secret": state.secrets[seat],
                "bid": None if choice is None else ACTIONS[choice].text,
            }
        return view

    def redeal(self, state: ToyState, seat: int, rng: random.Random) -> ToyState:
        twin = state.clone()
        for s in range(state.num_players):
            if s != seat:
                twin.secrets[s] = rng.randint(1, 9)
        return twin

    def outcome(self, state: ToyState) -> Outcome:
        if state.acting:
            raise PotluckError("the game is not over")
        scores = tuple(float(s) for s in state.scores)
        return Outcome.from_keys(scores, [(s,) for s in scores], "All rounds played.")

    def metrics(self, state: ToyState) -> dict[str, float | int | str]:
        return {"top_score": max(state.scores), "ending": "rounds"}

    def max_steps(self, num_players: int) -> int:
        return MAX_ROUNDS * (num_players + 1)

    def num_distinct_actions(
        self, num_players: int, options: Mapping[str, Any] | None = None
    ) -> int:
        return len(ACTIONS)

    def action_from_index(self, state: ToyState, seat: int, index: int) -> Action:
        return ACTIONS[index]

    def _state_to_json(self, state: ToyState) -> dict[str, Any]:
        return {
            "round": state.round,
            "phase": state.phase,
            "scores": state.scores,
            "secrets": state.secrets,
            "choices": state.choices,
            "last": state.last,
        }

    def _state_from_json(
        self, data: Mapping[str, Any], num_players: int, seed: int, options: Mapping[str, Any]
    ) -> ToyState:
        state = ToyState(num_players, seed, options)
        state.round, state.phase = data["round"], data["phase"]
        state.scores, state.secrets = list(data["scores"]), list(data["secrets"])
        state.choices, state.last = list(data["choices"]), data["last"]
        return state

    def bots(self) -> dict[str, Any]:
        return {"random": RandomBot, "first": FirstBot}


class FirstBot:
    """Always the first legal action; asks for its view to exercise ``needs_view``."""

    name = "first"
    needs_view = True

    def choose(
        self,
        game: Game[Any, Any],
        view: Mapping[str, Any] | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        assert view is not None
        assert view["you"]["seat"] == seat
        return legal[0]


@pytest.fixture
def toy() -> Iterator[ToyGame]:
    """The toy game, registered under ``TOY_ID`` for the duration of a test."""
    potluck.register(TOY_ID, ToyGame)
    try:
        game = potluck.load_game(TOY_ID)
        assert isinstance(game, ToyGame)
        yield game
    finally:
        potluck.unregister(TOY_ID)


# ---------------------------------------------------------------------- line-ups and seeds


def test_lineup_cycles_fewer_agents_and_rotates_each_game() -> None:
    assert lineup(["greedy", "random"], 4) == ("greedy", "random", "greedy", "random")
    assert lineup(["greedy", "random"], 4, 1) == ("random", "greedy", "random", "greedy")
    assert lineup(["a", "b", "c"], 3, 2) == ("c", "a", "b")


def test_lineup_needs_an_agent() -> None:
    with pytest.raises(PotluckError, match="at least one agent"):
        lineup([], 3)


def test_bot_generators_are_fixed_by_seed_and_seat_and_differ_between_seats() -> None:
    assert bot_rng(5, 1).random() == bot_rng(5, 1).random()
    draws = {bot_rng(seed, seat).random() for seed in range(3) for seat in range(4)}
    assert len(draws) == 12


# ---------------------------------------------------------------------- play_game


def test_play_game_plays_to_the_end_and_is_deterministic(toy: ToyGame) -> None:
    first = play_game(toy, 3, ["random", "first", "random"], seed=11, keep_record=True)
    again = play_game(toy, 3, ["random", "first", "random"], seed=11, keep_record=True)
    assert first == again
    assert first.steps == 2 * (3 + 1)  # two rounds of three bids and one bonus step
    assert first.record is not None
    assert first.record["actions"]
    assert first.record["outcome"]["scores"] == list(first.outcome.scores)
    assert toy.outcome(toy.replay(first.record)) == first.outcome
    assert first.metrics["top_score"] == max(first.outcome.scores)


@pytest.mark.parametrize("game_id", ["belly-battle", "belle-of-the-ball"])
def test_play_game_asks_early_choosers_and_keeps_their_moves(game_id: str) -> None:
    # play_game asks an ``EarlyChooser`` (these games' greedy bots) before the legal list
    # is built, as ``choose_plain`` does for the web and the searches: the moves must be
    # those ``choose`` takes from the whole list.
    game = potluck.load_game(game_id)
    assert isinstance(game.make_bot("greedy"), EarlyChooser)
    for seed, players in ((0, 2), (1, 3), (2, 4)):
        result = play_game(game, players, ["greedy"] * players, seed, keep_record=True)
        state = game.new_game(players, seed)
        bots = [game.make_bot("greedy") for _ in range(players)]
        rngs = [bot_rng(seed, seat) for seat in range(players)]
        actions: list[list[Any]] = []
        while state.acting:
            seat = state.acting[0]
            seen = bot_input(bots[seat], game, state, seat)
            legal = game.legal_actions(state, seat)
            action = bots[seat].choose(game, seen, seat, legal, rngs[seat])
            actions.append([seat, action.text])
            game.step(state, seat, action)
        assert result.record is not None
        assert result.record["actions"] == actions
        assert result.outcome == game.outcome(state)


def test_play_game_passes_options(toy: ToyGame) -> None:
    result = play_game(toy, 2, ["first", "first"], seed=0, options={"rounds": 4})
    assert result.steps == 4 * 3


def test_play_game_rejects_unknown_bot_and_wrong_agent_count(toy: ToyGame) -> None:
    with pytest.raises(PotluckError, match=r"no bot 'genius'.*first, improve, ismcts, random"):
        play_game(toy, 2, ["random", "genius"])
    with pytest.raises(PotluckError, match="3 seats need 3 agents, not 2"):
        play_game(toy, 3, ["random", "random"])


def test_play_game_stops_a_game_that_runs_past_its_bound(toy: ToyGame) -> None:
    class Endless(ToyGame):
        def max_steps(self, num_players: int) -> int:
            return 3

    with pytest.raises(PotluckError, match="ran past its bound of 3 steps"):
        play_game(Endless(), 2, ["random", "random"])


# ---------------------------------------------------------------------- simulate


def test_simulate_totals_add_up(toy: ToyGame) -> None:
    seen: list[GameResult] = []
    summary = simulate(toy, 30, 3, ["first", "random"], seed=4, progress=seen.append)
    assert summary.games == len(seen) == 30
    assert sum(summary.win_rate_by_seat) == pytest.approx(1.0)
    # Every game seats three agents; shared wins split, so agent wins also sum to the games.
    assert sum(summary.seat_games_by_agent.values()) == 30 * 3
    assert sum(summary.wins_by_agent.values()) == pytest.approx(30)
    assert summary.mean_steps == pytest.approx(8)
    assert summary.steps == sum(result.steps for result in seen)
    # The line-up is (first, random, first), turned one seat per game: over 30 games
    # seat 0 hosts each table position 10 times, so "first" 20 times.
    assert sum(result.agents[0] == "first" for result in seen) == 20
    assert {result.agents.count("first") for result in seen} == {2}
    by_agent = summary.win_rate_by_agent
    wins_first = sum(
        sum(1 / len(r.outcome.winners) for s in r.outcome.winners if r.agents[s] == "first")
        for r in seen
    )
    assert by_agent["first"] == pytest.approx(wins_first / summary.seat_games_by_agent["first"])
    assert summary.mean_metrics == {
        "top_score": pytest.approx(sum(float(r.metrics["top_score"]) for r in seen) / 30)
    }
    assert [r.seed for r in seen] == list(range(4, 34))


def test_simulate_is_deterministic(toy: ToyGame) -> None:
    def figures() -> dict[str, Any]:
        data = simulate(toy, 12, 2, ["random"], seed=9).to_json()
        del data["seconds"], data["games_per_second"]
        return data

    assert figures() == figures()


def test_simulate_json_has_the_documented_fields(toy: ToyGame) -> None:
    data = simulate(toy, 5, 4, ["random", "first"], options={"rounds": 3}).to_json()
    for key in (
        "games",
        "games_per_second",
        "mean_steps",
        "win_rate_by_seat",
        "win_rate_by_agent",
        "mean_score_by_seat",
        "mean_score_by_agent",
        "seed",
        "players",
        "agents",
    ):
        assert key in data
    assert data["options"] == {"rounds": 3}
    assert len(data["win_rate_by_seat"]) == 4
    assert set(data["win_rate_by_agent"]) == {"random", "first"}


def test_simulate_checks_agents_and_options_before_playing(toy: ToyGame) -> None:
    calls: list[GameResult] = []
    with pytest.raises(PotluckError, match="no bot 'nobody'"):
        simulate(toy, 5, 2, ["random", "nobody"], progress=calls.append)
    with pytest.raises(OptionError, match="no option 'speed'"):
        simulate(toy, 5, 2, ["random"], options={"speed": 3}, progress=calls.append)
    with pytest.raises(PotluckError, match="2 to 4 players, not 7"):
        simulate(toy, 5, 7, ["random"], progress=calls.append)
    assert calls == []


# ---------------------------------------------------------------------- bench


def test_bench_plays_whole_games_for_about_the_time_given(toy: ToyGame) -> None:
    result = bench_game(toy, seconds=0.05)
    assert isinstance(result, BenchResult)
    assert result.players == toy.min_players
    assert result.games >= 1
    assert result.steps == result.games * 2 * (toy.min_players + 1)
    assert result.steps_per_second == pytest.approx(result.steps / result.seconds)
    assert set(result.to_json()) == {
        "players",
        "games",
        "steps",
        "seconds",
        "games_per_second",
        "steps_per_second",
        "trials_steps_per_second",
        "bot",
        "decisions",
        "decisions_per_second",
        "clones_per_second",
        "clock",
        "view_share_of_thinking",
        "simulations_per_second",
        "rules",
    }
    assert result.simulations_per_second is None  # the random bot does not search


def test_bench_best_reports_the_fastest_trial(toy: ToyGame) -> None:
    result = bench_best(toy, seconds=0.06, repeat=3)
    assert len(result.trials) == 3
    assert result.steps_per_second == max(result.trials)
    with pytest.raises(PotluckError, match="at least one trial"):
        bench_best(toy, seconds=0.01, repeat=0)


def test_bench_times_by_cpu_seconds_when_asked(toy: ToyGame) -> None:
    """The CPU clock counts only this process's own seconds, so a shared machine does not
    slow its figures down; every figure of the row says which clock timed it."""
    result = bench_best(toy, seconds=0.06, repeat=2, clock="cpu")
    assert result.clock == "cpu"
    assert result.to_json()["clock"] == "cpu"
    assert result.games >= 1
    assert result.steps_per_second > 0
    assert result.clones_per_second > 0
    assert bench_game(toy, seconds=0.02).clock == "wall"
    with pytest.raises(PotluckError, match="no clock called 'sundial': choose 'wall' or 'cpu'"):
        bench_game(toy, seconds=0.02, clock="sundial")


def test_bench_rejects_bad_arguments(toy: ToyGame) -> None:
    with pytest.raises(PotluckError, match="2 to 4 players, not 9"):
        bench_game(toy, 9, seconds=0.01)
    with pytest.raises(PotluckError, match="positive time"):
        bench_game(toy, seconds=0)


def test_toy_game_refuses_wrong_moves(toy: ToyGame) -> None:
    """The toy game itself follows the contract the CLI relies on."""
    state = toy.new_game(2, seed=1)
    with pytest.raises(InvalidActionError):
        toy.parse_action(state, 0, "jump")
    with pytest.raises(IllegalActionError, match="low or high"):
        toy.step(state, 0, "bonus")
