"""Fit a game's value model from self-play games (needs the ``lab`` extra: scikit-learn,
LightGBM, NumPy). The model it writes is evaluated in plain Python at play time
(``potluck.search.value``).

    python -m potluck.search.training cafe-carnage --players 4 --games 6000 \\
        --seed 10000000 --held-out 1000 --write

Games are played by the game's greedy bot in every seat, each move replaced by a
random one with chance ``--epsilon`` (so the positions a search reaches after
moves the greedy bot would not make are covered too), each dealt from its own
seed from ``--seed`` on (no strength run uses seeds that high). A position is
kept with chance ``--keep``; every seat's observation of it (its own view,
``Game.encode_observation``, plus its leads in each per-player amount) is one
row, labelled with that seat's final win share. The last ``--held-out`` games
score the fit. Everything is drawn from the seeds, so a run is reproducible.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from array import array
from pathlib import Path
from typing import Any

import potluck
from potluck.engine.game import Game
from potluck.search.value import FORMAT, derived_features, model_path, player_blocks


class Positions:
    """Rows of model inputs in sparse form, with labels and the position each belongs to."""

    def __init__(self) -> None:
        self.data = array("f")
        self.indices = array("i")
        self.indptr = array("q", [0])
        self.labels = array("f")
        self.position = array("i")
        self.game_of = array("i")

    def add(self, inputs: list[float], position: int, game: int) -> None:
        for i, value in enumerate(inputs):
            if value:
                self.indices.append(i)
                self.data.append(value)
        self.indptr.append(len(self.indices))
        self.position.append(position)
        self.game_of.append(game)

    def __len__(self) -> int:
        return len(self.position)

    def save(self, path: Path, making: dict[str, Any]) -> None:
        """Write the rows to ``path`` (NumPy's ``.npz``) with ``making``, the settings of
        the self-play that made them, so several fits can share one run of games."""
        import numpy as np

        columns: dict[str, Any] = {
            name: np.frombuffer(getattr(self, name), dtype=np.dtype(getattr(self, name).typecode))
            for name in _ARRAYS
        }
        columns["making"] = np.array(json.dumps(making, sort_keys=True))
        with path.open("wb") as out:
            np.savez(out, **columns)

    @classmethod
    def load(cls, path: Path, making: dict[str, Any]) -> Positions:
        """Rows written by :meth:`save`; ``ValueError`` if other settings made them."""
        import numpy as np

        out = cls()
        with np.load(path) as saved:
            found = json.loads(str(saved["making"]))
            if found != json.loads(json.dumps(making)):
                raise ValueError(f"{path} holds rows made by {found}, not {making}")
            for name in _ARRAYS:
                column = getattr(out, name)
                setattr(out, name, array(column.typecode, saved[name].tobytes()))
        return out


#: The columns of :class:`Positions`, as saved.
_ARRAYS = ("data", "indices", "indptr", "labels", "position", "game_of")


def play_positions(
    game: Game[Any, Any],
    players: int,
    games: int,
    seed: int,
    epsilon: float,
    keep: float,
    switch_by: int = 0,
) -> Positions:
    """Greedy self-play games from ``seed`` on, their kept positions as rows.

    With ``switch_by`` above 0, each game draws a switch move uniformly below it: the
    random moves (``epsilon``) come only before it and positions are kept only from it
    on, so every row's label is the outcome of the greedy bot's own play from that
    position on, what a playout of the greedy bot cut there would go on to (the
    policy-improving bot's cut playouts, ``improve:depth=N,cutoff=model``)."""
    encoding = game.observation_encoding(players)
    blocks = player_blocks(game, players)
    greedy = game.make_bot("greedy")
    out = Positions()
    position = 0
    for number in range(games):
        deal = seed + number
        state = game.new_game(players, deal)
        rng = random.Random(f"potluck-value:{deal}")
        switch = rng.randrange(switch_by) if switch_by > 0 else 0
        moved = 0
        first_row = len(out)
        while state.acting:
            if rng.random() < keep and moved >= switch:
                for seat in range(players):
                    vector = game.encode_observation(state, seat, encoding)
                    out.add(vector + derived_features(vector, blocks), position, number)
                position += 1
            seat = state.acting[0]
            legal = game.legal_actions(state, seat)
            if len(legal) == 1:
                action = legal[0]
            elif (switch_by <= 0 or moved < switch) and rng.random() < epsilon:
                action = legal[int(rng.random() * len(legal))]
            else:
                view = game.view(state, seat) if greedy.needs_view else None
                action = greedy.choose(game, view, seat, legal, rng)
            game.step_legal(state, seat, action)
            moved += 1
        shares = game.outcome(state).win_shares()
        # a position's rows come seat by seat, so a row's seat is its offset mod players
        for offset in range(len(out) - first_row):
            out.labels.append(float(shares[offset % players]))
    return out


def _matrix(positions: Positions, size: int) -> Any:
    import numpy as np
    from scipy.sparse import csr_matrix

    return csr_matrix(
        (
            np.frombuffer(positions.data, dtype=np.float32),
            np.frombuffer(positions.indices, dtype=np.int32),
            np.frombuffer(positions.indptr, dtype=np.int64),
        ),
        shape=(len(positions), size),
    )


def _split(matrix: Any, positions: Positions, first_valid: int, first_held: int) -> tuple[Any, ...]:
    """Inputs and labels of the games trained on (before ``first_valid``), of those
    early stopping watches (from ``first_valid`` to ``first_held``) and of the held-out
    games that score the fit (from ``first_held`` on)."""
    import numpy as np

    games = np.frombuffer(positions.game_of, dtype=np.int32)
    labels = np.frombuffer(positions.labels, dtype=np.float32).astype(np.float64)
    train = games < first_valid
    valid = (games >= first_valid) & (games < first_held)
    held = games >= first_held
    return (
        matrix[train],
        labels[train],
        matrix[valid],
        labels[valid],
        matrix[held],
        labels[held],
    )


def _binary(matrix: Any, labels: Any) -> tuple[Any, Any, Any]:
    """Fractional labels (shared wins) as two weighted rows, won and lost."""
    import numpy as np
    from scipy.sparse import vstack

    partial = (labels > 0) & (labels < 1)
    whole = ~partial
    x = vstack([matrix[whole], matrix[partial], matrix[partial]]).tocsr()
    y = np.concatenate([labels[whole] >= 0.5, np.ones(partial.sum()), np.zeros(partial.sum())])
    w = np.concatenate([np.ones(whole.sum()), labels[partial], 1 - labels[partial]])
    return x, y.astype(np.int32), w


def fit_linear(matrix: Any, labels: Any, c: float) -> dict[str, Any]:
    """A logistic regression on standardised inputs, written back on the raw inputs."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    x, y, w = _binary(matrix, labels)
    mean = np.asarray(x.mean(axis=0)).ravel()
    square = np.asarray(x.multiply(x).mean(axis=0)).ravel()
    std = np.sqrt(np.maximum(square - mean**2, 0.0))
    std[std < 1e-9] = 1.0
    dense = (x.toarray() - mean) / std
    fitted = LogisticRegression(C=c, max_iter=500).fit(dense, y, sample_weight=w)
    weights = fitted.coef_[0] / std
    bias = float(fitted.intercept_[0] - np.dot(fitted.coef_[0], mean / std))
    return {"kind": "linear", "bias": bias, "weights": [round(float(v), 7) for v in weights]}


class TreeSettings:
    """How the trees are grown: at most ``trees`` of ``leaves`` leaves each, every leaf
    holding at least ``min_leaf`` rows, each tree's step scaled by ``learning_rate``;
    with ``stop_after`` above 0 and rows to validate on, growing stops once the
    validation rows' log loss has not improved for that many trees, and the trees up
    to the best are kept."""

    def __init__(
        self,
        trees: int = 150,
        leaves: int = 15,
        learning_rate: float = 0.08,
        min_leaf: int = 200,
        stop_after: int = 0,
    ) -> None:
        self.trees = trees
        self.leaves = leaves
        self.learning_rate = learning_rate
        self.min_leaf = min_leaf
        self.stop_after = stop_after


def fit_trees(
    matrix: Any,
    labels: Any,
    settings: TreeSettings,
    seed: int,
    valid: tuple[Any, Any] | None = None,
) -> dict[str, Any]:
    """Gradient-boosted trees (LightGBM), written as nested lists
    ``[feature, threshold, left, right]`` with leaf values. ``valid`` (inputs and labels
    of games not trained on) is what early stopping watches."""
    import lightgbm

    x, y, w = _binary(matrix, labels)
    train = lightgbm.Dataset(x.astype("float64"), label=y, weight=w)
    watched: list[Any] = []
    callbacks: list[Any] = []
    if valid is not None and settings.stop_after > 0:
        vx, vy, vw = _binary(*valid)
        watched.append(lightgbm.Dataset(vx.astype("float64"), label=vy, weight=vw, reference=train))
        callbacks.append(lightgbm.early_stopping(settings.stop_after, verbose=False))
    booster = lightgbm.train(
        {
            "objective": "binary",
            "num_leaves": settings.leaves,
            "learning_rate": settings.learning_rate,
            "min_data_in_leaf": settings.min_leaf,
            "feature_fraction": 0.8,
            "bagging_fraction": 0.8,
            "bagging_freq": 1,
            "seed": seed,
            "deterministic": True,
            "num_threads": 1,
            "verbose": -1,
        },
        train,
        num_boost_round=settings.trees,
        valid_sets=watched,
        callbacks=callbacks,
    )
    # with early stopping, the trees after the best iteration are left out
    dump = booster.dump_model(num_iteration=booster.best_iteration or None)

    def convert(node: dict[str, Any]) -> Any:
        if "leaf_value" in node:
            return round(float(node["leaf_value"]), 7)
        if node.get("decision_type", "<=") != "<=":
            raise ValueError(f"unexpected split {node.get('decision_type')}")
        # LightGBM sends a missing value (never in our dense inputs) left or right; ignored
        return [
            int(node["split_feature"]),
            float(node["threshold"]),
            convert(node["left_child"]),
            convert(node["right_child"]),
        ]

    converted = [convert(tree["tree_structure"]) for tree in dump["tree_info"]]
    return {"kind": "trees", "bias": 0.0, "trees": converted}


def evaluate(model: dict[str, Any], matrix: Any, labels: Any, players: int) -> dict[str, float]:
    """Held-out log loss of the seats' normalised win chances (a position's rows are
    its seats in order), the uniform guess's, and how often the favourite won."""
    import numpy as np

    from potluck.search.value import ValueModel

    dense = matrix.toarray()
    scorer = ValueModel.__new__(ValueModel)
    scorer.kind = model["kind"]
    scorer.bias = model["bias"]
    scorer.weights = model.get("weights", [])
    scorer.trees = model.get("trees", [])
    scores = np.array([scorer.score(row.tolist()) for row in dense]).reshape(-1, players)
    shares = labels.reshape(-1, players)
    chances = np.exp(scores - scores.max(axis=1, keepdims=True))
    chances /= chances.sum(axis=1, keepdims=True)
    loss = float(-(shares * np.log(np.clip(chances, 1e-9, 1))).sum(axis=1).mean())
    favourite = chances.argmax(axis=1)
    won = float(shares[np.arange(len(shares)), favourite].mean())
    return {
        "log_loss": round(loss, 4),
        "uniform_log_loss": round(math.log(players), 4),
        "favourite_wins": round(won, 4),
        "positions": len(shares),
    }


#: Options that change neither the rows nor the fit (where rows are kept, where the
#: model is written, what else is scored): left out of the command a model records.
_NOT_FITTING = frozenset({"--rows", "--out", "--compare", "--write"})


def _fitting(argv: list[str]) -> list[str]:
    """``argv`` without :data:`_NOT_FITTING`'s options and their values."""
    out: list[str] = []
    skipping = False
    for arg in argv:
        name = arg.split("=", 1)[0]
        if arg.startswith("--"):
            skipping = name in _NOT_FITTING and "=" not in arg and name != "--write"
            if name in _NOT_FITTING:
                continue
        elif skipping:
            continue
        out.append(arg)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=6000, help="games played, held-out ones too")
    parser.add_argument("--held-out", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=10_000_000)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--keep", type=float, default=0.15)
    parser.add_argument(
        "--switch-by",
        type=int,
        default=0,
        help="random moves only before a switch move drawn below this, rows only from it on "
        "(labels from greedy play alone; 0: off)",
    )
    parser.add_argument("--kind", choices=("linear", "trees", "both"), default="both")
    parser.add_argument("--c", type=float, default=0.1, help="linear: inverse L2 strength")
    parser.add_argument("--trees", type=int, default=150, help="trees: at most this many")
    parser.add_argument("--leaves", type=int, default=15)
    parser.add_argument("--learning-rate", type=float, default=0.08)
    parser.add_argument("--min-leaf", type=int, default=200, help="trees: rows a leaf holds")
    parser.add_argument(
        "--valid",
        type=int,
        default=0,
        help="the last this many games before the held-out ones are not trained on but "
        "watched by --stop-after",
    )
    parser.add_argument(
        "--stop-after",
        type=int,
        default=0,
        help="trees: stop once the --valid games' log loss has not improved for this many "
        "trees, keeping the best (0: grow them all)",
    )
    parser.add_argument(
        "--rows",
        type=Path,
        help="a file of the self-play rows: read if it exists (made by the same settings), "
        "else written after the games are played",
    )
    parser.add_argument("--write", action="store_true", help="write the better model's file")
    parser.add_argument(
        "--compare",
        type=Path,
        nargs="*",
        default=[],
        help="model files to score on the held-out rows too",
    )
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "models")
    args = parser.parse_args(argv)
    game = potluck.load_game(args.game)
    started = time.process_time()
    making = {
        "game": game.id,
        "players": args.players,
        "games": args.games,
        "seed": args.seed,
        "epsilon": args.epsilon,
        "keep": args.keep,
        "switch_by": args.switch_by,
    }
    if args.rows is not None and args.rows.exists():
        positions = Positions.load(args.rows, making)
    else:
        positions = play_positions(
            game, args.players, args.games, args.seed, args.epsilon, args.keep, args.switch_by
        )
        if args.rows is not None:
            positions.save(args.rows, making)
    size = game.observation_encoding(args.players).size + 2 * len(player_blocks(game, args.players))
    print(f"{len(positions)} rows in {time.process_time() - started:.0f} s", file=sys.stderr)
    matrix = _matrix(positions, size)
    first_held = args.games - args.held_out
    x_train, y_train, x_valid, y_valid, x_held, y_held = _split(
        matrix, positions, first_held - args.valid, first_held
    )
    fits: list[tuple[dict[str, Any], dict[str, float]]] = []
    if args.kind in ("linear", "both"):
        linear = fit_linear(x_train, y_train, args.c)
        fits.append((linear, evaluate(linear, x_held, y_held, args.players)))
    if args.kind in ("trees", "both"):
        settings = TreeSettings(
            args.trees, args.leaves, args.learning_rate, args.min_leaf, args.stop_after
        )
        valid = (x_valid, y_valid) if args.valid > 0 else None
        trees = fit_trees(x_train, y_train, settings, args.seed, valid)
        fits.append((trees, evaluate(trees, x_held, y_held, args.players)))
    for model, score in fits:
        print(json.dumps({"kind": model["kind"], **score}))
    for other in args.compare:  # another model file scored on the same held-out rows
        data = json.loads(other.read_text())
        print(json.dumps({"file": str(other), **evaluate(data, x_held, y_held, args.players)}))
    model, score = min(fits, key=lambda fit: fit[1]["log_loss"])
    command = " ".join(["python -m potluck.search.training", *_fitting(argv or sys.argv[1:])])
    document = {
        "format": FORMAT,
        "game": game.id,
        "players": args.players,
        "inputs": size,
        **model,
        "fit": {
            "command": command,
            "games": args.games,
            "held_out_games": args.held_out,
            "seeds": [args.seed, args.seed + args.games - 1],
            "epsilon": args.epsilon,
            **({"switch_by": args.switch_by} if args.switch_by > 0 else {}),
            **({"valid_games": args.valid} if args.valid > 0 else {}),
            **({"trees": len(model["trees"])} if model["kind"] == "trees" else {}),
            "rows": len(positions),
            "held_out": score,
        },
    }
    if args.write:
        target = args.out / model_path(game.id, args.players)
        target.write_text(json.dumps(document, separators=(",", ":")) + "\n")
        print(f"wrote {target} ({target.stat().st_size // 1024} KiB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
