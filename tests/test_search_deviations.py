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


def test_it_reads_the_improving_bots_lead_and_what_a_stricter_rule_would_drop() -> None:
    example = load_example("search_deviations")
    result = example.deviations(
        "cafe-carnage", 4, 1, "improve:time=0,worlds=8,min_worlds=4,candidates=4", seed=3, worlds=2
    )
    led = [row for row in result["rows"] if "z" in row]
    for row in led:
        assert row["z"] > 1.0  # the judge's own rule: a lead above one standard error
        assert {"lead", "lead_se", "point_lead", "point_se"} <= set(row)
    assert set(result["by_leave"]) == ({str(k) for k in example.LEAVES} if led else set())
    for stricter in result["by_leave"].values():
        assert 0 <= stricter["dropped"] <= len(led)
    gain = result["gain_a_game"]["mean"]
    assert abs(gain - sum(row["diff"] for row in result["rows"])) < 1e-9
