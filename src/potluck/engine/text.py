"""Text helpers shared by the games' notations."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

_SEPARATORS = re.compile(r"[^a-z0-9]+")
#: A word already in notation: letters and digits, joined by single dashes.
_NOTATION = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def slugify(name: str) -> str:
    """A card's notation: its name in lower case, accents and apostrophes dropped,
    ``&`` read as "and", words joined by '-'.

    >>> slugify("Rhubarb & Apple Pie"), slugify("Crème Brûlée"), slugify("Bull's eye")
    ('rhubarb-and-apple-pie', 'creme-brulee', 'bulls-eye')

    Only names are folded, never numbers: punctuation that touches a digit (a
    sign, a decimal point, a bracket, an exclamation mark) is kept as written,
    so a typo such as ``-1`` or ``(1)`` can never read as the seat number ``1``:

    >>> slugify("-1"), slugify("+1"), slugify("1!"), slugify("(1)"), slugify("1.0")
    ('-1', '+1', '1!', '(1)', '1.0')
    >>> slugify("Route 66"), slugify("Pizza-2-Go")
    ('route-66', 'pizza-2-go')
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    text = ascii_name.replace("'", "").replace("&", " and ").lower()
    pieces: list[str] = []
    position = 0
    for run in _SEPARATORS.finditer(text):
        pieces.append(text[position : run.start()])
        position = run.end()
        pieces.append(_fold_separator(text, run.start(), run.end()))
    pieces.append(text[position:])
    return "".join(pieces)


def _fold_separator(text: str, start: int, end: int) -> str:
    """What a run of non-alphanumeric characters becomes: '-' between words, nothing
    at either end, and itself (spaces dropped) where it is part of a number."""
    run = text[start:end]
    marks = "".join(run.split())
    at_edge = start == 0 or end == len(text)
    touches_digit = (start > 0 and text[start - 1].isdigit()) or (
        end < len(text) and text[end].isdigit()
    )
    if touches_digit and marks and (at_edge or marks != "-"):
        return marks
    return "" if at_edge else "-"


def numbers_as_written(words: list[str]) -> bool:
    """Whether every word holding a digit is already its own notation (``2``, ``7-up``).

    Parsers fold loose card names into notation (``Oat Flakes`` -> ``oat-flakes``) but
    must never fold a number: ``-1``, ``+1``, ``1!`` or ``(1)`` would otherwise become a
    move against seat 1. A word with a digit that folding would change is refused.

    >>> numbers_as_written(["vote", "2"]), numbers_as_written(["vote", "-2"])
    (True, False)
    """
    return all(_NOTATION.fullmatch(word) for word in words if any(c.isdigit() for c in word))


#: Unicode categories no text a person writes may hold: control characters (NUL, BEL,
#: ESC, which drive terminals), invisible formatting (bidirectional overrides such as
#: U+202E, zero-width joiners), surrogates, private-use and unassigned code points, and
#: line or paragraph separators. Each would let a name disguise itself, reorder what a
#: screen shows around it, or send commands to another player's terminal.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def written_text_problem(text: str, what: str = "A name") -> str | None:
    """Why ``text``, written by a player (a name, a product's name or tagline), may not
    be shown to the others; ``None`` if it may. One check for every such text.

    >>> written_text_problem("Ann") is None, written_text_problem("Crème brûlée") is None
    (True, True)
    >>> written_text_problem("A\\x1b[2Jnn")
    'A name may not hold the invisible or control character U+001B.'
    >>> written_text_problem("evil\\u202etxt", "A tagline")
    'A tagline may not hold the invisible or control character U+202E.'
    """
    for char in text:
        if unicodedata.category(char) in HIDDEN_CATEGORIES:
            return f"{what} may not hold the invisible or control character U+{ord(char):04X}."
    return None


def seats_text(seats: Sequence[int]) -> str:
    """``[2]`` -> ``"seat 2"``, ``[0, 1, 3]`` -> ``"seats 0, 1 and 3"``: seats in a sentence,
    in the form front ends replace by names (``potluck.renderers.names``).

    >>> seats_text([1]), seats_text([0, 2]), seats_text([])
    ('seat 1', 'seats 0 and 2', 'nobody')
    """
    if not seats:
        return "nobody"
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"
