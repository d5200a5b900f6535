"""The paired decision screen (examples/decision_screen.py) on a tiny run."""

from __future__ import annotations

from exampletest import load_example


def test_it_judges_both_bots_choices_at_the_same_positions() -> None:
    small = "improve:time=0,worlds=8,min_worlds=4,candidates=4"
    screen = load_example("decision_screen").screen
    same = screen("cafe-carnage", 4, 1, small, small, seed=3, worlds=2)
    assert same["decisions"] > 0
    assert same["judged"] > 0  # the weak bot leaves the greedy move somewhere
    # the versus bot draws from a copy of the seat's generator: the same bot, the same moves
    assert same["differ"] == 0
    assert same["versus_lead_a_game"] == [0.0, 0.0]
    assert same["bot_gain_a_game"] == same["versus_gain_a_game"]
    greedy = screen("cafe-carnage", 4, 1, small, "greedy", seed=3, worlds=2)
    assert greedy["versus_gain_a_game"] == [0.0, 0.0]  # the greedy move gains nothing on itself
    assert greedy["differ"] == greedy["judged"]
    assert greedy["versus_cpu_slowest"] >= greedy["versus_cpu_median"] >= 0.0


def test_several_versus_bots_are_judged_on_the_same_worlds() -> None:
    small = "improve:time=0,worlds=8,min_worlds=4,candidates=4"
    result = load_example("decision_screen").screen(
        "cafe-carnage", 4, 1, small, [small, "greedy"], seed=3, worlds=2
    )
    same, greedy = result["by_versus"]
    assert same["differ"] == 0
    assert same["versus_lead_a_game"] == [0.0, 0.0]
    assert greedy["versus_gain_a_game"] == [0.0, 0.0]
    assert result["versus"] == small  # the first versus bot's figures at the top level
