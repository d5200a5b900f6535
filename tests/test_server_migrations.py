"""Upgrading a database made by the release before accounts (migration 0009) to today's
schema keeps every table, seat, action and kept analysis, and the server restores every
game from it.

The old database is built as that release left it: Alembic up to its last migration,
then its rows written column by column into the tables as they were then (reflected
from the database, not today's models): a finished game, a running one, an open
private table with an invite, an expired one. Runs on SQLite, and on PostgreSQL with
``POTLUCK_TEST_DATABASE_URL`` (``.ci/run``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from sqlalchemy import MetaData, insert, select
from sqlalchemy.engine import Engine

from potluck.engine.registry import load_game
from potluck.server import TableService
from potluck.server.db import alembic_config, make_engine, migrate, token_hash
from potluck.sim import play_game
from webtest import OPEN, fresh_database_url

#: The last migration of the release before accounts.
RELEASE = "0009"
#: The tables that release had.
OLD_TABLES = ("tables", "seats", "actions", "analyses")
NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


def upgrade_to(engine: Engine, revision: str) -> None:
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def games() -> list[dict[str, Any]]:
    """What the old release stored: real games of the engine, in every state."""
    cafe, burger = load_game("cafe-carnage"), load_game("burger-joint")
    over = play_game(cafe, 4, ["greedy"] * 4, 11, None, keep_record=True).record
    running = play_game(burger, 2, ["greedy"] * 2, 12, None, keep_record=True).record
    assert over is not None
    assert running is not None
    return [
        {"id": "finished1", "record": over, "status": "over", "actions": over["actions"],
         "seats": [("human", None, "Ann"), ("human", None, "Bob"), ("bot", "medium", None),
                   ("bot", "greedy", None)], "outcome": over["outcome"]},
        {"id": "running1", "record": running, "status": "running",
         "actions": running["actions"][:17],
         "seats": [("human", None, "Cy"), ("bot", "hard", None)], "outcome": None},
        {"id": "private1", "record": over, "status": "open", "actions": [], "private": True,
         "seats": [("human", None, None), ("human", None, "Dee"), ("bot", "easy", None),
                   ("bot", "easy", None)], "outcome": None},
        {"id": "expired1", "record": over, "status": "expired", "actions": over["actions"][:9],
         "seats": [("human", None, "Eve"), ("bot", "medium", None), ("bot", "medium", None),
                   ("bot", "medium", None)], "outcome": None},
    ]  # fmt: skip


def write_old_rows(engine: Engine) -> dict[str, Any]:
    """The old release's rows, into the old schema as reflected; the count per table."""
    old = MetaData()
    old.reflect(engine)
    tables, seats, actions = old.tables["tables"], old.tables["seats"], old.tables["actions"]
    with engine.begin() as connection:
        for game in games():
            record = game["record"]
            connection.execute(
                insert(tables).values(
                    id=game["id"],
                    game=record["game"],
                    game_version=record["version"],
                    num_players=len(game["seats"]),
                    seed=record["seed"],
                    options=record["options"],
                    status=game["status"],
                    turn_seconds=None,
                    created_at=NOW,
                    finished_at=NOW if game["status"] in ("over", "expired") else None,
                    outcome=game["outcome"],
                    private=game.get("private", False),
                    host_hash=token_hash(f"host-{game['id']}"),
                    creator=token_hash("10.0.0.1"),
                    changes=3,
                )
            )
            for number, (kind, bot, name) in enumerate(game["seats"]):
                taken = kind == "human" and name is not None
                connection.execute(
                    insert(seats).values(
                        table_id=game["id"],
                        seat=number,
                        kind=kind,
                        bot=bot,
                        name=name,
                        token_hash=token_hash(f"{game['id']}-{number}") if taken else None,
                        taken_over=None,
                        invite_hash=None if taken or kind == "bot" else token_hash("invite"),
                    )
                )
            for number, (seat, text) in enumerate(game["actions"]):
                connection.execute(
                    insert(actions).values(
                        table_id=game["id"],
                        number=number,
                        seat=seat,
                        text=str(text),
                        by_bot=seat != 0,
                        created_at=NOW,
                    )
                )
        connection.execute(  # a move analysis kept once computed (migration 0009)
            insert(old.tables["analyses"]).values(
                table_id="finished1",
                seat=0,
                judge="greedy:playouts=4",
                moves=[{"step": 0, "loss": 0.0}],
                created_at=NOW,
            )
        )
    return snapshot(engine)


def snapshot(engine: Engine) -> dict[str, Any]:
    """Every row of the old tables, by the old columns (sorted, comparable)."""
    old = MetaData()
    old.reflect(engine, only=[*OLD_TABLES])
    found = {}
    with engine.connect() as connection:
        for name in OLD_TABLES:
            table = old.tables[name]
            rows = connection.execute(select(table)).mappings().all()
            found[name] = sorted(
                (tuple((key, _plain(row[key])) for key in sorted(row.keys())) for row in rows),
                key=repr,
            )
    return found


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):  # SQLite gives naive times back
        return value.replace(tzinfo=None).isoformat()
    return value


def test_upgrading_the_release_before_accounts_keeps_every_table_and_record(
    tmp_path: Path,
) -> None:
    url = fresh_database_url(tmp_path)
    engine = make_engine(url)
    upgrade_to(engine, RELEASE)
    before = write_old_rows(engine)
    assert len(before["tables"]) == 4
    assert len(before["actions"]) > 100
    assert len(before["analyses"]) == 1
    migrate(engine)  # to today's head: accounts, ratings, rematches
    after = snapshot(engine)
    for name, rows in before.items():
        kept = sorted(
            (tuple(item for item in row if item[0] in dict(rows[0])) for row in after[name]),
            key=repr,
        )
        assert kept == rows, name  # every old row, every old value, nothing lost
    new_columns = dict(after["tables"][0])
    assert new_columns["rated"] in (False, 0)
    assert new_columns["account_id"] is None
    assert dict(after["seats"][0])["account_id"] is None
    service = TableService(engine, bot_delay=0, settings=OPEN)
    try:
        service.load_all()
        assert set(service.tables) == {"finished1", "running1", "private1", "expired1"}
        finished = service.tables["finished1"]
        assert finished.over
        replayed = finished.game.record(finished.state)["actions"]
        assert [(s, str(t)) for s, t in replayed] == [(s, str(t)) for s, t in games()[0]["actions"]]
        assert service.tables["running1"].status == "running"
        assert len(service.tables["running1"].state.history) == 17
        assert service.tables["private1"].seats[0].invite_hash == token_hash("invite")
        assert service.tables["expired1"].status == "expired"
        assert [s.name for s in finished.seats][:2] == ["Ann", "Bob"]
        assert service.tables["running1"].seats[0].token_hash == token_hash("running1-0")
    finally:
        engine.dispose()
