"""The search-deviation diagnostic (examples/search_deviations.py) on a tiny run."""

from __future__ import annotations

from exampletest import load_example


def test_search_deviations_judges_each_departure_from_the_greedy_move() -> None:
    # a weak search (4 playouts, every move compared, no confidence margin) departs often
    result = load_example("search_deviations").deviations(
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
