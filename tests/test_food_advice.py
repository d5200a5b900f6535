"""FoodAdvice: the known cards, getting ready, creating and presenting a product,
placing it in shops, and whole games (saving, views, legality, the decks' order).

The rulebook's worked examples of customers choosing and selling are in
tests/test_food_advice_customers.py; playing events and determining the winner in
tests/test_food_advice_events_and_winner.py. Helpers: tests/food_advice_helpers.py.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

import potluck
import potluck.games.food_advice as game_module
from food_advice_helpers import customer, game, hipster, play_until
from potluck.engine.errors import IllegalActionError, InvalidActionError, PotluckError
from potluck.games.food_advice import (
    FoodAdvice,
)
from potluck.games.food_advice.actions import NAME
from potluck.games.food_advice.state import (
    EXCHANGE,
    KEEP,
    NAMING,
    PLACING,
    RESPOND,
    ROLES,
    VOTING,
)
from potluck.games.food_advice.view import ingredient_json

__all__ = ["game"]  # the module-scoped fixture, shared from food_advice_helpers


# ---------------------------------------------------------------------- the known cards


def test_known_cards_appear_as_written(game: FoodAdvice) -> None:
    h = game.data.customers[customer(game, "Mister Hipster")]
    assert (h.category, h.gender, h.hashtags, h.shapes) == (
        "medium",
        "male",
        ["healthy", "nutritious", "dietary"],
        ["yoghurt"],
    )
    assert hipster(game).budget == 40
    m = game.data.customers[customer(game, "Mary Shoppins")]
    assert (m.category, m.hashtags) == ("economy", ["eccological", "juicy", "healthy", "hearty"])
    assert game.buyers[customer(game, "Mary Shoppins")].budget == 20
    shops = {s.name: s for s in game.data.shops}
    assert (shops["Sparget"].bonus, shops["Sparget"].when) == (10, "male")
    assert (shops["Wildmart"].bonus, shops["Wildmart"].when) == (15, "favourite_shape")
    events = {e.name: e for e in game.data.events}
    assert (events["Corporate War"].kind, events["Corporate War"].value) == ("steal", 20)
    assert events["Industrial Espionage"].kind == "remove_other"
    assert events["Saving"].kind == "remove_own"


def test_card_counts_match_the_box(game: FoodAdvice) -> None:
    d = game.data
    assert d.authored
    assert (len(d.ingredients), len(d.shapes), len(d.customers), len(d.shops), len(d.events)) == (
        84,
        20,
        44,
        20,
        40,
    )
    assert len(d.hashtags) == 26
    assert sum(1 for c in d.customers if c.category == "joker") == 4
    for c in d.customers:
        if c.category == "joker":
            assert (len(c.hashtags), len(c.shapes)) == (6, 3)
    assert sorted({game.ing_price[i] for i in range(84)}) == [5, 10, 20]
    assert [a.name for a in d.advertising] == [
        "National",
        "Marketing buzz",
        "Sensation",
        "Bull's eye",
        "Top reviews",
    ]


def test_a_users_own_data_goes_through_the_schema(game: FoodAdvice, tmp_path: Path) -> None:
    text = (Path(game_module.__file__).parent / "data" / "cards.toml").read_text("utf-8")
    mine = tmp_path / "cards.toml"
    mine.write_text(text.replace("vote_reward = 5", "vote_reward = 7"))
    g = potluck.load_game("food-advice", data=mine)
    assert isinstance(g, FoodAdvice)
    assert g.data.table.vote_reward == 7
    mine.write_text(text.replace('hashtag = "spicy"', 'hashtag = "bland"', 1))
    with pytest.raises(potluck.DataError, match="unknown hashtag"):
        potluck.load_game("food-advice", data=mine)


# ---------------------------------------------------------------------- rulings: the table


def test_roles_are_dealt_one_each_and_fewer_players_leave_roles_undealt(
    game: FoodAdvice,
) -> None:
    """FA-1: one role each, all different; with fewer than six some roles are undealt."""
    for n in (4, 5, 6):
        state = game.new_game(n, seed=n)
        assert len(set(state.roles)) == n
        assert {p["role"] for p in game.view(state, None)["players"]} <= set(ROLES)
    assert all(c == 3 for c in game.new_game(4).chips)


def test_two_or_three_players_need_the_small_table_option(game: FoodAdvice) -> None:
    with pytest.raises(PotluckError, match="small_table"):
        game.new_game(2, seed=1)
    for n in (2, 3):
        state = game.new_game(n, seed=1, options={"small_table": True})
        rng = random.Random(n)
        while not game.is_over(state):
            seat = state.acting[0]
            game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
        assert not game.invariants(state)
        record = json.loads(json.dumps(game.record(state)))
        assert game.to_json(game.replay(record)) == game.to_json(state)


def test_players_start_with_no_foodcoins(game: FoodAdvice) -> None:
    """FA-2: the bank issues foodcoins only as the game pays them."""
    assert game.new_game(5, seed=2).money == [0] * 5


def test_exchange_offer_accepted_swaps_the_cards(game: FoodAdvice) -> None:
    """FA-13: in seat order each may offer ingredients; the other gives as many back or
    declines; the offerer may then offer again or pass."""
    state = game.new_game(4, seed=3)
    mine, theirs = state.hands[0][0], state.hands[2][0]
    game.step(state, 0, f"offer {game.ing_slugs[mine]} to 2")
    assert state.phase == EXCHANGE  # the offer is put together, then sent
    game.step(state, 0, "done")
    assert state.phase == RESPOND
    assert game.to_act(state) == (2,)
    game.step(state, 2, f"give {game.ing_slugs[theirs]}")
    assert theirs in state.hands[0]
    assert mine in state.hands[2]
    assert game.to_act(state) == (0,)  # a second offer, or pass
    game.step(state, 0, "pass")
    assert game.to_act(state) == (1,)
    assert state.phase == EXCHANGE
    offered = state.hands[1][0]
    game.step(state, 1, f"offer {game.ing_slugs[offered]} to 0")
    game.step(state, 1, "done")
    game.step(state, 0, "decline")
    assert offered in state.hands[1]
    assert [t["given"] is not None for t in game.view(state, 3)["trades"]] == [True, False]
    with pytest.raises(IllegalActionError, match="yourself"):
        game.step(state, 1, f"offer {game.ing_slugs[state.hands[1][1]]} to 1")


def test_l427_exchange_several_cards_for_as_many_up_to_two_offers_a_round(
    game: FoodAdvice,
) -> None:
    """ "The players can exchange Ingredient cards to achieve the desired combination":
    an offer holds one to three cards, answered card for card with as many; each player
    makes at most two offers a round, so every game stays finite (ruling FA-13)."""
    state = game.new_game(4, seed=8)
    out = state.hands[0][:3]
    for card in out:
        game.step(state, 0, f"offer {game.ing_slugs[card]} to 3")
    assert "cannot" not in str(game.legal_actions(state, 0))
    reason = game.explain(state, 0, f"offer {game.ing_slugs[state.hands[0][3]]} to 3")
    assert reason is not None
    assert "at most 3" in reason
    assert game.view(state, 1)["offer"]["sent"] is False
    game.step(state, 0, "done")
    back = state.hands[3][:3]
    for card in back[:2]:
        game.step(state, 3, f"give {game.ing_slugs[card]}")
        assert state.phase == RESPOND  # card for card: one more to give
    assert [c["ingredient"] for c in game.view(state, 2)["offer"]["given"]] == [
        game.ing_slugs[c] for c in back[:2]
    ]
    game.step(state, 3, f"give {game.ing_slugs[back[2]]}")
    assert all(c in state.hands[3] for c in out)
    assert all(c in state.hands[0] for c in back)
    assert [len(h) for h in state.hands] == [6, 6, 6, 6]
    game.step(state, 0, f"offer {game.ing_slugs[state.hands[0][0]]} to 1")
    game.step(state, 0, "done")
    game.step(state, 1, "decline")
    assert [str(a) for a in game.legal_actions(state, 0)] == ["pass"]  # two offers made
    reason = game.explain(state, 0, f"offer {game.ing_slugs[state.hands[0][0]]} to 1")
    assert reason is not None
    assert "2 offers" in reason
    assert not game.invariants(state)


def test_keep_three_and_hands_stay_hidden(game: FoodAdvice) -> None:
    state = game.new_game(4, seed=4)
    play_until(game, state, KEEP)
    assert game.to_act(state) == (0, 1, 2, 3)
    view = game.view(state, 1)
    assert len(view["you"]["hand"]) == 6
    assert all(p["shape"] in game.shapes for p in view["players"])  # shapes are face up
    assert "hand" not in json.dumps(view["players"]) or all(
        "hand" not in p for p in view["players"]
    )
    play_until(game, state, NAMING)
    assert all(len(h) == 3 for h in state.hands)


def test_name_accepts_free_text_and_offers_the_generated_one(game: FoodAdvice) -> None:
    """FA-15: any well-formed name and tagline; the legal list holds the generated one."""
    state = game.new_game(4, seed=6)
    play_until(game, state, NAMING)
    [generated] = game.legal_actions(state, 0)
    assert str(generated).startswith('name "')
    assert game.parse_action(state, 0, str(generated)) == generated
    game.step(state, 0, 'name "Yogurt Rocket" / "Fly me to the moon"')
    assert game.view(state, 1)["products"] == []  # secret until everyone has named
    for seat in (1, 2, 3):
        game.step(state, seat, game.legal_actions(state, seat)[0])
    assert state.prod_name[0] == "Yogurt Rocket"
    assert state.prod_tagline[0] == "Fly me to the moon"
    with pytest.raises(InvalidActionError):
        game.parse_action(state, 0, 'name "" / "nothing"')
    assert game.action_index(state, 0, 'name "A" / "B"') == game.base[3]


def test_no_vote_for_ones_own_product_and_ties_all_take_a_chip(game: FoodAdvice) -> None:
    """FA-8: no vote for oneself; 5 F per vote; every player tied for most votes gets a chip."""
    state = game.new_game(4, seed=7)
    play_until(game, state, VOTING)
    with pytest.raises(IllegalActionError, match="yourself"):
        game.step(state, 0, "vote 0")
    for seat, target in ((0, 1), (1, 0), (2, 1), (3, 0)):
        game.step(state, seat, f"vote {target}")
    assert state.money == [10, 10, 0, 0]
    assert state.chips == [4, 4, 3, 3]


def test_votes_are_sealed_until_everyone_voted(game: FoodAdvice) -> None:
    state = game.new_game(4, seed=7)
    play_until(game, state, VOTING)
    game.step(state, 0, "vote 2")
    assert game.view(state, 1)["votes"] is None
    assert game.view(state, 0)["you"]["vote"] == 2


def test_two_shops_and_one_channel_a_spare_chip_adds_a_third_shop(game: FoodAdvice) -> None:
    """FA-16: never two chips in one shop; a spare chip adds a shop or a channel."""
    state = game.new_game(4, seed=8)
    play_until(game, state, PLACING)
    seat = state.acting[0]
    state.chips[seat] = 4
    first, second, third = state.board[:3]
    game.step(state, seat, f"shop {game.shop_slugs[first]}")
    with pytest.raises(IllegalActionError, match="one per shop"):
        game.step(state, seat, f"shop {game.shop_slugs[first]}")
    game.step(state, seat, f"shop {game.shop_slugs[second]}")
    assert "done" not in [str(a) for a in game.legal_actions(state, seat)]
    game.step(state, seat, f"shop {game.shop_slugs[third]}")
    with pytest.raises(IllegalActionError):
        game.step(state, seat, f"shop {game.shop_slugs[state.board[3]]}")
    game.step(state, seat, "promote black-friday")
    assert state.acting != (seat,)  # four chips placed: the turn passes
    other = state.acting[0]
    game.step(state, other, f"shop {game.shop_slugs[first]}")
    game.step(state, other, f"shop {game.shop_slugs[second]}")
    with pytest.raises(IllegalActionError, match="promotion channel"):
        game.step(state, other, f"shop {game.shop_slugs[third]}")


def test_a_full_game_keeps_every_card_and_saves_exactly(game: FoodAdvice) -> None:
    state = game.new_game(6, seed=16)
    rng = random.Random(1)
    while state.acting:
        seat = rng.choice(state.acting)
        game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
        assert not game.invariants(state)
    assert len(state.log) == 3
    assert len(state.prod_owner) == 18
    assert game.to_json(game.from_json(json.loads(json.dumps(game.to_json(state))))) == (
        game.to_json(state)
    )
    metrics = game.metrics(state)
    assert isinstance(metrics["sales"], int)
    assert metrics["sales"] > 0


def test_the_view_shows_the_face_of_every_customer_who_came_shopping(game: FoodAdvice) -> None:
    state = game.new_game(4, seed=17)
    rng = random.Random(2)
    while state.acting:
        seat = rng.choice(state.acting)
        game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
    view = game.view(state, None)
    faces = view["customer_cards"]
    named = {sale["customer"] for entry in view["log"] for sale in entry["sales"]}
    assert named
    assert named <= set(faces)
    for name, face in faces.items():
        spec = game.data.customers[customer(game, name)]
        assert face["hashtags"] == spec.hashtags
        assert face["shapes"] == spec.shapes
        assert (
            face["budget"]
            == {"economy": 20, "medium": 40, "premium": 60, "joker": 150}[spec.category]
        )


def test_terminal_renderer_draws_every_phase(game: FoodAdvice) -> None:
    from rich.console import Console

    from potluck.cli.renderers import renderer_for

    render = renderer_for("food-advice")
    assert render is not None
    console = Console(width=100, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    state = game.new_game(4, seed=18)
    rng = random.Random(2)
    seen = set()
    while True:
        if state.phase not in seen or not state.acting:  # each phase once: rendering is slow
            for seat in (state.acting[0] if state.acting else 0, None):
                console.print(render(game.view(state, seat)))
        seen.add(state.phase)
        if not state.acting:
            break
        seat = state.acting[0]
        game.step(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert "Customers of round 3" in console.export_text()
    assert {EXCHANGE, RESPOND, KEEP, NAMING, VOTING, PLACING} <= seen


@pytest.mark.parametrize("num_players", [2, 3])
def test_small_table_passes_the_conformance_suite(game: FoodAdvice, num_players: int) -> None:
    """The shared suite covers 4-6 players (min_players); the small-table option too."""
    from potluck.testing import run_conformance

    run_conformance(game, num_players, seed=num_players, options={"small_table": True})


def test_the_prosecutor_has_no_violation_to_fine(game: FoodAdvice) -> None:
    """Ruling FA-24: the engine refuses every violation, so no 5 F fine ever arises."""
    state = game.new_game(4, seed=3)
    seat = game.to_act(state)[0]
    before = game.to_json(state)
    outsider = next(s for s in range(4) if s not in game.to_act(state))
    legal = game.legal_actions(state, seat)[0]
    with pytest.raises(IllegalActionError):
        game.step(state, outsider, legal)
    illegal = next(
        (
            game.action_from_index(state, seat, i)
            for i in range(game.num_distinct_actions(4))
            if game.explain(state, seat, game.action_from_index(state, seat, i)) is not None
        ),
        None,
    )
    if illegal is not None:
        with pytest.raises(IllegalActionError):
            game.step(state, seat, illegal)
    assert game.to_json(state) == before


def test_l106_played_ingredients_go_to_the_bottom_of_the_deck(game: FoodAdvice) -> None:
    """The Farmer places played Ingredient cards "at the bottom of the Ingredient deck":
    they come back only after every card above them is dealt."""
    state = game.new_game(4, seed=5)
    play_until(game, state, KEEP)
    seat = state.acting[0]
    card = state.hands[seat][0]
    game.step(state, seat, f"discard {game.ing_slugs[card]}")
    assert (state.ing_deck[0], state.ing_returned[0]) == (card, seat)
    above = len(state.ing_deck) - 1
    play_until(game, state, EXCHANGE, round_=1)
    dealt = [i for hand in state.hands for i in hand]
    assert card not in dealt  # 24 dealt from the top, far above the bottom
    assert above > len(dealt)
    view = game.view(state, seat)
    assert {"position": state.ing_deck.index(card), **ingredient_json(game, card)} in view["you"][
        "returned"
    ]
    other = (seat + 1) % 4
    assert game.ing_slugs[card] not in json.dumps(game.view(state, other)["ingredient_deck_bottom"])


def test_l165_played_shops_go_to_the_bottom_so_none_returns_at_once(game: FoodAdvice) -> None:
    """The Retailer takes back played shop cards "and places them at the bottom of the
    deck": with 20 shops and 6 a round, no shop is on the board twice in three rounds."""
    state = game.new_game(4, seed=2)
    boards: list[tuple[int, ...]] = []
    while state.acting:
        if state.phase == PLACING and (not boards or boards[-1] != state.board):
            boards.append(state.board)
        seat = state.acting[0]
        game.step(state, seat, game.legal_actions(state, seat)[0])
    assert len(boards) == 3
    seen = [shop for board in boards for shop in board]
    assert len(seen) == len(set(seen)) == 18
    assert tuple(state.shop_deck[:6]) == boards[-1]  # the last board went to the bottom


def test_redeal_keeps_what_a_seat_knows_of_the_ordered_decks(game: FoodAdvice) -> None:
    state = game.new_game(4, seed=7)
    play_until(game, state, PLACING, round_=1)
    seat = 0
    known = {k for k, by in enumerate(state.ing_returned) if by == seat}
    hidden = [k for k, by in enumerate(state.ing_returned) if by not in (-1, seat)]
    assert known
    assert hidden
    shops_seen = len(state.shop_deck) - (len(game.shop_names) - 12)
    faces = set()
    for k in range(6):
        world = game.redeal(state, seat, random.Random(k))
        assert not game.invariants(world)
        assert world.ing_returned == state.ing_returned
        assert all(world.ing_deck[p] == state.ing_deck[p] for p in known)
        assert world.shop_deck[:shops_seen] == state.shop_deck[:shops_seen]
        faces.add(tuple(world.ing_deck[p] for p in hidden))
    assert len(faces) > 1  # the other seats' discards are redrawn


def test_the_legality_check_agrees_with_the_legal_actions(game: FoodAdvice) -> None:
    """``step`` checks a move without building the legal list (``_is_legal``); it must
    say yes exactly to the listed actions, for every action of the game, at 4 to 6."""
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game(4 + seed, seed)
        steps = 0
        while game.to_act(state):
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            if steps % 4 == 0:
                listed = {a.index for a in legal}
                for action in game.actions:
                    if action.kind == NAME:
                        continue  # names are free text: any name is legal while naming
                    assert game._is_legal(state, seat, action) == (action.index in listed), (
                        seed,
                        steps,
                        action,
                    )
                    checked += 1
            game.step(state, seat, legal[int(rng.random() * len(legal))])
            steps += 1
    assert checked > 10_000
