"""Ratings in the database: a rated game's result applied exactly once, and what the
profiles, their games, head-to-head and the leaderboards read.

``apply_ratings`` runs one transaction: it claims the table (``rated_at`` set only
where it was still unset: two processes that both saw the end cannot both apply
it), locks the accounts' rows in id order (``FOR UPDATE`` on PostgreSQL: two games
ending at once for one player update their rating one after the other), and
stores each account's new rating and the change (``rating_changes``).

Private tables appear in an account's games and head-to-head only to a viewer who
sat at them (the account itself included): their ids are not for anyone else.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, exists, func, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, aliased

from potluck.engine.registry import load_game
from potluck.server.botpool import DIFFICULTIES
from potluck.server.db import AccountRow, RatingChangeRow, RatingRow, SeatRow, TableRow, now
from potluck.server.ratings import (
    START,
    Standing,
    counted_places,
    find_pool,
    pool_of,
    rate,
    rateable_levels,
)

#: The most points of one pool's rating history a profile sends.
HISTORY_POINTS = 200

#: The level of the bot that stands in for an absent person (``Seating._stand_in``:
#: the game's greedy bot, else its random one), by its spec.
STAND_IN_LEVELS = {spec: level for level, spec in DIFFICULTIES.items() if level != "hard"}


def apply_ratings(engine: Engine, table_id: str) -> list[dict[str, Any]] | None:
    """Apply a finished rated table's result to its accounts' ratings, once; the
    changes (``None``: not this call's to apply, or not a rated finished table).

    A level whose bot is no longer the measured one has no reference rating: the game
    is then left unrated (the caller logs why).
    """
    with Session(engine) as session, session.begin():
        claimed = session.execute(
            update(TableRow)
            .where(
                TableRow.id == table_id,
                TableRow.rated.is_(True),
                TableRow.rated_at.is_(None),
                TableRow.status == "over",
            )
            .values(rated_at=now())
        )
        if not claimed.rowcount:  # type: ignore[attr-defined]
            return None
        row = session.get(TableRow, table_id)
        if row is None or row.outcome is None:  # cannot be: claimed as rated and over
            return []
        seats = session.scalars(
            select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
        ).all()
        pool = pool_of(row.game, row.num_players)
        references = rateable_levels(load_game(row.game), pool)
        accounts = sorted({s.account_id for s in seats if s.account_id is not None})
        # one rating update at a time per player, in every process (id order: no deadlock)
        session.execute(
            select(AccountRow.id)
            .where(AccountRow.id.in_(accounts))
            .order_by(AccountRow.id)
            .with_for_update()
        )
        current = {
            r.account_id: r
            for r in session.scalars(
                select(RatingRow).where(RatingRow.pool == pool, RatingRow.account_id.in_(accounts))
            )
        }
        players: list[Standing] = []
        for seat in seats:
            if seat.kind == "bot" or seat.account_id is None:
                # a bot's seat, or a person's seat that no account holds at the end (its
                # account deleted, or a seat nobody took given to a bot): the bot that
                # played it, at its level's reference, in the place it reached. Never a
                # stranger ranked last, whose loss would be everyone else's free points.
                level = seat.bot if seat.kind == "bot" else STAND_IN_LEVELS.get(seat.bot or "")
                reference = references.get(level or "")
                if reference is None:
                    return []  # its bot is not the measured one any more: unrated
                players.append(reference)
            elif seat.account_id in current:
                r = current[seat.account_id]
                players.append(Standing(r.mu, r.sigma))
            else:  # a first game in this pool
                players.append(START)
        places = list(row.outcome["places"])
        leavers = {
            s.seat for s in seats if s.kind == "human" and s.taken_over and s.account_id is not None
        }
        new = rate(players, places, leavers)
        counted = counted_places(places, leavers)
        moment = now()
        changes = []
        for seat in seats:
            if seat.account_id is None:
                continue
            before, after = players[seat.seat], new[seat.seat]
            rating = current.get(seat.account_id)
            if rating is None:
                rating = RatingRow(account_id=seat.account_id, pool=pool, games=0)
                session.add(rating)
            rating.mu, rating.sigma, rating.ordinal = after.mu, after.sigma, after.ordinal
            rating.games = (rating.games or 0) + 1
            rating.updated_at = moment
            session.add(
                RatingChangeRow(
                    table_id=table_id,
                    account_id=seat.account_id,
                    pool=pool,
                    mu_before=before.mu,
                    sigma_before=before.sigma,
                    mu=after.mu,
                    sigma=after.sigma,
                    place=counted[seat.seat],
                    abandoned=seat.seat in leavers,
                    created_at=moment,
                )
            )
            changes.append(change_json(seat.seat, seat.name, before, after, seat.seat in leavers))
        return changes


def change_json(
    seat: int, name: str | None, before: Standing, after: Standing, abandoned: bool
) -> dict[str, Any]:
    return {
        "seat": seat,
        "name": name,
        "before": round(before.mu, 2),
        "after": round(after.mu, 2),
        "sigma": round(after.sigma, 2),
        "abandoned": abandoned,
    }


def table_changes(engine: Engine, table_id: str) -> list[dict[str, Any]]:
    """What a finished rated table did to its players' ratings."""
    with Session(engine) as session:
        rows = session.execute(
            select(RatingChangeRow, SeatRow.seat, SeatRow.name)
            .join(
                SeatRow,
                and_(
                    SeatRow.table_id == RatingChangeRow.table_id,
                    SeatRow.account_id == RatingChangeRow.account_id,
                ),
            )
            .where(RatingChangeRow.table_id == table_id)
            .order_by(SeatRow.seat)
        ).all()
        return [
            change_json(
                seat,
                name,
                Standing(c.mu_before, c.sigma_before),
                Standing(c.mu, c.sigma),
                c.abandoned,
            )
            for c, seat, name in rows
        ]


def due(engine: Engine) -> list[str]:
    """Rated tables that ended and whose ratings were never applied (a process died
    between the end and the rating): the sweep applies them."""
    with Session(engine) as session:
        return list(
            session.scalars(
                select(TableRow.id).where(
                    TableRow.rated.is_(True),
                    TableRow.rated_at.is_(None),
                    TableRow.status == "over",
                )
            )
        )


# ---------------------------------------------------------------------- reading


def _rating_json(r: RatingRow) -> dict[str, Any]:
    return {
        "mu": round(r.mu, 2),
        "sigma": round(r.sigma, 2),
        "rating": round(r.ordinal, 2),
        "games": r.games,
    }


def profile(engine: Engine, account_id: int) -> dict[str, Any]:
    """An account's ratings, each with its history (oldest first)."""
    with Session(engine) as session:
        account = session.get(AccountRow, account_id)
        if account is None:
            return {}
        ratings = []
        for r in session.scalars(
            select(RatingRow).where(RatingRow.account_id == account_id).order_by(RatingRow.pool)
        ):
            pool = find_pool(r.pool)
            history = session.execute(
                select(
                    RatingChangeRow.table_id,
                    RatingChangeRow.created_at,
                    RatingChangeRow.mu,
                    RatingChangeRow.sigma,
                    RatingChangeRow.place,
                    RatingChangeRow.abandoned,
                )
                .where(RatingChangeRow.account_id == account_id, RatingChangeRow.pool == r.pool)
                .order_by(RatingChangeRow.created_at.desc())
                .limit(HISTORY_POINTS)
            ).all()
            ratings.append(
                {
                    "pool": r.pool,
                    **(pool.to_json() if pool else {"title": r.pool}),
                    **_rating_json(r),
                    "history": [
                        {
                            "table": table,
                            "at": _iso(at),
                            "mu": round(mu, 2),
                            "sigma": round(sigma, 2),
                            "place": place,
                            "abandoned": abandoned,
                        }
                        for table, at, mu, sigma, place, abandoned in reversed(history)
                    ],
                }
            )
        return {
            "name": account.name,
            "created_at": _iso(account.created_at),
            "ratings": ratings,
        }


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _visible(viewer: int | None, account_id: int) -> Any:
    """A table of ``account_id``'s the viewer may see: public, or one the viewer sat at."""
    if viewer == account_id:
        return True
    seen = aliased(SeatRow)
    sat = exists().where(seen.table_id == TableRow.id, seen.account_id == viewer)
    return (
        or_(TableRow.private.is_(False), sat) if viewer is not None else TableRow.private.is_(False)
    )


def games(
    engine: Engine, account_id: int, viewer: int | None, offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """One page of an account's finished games, newest first, and how many in all."""
    with Session(engine) as session:
        where = and_(
            SeatRow.account_id == account_id,
            TableRow.status == "over",
            _visible(viewer, account_id),
        )
        joined = select(TableRow, SeatRow.seat).join(SeatRow, SeatRow.table_id == TableRow.id)
        total = session.scalar(
            select(func.count()).select_from(
                select(TableRow.id)
                .join(SeatRow, SeatRow.table_id == TableRow.id)
                .where(where)
                .subquery()
            )
        )
        page = session.execute(
            joined.where(where)
            .order_by(TableRow.finished_at.desc(), TableRow.id)
            .offset(offset)
            .limit(limit)
        ).all()
        ids = [t.id for t, _ in page]
        everyone: dict[str, list[SeatRow]] = {}
        for s in session.scalars(
            select(SeatRow).where(SeatRow.table_id.in_(ids)).order_by(SeatRow.seat)
        ):
            everyone.setdefault(s.table_id, []).append(s)
        changes = {
            c.table_id: c
            for c in session.scalars(
                select(RatingChangeRow).where(
                    RatingChangeRow.table_id.in_(ids), RatingChangeRow.account_id == account_id
                )
            )
        }
        result = []
        for table, seat in page:
            places = list((table.outcome or {}).get("places", []))
            scores = list((table.outcome or {}).get("scores", []))
            change = changes.get(table.id)
            result.append(
                {
                    "table": table.id,
                    "game": table.game,
                    "title": load_game(table.game).title,
                    "finished_at": _iso(table.finished_at),
                    "players": table.num_players,
                    "rated": table.rated,
                    "private": table.private,
                    "seat": seat,
                    "place": places[seat] if seat < len(places) else None,
                    "score": scores[seat] if seat < len(scores) else None,
                    "seats": [
                        {
                            "seat": s.seat,
                            "name": s.name if s.kind == "human" else f"Bot {s.seat + 1} ({s.bot})",
                            "account": s.account_id is not None,
                            "place": places[s.seat] if s.seat < len(places) else None,
                        }
                        for s in everyone.get(table.id, [])
                    ],
                    "rating": None
                    if change is None
                    else {
                        "before": round(change.mu_before, 2),
                        "after": round(change.mu, 2),
                        "abandoned": change.abandoned,
                    },
                    "replay": f"/tables/{table.id}/replay",
                    "record": f"/api/tables/{table.id}/record",
                    "analysis": f"/api/tables/{table.id}/analysis?seat={seat}",
                }
            )
        return result, int(total or 0)


def head_to_head(
    engine: Engine, account_id: int, viewer: int | None, offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """Every account ``account_id`` finished a game with: games together, and how often
    each finished ahead (by place; a shared place is a tie). Most games first."""
    with Session(engine) as session:
        other = aliased(SeatRow)
        rows = session.execute(
            select(other.account_id, SeatRow.seat, other.seat, TableRow.outcome)
            .join(TableRow, TableRow.id == SeatRow.table_id)
            .join(other, and_(other.table_id == SeatRow.table_id, other.seat != SeatRow.seat))
            .where(
                SeatRow.account_id == account_id,
                other.account_id.is_not(None),
                other.account_id != account_id,
                TableRow.status == "over",
                _visible(viewer, account_id),
            )
        ).all()
        tally: dict[int, dict[str, int]] = {}
        for them, mine, theirs, outcome in rows:
            places = (outcome or {}).get("places", [])
            entry = tally.setdefault(them, {"games": 0, "wins": 0, "losses": 0, "ties": 0})
            entry["games"] += 1
            if places[mine] < places[theirs]:
                entry["wins"] += 1
            elif places[mine] > places[theirs]:
                entry["losses"] += 1
            else:
                entry["ties"] += 1
        found = session.execute(
            select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(tally))
        )
        names: dict[int, str] = {int(row[0]): str(row[1]) for row in found}
        ordered = sorted(
            tally.items(), key=lambda item: (-item[1]["games"], names.get(item[0], ""))
        )
        page = [
            {"name": names[them], **counts}
            for them, counts in ordered[offset : offset + limit]
            if them in names
        ]
        return page, len(ordered)


def leaderboard(
    engine: Engine, pool: str, offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """One page of a pool's ratings, best first (by ``mu - 3 sigma``)."""
    with Session(engine) as session:
        total = session.scalar(select(func.count()).where(RatingRow.pool == pool))
        rows = session.execute(
            select(RatingRow, AccountRow.name)
            .join(AccountRow, AccountRow.id == RatingRow.account_id)
            .where(RatingRow.pool == pool)
            .order_by(RatingRow.ordinal.desc(), AccountRow.name_key)
            .offset(offset)
            .limit(limit)
        ).all()
        return [
            {"rank": offset + index + 1, "name": name, **_rating_json(r)}
            for index, (r, name) in enumerate(rows)
        ], int(total or 0)
