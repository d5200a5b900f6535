"""Bot specs: `name:key=value,...` parsing, agent lists, and errors naming what is wrong."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import pytest

import potluck
from potluck.engine.action import Action
from potluck.engine.bots import RandomBot
from potluck.engine.botspec import BotParam, BotSpec, BotSpecError, build_bot, split_agents
from potluck.engine.errors import PotluckError


class TunableBot:
    name = "tunable"
    needs_view = False
    params: ClassVar[tuple[BotParam, ...]] = (
        BotParam("depth", int, 2, "how far to look", low=1, high=10),
        BotParam("weight", float, 0.5, "how much to care"),
        BotParam("bold", bool, False, "whether to gamble"),
        BotParam("style", str, "calm", "how to play", choices=("calm", "wild")),
    )

    def __init__(
        self, depth: int = 2, weight: float = 0.5, bold: bool = False, style: str = "calm"
    ) -> None:
        self.depth, self.weight, self.bold, self.style = depth, weight, bold, style

    def choose(
        self,
        game: Any,
        view: Mapping[str, Any] | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        return legal[0]


FACTORIES = {"random": RandomBot, "tunable": TunableBot}


def test_a_spec_reads_its_name_and_parameters_in_order() -> None:
    spec = BotSpec.parse(" tunable : depth=3 , style=wild ")
    assert spec == BotSpec("tunable", (("depth", "3"), ("style", "wild")))
    assert str(spec) == "tunable:depth=3,style=wild"
    assert BotSpec.parse("random") == BotSpec("random")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "names no bot"),
        (":depth=2", "names no bot"),
        ("tunable:depth", "is not key=value"),
        ("tunable:=3", "is not key=value"),
        ("tunable:depth=2,depth=3", "depth is given twice"),
    ],
)
def test_a_malformed_spec_is_refused_with_the_reason(text: str, words: str) -> None:
    with pytest.raises(BotSpecError, match=words):
        BotSpec.parse(text)


def test_agent_lists_give_key_value_items_to_the_spec_before_them() -> None:
    assert split_agents("ismcts:sims=200,rollout=greedy,greedy,greedy") == [
        "ismcts:sims=200,rollout=greedy",
        "greedy",
        "greedy",
    ]
    assert split_agents("greedy,belle_value=8,random") == ["greedy:belle_value=8", "random"]
    assert split_agents(["tunable:depth=3", "bold=true", "random"]) == [
        "tunable:depth=3,bold=true",
        "random",
    ]
    assert split_agents("human:Ann,greedy") == ["human:Ann", "greedy"]
    with pytest.raises(BotSpecError, match="before any bot name"):
        split_agents("depth=3,greedy")
    with pytest.raises(BotSpecError, match="empty item"):
        split_agents("greedy,,random")


def test_parameters_are_typed_and_checked() -> None:
    bot = build_bot(FACTORIES, "tunable:depth=4,weight=1.5,bold=yes,style=wild", "Toy")
    assert (bot.depth, bot.weight, bot.bold, bot.style) == (4, 1.5, True, "wild")
    assert bot.spec == "tunable:depth=4,weight=1.5,bold=yes,style=wild"
    defaults = build_bot(FACTORIES, "tunable", "Toy")
    assert (defaults.depth, defaults.weight, defaults.bold, defaults.style) == (
        2,
        0.5,
        False,
        "calm",
    )


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("tunable:depth=two", "depth is a whole number, not 'two'"),
        ("tunable:depth=0", "depth must be at least 1, not 0"),
        ("tunable:depth=11", "depth must be at most 10, not 11"),
        ("tunable:weight=heavy", "weight is a number"),
        ("tunable:weight=nan", "finite number"),
        ("tunable:bold=maybe", "bold is true or false"),
        ("tunable:style=odd", "style is one of calm, wild"),
        ("random:depth=2", "takes no parameters"),
        ("clever", "Toy has no bot 'clever'; its bots are: random, tunable"),
    ],
)
def test_a_bad_parameter_is_a_clear_error(spec: str, words: str) -> None:
    with pytest.raises(BotSpecError, match=words):
        build_bot(FACTORIES, spec, "Toy")


def test_an_unknown_parameter_lists_the_bots_parameters_with_help() -> None:
    with pytest.raises(BotSpecError) as error:
        build_bot(FACTORIES, "tunable:dpeth=3", "Toy")
    message = str(error.value)
    assert "no parameter 'dpeth'" in message
    for name in ("depth (int, default 2): how far to look", "style (calm|wild"):
        assert name in message


def test_every_games_bots_are_built_from_specs() -> None:
    for game_id in potluck.list_games():
        game = potluck.load_game(game_id)
        for name in game.bots():
            assert game.make_bot(name).name == name
        with pytest.raises(PotluckError, match="has no bot 'nobody'"):
            game.make_bot("nobody")
