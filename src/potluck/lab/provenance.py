"""What a run was made with: the project's version and commit, every bot spec resolved
with all its defaults, and the libraries' versions. Kept in ``study.json`` and shown by
the report, so a figure can be traced to the code and the bots that made it.

    >>> from potluck.lab import parse_study
    >>> study = parse_study({"game": "cafe-carnage", "players": 4, "games": 1,
    ...                      "agents": ["ismcts:sims=100"]})
    >>> record = provenance(study)
    >>> record["bots"]["ismcts:sims=100"]  # doctest: +ELLIPSIS
    'ismcts:...sims=100...'
    >>> sorted(record)
    ['bots', 'commit', 'dirty', 'libraries', 'python', 'version']
"""

from __future__ import annotations

import platform
import subprocess
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from potluck.agents import agent_factories, effective_spec
from potluck.engine.botspec import BotSpec, bot_params
from potluck.engine.game import Game
from potluck.engine.registry import load_game

if TYPE_CHECKING:
    from potluck.lab.study import Study

__all__ = ["git_commit", "provenance", "resolved_spec"]

#: The libraries whose versions can change a figure (the engine's, the lab's, the search's).
LIBRARIES = ("pydantic", "numpy", "scipy", "pyarrow", "matplotlib", "choix", "optuna", "ray")


def resolved_spec(game: Game[Any, Any], spec: str) -> str:
    """``spec`` with every parameter the bot declares, given or default, in declared order
    (the game's search defaults filled in for the search bot).

        >>> import potluck
        >>> resolved_spec(potluck.load_game("belle-of-the-ball"), "greedy:belle_value=12")
        ... # doctest: +ELLIPSIS
        'greedy:...belle_value=12...'
    """
    effective = effective_spec(game, spec)
    factory = agent_factories(game).get(effective.name)
    given = dict(effective.params)
    declared = bot_params(factory) if factory is not None else ()
    params = [(p.name, given.pop(p.name, _text(p.default))) for p in declared]
    params += list(given.items())
    return str(BotSpec(effective.name, tuple(params)))


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def git_commit(where: Path | None = None) -> tuple[str | None, bool | None]:
    """The commit of the git checkout the package runs from, and whether files differ from
    it; ``(None, None)`` when it is not run from a checkout (an installed wheel)."""
    folder = where or Path(__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True, timeout=10
        )
        if commit.returncode != 0:
            return None, None
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None, None
    return commit.stdout.strip(), bool(status.stdout.strip())


def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def provenance(study: Study) -> dict[str, Any]:
    """The record kept with a run: version, commit, resolved bots, libraries."""
    game = load_game(study.game)
    commit, dirty = git_commit()
    agents = list(study.agents)
    if study.search is not None:
        agents.append(study.search.focal)
        agents += [a for _, lineup in study.search.confirm_lineups for a in lineup]
    return {
        "version": _version("potluck"),
        "commit": commit,
        "dirty": dirty,
        "python": platform.python_version(),
        "libraries": {name: _version(name) for name in LIBRARIES if _version(name)},
        "bots": {spec: resolved_spec(game, spec) for spec in dict.fromkeys(agents)},
    }
