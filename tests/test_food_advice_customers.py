"""FoodAdvice: how customers choose products, and selling them (shop bonuses,
investors, advertising): the rulebook's worked examples and one test per ruling.

The examples are played with the real card data: each example product is
built from the ingredients of the right price category and hashtag.
"""

from __future__ import annotations

from food_advice_helpers import customer, game, hipster, play_until, product
from potluck.games.food_advice import (
    Buyer,
    FoodAdvice,
    choose,
    choose_extra,
    joker_buys,
)
from potluck.games.food_advice.characters import draw_customer
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
from potluck.games.food_advice.selling import advert_met, pay_sale
from potluck.games.food_advice.state import (
    EXCHANGE,
    PLACING,
    VOTING,
)

__all__ = ["game"]  # the module-scoped fixture, shared from food_advice_helpers


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
    state.board = (sparget, wildmart)
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


def test_customer_deck_is_reshuffled_when_it_runs_out(game: FoodAdvice) -> None:
    """FA-20: the Politician reshuffles the played customers into a new deck."""
    state = game.new_game(4, seed=15)
    state.cust_discard, state.cust_deck = state.cust_deck[:-1], state.cust_deck[-1:]
    assert draw_customer(state) >= 0
    assert draw_customer(state) >= 0
    assert len(state.cust_deck) == 42


# ---------------------------------------------------------------------- selling


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
        state.board = (sparget, *state.board[1:])
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
