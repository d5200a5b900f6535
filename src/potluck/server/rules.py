"""Each game's rules as HTML: its summary and notation Markdown, rendered and sanitised.

The terminal prints the same Markdown (``potluck rules GAME``); here it goes through
markdown-it-py (CommonMark with tables) and then nh3, so that even a game's own text
cannot put a script or an event handler on the page.

    >>> from potluck.engine.registry import load_game
    >>> html = rules_html(load_game("burger-joint"))
    >>> "<h2" in html and "<script" not in html
    True
"""

from __future__ import annotations

import functools
import html
from typing import Any

import nh3
from markdown_it import MarkdownIt

from potluck.engine.game import Game
from potluck.engine.registry import load_game

_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")

#: What the rules may use: headings, lists, tables, code and emphasis; links only to http(s).
_TAGS = {
    *("h1", "h2", "h3", "h4", "p", "ul", "ol", "li", "em", "strong", "code", "pre"),
    *("table", "thead", "tbody", "tr", "th", "td", "blockquote", "hr", "br", "a"),
}


def players_words(game: Game[Any, Any]) -> str:
    """``"2 players"`` or ``"4-6 players"``."""
    low, high = game.min_players, game.max_players
    return f"{low} players" if low == high else f"{low}-{high} players"


def markdown_html(text: str) -> str:
    """Markdown to sanitised HTML: no raw HTML, scripts, styles or event handlers survive."""
    return nh3.clean(
        _MARKDOWN.render(text),
        tags=_TAGS,
        attributes={"a": {"href", "title"}, "td": {"style"}, "th": {"style"}},
        url_schemes={"http", "https"},
        filter_style_properties={"text-align"},
    )


def rules_html(game: Game[Any, Any]) -> str:
    """The game's summary, then its notation under a "Notation" heading, as safe HTML."""
    parts = [game.summary or "_This game has no summary yet._"]
    if game.notation:
        parts.append("## Notation\n\n" + game.notation)
    return markdown_html("\n\n".join(parts))


@functools.cache
def rules_of(game_id: str) -> dict[str, str]:
    """``{"game", "title", "players", "html"}`` for a registered game (computed once)."""
    game = load_game(game_id)
    return {
        "game": game_id,
        "title": game.title,
        "players": players_words(game),
        "html": rules_html(game),
    }


def rules_page_html(rules: dict[str, str]) -> str:
    """A whole page for one game's rules (``/rules/GAME``), styled like the others, no script."""
    title = html.escape(rules["title"])
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rules of {title} · Potluck</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/potluck.css">
</head>
<body data-page="rules">
<header class="top"><a href="/">Potluck</a><span class="where">Rules of {title}</span></header>
<main>
<article class="panel rules" id="rules">
{rules["html"]}
</article>
<p><a href="/">Back to the lobby</a></p>
</main>
</body>
</html>
"""
