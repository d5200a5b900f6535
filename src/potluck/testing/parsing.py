"""Action text: lenient with names, strict with numbers.

A parser may accept a card's full name, other letter case or extra spaces for a
canonical action text (its documented aliases), but never a number written
otherwise: ``-1``, ``+1``, ``1!``, ``(1)`` or ``1.0`` must not become the move
with ``1`` in it, because a typo must never become a move against another seat.

    >>> import potluck
    >>> from potluck.testing.parsing import check_number_typos_refused, number_typos
    >>> number_typos("vote 1")[:3]
    ['vote -1', 'vote +1', 'vote 1!']
    >>> g = potluck.load_game("burger-joint")
    >>> check_number_typos_refused(g, g.new_game(2, seed=1))
"""

from __future__ import annotations

from potluck.engine.action import Action
from potluck.engine.errors import PotluckError
from potluck.engine.state import State
from potluck.testing.checks import AnyGame, where

#: How a number may be mistyped: each turns ``1`` into text that is not ``1``.
NUMBER_TYPOS = ("-{}", "+{}", "{}!", "({})", "{}.0", "{},", "#{}", "{}?", "{}-", "0{}")


def number_tokens(text: str) -> list[str]:
    """The words of ``text`` (split on spaces, lower case) that hold a digit.

    >>> number_tokens("Offer Spicy Corner to 2 for 150"), number_tokens("vote (1)")
    (['2', '150'], ['(1)'])
    """
    return [word for word in text.lower().split() if any(c.isdigit() for c in word)]


def number_typos(text: str) -> list[str]:
    """``text`` with each of its numbers mistyped in each way of ``NUMBER_TYPOS``."""
    words = text.split(" ")
    typos = []
    for i, word in enumerate(words):
        if word.isdigit():
            for typo in NUMBER_TYPOS:
                typos.append(" ".join([*words[:i], typo.format(word), *words[i + 1 :]]))
    return typos


def check_parsed_text_is_an_alias(game: AnyGame, state: State, seat: int, text: str) -> None:
    """``text`` is refused with a ``PotluckError`` or parses to an action whose canonical
    text has exactly the same numbers, written the same way."""
    try:
        action: Action = game.parse_action(state, seat, text)
    except PotluckError:
        return
    if number_tokens(text) != number_tokens(str(action)):
        raise AssertionError(
            f"{text!r} was read as {str(action)!r} ({where(game, state, seat)}): "
            "a number written otherwise must be refused, not folded into a move"
        )


def check_number_typos_refused(game: AnyGame, state: State) -> None:
    """Every legal action of every seat to act, with a number mistyped, is refused."""
    for seat in game.to_act(state):
        for action in game.legal_actions(state, seat):
            for typo in number_typos(str(action)):
                check_parsed_text_is_an_alias(game, state, seat, typo)
