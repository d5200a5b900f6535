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
