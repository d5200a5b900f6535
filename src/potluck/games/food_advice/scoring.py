"""Determining the winner (rulebook, "Determining the winner"; ruling FA-14): after
three rounds the most foodcoins wins; a tie is settled by extra customers, the
first who buys from one of the tied players choosing the winner. Also the
figures the lab tabulates (``metrics``, ``seat_metrics``).
"""

from __future__ import annotations

from potluck.engine.errors import PotluckError
from potluck.engine.outcome import Outcome
from potluck.games.food_advice.actions import GIVE, INVEST, PROMOTE, SHOP, FoodAction
from potluck.games.food_advice.characters import draw_customer
from potluck.games.food_advice.market import choose, joker_buys
from potluck.games.food_advice.presentation import offers as products_on_offer
from potluck.games.food_advice.state import OVER, FoodState
from potluck.games.food_advice.tables import FoodTables


def finish(tables: FoodTables, state: FoodState) -> None:
    """Determining the winner: most foodcoins; a tie is settled by more customers (FA-14)."""
    state.phase, state.acting = OVER, ()
    state.trades, state.sales, state.events_played = [], [], []
    top = max(state.money)
    tied = [s for s in range(state.num_players) if state.money[s] == top]
    if len(tied) < 2:
        return
    offers = products_on_offer(tables, state, sum(1 << s for s in tied))
    drawn: list[str] = []
    winner = -1
    for _ in range(tables.data.table.tiebreak_draws):
        customer = draw_customer(state)
        if customer < 0:
            break
        drawn.append(tables.cust_names[customer])
        buyer = tables.buyers[customer]
        if tables.cust_joker[customer]:
            bought = joker_buys(buyer, offers)
            pick = bought[0] if bought else None
        else:
            pick = choose(buyer, offers).offer
        if pick is not None:
            winner = pick.seller
            break
    state.cust_discard += state.cust_table
    state.cust_table = []
    state.tiebreak = {"tied": tied, "customers": drawn, "winner": winner}


def outcome(tables: FoodTables, state: FoodState) -> Outcome:
    if state.acting or state.round < tables.rounds:
        raise PotluckError(
            f"the game is not over: it is round {min(state.round + 1, tables.rounds)} "
            f"of {tables.rounds}"
        )
    won = state.tiebreak["winner"] if state.tiebreak else -1
    keys = [(state.money[s], 1 if s == won else 0) for s in range(state.num_players)]
    base = Outcome.from_keys(tuple(state.money), keys, "")
    best = max(state.money)
    if state.tiebreak is None:
        reason = f"Seat {base.winners[0]} wins with {best} foodcoins."
    elif won >= 0:
        reason = (
            f"Seats {', '.join(map(str, state.tiebreak['tied']))} tie on {best} foodcoins; "
            f"seat {won} wins the extra customer."
        )
    else:
        reason = (
            f"Seats {', '.join(map(str, base.winners))} share the win with {best} "
            "foodcoins: no extra customer chose between them."
        )
    return Outcome(base.scores, base.winners, base.ranking, base.places, reason)


def metrics(tables: FoodTables, state: FoodState) -> dict[str, float | int | str]:
    """Sales, leavers, trades, and which channels and shapes go with winning."""
    sales = [s for r in state.log for s in r["sales"]]
    sold = [s for s in sales if s["seller"] is not None]
    winners = set(outcome(tables, state).winners) if not state.acting else set()
    metrics: dict[str, float | int | str] = {
        "sales": len(sold),
        "left_unhappy": len(sales) - len(sold),
        "joker_sales": sum(1 for s in sold if s["kind"] == "joker"),
        "extra_sales": sum(1 for s in sold if s["kind"] == "extra"),
        "trades": sum(1 for r in state.log for t in r["trades"] if t["given"]),
        "offers": sum(len(r["trades"]) for r in state.log),
        "tiebreak": 1 if state.tiebreak else 0,
        "mean_price": round(
            sum(sum(tables.ing_price[i] for i in ings) for ings in state.prod_ings)
            / max(1, len(state.prod_ings)),
            3,
        ),
    }
    # What goes with winning: the winners' product prices, and their share of sales.
    won = [p for p, owner in enumerate(state.prod_owner) if owner in winners]
    metrics["winner_mean_price"] = round(
        sum(sum(tables.ing_price[i] for i in state.prod_ings[p]) for p in won) / max(1, len(won)),
        3,
    )
    metrics["winner_sales"] = sum(1 for s in sold if s["seller"] in winners)
    for slug in tables.channel_slugs:
        uses = [
            seat for r in state.log for seat, chosen in enumerate(r["channels"]) if slug in chosen
        ]
        metrics[f"winner_channel_{slug}"] = sum(1 for s in uses if s in winners)
        metrics[f"channel_{slug}"] = len(uses)
    return metrics


def seat_metrics(tables: FoodTables, state: FoodState, seat: int) -> dict[str, float | int]:
    """What ``seat`` made and chose, for the lab's "what goes with winning" tables.

    ``shape:<name>`` counts its products of that shape; ``channel:<slug>`` and
    ``shop:<slug>`` the rounds it chose that promotion channel or shop;
    ``sales`` the customers who bought from it; ``votes`` the votes its
    products received; ``money`` its final foodcoins. Totals of its choices:
    ``promotions`` (chips on promotion channels), ``shops_chosen``,
    ``investments`` (Mabius), ``offers_made`` and ``cards_given`` (ingredient
    exchange).
    """
    found: dict[str, float | int] = {}
    for product, owner in enumerate(state.prod_owner):
        if owner == seat:
            key = f"shape:{tables.shape_slugs[state.prod_shape[product]]}"
            found[key] = found.get(key, 0) + 1
    sales = votes = 0
    for record in state.log:
        for kind, chosen in (
            ("channel", record["channels"][seat]),
            ("shop", record["shops"][seat]),
        ):
            for slug in chosen:
                found[f"{kind}:{slug}"] = found.get(f"{kind}:{slug}", 0) + 1
        votes += sum(1 for voted in record["votes"] if voted == seat)
        sales += sum(1 for sale in record["sales"] if sale["seller"] == seat)
    found["sales"] = sales
    found["votes"] = votes
    found["money"] = state.money[seat]
    kinds = [a.kind for who, a in state.history if who == seat and isinstance(a, FoodAction)]
    found["promotions"] = kinds.count(PROMOTE)
    found["shops_chosen"] = kinds.count(SHOP)
    found["investments"] = kinds.count(INVEST)
    found["offers_made"] = sum(
        1 for record in state.log for trade in record["trades"] if trade["from"] == seat
    )
    found["cards_given"] = kinds.count(GIVE)
    return found
