"""Playing at the terminal: humans and bots at one table.

Each human sees only their own seat's view. With several humans at one
terminal, the screen is cleared and a hand-over prompt ("Pass to seat 2,
press Enter") shown before each one's turn, so nobody sees another's secrets;
what happened since their last turn is then repeated for them. Bots act at
once, through the same ``Bot.choose`` the simulator uses.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import typer
from rich.columns import Columns
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape

from potluck.agents import decide, make_agent
from potluck.cli.common import CliError
from potluck.cli.render import outcome_table, render_view
from potluck.engine.action import Action
from potluck.engine.bots import Bot
from potluck.engine.errors import PotluckError
from potluck.engine.game import Game
from potluck.engine.sealed import SealedChoices
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
        """``"Seat 2 (greedy bot)"``, ``"Seat 0 (you)"``: how the table refers to this player,
        saying which seats a bot plays (in the log, the menus and the result)."""
        bot = self.bot is not None and "bot" not in self.name.lower()
        return f"Seat {self.seat} ({self.name}{' bot' if bot else ''})"


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
                f"seat {seat}, {spec!r}: give you, human, human:NAME or a bot spec; {error}"
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


#: More legal actions than this are listed in columns, without their descriptions.
MANY_ACTIONS = 12

#: At most this many lines of "Since your last turn" (the rest scrolled by while others played).
MISSED_LINES = 8


def show_paged(console: Console, text: str) -> None:
    """Print ``text``; at a terminal too short for it, a screenful at a time.

    Each page leaves a line for the prompt under it (Enter for the next page), so
    that a turn's screen reads on an 80x24 terminal without scrolling back.
    """
    lines = text.splitlines()
    page = max(console.height - 1, 5)
    if not console.is_terminal or len(lines) < console.height:
        console.file.write(text)
        console.file.flush()
        return
    for start in range(0, len(lines), page):
        chunk = lines[start : start + page]
        console.file.write("\n".join(chunk) + "\n")
        console.file.flush()
        left = len(lines) - start - len(chunk)
        if left > 0:
            typer.prompt(
                f"-- {left} more lines: press Enter --",
                default="",
                show_default=False,
                prompt_suffix=" ",
            )


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
        # What happened, as (seat that acted, public text) pairs.
        self.events: list[tuple[int, str]] = []
        # Per human seat: how many events they have been shown (for the recap after hand-over).
        self.seen: dict[int, int] = dict.fromkeys(self.humans, 0)
        self.at_screen: int | None = None
        self.sealed = SealedChoices()

    @property
    def hand_over(self) -> bool:
        """Several humans share the screen, so each turn starts with a hand-over."""
        return len(self.humans) > 1

    def run(self) -> bool:
        """Play until the game ends (``True``) or a human quits (``False``)."""
        game, state = self.game, self.state
        try:
            while acting := game.to_act(state):
                seat = acting[0]
                secret = self.sealed.is_sealed(acting, seat)
                player = self.players[seat]
                action = self._human_turn(seat) if player.human else self._bot_turn(seat, player)
                game.step(state, seat, action)
                self._event(seat, action, secret)
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
        player = self.players[seat]
        label = player.label
        if self.hand_over and self.at_screen != seat:
            clear_screen_and_scrollback(console)
            typer.prompt(
                f"Pass to seat {seat} ({player.name}), press Enter", default="", show_default=False
            )
            clear_screen_and_scrollback(console)
            missed = [line for actor, line in self.events[self.seen[seat] :] if actor != seat]
            if missed:
                console.print("[bold]Since your last turn:[/]")
                for line in missed[-MISSED_LINES:]:
                    console.print(f"  {escape(line)}")
        self.at_screen = seat
        self.seen[seat] = len(self.events)
        legal = game.legal_actions(state, seat)
        show_paged(console, self._turn_screen(seat, legal))
        while True:
            answer = typer.prompt(f"{label} (number, notation, help or quit)").strip()
            command = answer.lower()
            if command in ("quit", "exit"):
                raise _QuitError
            if command in ("help", "?"):
                self._help()
                self._list_actions(state, seat, legal)
                continue
            try:
                action = self._choose(seat, answer, legal)
            except PotluckError as error:
                console.print(f"[red]{escape(str(error))}[/]")
                continue
            console.print(f"You chose [bold]{escape(str(action))}[/].")
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

    def _turn_screen(self, seat: int, legal: Sequence[Action]) -> str:
        """The turn's screen: the view, then the moves, folded until it fits the terminal.

        Each move on its own line with its description, wrapped; where that is too tall,
        one line each, cut at the terminal's edge; where even that is too tall, numbers and
        notation in columns. Only what is still taller than a screen is paged.
        """
        game, state, console = self.game, self.state, self.console
        text = ""
        for fold in range(3):
            with console.capture() as screen:
                console.rule(f"{escape(self.players[seat].label)} to act")
                console.print(render_view(game, game.view(state, seat), seat))
                self._list_actions(state, seat, legal, fold)
            text = screen.get()
            if not console.is_terminal or len(text.splitlines()) < console.height:
                break
        return text

    def _list_actions(self, state: Any, seat: int, legal: Sequence[Action], fold: int = 0) -> None:
        """The numbered moves; ``fold`` 1 cuts each at the edge, 2 lists notation in columns."""
        if len(legal) > MANY_ACTIONS or fold >= 2:
            # Too many for one line each: their numbers and notation in columns.
            cells = [f"[cyan]{number:>3}[/] {escape(str(a))}" for number, a in enumerate(legal, 1)]
            self.console.print(Columns(cells, column_first=True, padding=(0, 2)))
            return
        for number, action in enumerate(legal, 1):
            text = str(action)
            described = self.game.describe_action(state, seat, action)
            extra = f"  [dim]{escape(described)}[/]" if described != text else ""
            line = f"  [cyan]{number:>3}[/]  {escape(text)}{extra}"
            if fold:
                self.console.print(line, no_wrap=True, overflow="ellipsis")
            else:
                self.console.print(line)

    def _help(self) -> None:
        game, console = self.game, self.console
        if game.summary:
            console.print(Markdown(game.summary))
        if game.notation:
            console.rule("Notation")
            console.print(Markdown(game.notation))
        console.print(
            "Type an action's number or its notation; [bold]help[/] shows this, "
            "[bold]quit[/] ends the game (its record is kept only if you ask)."
        )

    # ------------------------------------------------------------------ telling what happened

    def _event(self, seat: int, action: Action, secret: bool) -> None:
        label = self.players[seat].label
        line = f"{label} made a sealed choice." if secret else f"{label}: {action}"
        self.events.append((seat, line))
        if not self.players[seat].human:
            self.console.print(escape(line))

    def _show_end(self) -> None:
        game, state, console = self.game, self.state, self.console
        if self.hand_over:
            clear_screen_and_scrollback(console)
        # With one human the final view is theirs; otherwise everyone watches as spectators.
        seat = self.humans[0] if len(self.humans) == 1 else None
        outcome = game.outcome(state)
        with console.capture() as screen:
            console.rule("Game over")
            console.print(render_view(game, game.view(state, seat), seat))
        table = screen.get()
        # The view's log often ends with the outcome's reason: say who won once.
        said = " ".join(outcome.reason.split()) in " ".join(table.split())
        with console.capture() as result:
            console.print(outcome_table(outcome, [p.label for p in self.players], reason=not said))
        show_paged(console, table + result.get())
