"""Belle of the Ball, the rulebook's *Notes* chapter: the variant that shuffles the
Belles into the guest deck, its rulings (the RULINGS table of
docs/games/belle-of-the-ball.md names them) and its conformance."""

from __future__ import annotations

import random

import pytest

from belle_of_the_ball_helpers import (
    VARIANT,
    G,
    belle,
    finish_turn,
    fresh,
    guests_without,
    rig_line,
)
from potluck.engine.errors import (
    RecordError,
)
from potluck.games.belle_of_the_ball.state import BELLE_BASE
from potluck.testing import run_conformance

# ---------------------------------------------------------------------- rulings (docs: BB-n)


def test_ruling_bb12_variant_belles_are_invited_to_hand_and_never_dealt() -> None:
    state = fresh(3, **VARIANT)
    assert state.hands == [[], [], []]
    assert state.belle_deck == []
    assert len(state.deck) + len(state.line) == 60 + 24
    kind = belle("heiress-henrietta")
    others = guests_without([], 8)
    rig_line(state, [others[0], BELLE_BASE + kind, *others[1:8]])
    legal = [str(a) for a in G.legal_actions(state, 0)]
    assert "invite 2" in legal
    assert "invite 2 to group 1" not in legal
    assert "'invite 2'" in (G.explain(state, 0, "invite 2 to group 1") or "")
    G.step(state, 0, "invite 2")
    assert state.hands[0] == [kind]
    assert state.chips[0] == 4
    assert state.line_chips[0] == 1
    G.step(state, 1, "invite 1 to group 1")  # collects the chip
    assert state.chips[1] == 6
    G.step(state, 2, "invite 1 to group 1")
    G.step(state, 0, "belle heiress-henrietta")
    assert state.chips[0] == 7


def test_ruling_bb12_variant_no_drawing_up_and_played_belles_stay_discarded() -> None:
    state = fresh(2, **VARIANT)
    kind = belle("heiress-henrietta")
    rig_line(state, [BELLE_BASE + kind, *guests_without([], 5)])
    G.step(state, 0, "invite 1")
    for _ in range(5):
        finish_turn(state)
    assert state.round == 2
    assert state.hands == [[kind], []]  # nobody drew back up to three
    assert state.chips == [5, 5]
    assert G.to_act(state) == (0,)
    G.step(state, 0, "belle heiress-henrietta")
    while state.round == 2:
        finish_turn(state)
    assert state.belle_discard == [kind]  # played Belles are never reshuffled or redrawn


def test_ruling_bb20_variant_belles_taken_from_the_line_stay_known() -> None:
    """In the variant a Belle is invited from the face-up line: everyone saw which it was,
    so views name it until it is played, and redealing never changes it."""
    state = fresh(2, **VARIANT)
    kind = belle("heiress-henrietta")
    rig_line(state, [BELLE_BASE + kind, *guests_without([], 5)])
    G.step(state, 0, "invite 1")
    rival_view = G.view(state, 1)
    assert rival_view["players"][0]["belles_taken_openly"] == ["heiress-henrietta"]
    assert G.view(state, None)["players"][0]["belles_taken_openly"] == ["heiress-henrietta"]
    for k in range(6):
        assert G.redeal(state, 1, random.Random(k)).hands[0] == [kind]
    # In the base game hands are dealt face down: no names, and a redeal redraws them.
    base = fresh(2)
    assert "belles_taken_openly" not in G.view(base, 1)["players"][0]
    assert len({tuple(G.redeal(base, 1, random.Random(k)).hands[0]) for k in range(8)}) > 1


def test_ruling_bb21_variant_hands_have_no_limit() -> None:
    """The base game draws back up to three (End of Round); nothing is drawn in the
    variant, and an invited Belle joins the hand however many it already holds."""
    state = fresh(2, **VARIANT)
    held = [belle(slug) for slug in G.belle_slugs[:3]]
    for kind in held:  # three Belles invited in earlier rounds
        state.deck.remove(BELLE_BASE + kind)
    state.hands[0] = sorted(held)
    fourth = belle(G.belle_slugs[3])
    rig_line(state, [BELLE_BASE + fourth, *guests_without([], 5)])
    assert "invite 1" in [str(a) for a in G.legal_actions(state, 0)]
    G.step(state, 0, "invite 1")
    assert sorted(state.hands[0]) == sorted([*held, fourth])
    assert not G.invariants(state)


# ---------------------------------------------------------------------- the variant


@pytest.mark.parametrize("n", [2, 5])
def test_the_variant_conforms(n: int) -> None:
    run_conformance(G, n, seed=11, options=VARIANT, sample_every=8)


def test_a_save_with_a_belle_in_the_line_without_the_variant_is_refused() -> None:
    # Only the variant shuffles Belles into the guest deck; the base game's legal
    # invitations never look for one in the line, so such a save is not a state.
    state = G.new_game(3, seed=5)
    saved = G.to_json(state)
    kind = saved["state"]["belle_deck"].pop()
    guest = saved["state"]["line"][2]
    saved["state"]["line"][2] = BELLE_BASE + kind  # cards and chips are still conserved
    saved["state"]["deck"].append(guest)
    with pytest.raises(RecordError, match="without the variant"):
        G.from_json(saved)
