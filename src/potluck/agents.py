"""Every bot that can take a seat in a game: the game's own bots and the generic ones.

The game's bots (``game.bots()``, e.g. ``random`` and ``greedy``) live in the
rules core; generic bots that work on any game through the engine's public
contract (such as a search bot) live outside it and are listed here. Every
surface (command line, simulations, lab, server, adapters) builds its bots
through :func:`make_agent`, so a spec means the same thing everywhere.

    >>> import potluck
    >>> game = potluck.load_game("cafe-carnage")
    >>> make_agent(game, "greedy").name
    'greedy'
    >>> sorted(agent_factories(game))
    ['greedy', 'greedy-tuned', 'improve', 'ismcts', 'random']
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, TypeGuard, runtime_checkable

from potluck.engine.action import Action
from potluck.engine.bots import Bot, choose_plain
from potluck.engine.botspec import BotSpec, build_bot
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.state import State
from potluck.search.bot_names import THRIFTY_NAME, TUNED_NAME
from potluck.search.information import InformationSet
from potluck.search.presets import thrifty_greedy, tuned_greedy

__all__ = [
    "GENERIC_BOTS",
    "SEARCH_DEFAULTS",
    "InformationSet",
    "SearchBot",
    "agent_factories",
    "bot_defaults",
    "decide",
    "effective_spec",
    "is_search_bot",
    "make_agent",
    "search_defaults",
]

#: Bots for every game, by name: each is built with its declared parameters only.
GENERIC_BOTS: dict[str, Callable[..., Bot]] = {}


def _register_generic_bots() -> None:
    from potluck.search.improve import PolicyImprovementBot
    from potluck.search.ismcts import ISMCTSBot

    GENERIC_BOTS.setdefault("ismcts", ISMCTSBot)
    GENERIC_BOTS.setdefault("improve", PolicyImprovementBot)


#: OpenSpiel's ISMCTS: seated only when a spec names it (it needs the rl extra).
OPENSPIEL_NAME = "openspiel-ismcts"


def _openspiel_factory() -> Callable[..., Bot]:
    try:
        from potluck.search.openspiel_bot import OpenSpielISMCTSBot
    except ImportError as missing:
        raise PotluckError(
            f"{OPENSPIEL_NAME} needs OpenSpiel (pip install 'potluck[rl]'): {missing}"
        ) from None
    return OpenSpielISMCTSBot


def agent_factories(game: Game[Any, Any]) -> dict[str, Callable[..., Bot]]:
    """Every bot name ``game`` can seat, with the factory that builds it (the game's
    own, the generic ones, ``greedy-tuned`` where the game's greedy bot was tuned, and
    ``greedy-thrifty`` where the search package holds one, ``potluck.search.thrifty``)."""
    _register_generic_bots()
    found: dict[str, Callable[..., Bot]] = {**GENERIC_BOTS, **game.bots()}
    tuned = tuned_greedy(game)
    if tuned is not None:
        found[TUNED_NAME] = tuned
    thrifty = thrifty_greedy(game)
    if thrifty is not None:
        found[THRIFTY_NAME] = thrifty
    return found


#: The search bot's tuned parameters per game (spec text), used where the game
#: declares none itself (``Game.search_defaults``). Chosen by the strength runs in
#: docs/bots.md; a spec's own parameters override them.
SEARCH_DEFAULTS: dict[str, dict[str, str]] = {
    # Every new leaf scored at once by the learned value model (no rollout); the
    # searching seat's prior move named by the tuned greedy bot (issue 32).
    "cafe-carnage": {
        "sims": "600",
        "prior": "greedy",
        "guide": "greedy-tuned",
        "cutoff": "model",
        "rollout": "none",
    },
    "belle-of-the-ball": {"prior": "greedy", "reward": "margin"},
    # Every new leaf scored at once by the learned value model, a win chance (the
    # hand-written standings before it needed a fixed 4-VP scale at two seats).
    "burger-joint": {"sims": "400", "prior": "greedy", "cutoff": "model", "rollout": "none"},
    # The root's moves compared on common worlds, each followed by greedy play for
    # four turns (one round; the game's clock, so every move is scored after the same
    # dice) and scored by the standings (wealth plus a few rounds of expected fees):
    # whole greedy games were too noisy to tell moves apart with a few dozen rollouts.
    # The searching seat's prior move and its own moves in the rollouts are the thrifty
    # greedy bot's with no cash reserve (``potluck.search.thrifty``; the other seats are
    # still modelled by the default greedy bot), kept unless another move beats it by two
    # standard errors: about two points more than the plain greedy guide over some 2,300
    # development deals at four seats, the same at two (docs/bots.md, "Belly Battle: the
    # lean guide as the default").
    "belly-battle": {
        "root": "compare",
        "sims": "64",
        "candidates": "0",
        "rollout": "greedy",
        "epsilon": "0",
        "depth": "200",
        "horizon": "4",
        "prior": "greedy",
        "reward": "margin",
        "scale": "300",
        "guide": "greedy-thrifty",
        "guide_reserve": "0",
        "confidence": "2",
    },
    # The root's moves compared on common worlds, each played out to the end by the
    # greedy bot (a whole greedy game costs ~13 ms); the greedy move is kept unless
    # another's foodcoin margin beats it by a standard error (confidence=1).
    "food-advice": {
        "root": "compare",
        "sims": "64",
        "rollout": "greedy",
        "epsilon": "0",
        "depth": "0",
        "prior": "greedy",
        "reward": "margin",
        "scale": "50",
    },
}

#: The generic bots that take per-game defaults: ``ismcts`` this module's table (or the
#: game's own ``search_defaults``), ``improve`` its module's (``IMPROVE_DEFAULTS``).
_SEARCH_NAMES = frozenset({"ismcts", "improve"})


def search_defaults(game: Game[Any, Any]) -> dict[str, str]:
    """The parameters ``ismcts`` takes by default in ``game``: the game's own
    ``search_defaults()``, else this module's tuned table, else none.

        >>> import potluck
        >>> search_defaults(potluck.load_game("belle-of-the-ball"))
        {'prior': 'greedy', 'reward': 'margin'}
    """
    declared = dict(game.search_defaults())
    return declared or dict(SEARCH_DEFAULTS.get(game.id, {}))


def bot_defaults(game: Game[Any, Any], name: str) -> dict[str, str]:
    """The parameters the generic bot ``name`` takes by default in ``game`` (none for a
    bot without per-game defaults).

        >>> import potluck
        >>> bot_defaults(potluck.load_game("cafe-carnage"), "improve")
        {'cutoff': 'model', 'depth': '24'}
    """
    if name == "ismcts":
        return search_defaults(game)
    if name == "improve":
        from potluck.search.improve import IMPROVE_DEFAULTS

        return dict(IMPROVE_DEFAULTS.get(game.id, {}))
    return {}


def effective_spec(game: Game[Any, Any], spec: str | BotSpec) -> BotSpec:
    """``spec`` with the game's defaults filled in (for ``ismcts`` and ``improve``; others
    as given).

    >>> import potluck
    >>> str(effective_spec(potluck.load_game("cafe-carnage"), "greedy"))
    'greedy'
    """
    parsed = spec if isinstance(spec, BotSpec) else BotSpec.parse(spec)
    if parsed.name not in _SEARCH_NAMES:
        return parsed
    given = dict(parsed.params)
    merged = {**bot_defaults(game, parsed.name), **given}
    return BotSpec(parsed.name, tuple(merged.items()))


def make_agent(game: Game[Any, Any], spec: str | BotSpec) -> Bot:
    """The bot ``spec`` (``name`` or ``name:key=value,...``) names for ``game``.

    ``ismcts`` takes the game's tuned defaults (:func:`search_defaults`) for the
    parameters the spec does not give. ``openspiel-ismcts`` (OpenSpiel's ISMCTS, for
    ladders; ``potluck.search.openspiel_bot``) is built only when named, and needs the
    ``rl`` extra. ``BotSpecError`` names the bots or the bot's parameters when the
    spec fits none.
    """
    written = spec if isinstance(spec, str) else str(spec)
    parsed = effective_spec(game, spec)
    factories = agent_factories(game)
    if parsed.name == OPENSPIEL_NAME:
        factories[OPENSPIEL_NAME] = _openspiel_factory()
    built = build_bot(factories, parsed, game.title)
    built.spec = written.strip()  # as the user wrote it; the defaults are the game's
    bot: Bot = built
    return bot


@runtime_checkable
class SearchBot(Protocol):
    """A bot that plans by sampling worlds: it decides from an :class:`InformationSet`."""

    name: str

    def search(
        self, game: Game[Any, Any], info: InformationSet, legal: list[Action], rng: random.Random
    ) -> Action: ...


_SEARCHES: dict[type, bool] = {}


def is_search_bot(bot: Bot) -> TypeGuard[SearchBot]:
    """Whether ``bot`` is a :class:`SearchBot`, decided once per class (a Protocol check
    per call cost about a tenth of a fast game's time)."""
    kind = type(bot)
    known = _SEARCHES.get(kind)
    if known is None:
        known = _SEARCHES[kind] = isinstance(bot, SearchBot)
    return known


def decide(bot: Bot, game: Game[Any, Any], state: State, seat: int, rng: random.Random) -> Action:
    """The action ``bot`` takes for ``seat`` in ``state``: the one call every surface uses.

    A plain bot sees the seat's view (if it asks for one) and the legal actions; a
    :class:`SearchBot` gets the seat's information set. Neither sees the state.

        >>> import potluck
        >>> game = potluck.load_game("cafe-carnage")
        >>> state = game.new_game(4, seed=1)
        >>> action = decide(make_agent(game, "greedy"), game, state, 0, random.Random(0))
        >>> action in game.legal_actions(state, 0)
        True
    """
    if is_search_bot(bot):
        legal = game.legal_actions(state, seat)
        return bot.search(game, InformationSet(game, state, seat), legal, rng)
    return choose_plain(bot, game, state, seat, rng)
