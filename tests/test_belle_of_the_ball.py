"""Belle of the Ball: the rulebook's worked examples, Setup, the turn's steps, End of Round
and End of Game, the rulings on them (the RULINGS table of docs/games/belle-of-the-ball.md
names them), notation, data, views and the bots. The Option: Belle chapter is in
test_belle_of_the_ball_option_belle.py, the Notes chapter's variant in
test_belle_of_the_ball_notes_variant.py; shared rigging helpers in belle_of_the_ball_helpers.py."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import potluck
from belle_of_the_ball_helpers import (
    HEARTS_AND_GLOBES,
    VARIANT,
    G,
    belle,
    finish_turn,
    fresh,
    guest,
    guests_with,
    guests_without,
    rig_group,
    rig_hand,
    rig_line,
    set_chips,
    spread_turn,
)
from potluck.engine.errors import (
    DataError,
    IllegalActionError,
    InvalidActionError,
    PotluckError,
    RecordError,
)
from potluck.games import belle_of_the_ball as belle_package
from potluck.games.belle_of_the_ball import BelleAction, BelleOfTheBall, score_group
from potluck.games.belle_of_the_ball.state import SLOTS

# ---------------------------------------------------------------------- worked examples


def test_rulebook_full_group_of_2_hearts_and_5_globes_earns_7_chips() -> None:
    """Step 3's example: a full group with 2 hearts and 5 globes earns 7 chips."""
    cards = [guest(slug) for slug in HEARTS_AND_GLOBES]
    assert score_group([G.guest_interests[c] for c in cards]) == 7
    state = fresh(2)
    rig_group(state, 0, 0, cards[:4])
    rig_line(state, [cards[4], *guests_without(["hearts", "globes"], 5, cards)])
    G.step(state, 0, "invite 1 to group 1")
    assert state.chips[0] == 5 + 7
    assert state.parties[0] == []  # End of Turn: the full group is discarded
    assert state.guest_discard == cards


def test_rulebook_example_of_inviting_the_first_guest_in_line() -> None:
    state = fresh(2)
    first = state.line[0]
    G.step(state, 0, "invite 1 to group 1")
    assert state.parties[0] == [first]
    assert state.chips[0] == 5
    assert state.line_chips == [0] * 5


def test_rulebook_example_of_inviting_the_second_guest_in_line() -> None:
    """One chip goes on the skipped first guest."""
    state = fresh(2)
    second = state.line[1]
    G.step(state, 0, "invite 2 to group 1")
    assert state.parties[0] == [second]
    assert state.chips[0] == 4
    assert state.line_chips[0] == 1
    assert state.skip_chips[0] == 1


def test_rulebook_comments_you_take_the_chips_on_the_guest_you_invite() -> None:
    """The designer's answer in the comments: 'Yes, you take the chips!'"""
    state = fresh(2)
    G.step(state, 0, "invite 3 to group 1")  # two chips on guests 1 and 2
    assert state.line_chips[:2] == [1, 1]
    G.step(state, 1, "invite 2 to group 1")  # skips one (+1 on it), collects 1
    assert state.chips[1] == 5 - 1 + 1
    assert state.line_chips[0] == 2


def test_rulebook_example_of_grouping_a_newly_invited_guest() -> None:
    state = fresh(2)
    G.step(state, 0, "invite 1 to group 1")
    G.step(state, 1, "invite 1 to group 1")
    texts = [str(a) for a in G.legal_actions(state, 0) if a.kind == 0 and a.pos == 0]
    assert texts == ["invite 1 to group 1", "invite 1 to group 2"]  # join group 1, or start 2


def test_rulebook_two_player_setup_has_a_six_card_line() -> None:
    state = fresh(2)
    assert len(state.line) == 6


# ---------------------------------------------------------------------- setup and turns


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_twelve_guests_discarded_three_belles_five_chips_host_starts(n: int) -> None:
    state = fresh(n)
    assert len(state.boxed) == 12
    assert all(len(hand) == 3 for hand in state.hands)
    assert state.chips == [5] * n
    assert state.start == 0
    assert G.to_act(state) == (0,)
    assert len(state.line) == 3 * n
    assert len(state.deck) == 72 - 12 - 3 * n
    assert len(state.belle_deck) == 24 - 3 * n


def test_turns_pass_to_the_left_until_the_line_is_empty() -> None:
    state = fresh(3)
    seen = []
    for _ in range(9):
        seen.append(G.to_act(state)[0])
        finish_turn(state)
    assert seen == [0, 1, 2] * 3
    assert state.round == 2  # the line emptied: a new round


def test_groups_at_most_four_of_at_most_five() -> None:
    state = fresh(2)
    a, b, c, d = guests_with("hearts", 4)
    rig_group(state, 0, 0, [a])
    rig_group(state, 0, 1, [b])
    rig_group(state, 0, 2, [c])
    rig_group(state, 0, 3, [d])
    assert G.placeable(state, 0) == [0, 1, 2, 3]  # no fifth group
    reason = G.explain(state, 0, "invite 1 to group 5")
    assert reason is not None
    assert "4 groups" in reason
    rig_group(state, 0, 0, guests_with("roses", 4, [a, b, c, d]))
    state.parties[0].append(a)  # a fifth guest (a was still free: rig_group put it back)
    state.deck.remove(a)
    assert G.placeable(state, 0) == [1, 2, 3]
    assert G.explain(state, 0, "invite 1 to group 1") == (
        "Step 2, Group: group 1 is full (five guests)."
    )


def test_a_new_group_takes_the_first_free_slot() -> None:
    state = fresh(2)
    rig_group(state, 0, 1, guests_with("hearts", 2))
    assert G.placeable(state, 0) == [0, 1]
    assert "group 1" in (G.explain(state, 0, "invite 1 to group 3") or "")


def test_guests_never_move_without_a_belle() -> None:
    state = fresh(2)
    rig_hand(state, 0, [belle("heiress-henrietta")] * 2 + [belle("wallflower-winifred")])
    rig_group(state, 0, 0, guests_with("hearts", 2))
    rig_group(state, 0, 1, guests_with("roses", 2))
    assert not any("group 1 to" in str(a) for a in G.legal_actions(state, 0))


def test_skipping_needs_a_chip_for_each_skipped_guest() -> None:
    state = fresh(2)
    set_chips(state, 0, 2)
    positions = {a.pos for a in G.legal_actions(state, 0) if a.kind == 0}
    assert positions == {0, 1, 2}
    reason = G.explain(state, 0, "invite 4 to group 1")
    assert reason == (
        "Step 1, Invite: skipping 3 cards costs one chip on each, 3 chips, and you have 2."
    )
    with pytest.raises(IllegalActionError):
        G.step(state, 0, "invite 4 to group 1")


def test_several_full_groups_score_in_the_same_turn() -> None:
    """'You may score multiple full groups in the same turn' (here with Double-Booked
    Dorothea: two invitations, two groups completed, both scored and discarded)."""
    state = fresh(2)
    hearts = guests_with("hearts", 10)
    rig_group(state, 0, 0, hearts[:4])
    rig_group(state, 0, 1, hearts[4:8])
    rig_line(state, [hearts[8], hearts[9], *guests_without(["hearts"], 4)])
    rig_hand(state, 0, [belle("double-booked-dorothea")])
    G.step(state, 0, "belle double-booked-dorothea")
    G.step(state, 0, "invite 1 to group 1")
    assert G.to_act(state) == (0,)
    G.step(state, 0, "invite 1 to group 2")
    first = score_group([G.guest_interests[c] for c in [*hearts[:4], hearts[8]]])
    second = score_group([G.guest_interests[c] for c in [*hearts[4:8], hearts[9]]])
    assert first >= 5
    assert second >= 5
    assert state.chips[0] == 5 + first + second
    assert state.groups_scored[0] == 2
    assert state.parties[0] == []
    assert state.parties[1] == []
    assert G.to_act(state) == (1,)


# ---------------------------------------------------------------------- end of round and game


def test_end_of_round_draw_back_up_to_three_belles() -> None:
    state = fresh(2)
    rig_hand(state, 0, [belle("heiress-henrietta")])
    for _ in range(6):
        finish_turn(state)
    assert state.round == 2
    assert [len(h) for h in state.hands] == [3, 3]


def test_end_of_round_reshuffles_the_belle_discard_when_the_deck_runs_out() -> None:
    state = fresh(2)
    rig_hand(state, 0, [])
    state.belle_discard.extend(state.belle_deck[:-1])
    del state.belle_deck[:-1]
    assert len(state.belle_deck) == 1
    assert not G.invariants(state)
    for _ in range(6):
        finish_turn(state)
    assert len(state.hands[0]) == 3
    assert len(state.belle_deck) + len(state.belle_discard) == 24 - 6


def test_end_of_round_fewest_chips_takes_the_start_player_token() -> None:
    state = fresh(3)
    set_chips(state, 2, 1)
    for _ in range(9):
        finish_turn(state)
    assert state.start == 2
    assert G.to_act(state) == (2,)


def test_end_of_game_remaining_groups_do_not_score_and_most_chips_wins() -> None:
    state = fresh(2)
    state.boxed.extend(state.deck[:-6])  # as if the deck held exactly one more line
    del state.deck[:-6]
    for _ in range(12):
        spread_turn(state)
    assert state.round == 2
    assert G.is_over(state)
    assert any(state.parties)  # groups left on the table ...
    assert state.chips == [5, 5]  # ... score nothing
    outcome = G.outcome(state)
    assert outcome.winners == (0, 1)


# ---------------------------------------------------------------------- rulings (docs: BB-n)


def test_ruling_bb1_an_interest_shown_once_does_not_score() -> None:
    shown = [(0, 1, 2), (0, 3, 4), (5, 6, 7), (8, 9, 1), (2, 3, 4)]
    # hearts 2 + globes 2 + books 2 + music 2 + masks 2; stars, brushes, horses... once
    assert score_group(shown) == 10
    assert score_group([(0, 1, 2), (3, 4, 5)]) == 0  # nothing in common: nothing scores
    assert score_group([(0, 1, 2), (0, 4, 5), (6, 7, 8)]) == 2  # only the shared hearts
    assert score_group([(0, 1, 2)] * 5) == 15


def test_ruling_bb2_a_player_must_invite() -> None:
    state = fresh(2)
    rig_hand(state, 0, [])
    legal = G.legal_actions(state, 0)
    assert legal
    assert all(str(a).startswith("invite") for a in legal)
    assert G.legal_actions(state, 0)[0] == G.parse_action(state, 0, "invite 1 to group 1")


def test_ruling_bb3_the_bank_never_runs_out() -> None:
    state = fresh(2)
    set_chips(state, 1, 10_000)
    cards = [guest(slug) for slug in HEARTS_AND_GLOBES]
    rig_group(state, 0, 0, cards[:4])
    rig_line(state, [cards[4], *guests_without(["hearts", "globes"], 5, cards)])
    G.step(state, 0, "invite 1 to group 1")
    assert state.chips[0] == 12
    assert not G.invariants(state)


def test_ruling_bb4_every_full_group_is_discarded_at_the_end_of_the_turn() -> None:
    state = fresh(2)
    hearts = guests_with("hearts", 5)
    rig_group(state, 0, 0, hearts[:4])
    rig_line(state, [hearts[4], *guests_without(["hearts"], 5)])
    G.step(state, 0, "invite 1 to group 1")
    assert state.parties[0] == []
    assert state.guest_discard == hearts
    assert "guest_discard" in G.view(state, 1)


def test_ruling_bb6_ties_for_fewest_chips_the_holder_keeps_the_token_else_the_next_left() -> None:
    assert G.next_start([3, 3, 9], holder=0) == 0
    assert G.next_start([3, 9, 3], holder=1) == 2
    assert G.next_start([2, 9, 2, 5], holder=3) == 0
    state = fresh(3)
    for _ in range(9):
        finish_turn(state)
    assert state.start == G.next_start(state.chips, 0)


def test_ruling_bb7_no_short_last_line() -> None:
    state = fresh(3)
    # 72 - 12 = 60 guests: six lines of nine, and six guests that are never dealt.
    while not G.is_over(state):
        finish_turn(state)
    assert state.round == 6
    assert len(state.deck) == 6
    assert G.view(state, 0)["decks"]["guest_deck"] == 6


@pytest.mark.parametrize(("n", "rounds"), [(2, 10), (3, 6), (4, 5), (5, 4)])
def test_ruling_bb7_rounds_by_player_count(n: int, rounds: int) -> None:
    state = fresh(n)
    while not G.is_over(state):
        finish_turn(state)
    assert state.round == rounds


def test_ruling_bb8_two_to_five_players() -> None:
    assert (G.min_players, G.max_players) == (2, 5)
    with pytest.raises(PotluckError, match="2 to 5"):
        G.new_game(6)
    with pytest.raises(PotluckError):
        G.new_game(1)


def test_ruling_bb9_an_empty_belle_deck_and_discard_leave_hands_short() -> None:
    state = fresh(2)
    rig_hand(state, 0, [])
    state.hands[1] += state.belle_deck  # seat 1 holds every other Belle
    state.hands[1].sort()
    state.belle_deck = []
    assert not G.invariants(state)
    for _ in range(6):
        finish_turn(state)
    assert state.hands[0] == []


def test_ruling_bb10_tie_for_most_chips_is_a_shared_win() -> None:
    state = fresh(3)
    while not G.is_over(state):
        finish_turn(state)
    set_chips(state, 0, 40)
    set_chips(state, 2, 40)
    set_chips(state, 1, 3)
    outcome = G.outcome(state)
    assert outcome.winners == (0, 2)
    assert "share" in outcome.reason


def test_ruling_bb13_setup_discards_are_secret_and_redealt() -> None:
    state = fresh(2)
    view = G.view(state, 0)
    assert view["decks"]["discarded_at_setup"] == 12
    text = repr(view)
    assert not any(G.guest_slugs[g] in text for g in state.boxed)
    other = G.redeal(state, 0, random.Random(5))
    assert G.view(other, 0) == view
    assert other.boxed != state.boxed or other.deck != state.deck


def test_ruling_bb14_belle_hands_are_secret() -> None:
    state = fresh(3)
    view = G.view(state, 1)
    assert view["you"]["hand"] == [G.belle_json(k) for k in state.hands[1]]
    assert [p["hand_size"] for p in view["players"]] == [3, 3, 3]
    assert "hands" not in view
    assert "you" not in G.view(state, None)
    other = G.redeal(state, 1, random.Random(3))
    assert other.hands[1] == state.hands[1]


# ---------------------------------------------------------------------- each Belle


# ---------------------------------------------------------------------- notation and data


def test_notation_round_trips_and_loose_text_parses() -> None:
    state = fresh(3)
    for action in G.all_actions:
        assert G.parse_action(state, 0, str(action)) is action
        assert G.action_from_index(state, 0, action.index) is action
    assert str(G.parse_action(state, 0, "  Invite 2 INTO 3 ")) == "invite 2 to group 3"
    assert str(G.parse_action(state, 0, "take 4")) == "invite 4"
    assert str(G.parse_action(state, 0, "play Heiress Henrietta")) == "belle heiress-henrietta"
    assert (
        str(G.parse_action(state, 0, "belle Persuasive Prudence group 1 to group 2"))
        == "belle persuasive-prudence group 1 to 2"
    )
    with pytest.raises(InvalidActionError):
        G.parse_action(state, 0, "dance")
    with pytest.raises(InvalidActionError):
        G.parse_action(state, 0, "invite 16 to group 1")
    assert G.num_distinct_actions(3) == len(G.all_actions) == 149


def test_authored_data_is_marked_and_balanced() -> None:
    assert G.data.authored
    assert len(G.guest_names) == 72
    assert all(len(i) == 3 for i in G.guest_interests)
    assert len(set(G.belle_effects)) == len(G.belle_names) == 12
    assert len(G.belle_cards) == 24
    counts = [sum(i in shown for shown in G.guest_interests) for i in range(10)]
    assert set(counts) == {21, 22}


def test_a_users_own_data_file_goes_through_the_schema(tmp_path: Path) -> None:
    text = (Path(belle_package.__file__).parent / "data/cards.toml").read_text()
    mine = tmp_path / "mine.toml"
    mine.write_text(text.replace("starting_chips = 5", "starting_chips = 7"))
    game = potluck.load_game("belle-of-the-ball", data=mine)
    state = game.new_game(2, seed=1)
    assert state.chips == [7, 7]
    assert game.record(state)["data"] == str(mine)
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('"hearts", "globes", "teacups"', '"hearts", "globes", "cheese"'))
    with pytest.raises(DataError, match="cheese"):
        potluck.load_game("belle-of-the-ball", data=bad)
    worse = tmp_path / "worse.toml"
    worse.write_text(text.replace('effect = "gossip"', 'effect = "cake"'))
    with pytest.raises(DataError, match="effect"):
        potluck.load_game("belle-of-the-ball", data=worse)


# ---------------------------------------------------------------------- views and the variant


def test_views_show_the_line_and_parties_to_everyone() -> None:
    state = fresh(2)
    G.step(state, 0, "invite 2 to group 1")
    for seat in (0, 1, None):
        view = G.view(state, seat)
        assert view["line"][0]["chips"] == 1
        assert view["players"][0]["groups"][0][0]["interests"]
        assert view["decks"]["guest_deck"] == len(state.deck)


def test_metrics_say_what_goes_with_winning() -> None:
    state = fresh(3, seed=4)
    bots = [G.make_bot("greedy"), G.make_bot("random"), G.make_bot("random")]
    rng = random.Random(0)
    while not G.is_over(state):
        seat = G.to_act(state)[0]
        view = G.view(state, seat)
        G.step(
            state, seat, str(bots[seat].choose(G, view, seat, G.legal_actions(state, seat), rng))
        )
    metrics = G.metrics(state)
    assert metrics["rounds"] == 6
    assert metrics["full_groups"] == sum(state.groups_scored)
    assert float(metrics["winner_full_groups"]) >= 1
    assert metrics["winners_top_belle"] in G.belle_slugs
    assert metrics["belles_played"] == sum(state.belles_played)


# ---------------------------------------------------------------------- bots


def _play(n: int, seed: int, agents: list[str], options: dict[str, Any] | None) -> Any:
    state = G.new_game(n, seed, options)
    bots = [G.make_bot(a) for a in agents]
    rng = random.Random(seed)
    while not G.is_over(state):
        seat = G.to_act(state)[0]
        legal = G.legal_actions(state, seat)
        bot = bots[seat]
        view = G.view(state, seat) if bot.needs_view else None
        action = bot.choose(G, view, seat, legal, rng)
        assert action in legal
        assert isinstance(action, BelleAction)
        G.step(state, seat, action)
    return G.outcome(state)


@pytest.mark.parametrize("options", [None, VARIANT])
@pytest.mark.parametrize("n", [2, 3, 5])
def test_greedy_always_plays_legal_moves(n: int, options: dict[str, Any] | None) -> None:
    for seed in range(3):
        _play(n, seed, ["greedy"] * n, options)


def test_greedy_beats_random_clearly() -> None:
    games, wins = 60, 0.0
    for i in range(games):
        agents = ["random"] * 3
        agents[i % 3] = "greedy"
        outcome = _play(3, 5_000 + i, agents, None)
        if i % 3 in outcome.winners:
            wins += 1 / len(outcome.winners)
    assert wins / games > 0.8  # a fair share is 1/3


def test_greedy_is_deterministic() -> None:
    bot = G.make_bot("greedy")
    state = G.new_game(3, seed=3)
    view = G.view(state, 0)
    legal = G.legal_actions(state, 0)
    assert len({bot.choose(G, view, 0, legal, random.Random(k)) for k in range(4)}) == 1


def test_terminal_renderer_shows_the_line_groups_and_hand() -> None:
    from rich.console import Console

    from potluck.cli.renderers import renderer_for

    render = renderer_for("belle-of-the-ball")
    assert render is not None
    state = fresh(2, seed=3)
    G.step(state, 0, "invite 2 to group 1")
    console = Console(width=120, record=True)
    console.print(render(G.view(state, 1)))
    text = console.export_text()
    assert "The line" in text
    assert "Group 1 (0 of 5): empty" in text  # this seat's own groups
    assert "Player 1: 4 chips, 3 Belles in hand, guests in groups 1" in text  # the rival's
    assert "Your Belles" in text
    while not G.is_over(state):
        finish_turn(state)
    console.print(render(G.view(state, None)))
    assert "wins" in console.export_text() or "share" in console.export_text()


def test_version_2_refuses_a_version_1_record() -> None:
    """The second rules pass (BB-20 to BB-22) is version 2: a version 1 record is refused."""
    game = BelleOfTheBall()
    record = game.record(game.new_game(3, seed=3))
    assert record["version"] == 2
    with pytest.raises(RecordError, match="version 1; this engine plays version 2"):
        game.replay({**record, "version": 1})


def test_may_join_agrees_with_the_groups_a_guest_may_join_for_every_party_shape() -> None:
    # Step 2, Group: the step's quick check and the legal list's look-up are one rule.
    from itertools import product

    from potluck.games.belle_of_the_ball.groups import may_join, places_for

    for sizes in product(range(6), repeat=SLOTS):
        parties = [[0] * size for size in sizes]
        for fifth in (False, True):
            places = places_for(parties, 0, fifth)
            assert [s for s in range(SLOTS) if may_join(parties, 0, s, fifth)] == list(places)
