"""Café Carnage's fast paths held to the rules they shortcut (issue 36), over random states
and random menus (hypothesis): each must give what the plain rule gives, whatever came
before it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from potluck.games.cafe_carnage import night_model
from potluck.games.cafe_carnage.actions import CafeAction
from potluck.games.cafe_carnage.bots import GreedyBot
from potluck.games.cafe_carnage.game import CafeCarnage
from potluck.games.cafe_carnage.orders import deal, menu_choices
from potluck.games.cafe_carnage.state import BALLOT, CafeState
from potluck.games.cafe_carnage.view import hand_sizes, public_cards

GAME = CafeCarnage()  # the built-in dishes, as ``potluck.load_game`` makes it


def _plain_menu_choices(menu: tuple[int, ...], eaten: int) -> tuple[tuple[object, ...], int]:
    """The rule as written: each distinct dish once, in menu order; in the variant a dish
    eaten before only when every dish on the menu was."""
    distinct = list(dict.fromkeys(menu))
    fresh = [dish for dish in distinct if not eaten >> dish & 1]
    allowed = fresh if eaten and fresh else distinct
    return tuple(GAME.dish_actions[d] for d in allowed), sum(1 << d for d in allowed)


@settings(max_examples=400, deadline=None)
@given(
    menu=st.lists(st.integers(0, len(GAME.dish_actions) - 1), min_size=1, max_size=5).map(tuple),
    eaten=st.integers(0, (1 << len(GAME.dish_actions)) - 1) | st.just(0),
)
def test_menu_choices_equal_the_rule_for_every_menu(menu: tuple[int, ...], eaten: int) -> None:
    assert menu_choices(GAME, menu, eaten) == _plain_menu_choices(menu, eaten)


def _random_state(seed: int, players: int, steps: int, variant: bool) -> CafeState:
    state = GAME.new_game(players, seed, {"no_repeat_dishes": variant})
    rng = random.Random(seed)
    for _ in range(steps):
        if not state.acting:
            break
        seat = state.acting[0]
        legal = GAME.legal_actions(state, seat)
        GAME.step(state, seat, legal[rng.randrange(len(legal))])
    return state


def _plain_deal(state: CafeState, course: int) -> None:
    """Take Orders (i) as written: each seat's menu in turn, card by card, each card
    drawn at random from the cards left (ruling CC-4 first when the deck runs dry)."""
    deck = state.decks[course]
    n, size = state.num_players, GAME.menu_size
    if len(deck) < n * size:
        deck.extend(state.consumed[course])
        state.consumed[course].clear()
    menus: list[tuple[int, ...]] = []
    for _ in range(n):
        menu: list[int] = []
        for _ in range(size):
            menu.append(deck.pop(int(state.rng.random() * len(deck))))
        menus.append(tuple(menu))
    eaten = state.eaten if state.options["no_repeat_dishes"] else [0] * n
    state.menus = menus
    state.choices = [_plain_menu_choices(menu, eaten[s]) for s, menu in enumerate(menus)]
    state.acting = tuple(range(n))


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(4, 6),
    steps=st.integers(0, 120),
    variant=st.booleans(),
)
def test_a_deal_equals_the_rule_dealt_card_by_card(
    seed: int, players: int, steps: int, variant: bool
) -> None:
    """``orders.deal`` (a menu of three drawn straight into its tuple, the cards left
    counted as a float) deals what the rule written card by card deals from the same
    generator: the same menus, choices, decks and eaten piles, and the generator left
    in the same state, in any round and phase of random games."""
    state = _random_state(seed, players, steps, variant)
    course = state.phase if state.phase < BALLOT else 0
    if state.phase < BALLOT:
        # The state as before this course's deal: its menus' cards back in the deck.
        for menu in state.menus:
            state.decks[course].extend(menu)
    else:
        # As the table is cleared before the next night's deal: unchosen cards go back.
        state.decks[course].extend(state.discards[course])
    dealt, plain = state.clone(), state.clone()
    deal(GAME, dealt, course)
    _plain_deal(plain, course)
    assert dealt.menus == plain.menus
    assert [(tuple(a), m) for a, m in dealt.choices] == [(tuple(a), m) for a, m in plain.choices]
    assert (dealt.decks, dealt.consumed, dealt.acting) == (
        plain.decks,
        plain.consumed,
        plain.acting,
    )
    assert dealt.rng.getstate() == plain.rng.getstate()


@settings(max_examples=150, deadline=None)
@given(
    games=st.lists(
        st.tuples(st.integers(0, 10_000), st.integers(4, 6), st.integers(0, 120), st.booleans()),
        min_size=1,
        max_size=6,
    ),
    changes=st.lists(st.tuples(st.integers(0, 17), st.integers(0, 2)), max_size=4),
)
def test_public_cards_kept_on_the_game_equal_the_cards_worked_out(
    games: list[tuple[int, int, int, bool]], changes: list[tuple[int, int]]
) -> None:
    """``view.public_cards`` gives the game's kept hand sizes and RUN! cards while every
    seat's size and card equal them: in states of several games met in any order, and
    after cards changed in place, it answers as working them out afresh does."""
    states = [_random_state(*game) for game in games]
    # Cards changed in place, as a test or a tool may change them: the memo must see it.
    last = states[-1]
    for index, card in changes:
        seat = index % last.num_players
        last.hands[3 * seat + card] += 1
        last.fled[seat] = not last.fled[seat]
        states.append(last)
    for state in states + states[::-1]:
        sizes, run_cards = public_cards(GAME, state)
        assert sizes == hand_sizes(state)
        assert run_cards == tuple(not escaped for escaped in state.fled)
        for seat in range(state.num_players):
            info = GAME.bot_view(state, seat)
            assert info == GAME.bot_view_from_view(GAME.view(state, seat), seat)


def test_vote_chances_kept_by_the_rivals_equal_those_worked_out_afresh() -> None:
    """A table's vote chances, read from the shared rivals (``Rivals.votes``), are the
    chances that a table with an empty memo works out, for every split chance a bot
    may use, in any order of bots and tables."""
    bots = [GreedyBot(), GreedyBot(split_chance=0.3), GreedyBot()]
    rng = random.Random(94400)
    for seed in range(94400, 94410):
        state = GAME.new_game(4 + seed % 3, seed)
        while state.acting:
            seat = state.acting[0]
            info = GAME.bot_view(state, seat)
            for chance in (0.5, 0.3, 0.5):
                table = night_model.NightTable(info, split_chance=chance)
                kept = table._votes()
                night_model._VOTES.clear()
                fresh = night_model.NightTable(info, split_chance=chance)
                fresh._rivals = night_model.Rivals(
                    info.seat,
                    info.nights_left,
                    info.hand_sizes,
                    info.run_cards,
                    night_model.RUN_CHANCE_MANY,
                )
                worked = fresh._votes()
                assert (kept.runs, kept.stays, kept.yeses, kept.chances) == (
                    worked.runs,
                    worked.stays,
                    worked.yeses,
                    worked.chances,
                )
            bot = bots[rng.randrange(len(bots))]
            legal = GAME.legal_actions(state, seat)
            pick = bot.choose(GAME, info, seat, legal, rng)
            assert isinstance(pick, CafeAction)
            GAME.step(state, seat, pick)
