"""The shape of the imports: no circles in the engine or in any game package, and the
adapters never reach the command line (docs/engine.md, "The shape of a game").

A circle means two modules each need the other to be read, so neither can be
understood, tested or moved alone. ``grimp`` reads every import, those inside
functions and under ``TYPE_CHECKING`` included: a deferred import still ties the
two modules together.
"""

from __future__ import annotations

import grimp
import pytest

import potluck

GRAPH = grimp.build_graph("potluck")

#: Game packages not yet reshaped by their engineers (issue 20); each runs and shows
#: XPASS once its circles are gone.
_CIRCLES_PENDING: dict[str, str] = {}


def circles(package: str, graph: grimp.ImportGraph = GRAPH) -> list[list[str]]:
    """The import circles among ``package``'s modules: each a strongly connected group
    of two or more modules (or one that imports itself), sorted."""
    inside = set(graph.find_descendants(package)) | {package}
    edges = {m: sorted(graph.find_modules_directly_imported_by(m) & inside) for m in sorted(inside)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in edges[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == module:
                    break
            if len(group) > 1 or module in edges[module]:
                found.append(sorted(group))

    for module in sorted(inside):
        if module not in index:
            visit(module)
    return sorted(found)


def _game_packages() -> list[object]:
    names = sorted(
        m.rsplit(".", 1)[1] for m in GRAPH.find_children("potluck.games") if GRAPH.find_children(m)
    )
    return [
        pytest.param(
            name,
            marks=pytest.mark.xfail(reason=_CIRCLES_PENDING[name], strict=False)
            if name in _CIRCLES_PENDING
            else (),
        )
        for name in names
    ]


def test_the_engine_has_no_import_circles() -> None:
    assert circles("potluck.engine") == []


def test_the_conformance_suite_has_no_import_circles() -> None:
    assert circles("potluck.testing") == []


@pytest.mark.parametrize("package", _game_packages())
def test_a_game_package_has_no_import_circles(package: str) -> None:
    assert circles(f"potluck.games.{package}") == []


def test_every_game_package_is_checked() -> None:
    checked = {param.values[0] for param in _game_packages()}  # type: ignore[attr-defined]
    assert len(checked) == len(potluck.list_games())


def test_the_adapters_never_import_the_command_line() -> None:
    chain = GRAPH.find_shortest_chain(
        importer="potluck.interop", imported="potluck.cli", as_packages=True
    )
    assert chain is None, f"potluck.interop reaches potluck.cli: {' -> '.join(chain or ())}"


def test_the_rules_core_imports_no_surface() -> None:
    for surface in ("potluck.cli", "potluck.server", "potluck.lab", "potluck.interop"):
        for core in ("potluck.engine", "potluck.games"):
            chain = GRAPH.find_shortest_chain(importer=core, imported=surface, as_packages=True)
            assert chain is None, f"{core} reaches {surface}: {' -> '.join(chain or ())}"


def test_circles_are_found() -> None:
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.d"):
        graph.add_module(module)
    graph.add_import(importer="pkg.a", imported="pkg.b")
    graph.add_import(importer="pkg.b", imported="pkg.c")
    graph.add_import(importer="pkg.c", imported="pkg.a")
    graph.add_import(importer="pkg.d", imported="pkg.a")
    assert circles("pkg", graph) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_the_agents_and_the_search_do_not_import_each_other() -> None:
    """``potluck.agents`` seats the search bot; the search reads information sets from
    ``potluck.search.information``, never from the agents module."""
    searches = ("ismcts", "tree", "forest", "value", "paired", "rewards")
    for search in (f"potluck.search.{name}" for name in searches):
        chain = GRAPH.find_shortest_chain(importer=search, imported="potluck.agents")
        assert chain is None, f"{search} reaches potluck.agents: {' -> '.join(chain or ())}"
    assert circles("potluck.search") == []


#: The server's layers, top to bottom: a module imports only from its own layer or
#: those below it (docs/web.md, "The server's code"). Storage and the cluster's
#: notices know the table service only through ``cluster.Member``.
SERVER_LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    (
        "HTTP and WebSockets",
        frozenset(
            {
                "app",
                "sockets",
                "access",
                "api",
                "gate",
                "guard",
                "openapi",
                "ratelimit",
                "rules",
                "accountroutes",
                "rematchroutes",
                "replayroutes",
                "pageroutes",
            }
        ),
    ),
    (
        "the table service",
        frozenset(
            {
                "tableservice",
                "creating",
                "seating",
                "catchup",
                "views",
                "botpool",
                "lane",
                "thinking",
                "analyses",
                "membership",
                "accounts",
                "ratings",
                "standings",
                "botratings",
            }
        ),
    ),
    (
        "storage and the cluster",
        frozenset({"store", "movewriter", "onetrip", "notices", "cluster"}),
    ),
    ("the foundation", frozenset({"db", "live", "settings"})),
)
#: Outside the layers: the load and attack tools (clients of the server, over HTTP only).
SERVER_TOOLS = frozenset({"abuse", "hogs", "loadclient", "loadtest"})


def test_the_server_has_no_import_circles() -> None:
    assert circles("potluck.server") == []


def test_every_server_module_has_a_layer() -> None:
    modules = {m.rsplit(".", 1)[1] for m in GRAPH.find_children("potluck.server")}
    placed = set().union(*(names for _, names in SERVER_LAYERS)) | SERVER_TOOLS
    assert modules - placed == set(), "place each new server module in SERVER_LAYERS"
    assert placed - modules == set(), "SERVER_LAYERS names a module that is gone"


def test_the_server_layers_import_downwards_only() -> None:
    illegal = GRAPH.find_illegal_dependencies_for_layers(
        layers=[grimp.Layer(*sorted(names), independent=False) for _, names in SERVER_LAYERS],
        containers={"potluck.server"},
    )
    routes = sorted(
        f"{dependency.importer} -> {dependency.imported}: "
        + "; ".join(
            " -> ".join([*sorted(route.heads), *route.middle, *sorted(route.tails)])
            for route in dependency.routes
        )
        for dependency in illegal
    )
    assert routes == []


def test_the_load_and_attack_tools_need_only_the_settings() -> None:
    for tool in SERVER_TOOLS:
        imported = {
            m
            for m in GRAPH.find_modules_directly_imported_by(f"potluck.server.{tool}")
            if m.startswith("potluck.server.")
        }
        tools = {f"potluck.server.{name}" for name in SERVER_TOOLS}
        assert imported <= {"potluck.server.settings", *tools}, tool


def test_the_whole_package_has_no_import_circles() -> None:
    """No two modules anywhere in potluck need each other (issue 36): every circle that
    the bot, lab and host issues named is gone, and a new one fails here."""
    assert circles("potluck") == []


#: Parts of the package and what each may import from the rest of it: the rules core
#: points down only (docs/engine.md), and the compiled build's loader needs nothing.
_DOWNWARD_ONLY: dict[str, tuple[str, ...]] = {
    "potluck.native": (),
    "potluck.engine": ("potluck.engine",),
    "potluck.games": ("potluck.engine", "potluck.games"),
}


@pytest.mark.parametrize("part", sorted(_DOWNWARD_ONLY))
def test_no_upward_arrow_from_the_rules_core(part: str) -> None:
    allowed = _DOWNWARD_ONLY[part]
    modules = {part} | set(GRAPH.find_descendants(part)) if GRAPH.find_children(part) else {part}
    upward = sorted(
        f"{importer} -> {imported}"
        for importer in modules
        for imported in GRAPH.find_modules_directly_imported_by(importer)
        if imported.startswith("potluck")
        and not any(imported == a or imported.startswith(a + ".") for a in allowed)
    )
    assert upward == [], f"{part} imports from above it: {upward}"


def test_the_lab_has_no_import_circles() -> None:
    """The analysis reads findings' rules; findings never reach back (issue 31, item 9)."""
    assert circles("potluck.lab") == []
    assert "potluck.lab.analysis" not in GRAPH.find_modules_directly_imported_by(
        "potluck.lab.findings"
    )
