"""Players by name in the engine's sentences: "Seat 1 buys Momo Mia." read by Ann as
"You buy Momo Mia." and by everyone else as "Bob buys Momo Mia."

The engine's texts (log lines, outcome reasons, action descriptions, ``explain``
reasons) name a seat as ``seat N`` or ``Seat N``, N counted from 0 as in the
notation, and several as ``seats 0, 2`` or ``seats 0 and 2``. A front end shows
names instead: :class:`Namer` rewrites each reference to the seat's name, ``you``
for the player looking (``You`` at the start of a clause, with the verb that
follows in the second person: "You owe 10 to Bob"), ``your`` for a possessive.
The browser's ``potluck.js`` does the same (``Potluck.namer``); both are checked
against the cases in ``tests/data/naming.json``.

    >>> namer = Namer(["Ann", "Bob"], you=0)
    >>> namer.text("Seat 0 owes 10 to seat 1 at Momo Mia.")
    'You owe 10 to Bob at Momo Mia.'
    >>> namer.text("Takeover: seat 1 rolls 9 to 4 and wins seat 0's Momo Mia.")
    'Takeover: Bob rolls 9 to 4 and wins your Momo Mia.'
    >>> Namer(["Ann", "Bob", "Cy"]).text("Seats 0, 2 share the win.")
    'Ann and Cy share the win.'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: ``seat 3``, ``Seat 3's`` and ``seats 0, 2`` / ``seats 0 and 2`` / ``seats 0, 1 and 2``;
#: never a range (``seats 0 to 3``), which names no one.
REFERENCE = re.compile(
    r"\b(?P<word>[Ss]eats?) (?P<numbers>\d+(?:(?:, |,? and )\d+)*)\b(?P<possessive>'s)?"
    r"(?! ?(?:to|-|–) ?\d)"
)
#: Where a sentence starts (a name there is capitalised: "You"), and where a clause does
#: (a seat named there is its subject: "Round 2: you roll 4+3").
SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)$")
CLAUSE_START = re.compile(r"(?:^|[.:;!?]\s+)$")
#: Verbs whose second person is not the third person without its ``s``.
IRREGULAR = {"is": "are", "was": "were", "has": "have", "does": "do", "goes": "go"}
#: Verbs that go on a sentence whose subject is "you" after "and", a comma, a colon or a
#: semicolon ("You roll 4 to 2, fail at Momo Mia and owe 20."); other words there stay.
MORE_VERBS = frozenset(
    {
        "is",
        "has",
        "wins",
        "owes",
        "lands",
        "pays",
        "fails",
        "stays",
        "takes",
        "scores",
        "gets",
        "loses",
        "earns",
        "buys",
        "sells",
        "gives",
        "receives",
        "keeps",
        "shares",
        "ties",
        "goes",
        "passes",
        "rolls",
    }
)
#: Marks a "You" that is a sentence's subject, until its verbs are put in the second person.
_SUBJECT = "\x00"
_YOU_SUBJECT = re.compile(
    _SUBJECT + r"([Yy]ou)(\s*\([^)]*\))?(\s+)([a-z]+)([^.!?" + _SUBJECT + "]*)"
)


def second_person(verb: str) -> str:
    """``buys`` -> ``buy``, ``passes`` -> ``pass``, ``is`` -> ``are``; other words as they are.

    >>> [second_person(v) for v in ("owes", "goes", "tries", "cannot", "went", "must")]
    ['owe', 'go', 'try', 'cannot', 'went', 'must']
    """
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if len(verb) > 3 and verb.endswith("ies"):
        return verb[:-3] + "y"
    if re.search(r"(?:ss|sh|ch|x|z|o)es$", verb):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith(("ss", "us", "is")) and len(verb) > 2:
        return verb[:-1]
    return verb


def join_names(names: Sequence[str]) -> str:
    """``["Ann", "Bob", "Cy"]`` -> ``"Ann, Bob and Cy"``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def plural(count: int, one: str, many: str | None = None) -> str:
    """``plural(1, "vote")`` -> ``"1 vote"``, ``plural(0, "vote")`` -> ``"0 votes"``."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


class Namer:
    """The names of a table's seats, as one player sees them (``you``: that player's
    seat, or ``None`` for a spectator); ``your_bot``: a bot plays that seat now."""

    def __init__(self, names: Sequence[str], you: int | None = None, *, your_bot: bool = False):
        self.names = list(names)
        self.you = you
        self.your_bot = your_bot

    def name(self, seat: int, *, start: bool = False) -> str:
        """The seat's name; ``start``: at the start of a sentence (``You``, ``Your bot``)."""
        if seat == self.you:
            word = "your bot" if self.your_bot else "you"
            return word[0].upper() + word[1:] if start else word
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return f"seat {seat + 1}"

    def possessive(self, seat: int, *, start: bool = False) -> str:
        """``your``, ``your bot's``, ``Ann's``."""
        if seat == self.you and not self.your_bot:
            return "Your" if start else "your"
        return self.name(seat, start=start) + "'s"

    def text(self, text: str) -> str:
        """``text`` with every seat it names by name (see the module's docstring)."""
        out: list[str] = []
        done = 0
        for found in REFERENCE.finditer(text):
            seats = [int(n) for n in re.split(r", and |, | and ", found["numbers"])]
            if any(not 0 <= s < len(self.names) for s in seats):
                continue
            out.append(text[done : found.start()])
            done = found.end()
            start = SENTENCE_START.search(text[: found.start()]) is not None
            subject = CLAUSE_START.search(text[: found.start()]) is not None
            if found["possessive"]:
                out.append(self.possessive(seats[0], start=start))
            elif len(seats) > 1:
                names = [self.name(s, start=start and i == 0) for i, s in enumerate(seats)]
                out.append(join_names(names))
            elif subject and seats[0] == self.you and not self.your_bot:
                out.append(_SUBJECT + ("You" if start else "you"))
            else:
                out.append(self.name(seats[0], start=start))
        out.append(text[done:])
        return _YOU_SUBJECT.sub(_second_person_clause, "".join(out))


def _second_person_clause(found: re.Match[str]) -> str:
    """A "You" subject's sentence with its verbs in the second person: the first word
    (after a parenthesis: "You (Burger) score") and the verbs that go on after "and", a
    comma, a colon or a semicolon."""
    rest = re.sub(
        r"((?:\band|[,:;]) )([a-z]+)",
        lambda m: m[1] + (second_person(m[2]) if m[2] in MORE_VERBS else m[2]),
        found[5],
    )
    return f"{found[1]}{found[2] or ''}{found[3]}{second_person(found[4])}{rest}"
