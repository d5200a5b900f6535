"""Shared by the Café Carnage test files: the loaded game, the rulebook's example
meals (seats Francois 0, Kwame 1, Alice 2, Meera 3) and the builders that rig menus,
order a round and cast the ballot.
"""

from __future__ import annotations

import pytest

import potluck
from potluck.games.cafe_carnage import CafeCarnage, CafeState
from potluck.games.cafe_carnage.round import derive_choices
from potluck.games.cafe_carnage.state import BALLOT, DESSERT, MAIN, STARTER

FRANCOIS, KWAME, ALICE, MEERA = range(4)


@pytest.fixture
def game() -> CafeCarnage:
    g = potluck.load_game("cafe-carnage")
    assert isinstance(g, CafeCarnage)
    return g


def take_card(game: CafeCarnage, state: CafeState, dish: int, protect: tuple[int, ...]) -> None:
    """Take a card of ``dish`` out of play: from the deck, else from an unprotected seat's menu."""
    deck = state.decks[state.phase]
    if dish in deck:
        deck.remove(dish)
        return
    for other in range(state.num_players):
        menu = list(state.menus[other])
        # A protected seat keeps the one card it was rigged with, but not a spare copy.
        if dish in menu and (other not in protect or menu.count(dish) > 1):
            replacement = next(card for card in deck if card != dish)
            deck.remove(replacement)
            menu[menu.index(dish)] = replacement
            state.menus[other] = tuple(menu)
            return
    raise AssertionError(f"no card of {game.dish_slugs[dish]} is free")


def force_menu(
    game: CafeCarnage, state: CafeState, seat: int, slugs: list[str], protect: tuple[int, ...] = ()
) -> None:
    """Give ``seat`` exactly this menu, keeping every card of the course in play (conserved)."""
    state.decks[state.phase].extend(state.menus[seat])
    state.menus[seat] = ()
    dishes = [game.dish_slugs.index(slug) for slug in slugs]
    for dish in dishes:
        take_card(game, state, dish, (*protect, seat))
    state.menus[seat] = tuple(dishes)
    derive_choices(game, state)
    assert not game.invariants(state)


def rig_menu(
    game: CafeCarnage, state: CafeState, seat: int, slug: str, protect: tuple[int, ...] = ()
) -> None:
    """Make sure ``slug`` is on ``seat``'s menu (the rest of the menu is kept)."""
    dish = game.dish_slugs.index(slug)
    assert game.course_of[dish] == state.phase, f"{slug} is not a {state.phase}"
    menu = [game.dish_slugs[d] for d in state.menus[seat]]
    if slug not in menu:
        force_menu(game, state, seat, [slug, *menu[1:]], protect)


def cheapest(game: CafeCarnage, state: CafeState, seat: int) -> str:
    return str(min(game.legal_actions(state, seat), key=lambda a: game.value_of[a.dish]))


def order_round(
    game: CafeCarnage, state: CafeState, meals: dict[int, tuple[str, str, str]]
) -> None:
    """Take Orders: the seats in ``meals`` order those dishes, the others their cheapest."""
    for course in (STARTER, MAIN, DESSERT):
        assert state.phase == course
        for seat in range(state.num_players):
            if seat in meals:
                rig_menu(game, state, seat, meals[seat][course], protect=tuple(range(seat)))
        for seat in range(state.num_players):
            dish = meals[seat][course] if seat in meals else cheapest(game, state, seat)
            game.step(state, seat, dish)
    assert state.phase == BALLOT


def vote(game: CafeCarnage, state: CafeState, cards: dict[int, str]) -> None:
    for seat in range(state.num_players):
        game.step(state, seat, cards[seat])


# The rulebook's example meals, built from the menu sheet and our authored values.
ALICE_MEAL = ("vegetable-samosas", "butternut-squash-pie", "sweet-plum-roulade")  # 2+3+2 = 7
KWAME_MEAL = ("tomato-soup", "butternut-squash-pie", "banana-split")  # 1+3+2 = 6
FRANCOIS_MEAL = ("spring-rolls", "vegetable-tacos", "sweet-plum-roulade")  # 1+2+2 = 5
MEERA_MEAL = ("smoked-ham", "butternut-squash-pie", "banana-split")  # 3+3+2 = 8

EXAMPLE_MEALS = {FRANCOIS: FRANCOIS_MEAL, KWAME: KWAME_MEAL, ALICE: ALICE_MEAL, MEERA: MEERA_MEAL}
EXAMPLE_CARDS = {FRANCOIS: "split", KWAME: "run", ALICE: "run", MEERA: "separately"}


def meal_cost(game: CafeCarnage, meal: tuple[str, str, str]) -> int:
    return sum(game.value_of[game.dish_slugs.index(slug)] for slug in meal)
