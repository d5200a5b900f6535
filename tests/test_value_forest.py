"""The learned value models' flat trees (``potluck.search.forest``, compiled in the native
build) give exactly the sums of walking the model files' nested trees."""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any

import pytest

import potluck
from potluck.search.forest import Forest
from potluck.search.value import load_model

MODELS = sorted(
    entry.name
    for entry in resources.files("potluck.search.models").iterdir()
    if entry.name.endswith(".json")
)


def nested_score(bias: float, trees: list[Any], inputs: list[float]) -> float:
    """The model file's trees walked as written: the rule the flat arrays must keep."""
    total = bias
    for tree in trees:
        node = tree
        while isinstance(node, list):  # [feature, threshold, left, right]
            node = node[2] if inputs[node[0]] <= node[1] else node[3]
        total += node
    return total


@pytest.mark.parametrize("name", MODELS)
def test_flat_trees_sum_as_the_nested_trees(name: str) -> None:
    data = json.loads(resources.files("potluck.search.models").joinpath(name).read_text())
    if data["kind"] != "trees":
        pytest.skip("a linear model has no trees")
    game = potluck.load_game(data["game"])
    model = load_model(game, data["players"])
    forest = Forest(data["bias"], data["trees"])
    rng = random.Random(name)
    checked = 0
    for number in range(6):
        state = game.new_game(data["players"], seed=number)
        while state.acting:
            for seat in range(state.num_players):
                inputs = model.inputs(state, seat)
                expected = nested_score(data["bias"], data["trees"], inputs)
                assert forest.score(inputs) == expected
                assert model.score(inputs) == expected
                checked += 1
            seat = state.acting[0]
            legal = game.legal_actions(state, seat)
            game.step(state, seat, legal[int(rng.random() * len(legal))])
    # and on inputs no game reaches: every threshold crossed either way
    width = len(model.inputs(game.new_game(data["players"], seed=0), 0))
    for _ in range(200):
        inputs = [
            rng.choice((-1e9, 0.0, 0.5, 1.0, 3.0, 1e9, rng.uniform(-50, 50))) for _ in range(width)
        ]
        assert forest.score(inputs) == nested_score(data["bias"], data["trees"], inputs)
    assert checked > 100


def test_a_model_made_without_its_file_scores_its_own_trees() -> None:
    """``training.evaluate`` sets a bare model's trees by hand; it scores those trees."""
    from potluck.search.value import ValueModel

    scorer = ValueModel.__new__(ValueModel)
    scorer.kind, scorer.bias, scorer.weights = "trees", 1.0, []
    scorer.trees = [[0, 0.5, -2.0, 2.0]]
    assert scorer.score([0.0]) == -1.0
    assert scorer.score([1.0]) == 3.0
