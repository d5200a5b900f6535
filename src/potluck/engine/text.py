"""Text helpers shared by the games' notations."""

from __future__ import annotations

import re
import unicodedata


def slugify(name: str) -> str:
    """A card's notation: its name in lower case, accents and apostrophes dropped,
    ``&`` read as "and", words joined by '-'.

    >>> slugify("Rhubarb & Apple Pie"), slugify("Crème Brûlée"), slugify("Bull's eye")
    ('rhubarb-and-apple-pie', 'creme-brulee', 'bulls-eye')
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    ascii_name = ascii_name.replace("'", "").replace("&", " and ")
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


def numbers_as_written(words: list[str]) -> bool:
    """Whether every word holding a digit is already its own notation (``2``, ``7-up``).

    Parsers fold loose card names into notation (``Oat Flakes`` -> ``oat-flakes``) but
    must never fold a number: ``-1``, ``+1``, ``1!`` or ``(1)`` would otherwise become a
    move against seat 1. A word with a digit that folding would change is refused.

    >>> numbers_as_written(["vote", "2"]), numbers_as_written(["vote", "-2"])
    (True, False)
    """
    return all(slugify(word) == word for word in words if any(c.isdigit() for c in word))
