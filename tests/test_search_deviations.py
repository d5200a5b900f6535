"""The search-deviation diagnostic (examples/search_deviations.py) on a tiny run."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType


def _example() -> ModuleType:
    path = Path(__file__).parent.parent / "examples" / "search_deviations.py"
    spec = importlib.util.spec_from_file_location("search_deviations", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_search_deviations_judges_each_departure_from_the_greedy_move() -> None:
    # a weak search (4 playouts, every move compared, no confidence margin) departs often
    result = _example().deviations(
        "belly-battle", 4, 1, "ismcts:sims=4,confidence=0", seed=3, worlds=2
    )
    assert result["decisions"] > 0
    assert result["departures"] == len(result["rows"]) > 0
    for row in result["rows"]:
        assert row["greedy"] != row["search"]
        assert -1.0 <= row["diff"] <= 1.0
        assert 0 <= row["worlds"] <= 2
    assert sum(group["n"] for group in result["by_kind"].values()) == result["departures"]
    assert result["better"] + result["worse"] <= result["departures"]
