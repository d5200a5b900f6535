"""The slow lane (``potluck.server.lane``): bots' turns, a few per event-loop round."""

from __future__ import annotations

import asyncio
import itertools

from potluck.server.lane import SlowLane


async def _bot(lane: SlowLane, number: int, went: list[int]) -> None:
    """A bot's task: its turn in ``lane``, then it notes that it went."""
    await lane.turn()
    went.append(number)


def test_turns_go_in_order_a_few_per_round() -> None:
    lane = SlowLane(per_round=2)
    went: list[int] = []

    async def rounds() -> list[int]:
        tasks = [asyncio.create_task(_bot(lane, n, went)) for n in range(5)]
        seen = []
        for _ in range(20):
            await asyncio.sleep(0)  # one round of the loop
            seen.append(len(went))
        await asyncio.gather(*tasks)
        return seen

    seen = asyncio.run(rounds())
    assert went == [0, 1, 2, 3, 4]
    assert all(0 <= later - earlier <= 2 for earlier, later in itertools.pairwise(seen))
    assert seen[-1] == 5


def test_a_long_queue_goes_a_fixed_few_per_round_and_other_work_goes_between() -> None:
    """However many bots wait, a round lets through ``per_round`` of them: work that
    became ready meanwhile (a player's move) waits one round, never the whole queue."""
    lane = SlowLane(per_round=3)
    went: list[int] = []

    async def rounds() -> tuple[list[int], list[int]]:
        tasks = [asyncio.create_task(_bot(lane, n, went)) for n in range(60)]
        seen, player_waited = [], []
        for _ in range(40):
            before = len(went)
            await asyncio.sleep(0)  # a player's step: one round
            player_waited.append(len(went) - before)
            seen.append(len(went))
        await asyncio.gather(*tasks)
        return seen, player_waited

    seen, player_waited = asyncio.run(rounds())
    assert went == list(range(60))
    assert max(player_waited) <= 3  # the bots that went before the step came back
    assert seen[-1] == 60


def test_a_cancelled_turn_is_skipped() -> None:
    lane = SlowLane(per_round=1)
    went: list[int] = []

    async def rounds() -> None:
        tasks = [asyncio.create_task(_bot(lane, n, went)) for n in range(3)]
        await asyncio.sleep(0)
        tasks[0].cancel()
        await asyncio.gather(*tasks[1:])

    asyncio.run(rounds())
    assert went == [1, 2]


def test_a_lane_serves_one_loop_after_another() -> None:
    lane = SlowLane()
    for _ in range(2):  # a service used under two loops (the tests do)
        asyncio.run(asyncio.wait_for(lane.turn(), 1))
