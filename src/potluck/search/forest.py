"""The arithmetic of a learned value model, in the compiled build's hot loop.

A search with a learned cutoff (``ismcts:cutoff=model``) scores every seat of every
simulated world, so this is where such a search spends most of its time: a sum of
some 150 regression trees over a few hundred inputs. :class:`Forest` holds the trees
as flat arrays (one entry a node) walked by index, which mypyc compiles to a tight
loop (``potluck.native`` lists this module); as pure Python it gives the same sums.
``potluck.search.value`` reads the model files and builds a ``Forest`` from them;
:func:`forest_chances` is its ``world_chances`` for a forest (every seat's observation
encoded, led and scored, then the logits made chances), compiled whole so that a search
pays no Python between the encodings and the trees.

    >>> forest = Forest(0.5, [[0, 1.5, 0.25, [1, 0.0, -1.0, 2.0]], 3.0])
    >>> forest.score([1.0, 0.0]), forest.score([2.0, 0.0]), forest.score([2.0, 1.0])
    (3.75, 2.5, 5.5)
    >>> derived_features([9.0, 5.0, 7.0, 0.0, 1.0], [(0, 3)])
    [2.0, 3.0]
    >>> [round(p, 3) for p in logit_chances([0.0, 1.0])]
    [0.269, 0.731]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from potluck.engine.encoding import ObservationEncoding
from potluck.engine.game import Game
from potluck.engine.state import State

__all__ = ["Forest", "derived_features", "forest_chances", "logit_chances"]


def logit_chances(scores: list[float]) -> list[float]:
    """Chances from the seats' logits: ``exp(u_q) / sum_j exp(u_j)``."""
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def derived_features(vector: Sequence[float], blocks: Sequence[tuple[int, int]]) -> list[float]:
    """Features added to a seat's observation: for each per-player block (``start``,
    ``players``; the observing seat first), its lead over the best other seat and over
    the others' mean. A linear model cannot form a maximum; these let it see who leads."""
    out: list[float] = []
    if isinstance(vector, list):
        # The same numbers by plain loops (compiled, a slice, max and sum of a generic
        # sequence cost more than the rest of the leads): the others' maximum, and their
        # sum added left to right as ``sum`` adds it, before dividing.
        for start, size in blocks:
            mine = vector[start]
            best = vector[start + 1]
            total = 0.0
            for i in range(start + 1, start + size):
                value = vector[i]
                if value > best:
                    best = value
                total += value
            out.append(mine - best)
            out.append(mine - total / (size - 1))
        return out
    for start, size in blocks:
        mine = vector[start]
        others = vector[start + 1 : start + size]
        out.append(mine - max(others))
        out.append(mine - sum(others) / len(others))
    return out


class Forest:
    """A sum of regression trees, ``bias + sum(tree(x))``, added in the trees' order
    (so the total is the same float as walking the nested lists of the model file).

    A tree in the file is a leaf value or ``[feature, threshold, left, right]`` (go left
    when ``x[feature] <= threshold``). Here node ``i`` is a leaf when ``feature[i] < 0``
    (its value in ``value[i]``); otherwise its left child is ``i + 1`` and its right
    child ``right[i]``.
    """

    def __init__(self, bias: float, trees: Sequence[Any]) -> None:
        self.bias = float(bias)
        self.roots: list[int] = []
        self.feature: list[int] = []
        self.threshold: list[float] = []
        self.value: list[float] = []
        self.right: list[int] = []
        for tree in trees:
            self.roots.append(self._add(tree))

    def _add(self, node: Any) -> int:
        """Append ``node`` and its subtree in preorder; its index."""
        index = len(self.feature)
        if isinstance(node, list):
            feature, threshold, left, right = node
            self.feature.append(int(feature))
            self.threshold.append(float(threshold))
            self.value.append(0.0)
            self.right.append(-1)
            self._add(left)
            self.right[index] = self._add(right)
        else:
            self.feature.append(-1)
            self.threshold.append(0.0)
            self.value.append(float(node))
            self.right.append(-1)
        return index

    def score(self, inputs: Sequence[float]) -> float:
        """``bias`` plus every tree's leaf for ``inputs``."""
        # A list is read as it is: compiled code reads each entry as a C double the way
        # ``float()`` converts it (ints too), so copying it first only cost time.
        x: list[float] = inputs if isinstance(inputs, list) else [float(v) for v in inputs]
        feature, threshold, value, right = self.feature, self.threshold, self.value, self.right
        total = self.bias
        for root in self.roots:
            i = root
            f = feature[i]
            while f >= 0:
                i = i + 1 if x[f] <= threshold[i] else right[i]
                f = feature[i]
            total += value[i]
        return total


def forest_chances(
    game: Game[Any, Any],
    world: State,
    encoding: ObservationEncoding,
    blocks: Sequence[tuple[int, int]],
    forest: Forest,
) -> list[float]:
    """Every seat's chance of winning ``world``: each seat's own observation (laid out by
    ``encoding``, with the leads of ``blocks``) scored by ``forest``, as logits."""
    scores: list[float] = []
    for seat in range(world.num_players):
        vector = game.encode_observation(world, seat, encoding)  # a new list: extended
        vector.extend(derived_features(vector, blocks))
        scores.append(forest.score(vector))
    return logit_chances(scores)
