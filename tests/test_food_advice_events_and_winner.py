"""FoodAdvice: playing events and determining the winner (ties, standings)."""

from __future__ import annotations

import json
import random

from food_advice_helpers import game, play_until
from potluck.games.food_advice import (
    FoodAdvice,
    FoodState,
    choose,
)
from potluck.games.food_advice.events import product_of
from potluck.games.food_advice.presentation import offers as products_on_offer
from potluck.games.food_advice.scoring import finish
from potluck.games.food_advice.state import (
    EVENTS,
    EXCHANGE,
    KEEP,
    PLACING,
)

__all__ = ["game"]  # the module-scoped fixture, shared from food_advice_helpers


# ---------------------------------------------------------------------- events


def _to_events(game: FoodAdvice, seed: int, cards: list[str]) -> FoodState:
    """Play to round 2's events with the event deck rigged to hold only ``cards`` and
    cards that do nothing (the rest wait in the discard pile: every card is kept)."""
    state = game.new_game(4, seed=seed)
    play_until(game, state, PLACING, round_=1)
    wanted = [game.event_names.index(c) for c in cards]
    quiet = [e for e in range(len(game.event_names)) if game.event_kind[e] == "nothing"]
    pool = state.event_deck + state.event_discard
    state.event_deck = wanted + quiet[: 4 - len(wanted)]
    state.event_discard = [c for c in pool if c not in state.event_deck]
    assert not game.invariants(state)
    play_until(game, state, EVENTS)
    return state


def test_events_are_dealt_after_placing_in_rounds_2_and_3(game: FoodAdvice) -> None:
    """FA-10: no events in round 1; in rounds 2 and 3 one each, after shops and promotion."""
    state = game.new_game(4, seed=9)
    rounds_with_events = set()
    while state.acting:
        if state.phase == EVENTS:
            rounds_with_events.add(state.round)
            assert all(p["shops"] for p in game.view(state, None)["players"])
        seat = state.acting[0]
        game.step(state, seat, game.legal_actions(state, seat)[0])
    assert rounds_with_events <= {1, 2}
    assert [len(r["events"]) for r in state.log] == [0, 4, 4]


def test_corporate_war_steals_20_foodcoins(game: FoodAdvice) -> None:
    state = _to_events(game, 10, ["Corporate War"])
    [seat] = state.acting
    assert game.view(state, None)["playing"]["event"] == "Corporate War"
    victim = (seat + 1) % 4
    state.money[victim] = 25
    game.step(state, seat, f"target {victim}")  # the other events and the customers follow
    [war] = [e for e in state.log[-1]["events"] if e["event"] == "Corporate War"]
    assert war["effect"] == f"took 20 F from seat {victim}"


def test_held_card_cancels_corporate_war_and_stays_hidden(game: FoodAdvice) -> None:
    """FA-17: a shield is held face down (hidden) and cancels the next attack on its holder."""
    state = _to_events(game, 11, ["Corporate War"])
    [seat] = state.acting
    victim = (seat + 1) % 4
    lawyer = game.event_names.index("Lawyer on Call")
    state.event_discard.remove(lawyer)
    state.held[victim].append(lawyer)
    assert not game.invariants(state)
    assert game.view(state, seat)["players"][victim]["held_events"] == 1
    assert "Lawyer" not in json.dumps(game.view(state, seat))
    assert "Lawyer" in json.dumps(game.view(state, victim))
    state.money[victim] = 30
    game.step(state, seat, f"target {victim}")
    [war] = [e for e in state.log[-1]["events"] if e["event"] == "Corporate War"]
    assert war["effect"] == f"cancelled by seat {victim}'s Lawyer on Call"
    assert lawyer not in state.held[victim]


def test_a_shield_card_is_kept_face_down_when_dealt(game: FoodAdvice) -> None:
    state = _to_events(game, 0, ["Insurance Policy", "Corporate War"])
    card = game.event_names.index("Insurance Policy")
    holder = next(s for s in range(4) if card in state.held[s])
    assert "Insurance" not in json.dumps(game.view(state, (holder + 1) % 4))


def test_industrial_espionage_and_saving_remove_one_ingredient(game: FoodAdvice) -> None:
    """FA-19: remove an ingredient from another's (or one's own) product; one always stays."""
    state = _to_events(game, 12, ["Industrial Espionage"])
    [seat] = state.acting
    choices = game.legal_actions(state, seat)
    assert all(state.prod_owner[product_of(state, a.thing)] != seat for a in choices)
    target = choices[0].thing
    removed_from = product_of(state, target)
    game.step(state, seat, choices[0])
    assert len(state.prod_ings[removed_from]) == 2
    assert target in state.ing_deck
    state = _to_events(game, 13, ["Saving"])
    [seat] = state.acting
    for action in game.legal_actions(state, seat):
        assert state.prod_owner[product_of(state, action.thing)] == seat


# ---------------------------------------------------------------------- the winner


def test_tie_is_settled_by_one_more_customer(game: FoodAdvice) -> None:
    """FA-14: tied leaders fight for extra customers drawn one at a time."""
    state = game.new_game(4, seed=14)
    play_until(game, state, EXCHANGE, round_=2)
    while state.acting:
        seat = state.acting[0]
        game.step(state, seat, game.legal_actions(state, seat)[0])
    state.money = [100, 100, 50, 0]
    finish(game, state)
    tiebreak = state.tiebreak
    assert tiebreak is not None
    assert tiebreak["tied"] == [0, 1]
    outcome = game.outcome(state)
    if tiebreak["winner"] >= 0:
        assert outcome.winners == (tiebreak["winner"],)
    else:
        assert outcome.winners == (0, 1)
    assert not game.invariants(state)


# ---------------------------------------------------------------------- standings


def test_standings_at_the_end_are_the_outcomes_scores(game: FoodAdvice) -> None:
    state = game.new_game(4, seed=21)
    rng = random.Random(21)
    while state.acting:
        seat = state.acting[0]
        game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert game.standings(state) == tuple(float(x) for x in game.outcome(state).scores)


def test_standings_mid_round_count_what_products_will_sell(game: FoodAdvice) -> None:
    state = game.new_game(4, seed=3)
    play_until(game, state, PLACING)
    state.money = [50, 50, 50, 50]
    # Seat 1's product loses its ingredients: nobody pays anything for it.
    gone = state.prod_owner.index(1)
    state.prod_ings = tuple(() if p == gone else ings for p, ings in enumerate(state.prod_ings))
    offers = products_on_offer(game, state)
    regulars = [game.buyers[c] for c in game.regular_customers]
    choices = [choose(b, offers) for b in regulars]
    assert 0 in [c.offer.seller for c in choices if c.offer is not None]  # seat 0 sells
    standings = game.standings(state)
    assert standings[1] == 50.0
    assert standings[0] > standings[1]
    assert min(standings) >= 50.0


def test_standings_count_the_product_still_in_the_hand(game: FoodAdvice) -> None:
    state = game.new_game(4, seed=3)
    play_until(game, state, KEEP)
    hand = list(state.hands[0])
    state.hands[0], state.hands[1] = [], hand  # seat 1 holds what seat 0 held; seat 0 nothing
    state.dealt_shape[1] = state.dealt_shape[0]
    standings = game.standings(state)
    assert standings[0] == 0.0  # no product on the table yet, none in the hand
    assert standings[1] > 0.0


def test_standings_draw_nothing_and_never_fall_below_the_foodcoins(game: FoodAdvice) -> None:
    state = game.new_game(4, seed=5)
    rng = random.Random(5)
    while state.acting:
        before = state.rng.getstate()
        standings = game.standings(state)
        assert state.rng.getstate() == before
        assert all(s >= m for s, m in zip(standings, state.money, strict=True))
        seat = state.acting[0]
        game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
