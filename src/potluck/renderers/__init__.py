"""Terminal renderers for the games that draw their own screen (by game id).

They live beside the rules, never in them: the rules core knows nothing of Rich.
The CLI and the adapters' ANSI output (``potluck.interop.table``) both draw with
them, so neither has to import the other. ``potluck.cli.renderers`` is kept as an
alias for older imports.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import RenderableType

ViewRenderer = Callable[[Mapping[str, Any]], RenderableType]

_RENDERERS = {
    "belle-of-the-ball": "potluck.renderers.belle_of_the_ball:render",
    "belly-battle": "potluck.renderers.belly_battle:render",
    "burger-joint": "potluck.renderers.burger_joint:render",
    "cafe-carnage": "potluck.renderers.cafe_carnage:render",
    "food-advice": "potluck.renderers.food_advice:render",
}


def sections_for(game_id: str) -> Any:
    """The game's screen as sections for one seat, ``sections(view, namer)`` (see
    ``potluck.renderers.screen``), if it has them."""
    target = _RENDERERS.get(game_id)
    if target is None:
        return None
    module, _, _name = target.partition(":")
    return getattr(importlib.import_module(module), "sections", None)


def renderer_for(game_id: str) -> ViewRenderer | None:
    """The terminal renderer written for ``game_id``, if there is one."""
    target = _RENDERERS.get(game_id)
    if target is None:
        return None
    module, _, name = target.partition(":")
    renderer: ViewRenderer = getattr(importlib.import_module(module), name)
    return renderer
