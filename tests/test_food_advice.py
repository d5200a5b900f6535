"""FoodAdvice: the rulebook's worked examples and one test per rule and ruling.

The examples are played with the real card data: each example product is
built from the ingredients of the right price category and hashtag.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

import potluck
import potluck.games.food_advice as game_module
from potluck.engine.errors import IllegalActionError, InvalidActionError, PotluckError
from potluck.games.food_advice import (
    Buyer,
    FoodAdvice,
    FoodState,
    Offer,
    choose,
    choose_extra,
    joker_buys,
)
from potluck.games.food_advice.actions import NAME
from potluck.games.food_advice.characters import draw_customer
from potluck.games.food_advice.events import product_of
from potluck.games.food_advice.market import (
    BY_FLAVOUR,
    BY_PRICE,
    BY_SAMPLING,
    BY_SHAPE,
    LEFT_NO_MATCH,
    LEFT_UNDECIDED,
    extra_customer_buys,
    matches,
)
from potluck.games.food_advice.presentation import offers as products_on_offer
from potluck.games.food_advice.scoring import finish
from potluck.games.food_advice.selling import advert_met, pay_sale
from potluck.games.food_advice.state import (
    EVENTS,
    EXCHANGE,
    KEEP,
    NAMING,
    PLACING,
    RESPOND,
    ROLES,
    VOTING,
)
from potluck.games.food_advice.view import ingredient_json

PRICE = {5: "economy", 10: "medium", 20: "premium"}


@pytest.fixture(scope="module")
def game() -> FoodAdvice:
    g = potluck.load_game("food-advice")
    assert isinstance(g, FoodAdvice)
    return g


def ing(game: FoodAdvice, price: int, hashtag: str) -> int:
    """The ingredient of this price with this hashtag (every pair exists in the data)."""
    tag = game.hashtags.index(hashtag)
    return next(
        i
        for i in range(len(game.ing_names))
        if game.ing_price[i] == price and game.ing_tag[i] == tag
    )


def product(
    game: FoodAdvice, number: int, seller: int, shape: str, parts: list[tuple[int, str]]
) -> Offer:
    ings = [ing(game, price, tag) for price, tag in parts]
    return Offer(
        number,
        seller,
        game.shapes.index(shape),
        sum(game.ing_price[i] for i in ings),
        game.product_tags(ings),
    )


def customer(game: FoodAdvice, name: str) -> int:
    return game.cust_names.index(name)


def hipster(game: FoodAdvice) -> Buyer:
    return game.buyers[customer(game, "Mister Hipster")]


def play_until(game: FoodAdvice, state: FoodState, phase: int, round_: int | None = None) -> None:
    """Play each seat's first legal action until ``phase`` (of ``round_``) is reached."""
    while state.acting and not (state.phase == phase and (round_ is None or state.round == round_)):
        seat = state.acting[0]
        game.step(state, seat, game.legal_actions(state, seat)[0])


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


# ---------------------------------------------------------------------- worked examples


def test_example_1_mister_hipster_chooses_by_flavour(game: FoodAdvice) -> None:
    chocolate = product(game, 0, 0, "chocolate", [(20, "stylish"), (5, "dietary"), (10, "caloric")])
    porridge = product(game, 1, 1, "porridge", [(5, "sweet"), (5, "exotic"), (20, "technological")])
    chips = product(game, 2, 2, "chips", [(10, "healthy"), (5, "spicy"), (10, "nutritious")])
    assert chocolate.price == 35
    assert chips.price == 25
    choice = choose(hipster(game), [chocolate, porridge, chips])
    assert choice.offer == chips
    assert choice.paid == 25
    assert choice.reason == BY_FLAVOUR


def test_example_2_mister_hipster_chooses_by_price(game: FoodAdvice) -> None:
    frozen = product(
        game, 0, 0, "frozen food", [(10, "healthy"), (10, "nutritious"), (20, "pretentious")]
    )
    sauce = product(game, 1, 1, "sauce", [(20, "strange"), (20, "rich"), (10, "healthy")])
    canned = product(game, 2, 2, "canned food", [(5, "dietary"), (10, "healthy"), (10, "dainty")])
    assert (frozen.price, sauce.price, canned.price) == (40, 50, 25)
    choice = choose(hipster(game), [frozen, sauce, canned])
    assert choice.offer == frozen
    assert choice.paid == 40
    assert choice.reason == BY_PRICE


def test_example_3_mister_hipster_chooses_by_shape(game: FoodAdvice) -> None:
    soup = product(game, 0, 0, "soup", [(10, "sour"), (20, "strange"), (10, "advanced")])
    yoghurt = product(game, 1, 1, "yoghurt", [(5, "refined"), (10, "caloric"), (5, "farm")])
    chocolate = product(game, 2, 2, "chocolate", [(5, "bright"), (10, "tasty"), (10, "dainty")])
    choice = choose(hipster(game), [soup, yoghurt, chocolate])
    assert choice.offer == yoghurt
    assert choice.reason == BY_SHAPE


def test_example_4_mister_hipster_buys_at_a_black_friday_discount(game: FoodAdvice) -> None:
    porridge = product(game, 0, 0, "porridge", [(5, "sweet"), (5, "technological"), (20, "exotic")])
    chocolate = product(game, 1, 1, "chocolate", [(20, "trendy"), (5, "dietary"), (20, "exotic")])
    chips = product(game, 2, 2, "chips", [(10, "bright"), (5, "spicy"), (10, "marine")])
    assert chocolate.price == 45
    offers = [porridge, chocolate, chips]
    without = choose(hipster(game), offers)
    assert without.offer is None
    assert without.reason == LEFT_NO_MATCH
    choice = choose(hipster(game), offers, black_friday=1 << 1)
    assert choice.offer == chocolate
    assert choice.paid == 40


def test_example_5_mister_hipster_leaves_when_he_cannot_choose(game: FoodAdvice) -> None:
    frozen = product(game, 0, 0, "frozen food", [(10, "healthy"), (10, "bright"), (10, "advanced")])
    sauce = product(game, 1, 1, "sauce", [(5, "salted"), (10, "juicy"), (5, "spicy")])
    canned = product(
        game, 2, 2, "canned food", [(5, "homemade"), (20, "pretentious"), (5, "dietary")]
    )
    offers = [frozen, sauce, canned]
    left = choose(hipster(game), offers)
    assert left.offer is None
    assert left.reason == LEFT_UNDECIDED
    sampled = choose(hipster(game), offers, flavor_sampling=1 << 2)
    assert sampled.offer == canned
    assert sampled.reason == BY_SAMPLING
    assert sampled.paid == 30


def test_extra_customer_mary_shoppins_buys_chips_at_her_budget(game: FoodAdvice) -> None:
    chips = product(game, 0, 3, "chips", [(10, "bright"), (5, "spicy"), (10, "marine")])
    mary = game.buyers[customer(game, "Mary Shoppins")]
    choice = choose_extra(mary, [chips])
    assert choice.offer == chips
    assert choice.paid == 20


def test_l891_the_extra_customer_always_buys_even_a_joker_with_nothing_to_his_taste(
    game: FoodAdvice,
) -> None:
    """ "The extra customer always buys a product from the player who picked the extra
    customer card": a Joker drawn as an extra customer who finds no match and none of his
    shapes still buys one of that player's products (ruling FA-12)."""
    joker = next(c for c in range(len(game.cust_names)) if game.cust_joker[c])
    buyer = game.buyers[joker]
    tags = game.data.customers[joker].hashtags
    others = [t for t in game.hashtags if t not in tags]
    shape = next(sh for k, sh in enumerate(game.shapes) if not buyer.shapes >> k & 1)
    plain = product(game, 0, 1, shape, [(5, others[0]), (5, others[1]), (5, others[2])])
    assert joker_buys(buyer, [plain]) == []
    bought = extra_customer_buys(buyer, [plain], joker=True)
    assert [c.offer for c in bought] == [plain]
    assert extra_customer_buys(buyer, [], joker=True) == []  # no product: nothing to buy


def test_l867_flavor_sampling_between_two_products_of_its_player_buys_the_newest(
    game: FoodAdvice,
) -> None:
    """ "If one of the players has a chip in the Flavor Sampling field, Mister Hipster buys
    this player's product": when the tie is between two products of that one player, he
    buys their newest (ruling FA-6)."""
    older = product(game, 0, 1, "soup", [(10, "healthy"), (10, "sour"), (10, "rich")])
    newer = product(game, 3, 1, "cake", [(10, "healthy"), (10, "sour"), (10, "rich")])
    rival = product(game, 2, 0, "salad", [(10, "healthy"), (10, "sour"), (10, "rich")])
    chosen = choose(hipster(game), [older, rival, newer], flavor_sampling=0b10)
    assert (chosen.offer, chosen.reason) == (newer, BY_SAMPLING)
    assert choose(hipster(game), [older, newer]).offer is None  # no chip: he leaves


def test_ruling_fa25_a_hashtag_repeated_in_one_product_counts_once(game: FoodAdvice) -> None:
    """Two ingredients of one product with the same hashtag: the product shows that
    hashtag once, so it is one match, as a hashtag printed twice is still one taste."""
    twice = product(game, 0, 0, "soup", [(5, "healthy"), (10, "healthy"), (20, "sour")])
    once = product(game, 1, 1, "cake", [(5, "healthy"), (10, "sour"), (20, "rich")])
    buyer = Buyer(tags=1 << game.hashtags.index("healthy"), shapes=0, budget=200)
    assert matches(buyer, twice) == matches(buyer, once) == 1


def _sell_to(game: FoodAdvice, buyer: str, shape: str, parts: list[tuple[int, str]]) -> int:
    """Seat 0 sells one product to ``buyer`` in Sparget and Wildmart; what it earns."""
    state = game.new_game(4, seed=1)
    play_until(game, state, PLACING)
    sparget, wildmart = game.shop_names.index("Sparget"), game.shop_names.index("Wildmart")
    state.shop_deck += state.board
    state.shop_deck.remove(sparget)
    state.shop_deck.remove(wildmart)
    state.board = [sparget, wildmart]
    state.shop_chips[0] = 0b11
    offer = product(game, 0, 0, shape, parts)
    before = state.money[0]
    pay_sale(game, state, customer(game, buyer), offer, offer.price, "test", "regular")
    assert not game.invariants(state)
    return state.money[0] - before


def test_shop_bonus_example_sparget_and_wildmart(game: FoodAdvice) -> None:
    # Chocolate (#bright #dietary #exotic) for 35 F: +10 Sparget (male buyer) and
    # +10 for the shape match (Wildmart lists chocolate): 55 F in all (ruling FA-3).
    assert "chocolate" in game.data.shops[game.shop_names.index("Wildmart")].shapes
    assert "chocolate" not in game.data.shops[game.shop_names.index("Sparget")].shapes
    earned = _sell_to(
        game, "Mister Hipster", "chocolate", [(10, "bright"), (5, "dietary"), (20, "exotic")]
    )
    assert earned == 35 + 10 + 10


def test_wildmart_pays_15_when_the_product_is_the_buyers_favourite_shape(
    game: FoodAdvice,
) -> None:
    earned = _sell_to(
        game, "Mister Hipster", "yoghurt", [(10, "healthy"), (5, "dietary"), (5, "farm")]
    )
    assert earned == 20 + 10 + 15  # Sparget (male) and Wildmart's own term; no shape listed


# ---------------------------------------------------------------------- rulings: choice


def test_budget_caps_the_choice_before_hashtags(game: FoodAdvice) -> None:
    """FA-4/FA-9: an economy customer (20 F) never pays more than 20 F, however good the match."""
    mary = game.buyers[customer(game, "Mary Shoppins")]
    rich = product(game, 0, 0, "salad", [(20, "eccological"), (20, "juicy"), (20, "healthy")])
    cheap = product(game, 1, 1, "soup", [(5, "hearty"), (5, "sour"), (5, "rich")])
    choice = choose(mary, [rich, cheap])
    assert choice.offer == cheap
    assert choice.paid == 15


def test_black_friday_sells_at_most_20_over_budget(game: FoodAdvice) -> None:
    """FA-5: Black Friday reaches a product up to 20 F over budget, sold at the budget."""
    mary = game.buyers[customer(game, "Mary Shoppins")]
    near = product(game, 0, 0, "soup", [(20, "juicy"), (10, "sour"), (10, "rich")])  # 40
    far = product(game, 1, 1, "soup", [(20, "juicy"), (20, "sour"), (5, "rich")])  # 45
    assert choose(mary, [near], black_friday=1).paid == 20
    assert choose(mary, [far], black_friday=2).offer is None


def test_two_flavor_sampling_chips_cancel_out(game: FoodAdvice) -> None:
    """FA-6: Flavor Sampling wins a tie only when one tied product's seller has it."""
    a = product(game, 0, 0, "soup", [(10, "healthy"), (10, "sour"), (10, "rich")])
    b = product(game, 1, 1, "cake", [(10, "healthy"), (10, "sour"), (10, "rich")])
    assert choose(hipster(game), [a, b], flavor_sampling=0b10).offer == b
    assert choose(hipster(game), [a, b], flavor_sampling=0b11).offer is None


def test_joker_buys_by_matches_then_most_expensive_and_several_from_one_player(
    game: FoodAdvice,
) -> None:
    """FA-7: a Joker buys every matching product his 150 F allows, most matches first,
    then the dearest; several from one player are fine."""
    joker = next(c for c in range(len(game.cust_names)) if game.cust_joker[c])
    tags = game.data.customers[joker].hashtags
    two = product(game, 0, 0, "soup", [(20, tags[0]), (20, tags[1]), (20, tags[2])])  # 60, 3
    one = product(game, 1, 0, "cake", [(20, tags[3]), (20, "sour"), (20, "rich")])
    cheap = product(game, 2, 1, "tea", [(5, tags[4]), (5, tags[5]), (5, "rich")])
    others = [t for t in game.hashtags if t not in tags]
    none = product(game, 3, 2, "salad", [(5, others[0]), (5, others[1]), (5, others[2])])
    bought = joker_buys(game.buyers[joker], [one, cheap, two, none])
    assert [o.product for o in bought] == [0, 2, 1][: len(bought)]
    assert sum(o.price for o in bought) <= 150
    assert none not in bought


def test_products_of_earlier_rounds_stay_on_offer(game: FoodAdvice) -> None:
    """FA-11: every product made so far is on offer to every customer."""
    state = game.new_game(4, seed=5)
    play_until(game, state, EXCHANGE, round_=1)
    play_until(game, state, VOTING)
    assert len(products_on_offer(game, state)) == 8
    assert [o.seller for o in products_on_offer(game, state)] == [0, 1, 2, 3, 0, 1, 2, 3]


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


def test_customer_deck_is_reshuffled_when_it_runs_out(game: FoodAdvice) -> None:
    """FA-20: the Politician reshuffles the played customers into a new deck."""
    state = game.new_game(4, seed=15)
    state.cust_discard, state.cust_deck = state.cust_deck[:-1], state.cust_deck[-1:]
    assert draw_customer(state) >= 0
    assert draw_customer(state) >= 0
    assert len(state.cust_deck) == 42


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


def test_mabius_investor_is_paid_by_the_bank_on_every_purchase(game: FoodAdvice) -> None:
    """FA-21: Mabius invests in a player; the bank pays 10 F per purchase of their products
    (regular, Joker or extra), and the seller loses nothing."""
    state = game.new_game(4, seed=19)
    play_until(game, state, PLACING)
    state.invest[2] = 0
    offer = product(game, 0, 0, "tea", [(10, "healthy"), (10, "sour"), (10, "rich")])
    before = list(state.money)
    hip = customer(game, "Mister Hipster")
    for kind in ("regular", "extra", "joker"):
        pay_sale(game, state, hip, offer, 30, "test", kind)
    assert state.money[2] - before[2] == 30
    assert state.money[0] - before[0] >= 90


def test_extra_customers_and_jokers_earn_no_shop_bonus(game: FoodAdvice) -> None:
    state = game.new_game(4, seed=20)
    play_until(game, state, PLACING)
    sparget = game.shop_names.index("Sparget")
    if sparget not in state.board:
        state.shop_deck.append(state.board[0])
        state.shop_deck.remove(sparget)
        state.board[0] = sparget
    state.shop_chips[0] = 1 << state.board.index(sparget)
    offer = product(game, 0, 0, "tea", [(10, "healthy"), (10, "sour"), (10, "rich")])
    before = state.money[0]
    pay_sale(game, state, customer(game, "Mister Hipster"), offer, 30, "test", "extra")
    assert state.money[0] - before == 30
    assert not game.invariants(state)


def test_advertising_terms(game: FoodAdvice) -> None:
    """The authored advertising terms: National (2 sales), Marketing buzz (2 votes),
    Sensation (a hashtag nobody else has), Bull's eye (a 2-match sale), Top reviews."""
    state = game.new_game(4, seed=21)
    play_until(game, state, PLACING)
    state.votes = [1, 0, 1, 1]  # seat 1: 3 votes, seat 0: 1
    offers = products_on_offer(game, state)
    names = [a.name for a in game.data.advertising]
    national, buzz, top = (
        names.index("National"),
        names.index("Marketing buzz"),
        names.index("Top reviews"),
    )
    assert advert_met(game, state, 1, buzz, offers)
    assert not advert_met(game, state, 0, buzz, offers)
    assert advert_met(game, state, 1, top, offers)
    assert not advert_met(game, state, 2, top, offers)
    sale = {"customer": "Mister Hipster", "kind": "regular", "seller": 3, "product": 3}
    state.sales = [sale]
    assert not advert_met(game, state, 3, national, offers)
    state.sales = [sale, sale]
    assert advert_met(game, state, 3, national, offers)


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
    boards: list[list[int]] = []
    while state.acting:
        if state.phase == PLACING and (not boards or boards[-1] != state.board):
            boards.append(list(state.board))
        seat = state.acting[0]
        game.step(state, seat, game.legal_actions(state, seat)[0])
    assert len(boards) == 3
    seen = [shop for board in boards for shop in board]
    assert len(seen) == len(set(seen)) == 18
    assert state.shop_deck[:6] == boards[-1]  # the last board went to the bottom


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
    state.prod_ings[state.prod_owner.index(1)] = []
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
