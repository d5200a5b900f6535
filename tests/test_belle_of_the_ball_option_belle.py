"""Belle of the Ball, the rulebook's *Option: Belle* chapter: the rulings on playing
a Belle and one test per Belle (the RULINGS table of docs/games/belle-of-the-ball.md
names them)."""

from __future__ import annotations

from belle_of_the_ball_helpers import (
    HEARTS_AND_GLOBES,
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
)
from potluck.games.belle_of_the_ball import BelleState, score_group
from potluck.games.belle_of_the_ball.state import SLOTS

# ---------------------------------------------------------------------- rulings (docs: BB-n)


def test_ruling_bb5_one_belle_per_turn_and_only_at_its_start() -> None:
    state = fresh(2)
    rig_hand(state, 0, [belle("heiress-henrietta"), belle("heiress-henrietta")])
    G.step(state, 0, "belle heiress-henrietta")
    assert G.explain(state, 0, "belle heiress-henrietta") == (
        "You have already played Heiress Henrietta this turn: one Belle per turn."
    )
    rig_hand(state, 1, [belle("double-booked-dorothea"), belle("heiress-henrietta")])
    G.step(state, 0, "invite 1 to group 1")
    G.step(state, 1, "belle double-booked-dorothea")
    G.step(state, 1, "invite 1 to group 1")
    assert G.to_act(state) == (1,)
    assert "one Belle per turn" in (G.explain(state, 1, "belle heiress-henrietta") or "")
    state2 = fresh(2)
    rig_hand(state2, 0, [belle("heiress-henrietta")])
    assert G.explain(state2, 0, "belle heiress-henrietta") is None


def test_ruling_bb11_belle_targets_must_be_rivals_with_something_to_take() -> None:
    state = fresh(3)
    rig_hand(state, 0, [belle("pickpocket-pippa"), belle("scandalous-scarlett")])
    set_chips(state, 1, 0)
    texts = [str(a) for a in G.legal_actions(state, 0) if str(a).startswith("belle")]
    assert texts == ["belle pickpocket-pippa on seat 2"]  # nobody has a group yet
    assert G.explain(state, 0, "belle pickpocket-pippa on seat 1") == (
        "Seat 1 has no chips for Pickpocket Pippa to take."
    )
    assert "rival" in (G.explain(state, 0, "belle pickpocket-pippa on seat 0") or "")
    assert "no seat 4" in (G.explain(state, 0, "belle pickpocket-pippa on seat 4") or "")


# ---------------------------------------------------------------------- each Belle


def play(state: BelleState, text: str, kind_slug: str, seat: int = 0) -> None:
    rig_hand(state, seat, [belle(kind_slug)])
    G.step(state, seat, text)
    assert belle(kind_slug) in state.belle_discard
    assert not G.invariants(state)


def test_belle_wallflower_winifred_skips_for_free() -> None:
    state = fresh(2)
    set_chips(state, 0, 0)
    play(state, "belle wallflower-winifred", "wallflower-winifred")
    G.step(state, 0, "invite 6 to group 1")
    assert state.chips[0] == 0
    assert state.line_chips == [0] * 5


def test_belle_heiress_henrietta_takes_three_from_the_bank() -> None:
    state = fresh(2)
    play(state, "belle heiress-henrietta", "heiress-henrietta")
    assert state.chips[0] == 8


def test_belle_chaperone_clementine_a_group_of_four_is_full() -> None:
    state = fresh(2)
    hearts = guests_with("hearts", 4)
    rig_group(state, 0, 0, hearts[:3])
    rig_line(state, [hearts[3], *guests_without(["hearts"], 5)])
    play(state, "belle chaperone-clementine", "chaperone-clementine")
    G.step(state, 0, "invite 1 to group 1")
    assert state.parties[0] == []
    assert state.chips[0] == 5 + score_group([G.guest_interests[h] for h in hearts])


def test_belle_romantic_rosalind_single_interests_score_too() -> None:
    state = fresh(2)
    cards = [guest(slug) for slug in HEARTS_AND_GLOBES]
    rig_group(state, 0, 0, cards[:4])
    rig_line(state, [cards[4], *guests_without(["hearts", "globes"], 5, cards)])
    play(state, "belle romantic-rosalind", "romantic-rosalind")
    G.step(state, 0, "invite 1 to group 1")
    assert state.chips[0] == 5 + 15


def test_belle_grand_dame_gwendolyn_opens_a_fifth_group() -> None:
    state = fresh(2)
    for slot, card in enumerate(guests_with("hearts", 4)):
        rig_group(state, 0, slot, [card])
    play(state, "belle grand-dame-gwendolyn", "grand-dame-gwendolyn")
    G.step(state, 0, "invite 1 to group 5")
    assert len(state.parties[4]) == 1
    G.step(state, 1, "invite 1 to group 1")
    assert G.placeable(state, 0) == [0, 1, 2, 3, 4]  # no sixth group, no new one


def test_belle_double_booked_dorothea_invites_twice() -> None:
    state = fresh(2)
    play(state, "belle double-booked-dorothea", "double-booked-dorothea")
    G.step(state, 0, "invite 1 to group 1")
    assert G.to_act(state) == (0,)
    G.step(state, 0, "invite 1 to group 1")
    assert len(state.parties[0]) == 2
    assert G.to_act(state) == (1,)


def test_belle_double_booked_dorothea_ends_the_turn_when_the_line_empties() -> None:
    state = fresh(2)
    for _ in range(5):
        finish_turn(state)
    play(state, "belle double-booked-dorothea", "double-booked-dorothea", seat=1)
    G.step(state, 1, "invite 1 to group 1")
    assert state.round == 2


def test_belle_contrary_cornelia_reverses_the_line() -> None:
    state = fresh(2)
    G.step(state, 0, "invite 3 to group 1")
    line, chips = list(state.line), list(state.line_chips)
    play(state, "belle contrary-cornelia", "contrary-cornelia", seat=1)
    assert state.line == line[::-1]
    assert state.line_chips == chips[::-1]


def test_belle_fashionably_late_fiona_sends_the_first_guest_to_the_back() -> None:
    state = fresh(2)
    G.step(state, 0, "invite 2 to group 1")
    line = list(state.line)
    play(state, "belle fashionably-late-fiona", "fashionably-late-fiona", seat=1)
    assert state.line == [*line[1:], line[0]]
    assert state.line_chips[-1] == 1


def test_belle_persuasive_prudence_moves_the_last_placed_guest() -> None:
    state = fresh(2)
    hearts = guests_with("hearts", 5)
    rig_group(state, 0, 0, hearts[:4])
    rig_group(state, 0, 1, [hearts[4]])
    play(state, "belle persuasive-prudence group 2 to 1", "persuasive-prudence")
    assert state.parties[0] == hearts
    assert state.parties[1] == []
    G.step(state, 0, "invite 1 to group 2")
    assert state.chips[0] == 5 + score_group([G.guest_interests[h] for h in hearts])
    assert state.parties[0] == []


def test_belle_scandalous_scarlett_sends_a_rivals_last_guest_away() -> None:
    state = fresh(3)
    hearts = guests_with("hearts", 3)
    rig_group(state, 2, 1, hearts)
    play(state, "belle scandalous-scarlett on seat 2 group 2", "scandalous-scarlett")
    assert state.parties[2 * SLOTS + 1] == hearts[:2]
    assert state.guest_discard == [hearts[2]]


def test_belle_pickpocket_pippa_takes_two_chips_or_all_there_are() -> None:
    state = fresh(3)
    play(state, "belle pickpocket-pippa on seat 1", "pickpocket-pippa")
    assert state.chips == [7, 3, 5]
    state = fresh(3)
    set_chips(state, 2, 1)
    play(state, "belle pickpocket-pippa on seat 2", "pickpocket-pippa")
    assert state.chips == [6, 5, 0]


def test_belle_gossiping_gertrude_rivals_put_a_chip_on_the_first_guest() -> None:
    state = fresh(3)
    set_chips(state, 2, 0)
    play(state, "belle gossiping-gertrude", "gossiping-gertrude")
    assert state.chips == [5, 4, 0]
    assert state.line_chips[0] == 1
    G.step(state, 0, "invite 1 to group 1")
    assert state.chips[0] == 6
