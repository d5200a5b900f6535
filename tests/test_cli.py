"""The ``potluck`` command line, driven through Typer's CliRunner.

Most tests use the toy game from ``test_sim`` (a sealed bid, a sequential
bonus step, a secret number per seat); the last group runs the same commands
on Café Carnage.
"""

from __future__ import annotations

import io
import json
import re
import socket
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

import potluck
from potluck.cli import app
from potluck.cli.render import generic_view
from potluck.sim import simulate
from test_sim import TOY_ID, ToyGame

runner = CliRunner()


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    return runner.invoke(app, list(args), input=input, env=env)


def assert_clean_error(result: Result, message: str) -> None:
    """Exit 2, one red line naming the problem, no traceback."""
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert result.stderr.strip().count("\n") == 0
    assert "Traceback" not in result.output


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    potluck.register(TOY_ID, ToyGame)
    try:
        yield
    finally:
        potluck.unregister(TOY_ID)


def _timeless(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("seconds", "games_per_second")}


# ---------------------------------------------------------------------- games, rules, version


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0
    assert re.fullmatch(r"potluck \S+\n", result.stdout)


def test_games_lists_id_title_players_and_options() -> None:
    result = run("games")
    assert result.exit_code == 0, result.output
    line = next(line for line in result.stdout.splitlines() if TOY_ID in line)
    assert "Toy Table" in line
    assert "2-4" in line
    assert "rounds=2" in line


def test_rules_shows_summary_options_and_notation() -> None:
    result = run("rules", TOY_ID)
    assert result.exit_code == 0, result.output
    assert "Bid low or high" in result.stdout
    assert "How many rounds (1 to 5)." in result.stdout
    assert "Notation" in result.stdout
    assert "pass or bonus" in result.stdout


def test_unknown_game_is_one_red_line() -> None:
    assert_clean_error(run("rules", "chess"), "unknown game 'chess'; known games:")


# ---------------------------------------------------------------------- play


def test_play_one_human_against_bots_to_the_end(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    result = run(
        "play", TOY_ID, "--seats", "you,first,random", "--seed", "5", "--save", str(save),
        input="1\n" * 10,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Toy Table: your move" in out
    assert "Secret" in out  # the human's own hidden number is shown to them
    assert "Pass to" not in out  # one human: no hand-over screens
    assert "Bot 2 (first) made a sealed choice." in out  # bots' bids stay hidden
    assert "Result" in out
    assert f"Record saved to {save}" in out.replace("\n", "")
    record = json.loads(save.read_text())
    game = potluck.load_game(TOY_ID)
    state = game.replay(record)
    assert game.is_over(state)
    assert record["seed"] == 5
    assert record["outcome"] == game.outcome(state).to_json()


def test_play_saves_under_the_user_data_dir_by_default(tmp_path: Path) -> None:
    result = run(
        "play", TOY_ID, "--seats", "you,random", "--seed", "1", input="1\n" * 10,
        env={"XDG_DATA_HOME": str(tmp_path)},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    saved = list((tmp_path / "potluck" / "records").glob(f"{TOY_ID}-*-seed1.json"))
    assert len(saved) == 1
    assert json.loads(saved[0].read_text())["game"] == TOY_ID


def test_play_takes_notation_and_asks_again_after_a_mistake(tmp_path: Path) -> None:
    answers = ["jump", "9", "bonus", "help", "HIGH"] + ["1"] * 10
    result = run(
        "play", TOY_ID, "--seats", "you,first", "--seed", "2", "--set", "rounds=1",
        "--save", str(tmp_path / "g.json"), input="\n".join(answers) + "\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "'jump' is not low, high, pass or bonus" in out
    assert "choose a number from 1 to 2" in out
    assert "You are bidding: low or high." in out  # game.explain's sentence
    assert "Bid low or high, then maybe take a bonus." in out  # help shows the summary
    assert "You chose: high" in out
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["options"] == {"rounds": 1}
    assert [0, "high"] in record["actions"]


def test_play_quit_keeps_the_unfinished_record_when_asked(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    result = run(
        "play", TOY_ID, "--seats", "you,first", "--seed", "2", "--save", str(save),
        "--save-unfinished", input="1\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Game abandoned after 2 actions." in result.stdout
    assert "Record of the unfinished game saved" in result.stdout
    record = json.loads(save.read_text())
    assert len(record["actions"]) == 2
    assert record["unfinished"] is True
    assert "outcome" not in record


def test_play_quit_saves_nothing_unless_asked(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    result = run(
        "play", TOY_ID, "--seats", "you,first", "--seed", "2", "--save", str(save),
        input="1\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "The unfinished game was not saved (--save-unfinished keeps it)." in result.stdout
    assert not save.exists()


def test_player_counts_read_2_players_or_a_range() -> None:
    listed = run("games").stdout.splitlines()
    burger = next(line for line in listed if line.strip().startswith("burger-joint"))
    assert " 2 " in burger
    assert "2-2" not in burger
    assert "(2 players)" in run("rules", "burger-joint").stdout
    assert "(4-6 players)" in run("rules", "cafe-carnage").stdout


def test_serve_on_a_busy_port_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = run(
            "serve", "--port", str(port), "--database-url", f"sqlite:///{tmp_path / 'p.db'}"
        )
    assert_clean_error(result, f"port {port} on 127.0.0.1 is already in use")
    assert f"make play PORT={port + 1}" in result.stderr
    assert "served at" not in result.stdout


def test_serve_runs_uvicorn_without_websocket_compression() -> None:
    """Pushes go out uncompressed (deflating them held up other tables' moves), on
    Python's own event loop."""
    from potluck.cli.serve_command import uvicorn_config

    config = uvicorn_config(
        object(), host="127.0.0.1", port=0, behind_proxy=False, proxy_ip="", max_body=1000
    )
    assert config.ws_per_message_deflate is False
    assert config.loop == "asyncio"
    assert config.ws_max_size == 1000


def test_serve_keeps_idle_connections_longer_than_the_load_client_reuses_them() -> None:
    """A player's next move reuses its HTTP connection (uvicorn's 5 s default closed it
    between most moves at 1,000 tables), and the load client never sends on a
    connection the server is about to close."""
    from potluck.cli.serve_command import uvicorn_config
    from potluck.server.loadclient import IDLE_SECONDS
    from potluck.server.settings import KEEP_ALIVE_SECONDS

    config = uvicorn_config(
        object(), host="127.0.0.1", port=0, behind_proxy=False, proxy_ip="", max_body=1000
    )
    assert config.timeout_keep_alive == KEEP_ALIVE_SECONDS >= 30
    assert 0 < IDLE_SECONDS <= KEEP_ALIVE_SECONDS - 5


def test_play_ends_cleanly_when_input_runs_out(tmp_path: Path) -> None:
    result = run("play", TOY_ID, "--save", str(tmp_path / "g.json"), input="")
    assert result.exit_code == 0, result.output
    assert "Game abandoned after 0 actions." in result.stdout


def test_play_hands_over_between_humans_and_keeps_bids_secret(tmp_path: Path) -> None:
    # "\n1\n" fits both cases: Enter at a hand-over then 1, or a blank answer
    # (asked again) then 1 when the same human is still at the screen.
    result = run(
        "play", TOY_ID, "--seats", "human:Ann,human:Bob", "--seed", "3",
        "--save", str(tmp_path / "g.json"), input="\n1\n" * 12,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Pass to Ann (seat 1), press Enter" in out
    assert "Pass to Bob (seat 2), press Enter" in out
    assert "Ann made a sealed choice." in out  # what happened since Bob's last turn
    assert "Ann: low" not in out  # never shown to Bob
    assert "Result" in out


def test_play_refuses_bad_seats_and_options() -> None:
    assert_clean_error(
        run("play", TOY_ID, "--seats", "you,genius"),
        "seat 2, 'genius': give you, human, human:NAME or a bot spec; "
        "Toy Table has no bot 'genius'; its bots are: first, improve, ismcts, random",
    )
    assert_clean_error(run("play", TOY_ID, "--seats", "random,first"), "no human seat")
    assert_clean_error(run("play", TOY_ID, "--set", "rounds"), "--set takes name=value")
    assert_clean_error(run("play", TOY_ID, "--set", "speed=3"), "no option 'speed'")
    assert_clean_error(run("play", TOY_ID, "--set", "rounds=many"), "option 'rounds' takes")
    assert_clean_error(
        run("play", TOY_ID, "--seats", "you,first,first,first,first"), "2 to 4 players, not 5"
    )


# ---------------------------------------------------------------------- simulate


def test_simulate_json_is_one_object_with_the_figures() -> None:
    args = ("simulate", TOY_ID, "-n", "10", "--players", "3", "--agents", "first,random")
    result = run(*args, "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 10
    assert data["players"] == 3
    assert data["agents"] == ["first", "random"]
    assert data["seed"] == 4
    assert len(data["win_rate_by_seat"]) == 3
    assert sum(data["win_rate_by_seat"]) == pytest.approx(1)
    assert set(data["win_rate_by_agent"]) == {"first", "random"}
    for key in ("games_per_second", "mean_steps", "mean_score_by_seat", "mean_score_by_agent"):
        assert key in data
    game = potluck.load_game(TOY_ID)
    library = simulate(game, 10, 3, ["first", "random"], seed=4).to_json()
    assert _timeless(data) == _timeless(library)


def test_simulate_prints_tables() -> None:
    result = run("simulate", TOY_ID, "-n", "6", "--agents", "first,random", "--set", "rounds=3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "By seat" in out
    assert "By agent" in out
    assert "Mean top_score" in out
    assert "Mean game length 9.0 steps" in out
    assert "games/s" in out


def test_simulate_refuses_unknown_agent() -> None:
    assert_clean_error(
        run("simulate", TOY_ID, "-n", "3", "--agents", "random,genius"), "no bot 'genius'"
    )
    assert_clean_error(run("simulate", TOY_ID, "--agents", " , "), "--agents is empty")


# ---------------------------------------------------------------------- replay


@pytest.fixture
def saved_game(tmp_path: Path) -> Path:
    save = tmp_path / "g.json"
    result = run(
        "play", TOY_ID, "--seats", "you,first", "--seed", "8", "--save", str(save),
        input="2\n" * 10,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return save


def test_replay_steps_through_to_the_result(saved_game: Path) -> None:
    actions = len(json.loads(saved_game.read_text())["actions"])
    result = run("replay", str(saved_game), input="\n" * (actions + 1))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"after action 0 of {actions}, seen by a spectator" in out
    assert f"after action {actions} of {actions}" in out
    assert "Player 1 made a sealed choice." in out  # the spectator never saw the bids
    assert "Secret" not in out
    assert "Result" in out


def test_replay_as_a_seat_shows_its_secrets_and_own_bids(saved_game: Path) -> None:
    result = run("replay", str(saved_game), "--as", "0", input="1\n2\nq\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Secret" in out
    assert "seen by Player 1 (seat 1)" in out  # seats on the screen count from 1
    assert "You: high" in out  # its own bid (answer 2)
    assert "Player 2 made a sealed choice." in out


def test_replay_goes_back_and_jumps(saved_game: Path) -> None:
    result = run("replay", str(saved_game), input="4\nb\nzz\nq\n")
    assert result.exit_code == 0, result.output
    headers = re.findall(r"after action (\d+) of", result.stdout)
    assert headers == ["0", "4", "3", "3"]
    assert "Type Enter, b, q or a number from 0 to" in result.stdout


def test_replay_refuses_bad_files(tmp_path: Path, saved_game: Path) -> None:
    assert_clean_error(run("replay", str(tmp_path / "none.json")), "does not exist")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert_clean_error(run("replay", str(bad)), "is not valid JSON")
    bad.write_text("[1, 2]")
    assert_clean_error(run("replay", str(bad)), "must be a JSON object, not list")
    bad.write_text('{"seed": 1}')
    assert_clean_error(run("replay", str(bad)), "it has no 'game' field")
    record = json.loads(saved_game.read_text())
    record["actions"][0][1] = "jump"
    bad.write_text(json.dumps(record))
    assert_clean_error(run("replay", str(bad)), "action 1 of the record")
    assert_clean_error(run("replay", str(saved_game), "--as", "7"), "--as takes a seat from 0 to 1")


# ---------------------------------------------------------------------- bench


def test_bench_json() -> None:
    result = run("bench", TOY_ID, "--seconds", "0.05", "--players", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == [TOY_ID]
    figures = data[TOY_ID]
    assert figures["players"] == 3
    assert figures["games"] >= 1
    assert figures["steps"] == figures["games"] * 8
    assert figures["steps_per_second"] > 0


def test_bench_a_bot_reports_games_steps_decisions_and_clones() -> None:
    result = run(
        "bench", "cafe-carnage", "--bot", "greedy", "--players", "4", "--seconds", "0.3", "--json"
    )
    assert result.exit_code == 0, result.output
    row = json.loads(result.stdout)["cafe-carnage"]
    assert row["bot"] == "greedy"
    for key in ("games_per_second", "steps_per_second", "decisions_per_second"):
        assert row[key] > 0, key
    assert row["clones_per_second"] > 0
    assert 0 < row["view_share_of_thinking"] < 1  # the greedy bot reads the seat's view
    assert row["decisions"] == row["steps"]  # Café Carnage has no forced moves
    assert_clean_error(run("bench", "cafe-carnage", "--bot", "nope"), "no bot 'nope'")


def test_bench_next_to_openspiel_hearts() -> None:
    pytest.importorskip("pyspiel")
    for clock in ("wall", "cpu"):
        result = run(
            "bench", "cafe-carnage", "--seconds", "0.3", "--repeat", "1", "--hearts", "--json",
            "--clock", clock,
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        row = json.loads(result.stdout)["cafe-carnage"]
        assert row["clock"] == clock
        hearts = row["openspiel_hearts_steps_per_second"]
        assert hearts > 0
        ratio = row["steps_ratio_to_openspiel_hearts"]
        assert ratio == pytest.approx(row["steps_per_second"] / hearts)


def test_python_m_potluck_bench_all_json(capsys: pytest.CaptureFixture[str]) -> None:
    from potluck.bench import main

    main(["--all", "--seconds", "0.1", "--repeat", "1", "--no-hearts", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert sorted(data) == sorted(potluck.list_games())
    assert all(row["clones_per_second"] > 0 for row in data.values())


def test_bench_table() -> None:
    result = run("bench", TOY_ID, "--seconds", "0.05")
    assert result.exit_code == 0, result.output
    assert "Steps/s" in result.stdout
    assert_clean_error(run("bench", TOY_ID, "--seconds", "0"), "positive time")


# ---------------------------------------------------------------------- Café Carnage


def _cafe_available() -> bool:
    try:
        potluck.load_game("cafe-carnage")
    except Exception:  # not written yet, or half-written: skip rather than fail here
        return False
    return True


cafe = pytest.mark.skipif(not _cafe_available(), reason="cafe-carnage is not importable yet")


@cafe
def test_cafe_games_and_rules() -> None:
    listing = run("games")
    assert listing.exit_code == 0, listing.output
    assert "Café Carnage" in listing.stdout
    assert "4-6" in listing.stdout
    rules = run("rules", "cafe-carnage")
    assert rules.exit_code == 0, rules.output
    assert "Café Carnage" in rules.stdout
    assert "no_repeat_dishes" in rules.stdout
    assert "Notation" in rules.stdout


@cafe
def test_cafe_full_game_at_the_terminal_then_replay(tmp_path: Path) -> None:
    save = tmp_path / "cafe.json"
    result = run(
        "play", "cafe-carnage", "--seats", "you,random,random,random", "--seed", "11",
        "--save", str(save), input="1\n" * 200,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Result" in result.stdout
    record = json.loads(save.read_text())
    game = potluck.load_game("cafe-carnage")
    assert game.is_over(game.replay(record))
    steps = len(record["actions"])
    replay = run("replay", str(save), "--as", "0", input="\n" * (steps + 1))
    assert replay.exit_code == 0, replay.output
    assert f"after action {steps} of {steps}" in replay.stdout
    assert "Result" in replay.stdout


@cafe
def test_cafe_simulate_json() -> None:
    args = ("simulate", "cafe-carnage", "-n", "20", "--players", "4", "--agents", "greedy,random")
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 20
    assert len(data["win_rate_by_seat"]) == 4
    assert set(data["win_rate_by_agent"]) == {"greedy", "random"}
    assert sum(data["win_rate_by_seat"]) == pytest.approx(1)


@cafe
def test_bench_through_the_adapters() -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("pyspiel")
    result = run(
        "bench", "burger-joint", "--adapters", "--seconds", "0.3", "--repeat", "1", "--json"
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)
    assert [row["adapter"] for row in rows] == [
        "native",
        "pettingzoo-aec",
        "gymnasium",
        "openspiel",
    ]
    assert all(row["steps_per_second"] > 0 for row in rows)


def test_cafe_bench_json() -> None:
    result = run("bench", "cafe-carnage", "--seconds", "0.5", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)["cafe-carnage"]
    assert figures["players"] == 4
    assert figures["games"] >= 1
    assert figures["steps_per_second"] > 0


# ---------------------------------------------------------------------- drawing views


def _draw(renderable: Any) -> str:
    console = Console(file=io.StringIO(), width=100)
    console.print(renderable)
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(output, str)
    return output


def test_generic_view_draws_tables_named_records_and_the_latest_log_entry() -> None:
    view = {
        "round": 2,
        "players": [{"seat": 0, "money": 30, "eaten": ["soup", "cake"]}, {"seat": 1, "money": 25}],
        "decks": {"starter": 19},
        "log": [
            {"round": 1, "bill": "split"},
            {"round": 2, "meals": [{"seat": 0, "dishes": [{"dish": "x", "name": "Tomato Soup"}]}]},
        ],
        "you": {"order": {"starter": {"dish": "tomato-soup", "name": "Tomato Soup"}}},
    }
    text = _draw(generic_view(view, seat=0))
    assert "Players" in text
    assert "soup, cake" in text
    assert "Decks" in text
    assert "Log: latest of 2 entries" in text
    assert "split" not in text  # only the latest entry is drawn in full
    assert "tomato-soup" not in text  # a named record reads as its name
    assert text.count("Tomato Soup") == 2


def test_a_game_can_draw_its_own_views(tmp_path: Path) -> None:
    class DrawnToy(ToyGame):
        def render_view(self, view: Mapping[str, Any]) -> str:
            return f"CUSTOM round {view['round']}"

    potluck.register(TOY_ID, DrawnToy)
    result = run(
        "play", TOY_ID, "--seats", "you,first", "--seed", "1", "--save", str(tmp_path / "g.json"),
        input="1\n" * 10,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "CUSTOM round 1" in result.stdout
    assert "Players" not in result.stdout


def test_hand_over_clears_the_screen_and_the_scrollback() -> None:
    from potluck.cli.play import CLEAR_ALL, clear_screen_and_scrollback

    screen = io.StringIO()
    clear_screen_and_scrollback(Console(file=screen, force_terminal=True))
    assert screen.getvalue() == CLEAR_ALL
    assert "\x1b[3J" in CLEAR_ALL  # the scrollback, not only the visible screen


def test_play_burger_joint_at_the_terminal_has_no_turn_limit(tmp_path: Path) -> None:
    """Ruling BJ-10: a table with a person at it plays without the simulations' turn limit."""
    save = tmp_path / "g.json"
    result = run(
        "play", "burger-joint", "--seats", "you,random", "--seed", "0", "--save", str(save),
        "--save-unfinished", input="quit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(save.read_text())["options"]["turn_limit"] == 0


def test_bots_are_named_as_bots_in_the_log_and_the_result() -> None:
    result = run("play", TOY_ID, "--seats", "you,first", "--seed", "2", input="1\n" * 10)
    assert result.exit_code == 0, result.output
    assert "Bot 2 (first)" in result.stdout  # seats counted from 1
    assert re.search(r"You ★|You\s+\d", result.stdout)


def test_bench_plays_openspiels_ismcts_with_our_bot_in_two_seats() -> None:
    pytest.importorskip("pyspiel")
    args = ["bench", "cafe-carnage", "--players", "4", "--bot", "ismcts:sims=2", "--vs-openspiel"]
    result = run(*args, "--our-seats", "2", "--games", "2", "--seconds", "0.1", "--json")
    assert result.exit_code == 0, result.output
    duel = json.loads(result.stdout)["cafe-carnage"]["head_to_head"]
    assert [r["seats"] for r in duel["results"]] == [[0, 2], [1, 3]]
    assert duel["fair_share"] == 0.5
    refused = run(*args, "--our-seats", "4", "--games", "1", "--seconds", "0.1")
    assert refused.exit_code != 0
    assert "at most 3" in refused.output
