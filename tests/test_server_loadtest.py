"""The load tool: a small run of every game through a real server process.

The figures in docs/web.md and docs/web-figures.md come from longer runs of the
same tool; those are benchmarks (``POTLUCK_BENCHMARK=1``), not part of the suite.
"""

from __future__ import annotations

import json
import os

import pytest

from potluck.engine.registry import list_games
from potluck.server import loadtest

BENCHMARK = pytest.mark.skipif(
    not os.environ.get("POTLUCK_BENCHMARK"), reason="a benchmark: set POTLUCK_BENCHMARK=1"
)


def test_a_small_run_plays_one_table_of_every_game_to_its_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    loadtest.main(["--tables", str(len(list_games())), "--bot-delay", "0", "--json"])
    report = json.loads(capsys.readouterr().out)
    for key in ("tables", "moves", "errors", "p50_ms", "p99_ms", "max_ms"):
        assert key in report
    assert report["errors"] == 0, report["error_samples"]
    assert report["error_kinds"] == {}
    assert report["unfinished_tables"] == []
    assert report["finished"] == report["tables"] == len(list_games())
    assert set(report["games"]) == set(list_games())
    assert all(row["moves"] > 0 for row in report["games"].values())
    assert report["p50_ms"] <= report["p99_ms"] <= report["max_ms"]
    assert report["moves_per_second"] > 0
    assert report["server_cpu_seconds"] > 0
    assert report["server_waited_for_cpu_seconds"] >= 0
    assert report["client_waited_for_cpu_seconds"] >= 0
    assert report["arrivals_per_second"] > 0
    assert report["acknowledged_moves_lost"] == 0
    # bots without a pause move before the answer: their pace is the next test's
    assert 0 <= report["bot_gap_p50_ms"] <= report["bot_gap_p99_ms"] <= report["bot_gap_max_ms"]


def test_the_bots_pace_is_measured_from_the_pushes_a_player_sees(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A bot moves ``--bot-delay`` after the move before it at the earliest, so no two
    pushes of the bots' moves reach the player closer together than that."""
    run = ["--tables", "1", "--game", "cafe-carnage", "--bot-delay", "0.1", "--json"]
    loadtest.main([*run, "--max-seconds", "4"])
    report = json.loads(capsys.readouterr().out)
    assert report["bot_gap_moves"] >= 5
    assert 100 <= report["bot_gap_p50_ms"] <= report["bot_gap_max_ms"]


def test_moves_sent_over_the_websocket_are_timed_and_acknowledged(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--moves socket``: each move goes as a WebSocket message and is timed to the push
    that shows it taken; every table still finishes and no acknowledged move is lost."""
    run = ["--tables", "3", "--game", "cafe-carnage", "--bot-delay", "0", "--json"]
    loadtest.main([*run, "--moves", "socket"])
    report = json.loads(capsys.readouterr().out)
    assert report["moves_over"] == "socket"
    assert report["errors"] == 0, report["error_samples"]
    assert report["finished"] == report["tables"] == 3
    assert report["moves"] > 0
    assert report["acknowledged_moves_lost"] == 0


def test_the_tool_kills_only_one_of_several_processes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        loadtest.main(["--tables", "1", "--kill-after", "1"])
    assert "--kill-after needs --workers 2" in capsys.readouterr().err


def test_the_tool_refuses_several_workers_on_sqlite(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        loadtest.main(["--tables", "1", "--workers", "2"])
    assert "PostgreSQL" in capsys.readouterr().err


def test_the_tool_refuses_an_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        loadtest.main(["--tables", "1", "--game", "chess"])
    assert "unknown game 'chess'" in capsys.readouterr().err


@BENCHMARK
def test_benchmark_200_tables_in_one_process() -> None:
    report = loadtest.run(200, bot_delay=0.2)
    print(json.dumps(report))
    assert report["errors"] == 0


def test_a_run_stopped_after_max_seconds_reports_its_unfinished_tables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    loadtest.main(["--tables", "2", "--bot-delay", "1", "--max-seconds", "1", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["stopped_after_max_seconds"]
    assert report["finished"] == 0
    assert report["error_kinds"]["unfinished"] == 2
    assert len(report["unfinished_tables"]) == 2


def test_the_served_port_answers_without_nagles_wait() -> None:
    """`potluck serve`'s listening socket names TCP, so asyncio sets TCP_NODELAY on every
    connection it accepts: an answer written in two parts (head, then body) is not held
    back until the client's delayed ACK (40 ms a move over a kept-alive connection)."""
    import asyncio
    import socket

    from potluck.cli.serve_command import _bind_port

    listening = _bind_port("127.0.0.1", 0)
    port = listening.getsockname()[1]
    seen: list[int] = []

    async def check() -> None:
        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            accepted = writer.get_extra_info("socket")
            seen.append(accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(handle, sock=listening)
        async with server:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            for _ in range(100):
                if seen:
                    break
                await asyncio.sleep(0.01)
            writer.close()

    asyncio.run(check())
    assert seen
    assert seen[0] != 0


def test_a_request_on_a_kept_connection_the_server_dropped_is_sent_again_once() -> None:
    """As a browser does: the kept connection's server went away (closed it, or died)
    before answering, so the request goes once more on a new connection."""
    import asyncio

    from potluck.server.loadclient import PlayerConnection

    answered: list[int] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while await reader.readuntil(b"\r\n\r\n"):
            answered.append(1)
            if len(answered) == 2:  # the second request: dropped unanswered
                writer.close()
                return
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            await writer.drain()

    async def play() -> list[tuple[int, bytes]]:
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        connection = PlayerConnection("127.0.0.1", port)
        answers = [await connection.request("GET", "/") for _ in range(2)]
        await connection.close()
        server.close()
        return answers

    assert asyncio.run(play()) == [(200, b"ok"), (200, b"ok")]
    assert len(answered) == 3  # the dropped one, sent again on a new connection
