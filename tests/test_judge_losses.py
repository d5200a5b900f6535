"""The move judge's loss and probability logic (``potluck.judge``): a win chance that a
finite sample never puts at 0%, a loss shrunk by its noise, points that do not
saturate, and a played move that is the best found losing nothing."""

from __future__ import annotations

import pytest

import potluck
from potluck.judge import points, shrunk_loss, verdict, win_chance
from potluck.judge_math import rank
from potluck.review import MoveReview, review_record, summarise
from potluck.sim import play_game


def test_a_win_chance_from_no_wins_is_never_zero() -> None:
    # a Beta posterior's mean with two worlds of the fair share
    assert win_chance(0, 32, 4) == pytest.approx(0.5 / 34)
    assert win_chance(32, 32, 2) == pytest.approx(33 / 34)
    assert win_chance(0, 0, 4) == 0.25  # no playout: the fair share
    assert win_chance(0, 1000, 4) > 0
    assert win_chance(3, 10, 2, prior=0) == pytest.approx(0.3)  # no prior: the share won


def test_a_loss_within_its_noise_shows_as_none_and_a_clear_one_nearly_whole() -> None:
    assert shrunk_loss(0.03, 0.05) == 0.0
    assert shrunk_loss(0.05, 0.05) == 0.0
    assert shrunk_loss(-0.2, 0.01) == 0.0
    assert shrunk_loss(0.30, 0.04) == pytest.approx(0.30 - 0.04**2 / 0.30)
    assert shrunk_loss(0.10, 0.0) == 0.10  # no noise: the difference itself
    # never above the difference, and growing with it
    for diff in (0.02, 0.06, 0.1, 0.4):
        assert 0.0 <= shrunk_loss(diff, 0.03) <= diff
    assert shrunk_loss(0.06, 0.03) < shrunk_loss(0.1, 0.03)


def test_points_are_a_seats_lead_over_the_others_mean() -> None:
    assert points((30.0, 20.0, 10.0), 0) == 15.0
    assert points((30.0, 20.0, 10.0), 2) == -15.0
    assert points((6.0, 12.0), 0) == -6.0


def test_the_race_ranks_by_win_chance_then_points() -> None:
    assert rank(0.0, 5.0) > rank(0.0, 3.0)  # no win: points decide
    assert rank(1.0, -2000.0) > rank(0.0, 2000.0)  # a win outweighs any points


def test_every_forced_move_shows_a_chance_above_zero_and_no_loss() -> None:
    """A random seat's forced moves in a game it lost: played out, never shown at 0%."""
    game = potluck.load_game("cafe-carnage")
    record = play_game(game, 4, ["random", "greedy", "greedy", "greedy"], 11, keep_record=True)
    assert record.record is not None
    reviews = review_record(game, record.record, 0, "playouts:worlds=16,min_worlds=16,time=0")
    forced = [r for r in reviews if r.forced]
    assert forced
    for review in forced:
        assert 0.0 < review.after < 1.0
        assert review.loss == 0.0
        assert review.point_loss == 0.0
        assert review.difference == 0.0
        assert review.preferred == review.played


def test_a_verdict_rests_on_the_uncut_difference_and_the_loss_on_its_shrinking() -> None:
    game = potluck.load_game("burger-joint")
    record = play_game(game, 2, ["random", "greedy"], seed=5, keep_record=True).record
    assert record is not None
    judge_spec = "playouts:worlds=48,min_worlds=16,time=0"
    for review in review_record(game, record, 0, judge_spec, limit=6):
        sure = max(0.0, review.difference - 2.5 * review.stderr)
        assert review.verdict == verdict(sure, (0.05, 0.10, 0.20))
        if review.before < 1.0:
            assert review.loss == pytest.approx(shrunk_loss(review.difference, review.stderr))
        assert review.point_loss == pytest.approx(
            shrunk_loss(review.point_difference, review.point_stderr)
        )


def test_a_played_move_ranked_best_is_judged_alone_and_loses_nothing() -> None:
    """Where the race ranks the played move first, it is not set against a second-best
    move (whose noise would count as loss): its difference and loss are 0."""
    game = potluck.load_game("burger-joint")
    record = play_game(game, 2, ["random", "greedy"], seed=5, keep_record=True).record
    assert record is not None
    spec = "playouts:worlds=48,min_worlds=16,time=0"
    reviews = review_record(game, record, 1, spec, limit=8)
    alone = [r for r in reviews if not r.forced and r.difference == 0.0]
    assert alone  # the greedy seat's move is often the best found
    for review in alone:
        assert review.loss == 0.0
        assert review.point_loss == 0.0
        assert review.preferred == review.played


def test_the_loss_against_the_policys_own_move_is_measured_when_asked() -> None:
    """With ``versus_policy`` the greedy bot's own choice is played on the judging worlds
    too: a move that is the greedy bot's has no loss against it, another move's is
    measured there (and the judge's other figures keep their meaning)."""
    game = potluck.load_game("cafe-carnage")
    record = play_game(game, 4, ["random", "greedy", "greedy", "greedy"], 3, keep_record=True)
    assert record.record is not None
    spec = "playouts:worlds=40,min_worlds=16,time=0,versus_policy=true"
    reviews = review_record(game, record.record, 0, spec, limit=10)
    plain = review_record(
        game, record.record, 0, "playouts:worlds=40,min_worlds=16,time=0", limit=10
    )
    assert [r.policy_move for r in reviews] == [r.policy_move for r in plain]
    for review in plain:  # without it, measured only where the policy's move was the best
        if review.policy_move != review.preferred or review.preferred == review.played:
            assert review.policy_difference == 0.0
    differs = [r for r in reviews if r.policy_move != r.played]
    assert differs, "a random seat plays other moves than the greedy bot's"
    assert any(r.policy_stderr > 0 for r in differs)
    for review in reviews:
        assert review.policy_move
        if review.policy_move == review.played:
            assert review.policy_difference == 0.0 == review.policy_stderr
        elif review.policy_move == review.preferred and review.preferred != review.played:
            # the policy's move was the best found: the same difference
            assert review.policy_difference == pytest.approx(review.difference)
        assert 0.0 <= review.after <= review.before <= 1.0


def test_a_moves_stakes_are_what_a_random_move_would_lose_there() -> None:
    """``field_difference`` is the played move's win chance less the mean compared move's
    on the worlds all were played on; with two legal moves it is half their difference,
    and a move's stakes are its loss (before the judge may stop) plus it. A forced move
    has none."""
    game = potluck.load_game("burger-joint")
    record = play_game(game, 2, ["random", "greedy"], seed=5, keep_record=True).record
    assert record is not None
    reviews = review_record(game, record, 0, "playouts:worlds=48,min_worlds=16,time=0", limit=12)
    assert any(r.field_difference != 0.0 for r in reviews)
    for review in reviews:
        assert review.stakes == pytest.approx(review.unbiased_difference + review.field_difference)
        assert review.unbiased_difference == review.fixed_difference
        assert -1.0 <= review.field_difference <= 1.0
        if review.forced:
            assert review.field_difference == 0.0 == review.field_stderr == review.stakes
        assert review.to_json()["stakes"] == review.stakes


def test_a_seats_mean_loss_is_uncut_over_its_choices_and_its_share_of_the_stakes() -> None:
    """``summarise``: forced moves left out, the uncut differences averaged (a shown loss
    is shrunk, so a mean of them is biased), the share lost is the losses over the
    stakes, and nothing when the stakes add up to nothing."""
    made = [
        MoveReview(1, 0, "a", "b", 0.5, 0.3, "blunder", 9, difference=0.24, field_difference=0.0),
        MoveReview(3, 0, "c", "c", 0.4, 0.4, "", 9, difference=0.0, field_difference=0.12),
        MoveReview(5, 0, "d", "e", 0.4, 0.4, "", 9, difference=-0.06, point_difference=3.0),
        MoveReview(7, 0, "f", "f", 0.4, 0.4, "", 9, forced=True),
    ]
    summary = summarise(made)
    assert (summary.moves, summary.choices, summary.blunders) == (4, 3, 1)
    assert summary.mean_loss == pytest.approx(0.06)
    assert summary.loss_stderr > 0
    assert summary.mean_points_lost == pytest.approx(1.0)
    assert summary.share_lost == pytest.approx(0.18 / 0.30)
    assert summarise(made[3:]).share_lost is None
    assert summarise([]).choices == 0
    # a stored analysis's JSON (an older one lacks the newer fields) reads back
    assert [MoveReview.from_json(r.to_json()) for r in made] == made
    old = {k: v for k, v in made[0].to_json().items() if not k.startswith("field")}
    assert MoveReview.from_json(old).field_difference == 0.0
