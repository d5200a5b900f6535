"""What sharing the rate limits across processes costs (docs/web.md, "Rate limits
across processes"): the round's one statement, and the check per request.

    python examples/rate_share_cost.py postgresql+psycopg://potluck:potluck@127.0.0.1/DB \
        [--clients 1000]

The database gets the ``rate_counts`` rows another process would hold with
``--clients`` clients each moving every 2 s for the last minute (the default
``10/second;300/minute``); then this process, with the same clients' moves of its
last round to add, runs ``RateLimits.share`` 20 times (median and max wall time, round
trip included, and this process's CPU time), the database's execution time of one round
without and with the deletion of old rows (every tenth round), and ``RateLimits.hit``
with and without the others' counts. It deletes its rows when done.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import time

import psycopg
from sqlalchemy.engine import make_url

from potluck.server.db import make_engine, migrate
from potluck.server.ratelimit import SHARE, RateLimits, client_key, slot_width
from potluck.server.settings import ServerSettings


async def measure(url: str, clients: int) -> None:
    migrate(make_engine(url))
    conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    connection = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
    rates = RateLimits(ServerSettings(move_rate="10/second;300/minute"))
    cursor = await connection.execute("SELECT floor(extract(epoch FROM clock_timestamp()))")
    row = await cursor.fetchone()
    assert row is not None
    now = int(row[0])
    width = slot_width(60)  # a move every 2 s: width / 2 moves in each slot of the minute
    rows = [
        ("other", "move", client_key(f"10.0.{n // 256}.{n % 256}"), 60, slot, width // 2)
        for n in range(clients)
        for slot in range((now - 60) // width * width, now + 1, width)
    ]
    async with connection.cursor() as cursor:
        await cursor.executemany(
            "INSERT INTO rate_counts (process, kind, client, seconds, slot, hits)"
            " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
            rows,
        )
    rates.start_sharing()
    walls, cpus = [], []
    for _ in range(20):  # rounds 0.2 s apart, half of the clients moving in each
        for n in range(clients // 2):
            rates.hit("move", f"10.0.{n // 256}.{n % 256}")
        started, cpu = time.perf_counter(), time.process_time()
        await rates.share(connection, "me")
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
        await asyncio.sleep(0.2)
    print(
        f"{len(rows)} rows of the other process, {clients} clients, {len(rates.elsewhere)} "
        f"counts read: share() wall median {statistics.median(walls) * 1000:.1f} ms "
        f"(max {max(walls) * 1000:.1f}), this process's CPU median "
        f"{statistics.median(cpus) * 1000:.1f} ms"
    )
    for sweep in (False, True):  # the database's own time for one round
        for n in range(clients // 2):
            rates.hit("move", f"10.0.{n // 256}.{n % 256}")
        assert rates.unshared is not None
        params = {"process": "me", "sweep": sweep, **rates.share_rows(rates.unshared)}
        rates.unshared.clear()
        cursor = await connection.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + SHARE, params)
        plan = await cursor.fetchone()
        assert plan is not None
        print(
            f"the database's execution time, sweep={sweep}: {plan[0][0]['Execution Time']:.1f} ms"
        )
    alone = RateLimits(ServerSettings(move_rate="1000000/second"))
    shared = RateLimits(ServerSettings(move_rate="1000000/second"))
    shared.start_sharing()
    shared.elsewhere = dict.fromkeys(
        (("move", client_key(f"c{n}"), 1) for n in range(clients)), (1, 0.0)
    )
    best = {"alone": math.inf, "sharing": math.inf}
    for _ in range(5):  # interleaved, the best of five: the machine is shared
        for name, limits in (("alone", alone), ("sharing", shared)):
            started = time.perf_counter()
            for n in range(5000):
                limits.hit("move", f"c{n % clients}")
            best[name] = min(best[name], (time.perf_counter() - started) / 5000)
    print(", ".join(f"hit() {name}: {t * 1e6:.1f} µs" for name, t in best.items()))
    await connection.execute("DELETE FROM rate_counts WHERE process IN ('me', 'other')")
    await connection.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("url")
    parser.add_argument("--clients", type=int, default=1000)
    arguments = parser.parse_args()
    asyncio.run(measure(arguments.url, arguments.clients))
