"""Bots: the players the engine supplies. They choose from what their seat may see."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from potluck.engine.action import Action
from potluck.engine.chance import uniform

#: The ``Game`` a bot plays. Typed loosely on purpose: ``potluck.engine.game`` imports
#: this module (for ``RandomBot``), so this one must not import it back; a game's own
#: bots annotate the parameter with their game's class.
AnyGame = Any


class Bot(Protocol):
    """A policy for one seat.

    ``choose`` receives the seat's view (``None`` when ``needs_view`` is false,
    which spares building it), the legal actions and a generator for the bot's
    own randomness. It never sees the state. A bot whose class sets
    ``compact_view = True`` receives the game's ``bot_view`` instead of the whole
    view: the entries of the view that the game's own bots read, equal to the view's,
    or a typed object built from them (the conformance suite holds them so), built
    without the rest (see :func:`bot_input`); such a bot also takes the whole view.
    """

    name: str
    needs_view: bool

    def choose(
        self,
        game: AnyGame,
        view: Mapping[str, Any] | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions.

    >>> import potluck, random
    >>> g = potluck.load_game("cafe-carnage")
    >>> s = g.new_game(4, seed=1)
    >>> bot = RandomBot()
    >>> a = bot.choose(g, None, 0, g.legal_actions(s, 0), random.Random(0))
    >>> a in g.legal_actions(s, 0)
    True
    """

    name = "random"
    needs_view = False
    #: The spec that built this bot (``build_bot`` and ``make_agent`` set it): declared,
    #: because a compiled class takes no attribute it does not declare.
    spec = "random"

    def choose(
        self,
        game: AnyGame,
        view: Mapping[str, Any] | None,
        seat: int,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        # ``rng.random()``, drawn without looking the method up (``chance.uniform``).
        return legal[int(uniform(rng) * len(legal))]


class EarlyChooser:
    """A bot that settles some decisions from its seat's input alone (``bot_input``),
    before the legal actions are listed: :func:`choose_plain` asks ``choose_early``
    first and lists them only when it answers ``None``.

    Listing them can be most of a decision's cost (Belly Battle's window deals, every
    card's sales and offers, were about a quarter of a greedy game, issue 36) while the
    bot often passes on a glance at its own cash. ``choose_early`` must answer only what
    ``choose`` takes from the same input and the legal list (each game's tests hold the
    two equal over random states), so every surface sees the same moves.
    """

    def choose_early(self, game: AnyGame, seen: Any, seat: int) -> Action | None:
        """The action ``choose`` would take from ``seen`` whatever the legal list, or
        ``None`` when it needs the list."""
        return None


def choose_plain(bot: Bot, game: AnyGame, state: Any, seat: int, rng: random.Random) -> Action:
    """The action a bot that does not search takes for ``seat`` in ``state``:
    ``bot.choose`` on its input (``bot_input``) and the legal actions, or an
    :class:`EarlyChooser`'s early answer without listing them (``potluck.agents.decide``).

        >>> import potluck
        >>> game = potluck.load_game("belly-battle")
        >>> state = game.new_game(2, seed=1)
        >>> choose_plain(RandomBot(), game, state, 0, random.Random(0)) in (
        ...     game.legal_actions(state, 0))
        True
    """
    if isinstance(bot, RandomBot) and not bot.needs_view:
        # Narrowed, so the compiled bot's own method is called directly (a random
        # playout asks at every move, and reads no view).
        return bot.choose(game, None, seat, game.legal_actions(state, seat), rng)
    return choose_seen(bot, game, state, seat, rng, bot_input(bot, game, state, seat))


def choose_seen(
    bot: Bot, game: AnyGame, state: Any, seat: int, rng: random.Random, seen: Any
) -> Action:
    """``choose_plain``'s answer once the bot's input ``seen`` is built: the early answer
    of an :class:`EarlyChooser`, else ``bot.choose`` on the legal actions (the benchmark
    calls it to time the input apart from the thought).

        >>> import potluck
        >>> game = potluck.load_game("belly-battle")
        >>> state = game.new_game(2, seed=1)
        >>> bot = game.make_bot("greedy")
        >>> seen = bot_input(bot, game, state, 0)
        >>> choose_seen(bot, game, state, 0, random.Random(0), seen) == choose_plain(
        ...     bot, game, state, 0, random.Random(0))
        True
    """
    if isinstance(bot, EarlyChooser):
        early = bot.choose_early(game, seen, seat)
        if early is not None:
            return early
    return bot.choose(game, seen, seat, game.legal_actions(state, seat), rng)


class PlainChooser:
    """:func:`choose_plain` for one bot in one game, its dispatch settled once: what the
    bot reads (``view_reader``), whether it answers early (:class:`EarlyChooser`) and its
    bound methods are looked up when it is made, not at every move. A loop that asks the
    same bot again and again (``potluck.sim.play_game``, the benchmark) calls it instead
    (issue 36: that is 2-7% more greedy games a CPU second, Belly Battle and Café Carnage
    most); it chooses what ``choose_plain`` chooses (``tests/test_plain_chooser.py``).

        >>> import potluck
        >>> game = potluck.load_game("belly-battle")
        >>> state = game.new_game(2, seed=1)
        >>> bot = game.make_bot("greedy")
        >>> chooser = PlainChooser(bot, game)
        >>> chooser(state, 0, random.Random(0)) == choose_plain(
        ...     bot, game, state, 0, random.Random(0))
        True
    """

    def __init__(self, bot: Bot, game: AnyGame) -> None:
        self.game = game
        self.read = view_reader(bot, game)
        self.early: Callable[[AnyGame, Any, int], Action | None] | None = (
            bot.choose_early if isinstance(bot, EarlyChooser) else None
        )
        self.choose: Callable[[AnyGame, Any, int, Sequence[Action], random.Random], Action] = (
            bot.choose
        )
        self.legal_actions: Callable[[Any, int], Sequence[Action]] = game.legal_actions

    def __call__(self, state: Any, seat: int, rng: random.Random) -> Action:
        """The action the bot takes for ``seat`` in ``state`` (``choose_plain``'s)."""
        read = self.read
        seen = None if read is None else read(state, seat)
        early = self.early
        if early is not None:
            action = early(self.game, seen, seat)
            if action is not None:
                return action
        return self.choose(self.game, seen, seat, self.legal_actions(state, seat), rng)


def bot_input(bot: Bot, game: AnyGame, state: Any, seat: int) -> Any:
    """What ``bot`` reads for ``seat`` besides the legal actions: nothing (``needs_view``
    false), the game's ``bot_view`` (a bot that sets ``compact_view``) or the whole view.

        >>> import potluck
        >>> game = potluck.load_game("belly-battle")
        >>> state = game.new_game(2, seed=1)
        >>> bot_input(RandomBot(), game, state, 0) is None
        True
        >>> info = bot_input(game.make_bot("greedy"), game, state, 0)
        >>> info == game.bot_view_from_view(game.view(state, 0), 0)  # a typed object
        True
    """
    # ``view_reader``'s choice, made here without the bound method it returns: this runs
    # at every decision of ``decide``.
    if isinstance(bot, RandomBot):
        if not bot.needs_view:
            return None
    elif not bot.needs_view:
        return None
    if getattr(bot, "compact_view", False):
        return game.bot_view(state, seat)
    return game.view(state, seat)


def view_reader(bot: Bot, game: AnyGame) -> Callable[[Any, int], Any] | None:
    """The game's method that builds what ``bot`` reads (``bot_input``), or ``None``
    when it reads nothing: chosen once per bot where a loop asks for it every move.

        >>> import potluck
        >>> game = potluck.load_game("belly-battle")
        >>> view_reader(RandomBot(), game) is None
        True
        >>> view_reader(game.make_bot("greedy"), game).__name__
        'bot_view'
    """
    if isinstance(bot, RandomBot):
        # Read as the compiled class's own field, not looked up by name (a random
        # playout asks at every move).
        if not bot.needs_view:
            return None
    elif not bot.needs_view:
        return None
    if getattr(bot, "compact_view", False):
        compact: Callable[[Any, int], Any] = game.bot_view
        return compact
    whole: Callable[[Any, int], Mapping[str, Any]] = game.view
    return whole
