"""The slow lane (``potluck.server.lane``): bots' turns, a few per event-loop round."""

from __future__ import annotations

import asyncio
import itertools

from potluck.server.lane import SPREAD, SlowLane


def test_turns_go_in_order_a_few_per_round() -> None:
    lane = SlowLane(per_round=2)
    went: list[int] = []

    async def bot(number: int) -> None:
        await lane.turn()
        went.append(number)

    async def rounds() -> list[int]:
        tasks = [asyncio.create_task(bot(n)) for n in range(5)]
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


def test_a_long_queue_goes_in_a_few_rounds() -> None:
    lane = SlowLane(per_round=1)
    count = 10 * SPREAD

    async def rounds() -> int:
        tasks = [asyncio.create_task(lane.turn()) for _ in range(count)]
        for used in range(1, 1000):
            await asyncio.sleep(0)
            if all(task.done() for task in tasks):
                return used
        raise AssertionError("the lane never emptied")

    assert asyncio.run(rounds()) < 40  # one a round would take 80


def test_a_cancelled_turn_is_skipped() -> None:
    lane = SlowLane(per_round=1)
    went: list[int] = []

    async def bot(number: int) -> None:
        await lane.turn()
        went.append(number)

    async def rounds() -> None:
        tasks = [asyncio.create_task(bot(n)) for n in range(3)]
        await asyncio.sleep(0)
        tasks[0].cancel()
        await asyncio.gather(*tasks[1:])

    asyncio.run(rounds())
    assert went == [1, 2]


def test_a_lane_serves_one_loop_after_another() -> None:
    lane = SlowLane()
    for _ in range(2):  # a service used under two loops (the tests do)
        asyncio.run(asyncio.wait_for(lane.turn(), 1))
