"""Playing at the terminal: humans and bots at one table.

Each human sees only their own seat's view, players by name ("you" for themselves). A
decision's screen fits the terminal (80x24 included) without paging: the game's screen
is fitted (its less needed parts shortened or left out, ``table`` shows them all), and
where the moves are more than the screen holds, moves that share their first words fold
into groups a letter opens (``potluck.cli.menu``). With several humans at one terminal,
the screen is cleared and a hand-over prompt ("Pass to Ann, press Enter") shown before
each one's turn, so nobody sees another's secrets; what happened since their last turn is
then repeated for them. Bots act at once, through the same ``Bot.choose`` the simulator
uses.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.text import Text

from potluck.agents import decide, make_agent
from potluck.cli.common import CliError
from potluck.cli.menu import Choice, MoveMenu
from potluck.cli.render import outcome_table, view_sections
from potluck.engine.action import Action
from potluck.engine.bots import Bot
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.sealed import SealedChoices
from potluck.renderers.names import Namer
from potluck.renderers.screen import fit, height, whole
from potluck.sim import bot_rng

__all__ = ["PlaySession", "Player", "SealedChoices", "parse_seats"]

#: Seat specs that mean "a person at this terminal".
HUMAN_WORDS = ("you", "human")


@dataclass(slots=True)
class Player:
    """Who sits in a seat: a human (``bot is None``) or a bot with its own generator."""

    seat: int
    name: str
    bot: Bot | None = None
    rng: random.Random | None = None

    @property
    def human(self) -> bool:
        return self.bot is None

    @property
    def label(self) -> str:
        """How everyone else calls this player: their name, or ``Bot 3 (greedy)`` (seats
        counted from 1), so the log, the menus and the result say which seats a bot plays."""
        if self.bot is not None:
            return f"Bot {self.seat + 1} ({self.name.split(':', 1)[0]})"
        if self.name.lower() in HUMAN_WORDS:
            return "You" if self.name.lower() == "you" else f"Player {self.seat + 1}"
        return self.name


def parse_seats(game: Game[Any, Any], specs: Sequence[str], seed: int) -> list[Player]:
    """``["you", "greedy", "human:Ann", "ismcts:sims=500"]`` -> one :class:`Player` per seat.

    A spec is ``you``, ``human`` or ``human:NAME`` for a person, or a bot spec
    (``name`` or ``name:key=value,...``, see ``potluck bots GAME``).
    """
    players = []
    for seat, spec in enumerate(specs):
        word, _, name = spec.partition(":")
        if word.lower() in HUMAN_WORDS:
            who = name.strip() or ("you" if word.lower() == "you" else "human")
            players.append(Player(seat, who))
            continue
        try:
            bot = make_agent(game, spec)
        except PotluckError as error:
            raise CliError(
                f"seat {seat + 1}, {spec!r}: give you, human, human:NAME or a bot spec; {error}"
            ) from None
        players.append(Player(seat, spec, bot, bot_rng(seed, seat)))
    return players


#: Clear the screen, home the cursor, then clear the scrollback (xterm's ED 3), so that the
#: next player cannot scroll back to the previous player's hand.
CLEAR_ALL = "\x1b[H\x1b[2J\x1b[3J"


def clear_screen_and_scrollback(console: Console) -> None:
    """Wipe what a hot-seat player saw, scrollback included, before the next one looks."""
    if console.is_terminal:
        console.file.write(CLEAR_ALL)
        console.file.flush()
    else:
        console.clear()


#: At most this many lines of "Since your last turn" (the rest scrolled by while others played).
MISSED_LINES = 4
#: Lines kept for the game's screen's optional parts before the moves take the rest.
VIEW_RESERVE = 6
#: Lines the moves get at least (the game's screen gives way for them).
MOVES_AT_LEAST = 8


class _QuitError(Exception):
    """The human typed quit (or closed the input)."""


class PlaySession:
    """One game at the terminal; :meth:`run` plays it to the end or until someone quits."""

    def __init__(
        self, game: Game[Any, Any], players: Sequence[Player], state: Any, console: Console
    ) -> None:
        self.game = game
        self.players = list(players)
        self.state = state
        self.console = console
        self.humans = [seat for seat, player in enumerate(players) if player.human]
        self.names = [player.label for player in self.players]
        # What happened, as (seat that acted, the engine's words for it, sealed) triples.
        self.events: list[tuple[int, str, bool]] = []
        # Per human seat: how many events they have been shown (for the recap after hand-over).
        self.seen: dict[int, int] = dict.fromkeys(self.humans, 0)
        self.at_screen: int | None = None
        self.sealed = SealedChoices()

    @property
    def hand_over(self) -> bool:
        """Several humans share the screen, so each turn starts with a hand-over."""
        return len(self.humans) > 1

    def namer(self, seat: int | None) -> Namer:
        """The players' names as ``seat`` sees them ("you" for itself)."""
        return Namer(self.names, seat)

    def run(self) -> bool:
        """Play until the game ends (``True``) or a human quits (``False``)."""
        game, state = self.game, self.state
        try:
            while acting := game.to_act(state):
                seat = acting[0]
                secret = self.sealed.is_sealed(acting, seat)
                player = self.players[seat]
                action = self._human_turn(seat) if player.human else self._bot_turn(seat, player)
                words = game.describe_action(state, seat, action)
                game.step(state, seat, action)
                self._event(seat, words, secret)
        except (_QuitError, typer.Abort):
            self.console.print(f"\nGame abandoned after {len(state.history)} actions.")
            return False
        self._show_end()
        return True

    # ------------------------------------------------------------------ turns

    def _bot_turn(self, seat: int, player: Player) -> Action:
        assert player.bot is not None  # only bots' turns come here
        assert player.rng is not None
        return decide(player.bot, self.game, self.state, seat, player.rng)

    def _human_turn(self, seat: int) -> Action:
        game, state, console = self.game, self.state, self.console
        namer = self.namer(seat)
        recap: list[str] = []
        if self.hand_over and self.at_screen != seat:
            clear_screen_and_scrollback(console)
            typer.prompt(
                f"Pass to {self.names[seat]} (seat {seat + 1}), press Enter",
                default="",
                show_default=False,
            )
            clear_screen_and_scrollback(console)
            missed = [e for e in self.events[self.seen[seat] :] if e[0] != seat]
            recap = [self._event_line(e, namer) for e in missed][-MISSED_LINES:]
        self.at_screen = seat
        self.seen[seat] = len(self.events)
        legal = game.legal_actions(state, seat)
        menu = MoveMenu(legal, lambda action: namer.text(game.describe_action(state, seat, action)))
        choices = self._turn_screen(seat, menu, recap)
        prompt = "Your move" if not self.hand_over else f"{self.names[seat]}, your move"
        while True:
            letters = ", a letter" if any(c.is_group for c in choices) else ""
            answer = typer.prompt(f"{prompt} (a number{letters}, help, table or quit)").strip()
            command = answer.lower()
            if command in ("quit", "exit"):
                raise _QuitError
            if command in ("help", "?"):
                self._help(menu)
                continue
            if command in ("table", "t"):
                console.print(whole(view_sections(game, game.view(state, seat), namer)))
                self._print_choices(choices)
                continue
            if command in ("", "back", "0"):
                choices = self._turn_screen(seat, menu, [])
                continue
            group = next((c for c in choices if c.is_group and c.key == command), None)
            if group is not None:
                choices = self._group_screen(menu, group)
                continue
            try:
                action = self._choose(seat, answer, legal)
            except PotluckError as error:
                console.print(f"[red]{escape(namer.text(str(error)))}[/]")
                continue
            console.print(
                f"You chose: {escape(namer.text(game.describe_action(state, seat, action)))}"
            )
            return action

    def _choose(self, seat: int, answer: str, legal: Sequence[Action]) -> Action:
        """The action a human's answer names: a number from the list or notation."""
        if answer.isdigit():
            number = int(answer)
            if not 1 <= number <= len(legal):
                raise CliError(f"choose a number from 1 to {len(legal)}")
            return legal[number - 1]
        action: Action = self.game.parse_action(self.state, seat, answer)
        reason = self.game.explain(self.state, seat, action)
        if reason is not None:
            raise CliError(reason)
        return action

    # ------------------------------------------------------------------ the screens

    def _turn_screen(self, seat: int, menu: MoveMenu, recap: list[str]) -> list[Choice]:
        """Draw a decision's screen, fitted to the terminal: a rule, what happened since the
        player's last turn (hot seat), the game's screen and the moves; returns the moves'
        choices. Nothing pages: the game's less needed parts give way first, then the moves
        fold into groups."""
        game, state, console = self.game, self.state, self.console
        namer = self.namer(seat)
        sections = view_sections(game, game.view(state, seat), namer)
        budget = max(console.height - 1, 10) if console.is_terminal else 10**6
        width = console.width
        essential = sum(height(console, s.body) for s in sections if s.rank == 0)
        optional = sum(height(console, s.short or s.body) for s in sections if s.rank > 0)
        every_move = sum(menu.lines_of(text, width) for text in menu.texts) + 1
        room = max(
            budget - 2 - len(recap) - essential - min(VIEW_RESERVE, optional),
            min(every_move - 1, MOVES_AT_LEAST),
        )
        choices = menu.choices(range(len(menu.legal)), max(room - 1, 3), width)
        moves_height = 1 + sum(menu.lines_of(c.text, width) for c in choices)
        shown, left_out = fit(console, sections, budget - 2 - len(recap) - moves_height)
        # what the game's screen could not give up: the moves fold further instead
        room = budget - 1 - len(recap) - height(console, shown) - (1 if left_out else 0)
        if moves_height > room:
            choices = menu.choices(range(len(menu.legal)), max(room - 1, 1), width)
        console.rule(f"{escape(self._title(seat))}")
        for line in recap:
            console.print(Text(line, style="dim"))
        console.print(shown)
        if left_out:
            console.print(Text(f"More with table: {', '.join(left_out)}", style="dim"))
        self._print_choices(choices, every_move > moves_height)
        return choices

    def _group_screen(self, menu: MoveMenu, group: Choice) -> list[Choice]:
        """The moves of one folded group, on a screen of their own."""
        console = self.console
        budget = max(console.height - 1, 10) if console.is_terminal else 10**6
        title = re.sub(r"\s*…\s*\(\d+ moves\)$", "", group.text)
        console.rule()
        console.print(Text(f"{title}:", style="bold"))
        lines = budget - 3 - height(console, Text(f"{title}:"))
        choices = menu.choices(group.moves, lines, console.width, strip=True)
        self._print_choices(choices, False)
        console.print(Text("Enter: back to every move", style="dim"))
        return choices

    def _print_choices(self, choices: list[Choice], folded: bool = False) -> None:
        title = "Your moves" + (" (a letter opens a group):" if folded else ":")
        self.console.print(Text(title, style="bold"))
        for choice in choices:
            line = Text(f"{choice.key:>4}  ", style="cyan")
            line.append(choice.text)
            self.console.print(line, overflow="fold")

    def _title(self, seat: int) -> str:
        you = "your move" if not self.hand_over else f"{self.names[seat]}'s move"
        return f"{self.game.title}: {you}"

    def _help(self, menu: MoveMenu) -> None:
        game, console = self.game, self.console
        if game.summary:
            console.print(Markdown(game.summary))
        if game.notation:
            console.rule("Notation")
            console.print(Markdown(game.notation))
        console.rule("Your moves in notation")
        for number, (action, text) in enumerate(zip(menu.legal, menu.texts, strict=True), 1):
            console.print(f"[cyan]{number:>4}[/]  {escape(str(action))}  [dim]{escape(text)}[/]")
        console.print(
            "Type a move's number, a letter to open a group of moves, or a move's notation; "
            "[bold]table[/] shows the whole table, [bold]help[/] this, [bold]quit[/] ends the "
            "game (its record is kept only if you ask)."
        )

    # ------------------------------------------------------------------ telling what happened

    def _event_line(self, event: tuple[int, str, bool], namer: Namer) -> str:
        seat, words, secret = event
        who = namer.name(seat, start=True)
        return f"{who} made a sealed choice." if secret else f"{who}: {namer.text(words)}"

    def _event(self, seat: int, words: str, secret: bool) -> None:
        self.events.append((seat, words, secret))
        if not self.players[seat].human:
            viewer = self.humans[0] if len(self.humans) == 1 else None
            self.console.print(escape(self._event_line((seat, words, secret), self.namer(viewer))))

    def _show_end(self) -> None:
        game, state, console = self.game, self.state, self.console
        if self.hand_over:
            clear_screen_and_scrollback(console)
        # With one human the final view is theirs; otherwise everyone watches as spectators.
        seat = self.humans[0] if len(self.humans) == 1 else None
        namer = self.namer(seat)
        outcome = game.outcome(state)
        reason = namer.text(outcome.reason)
        with console.capture() as screen:
            console.rule("Game over")
            console.print(whole(view_sections(game, game.view(state, seat), namer)))
        table = screen.get()
        # The view often ends with the outcome's reason: say who won once.
        said = " ".join(reason.split()) in " ".join(table.split())
        names = [namer.name(s, start=True) for s in range(len(self.players))]
        console.file.write(table)
        console.print(outcome_table(outcome, names, reason=False if said else reason))
