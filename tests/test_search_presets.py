"""Named bots (``greedy-tuned``) and the search's guide: spec parsing and who models whom."""

from __future__ import annotations

import random

import pytest

import potluck
from potluck.agents import agent_factories, decide, make_agent
from potluck.engine.errors import PotluckError
from potluck.search.presets import TUNED_GREEDY
from potluck.server.botpool import DIFFICULTIES


def test_the_tuned_greedy_bot_starts_from_its_weights_and_a_spec_overrides_them() -> None:
    game = potluck.load_game("cafe-carnage")
    tuned = make_agent(game, "greedy-tuned")
    weights = TUNED_GREEDY["cafe-carnage"]
    assert tuned.name == "greedy-tuned"
    assert tuned.split_chance == float(weights["split_chance"])  # type: ignore[attr-defined]
    assert make_agent(game, "greedy").split_chance == 0.5  # type: ignore[attr-defined]
    again = make_agent(game, "greedy-tuned:split_chance=0.25")
    assert again.split_chance == 0.25  # type: ignore[attr-defined]
    assert again.prior_weight == float(weights["prior_weight"])  # type: ignore[attr-defined]
    state = game.new_game(4, seed=3)
    assert decide(tuned, game, state, 0, random.Random(1)) in game.legal_actions(state, 0)


def test_only_tuned_games_seat_a_tuned_greedy_bot() -> None:
    for game_id in potluck.list_games():
        names = agent_factories(potluck.load_game(game_id))
        assert ("greedy-tuned" in names) == (game_id in TUNED_GREEDY)


def test_a_guide_the_game_lacks_is_refused_when_the_search_starts() -> None:
    game = potluck.load_game("belly-battle")
    assert "belly-battle" not in TUNED_GREEDY
    bot = make_agent(game, "ismcts:sims=4,guide=greedy-tuned,prior=greedy,root=tree")
    state = game.new_game(4, seed=1)
    seat = game.to_act(state)[0]
    with pytest.raises(PotluckError, match="no greedy-tuned bot"):
        decide(bot, game, state, seat, random.Random(0))


def test_the_tuned_guide_leads_the_own_seat_and_the_others_are_modelled_by_greedy() -> None:
    from potluck.search.ismcts import ISMCTSBot

    game = potluck.load_game("cafe-carnage")
    bot = make_agent(game, "ismcts:sims=4,guide=greedy-tuned")
    assert isinstance(bot, ISMCTSBot)
    search = bot.tree(game, 2, random.Random(0))
    assert search.greedy.name == "greedy-tuned"
    assert search.others.name == "greedy"


def test_every_difficulty_is_a_spec_every_game_seats() -> None:
    for game_id in potluck.list_games():
        game = potluck.load_game(game_id)
        for spec in DIFFICULTIES.values():
            make_agent(game, spec)
    assert DIFFICULTIES["hard"] == "ismcts:time=0.4"
