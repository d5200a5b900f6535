"""The compiled build of the rules: found, checked against its sources, and loaded.

The hot modules of the rules core (``COMPILED_MODULES``) can be compiled to C by
mypyc (``python -m potluck.native_build``, which ``make setup`` and ``make test`` run).
The build never lands beside the sources: it goes to ``build/native/`` of the source
tree it was built from (or ``$POTLUCK_NATIVE_DIR``), with a manifest of the SHA-256 of
every source file it was compiled from. ``import potluck`` loads the compiled modules
only if every one of those files is unchanged, all or none (compiled modules call each
other directly, so one stale module would run old code); otherwise the rules run as
pure Python, with one line on stderr when a build is there but stale. A source edited after a
build therefore always runs as written, and a build in one source tree never reaches
another tree (each tree looks in its own ``build/native/``).

``$POTLUCK_BUILD`` chooses: ``auto`` (the default: compiled when a fresh build is
there), ``pure`` (never load it) or ``compiled`` (fail at import unless it loads), so
that CI can run the same tests against each build::

    >>> import potluck
    >>> from potluck import native
    >>> native.status().build in ("compiled", "pure")
    True
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

__all__ = [
    "COMPILED_MODULES",
    "GROUP",
    "MODE_VARIABLE",
    "BuildStatus",
    "activate",
    "build_directory",
    "check_build",
    "source_digests",
    "status",
]

#: The environment variable that chooses the build: ``auto``, ``pure`` or ``compiled``.
MODE_VARIABLE = "POTLUCK_BUILD"
#: The environment variable naming another directory for the build.
DIR_VARIABLE = "POTLUCK_NATIVE_DIR"
#: mypyc's name for the shared library of the group (``potluck_native__mypyc``).
GROUP = "potluck_native"
MANIFEST = "manifest.json"
#: The manifest's layout; a build of another format is rebuilt, never read.
FORMAT = 1
#: Packages the compiled modules import that pure Python does without: ``librt.vecs``,
#: mypyc's typed vectors (Belle of the Ball's ``greedy_scan``; pure Python uses lists).
#: A build is loaded only where they are installed.
RUNTIME_PACKAGES: tuple[str, ...] = ("librt",)

#: The modules compiled together: the engine's state, game and action classes, and each
#: game's actions, state, tables, rules chapters, view, the greedy bot's typed input
#: (``seat_info``), assembly, greedy bot (a greedy decision's largest part was the bot's
#: own Python, issue 36) and observation encoding (a search scored by a learned value
#: model encodes every seat of every world). Left as Python: data schemas and Belly
#: Battle's fitted win model (pydantic classes), descriptions and every package
#: ``__init__`` (whose ``__path__`` must stay the source directory).
_GAME_MODULES: dict[str, tuple[str, ...]] = {
    "belle_of_the_ball": (
        "actions", "state", "tables", "setup", "belles", "invite", "groups", "scoring",
        "rounds", "seat_info", "view", "game", "greedy_counts", "greedy_bound", "greedy_scan",
        "greedy_plan", "bots", "encoding",
    ),
    "belly_battle": (
        "actions", "state", "tables", "setup", "turn", "spaces", "munch_fees", "ownership",
        "trades", "bank_sales", "bankruptcy", "chefs_and_star", "choices", "decisions",
        "scoring", "seat_info", "view", "game", "bots", "encoding",
    ),
    "burger_joint": (
        "actions", "state", "tables", "preparation", "turn", "production", "trading",
        "building", "discard", "scoring", "end", "seat_info", "view", "game", "greedy_board",
        "bots", "encoding",
    ),
    "cafe_carnage": (
        "actions", "state", "tables", "setup", "round", "orders", "ballot", "dinner",
        "check_please", "settle_up", "clear_table", "end", "seat_info", "view", "game",
        "night_model", "bots", "encoding",
    ),
    "food_advice": (
        "actions", "state", "tables", "setup", "characters", "product", "exchange",
        "presentation", "placing", "events", "market", "selling", "illegal", "scoring",
        "forecast", "shared_tables", "estimate", "seat_info", "view", "game",
        "greedy_mind", "removal", "bots", "encoding",
    ),
}  # fmt: skip
COMPILED_MODULES: tuple[str, ...] = (
    "potluck.engine.state",
    "potluck.engine.game",
    "potluck.engine.action",
    # Shuffles and picks drawn as the library draws them (a search's worlds are dealt
    # with them; the library's own are Python).
    "potluck.engine.chance",
    # The games' ``SeatInfo`` base (equality and ``repr``; each game's ``__init__`` compiled).
    "potluck.engine.seat_info",
    # The random bot and what a bot reads (``bot_input``): once per decision of every
    # bot; as Python they were most of a random playout's own code outside the rules.
    "potluck.engine.bots",
    *(
        f"potluck.games.{game}.{module}"
        for game, names in _GAME_MODULES.items()
        for module in names
    ),
    # The learned value model's arithmetic (a search with a model cutoff spent most of
    # its time summing trees) and the search's tree and simulations; the bot around
    # them (its parameters, copied and reported) stays Python (``search.ismcts``).
    "potluck.search.forest",
    "potluck.search.tree",
    # How a finished or cut-short world is scored: once per simulation.
    "potluck.search.rewards",
)

_PACKAGE_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class BuildStatus:
    """Which build of the rules this process runs, and why."""

    #: ``"compiled"`` or ``"pure"``.
    build: str
    #: Why, in a sentence (``"built 2026-11-28 01:10 UTC, mypyc 1.2"``, ``"no build"``...).
    reason: str
    #: Where the build was looked for (``None``: nowhere to look).
    directory: Path | None

    def line(self) -> str:
        """One line for a benchmark's or a command's report."""
        return f"rules: {self.build} ({self.reason})"


def build_directory() -> Path | None:
    """Where this source tree's build lives: ``$POTLUCK_NATIVE_DIR``, else
    ``build/native/`` beside ``src/`` in a source checkout, else ``None``."""
    given = os.environ.get(DIR_VARIABLE)
    if given:
        return Path(given)
    root = _PACKAGE_DIR.parent.parent
    if _PACKAGE_DIR.parent.name == "src" and (root / "pyproject.toml").is_file():
        return root / "build" / "native"
    return None


def source_path(module: str) -> Path:
    """The source file of a module of this package."""
    return _PACKAGE_DIR.joinpath(*module.split(".")[1:]).with_suffix(".py")


def source_digests(modules: Sequence[str] = COMPILED_MODULES) -> dict[str, str]:
    """SHA-256 of each module's source file, by module name."""
    return {
        module: hashlib.sha256(source_path(module).read_bytes()).hexdigest() for module in modules
    }


def platform_tag() -> str:
    """The interpreter a build is for: its cache tag and extension suffix."""
    return f"{sys.implementation.cache_tag}{importlib.machinery.EXTENSION_SUFFIXES[0]}"


def extension_path(directory: Path, module: str) -> Path:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return directory.joinpath(*module.split(".")).with_name(module.rsplit(".", 1)[-1] + suffix)


def check_build(directory: Path | None) -> str | None:
    """``None`` if ``directory`` holds a build of exactly these sources for this
    interpreter, else why not (a sentence)."""
    if directory is None:
        return "no build directory: not a source checkout"
    try:
        manifest = json.loads((directory / MANIFEST).read_text("utf-8"))
    except FileNotFoundError:
        return f"no compiled build in {directory}"
    except (OSError, ValueError) as error:
        return f"the build's manifest cannot be read ({error})"
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        return "the build is of another format"
    if manifest.get("platform") != platform_tag():
        return f"the build is for {manifest.get('platform')}, not {platform_tag()}"
    built = manifest.get("sources")
    if not isinstance(built, dict) or sorted(built) != sorted(COMPILED_MODULES):
        return "the build compiled other modules than this source tree lists"
    try:
        now = source_digests()
    except OSError as error:
        return f"a compiled module's source cannot be read ({error})"
    changed = [module for module in COMPILED_MODULES if built[module] != now[module]]
    if changed:
        more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
        return f"the build is stale: {source_path(changed[0]).name} ({changed[0]}){more} changed"
    missing = [m for m in (*COMPILED_MODULES, GROUP + "__mypyc") if not _file(directory, m)]
    if missing:
        return f"the build lacks {missing[0]}"
    absent = [name for name in RUNTIME_PACKAGES if importlib.util.find_spec(name) is None]
    if absent:
        return f"the build needs {absent[0]} (mypyc's runtime library, installed with mypy)"
    return None


def _file(directory: Path, module: str) -> Path | None:
    path = extension_path(directory, module)
    return path if path.is_file() else None


class _CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (and their shared library) in the build directory."""

    def __init__(self, directory: Path) -> None:
        self.files = {
            m: extension_path(directory, m) for m in (*COMPILED_MODULES, GROUP + "__mypyc")
        }

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        found = self.files.get(fullname)
        if found is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(found))
        return importlib.util.spec_from_file_location(fullname, found, loader=loader)


_STATUS: BuildStatus | None = None


def activate() -> BuildStatus:
    """Load the compiled build if it is fresh (``potluck/__init__.py`` calls this first);
    idempotent. ``ImportError`` when ``$POTLUCK_BUILD`` is ``compiled`` and it cannot be."""
    global _STATUS
    if _STATUS is not None:
        return _STATUS
    mode = os.environ.get(MODE_VARIABLE, "auto").strip().lower() or "auto"
    if mode not in ("auto", "pure", "compiled"):
        raise ImportError(f"{MODE_VARIABLE} is {mode!r}: choose auto, pure or compiled")
    directory = build_directory()
    if mode == "pure":
        _STATUS = BuildStatus("pure", f"{MODE_VARIABLE}=pure", directory)
        return _STATUS
    problem = check_build(directory)
    early = [m for m in COMPILED_MODULES if m in sys.modules]
    if problem is None and early:
        problem = f"{early[0]} was imported before the build could be loaded"
    if problem is not None:
        if mode == "compiled":
            raise ImportError(f"{MODE_VARIABLE}=compiled, but {problem}")
        if directory is not None and (directory / MANIFEST).is_file():
            # One line on stderr, not a warning: a warning prints its source line too.
            print(
                f"potluck: {problem}; the rules run as pure Python "
                "(`make native` or `python -m potluck.native_build` rebuilds them)",
                file=sys.stderr,
            )
        _STATUS = BuildStatus("pure", problem, directory)
        return _STATUS
    assert directory is not None
    sys.meta_path.insert(0, _CompiledFinder(directory))
    _STATUS = BuildStatus("compiled", f"mypyc build in {directory}", directory)
    return _STATUS


def status() -> BuildStatus:
    """The build this process runs (``activate`` has run with ``import potluck``)."""
    return activate()


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from the compiled build."""
    return isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)


activate()
