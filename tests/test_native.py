"""The compiled build (potluck.native): loaded only while its sources are unchanged, only
in the source tree it was built in, and playing exactly as pure Python does.

The copies below are of this tree's sources and build (no compiling here): a fresh copy
loads its copied build, an edited copy runs pure Python, and a copy without a build
never borrows this tree's.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import potluck
from potluck import native

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "native"
HAVE_BUILD = native.check_build(BUILD) is None and native.build_directory() == BUILD


def test_the_build_in_use_is_reported_and_is_whole() -> None:
    state = native.status()
    assert state.build in ("compiled", "pure")
    assert state.line().startswith(f"rules: {state.build} (")
    modules = [sys.modules.get(name) for name in native.COMPILED_MODULES]
    loaded = [m for m in modules if m is not None]
    assert loaded, "potluck loads none of the compiled modules"
    compiled = {native.is_compiled(m) for m in loaded}
    assert compiled == {state.build == "compiled"}, "a build is loaded whole or not at all"
    wanted = os.environ.get(native.MODE_VARIABLE, "auto")
    if wanted in ("compiled", "pure"):
        assert state.build == wanted


def test_every_compiled_module_exists_and_is_no_package() -> None:
    for module in native.COMPILED_MODULES:
        path = native.source_path(module)
        assert path.is_file(), module
        assert path.name != "__init__.py", f"{module}: a package's __path__ must stay its folder"


def _tree(tmp_path: Path, *, with_build: bool) -> Path:
    """A copy of this source tree (sources, pyproject, and the build if asked)."""
    tree = tmp_path / "tree"
    shutil.copytree(
        ROOT / "src" / "potluck",
        tree / "src" / "potluck",
        ignore=shutil.ignore_patterns("__pycache__", "static"),
    )
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    if with_build:
        shutil.copytree(BUILD, tree / "build" / "native")
    return tree


def _which_build(tree: Path, mode: str = "auto") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), native.MODE_VARIABLE: mode}
    env.pop(native.DIR_VARIABLE, None)
    code = (
        "import potluck, potluck.games.cafe_carnage.round as r\n"
        "from potluck import native\n"
        "print(native.status().build, native.is_compiled(r), r.__file__)\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )


@pytest.mark.skipif(not HAVE_BUILD, reason="no fresh compiled build in this tree (make native)")
def test_a_fresh_copy_loads_its_own_build_and_an_edited_one_runs_pure_python(
    tmp_path: Path,
) -> None:
    tree = _tree(tmp_path, with_build=True)
    fresh = _which_build(tree)
    assert fresh.returncode == 0, fresh.stderr
    build, compiled, where = fresh.stdout.split()
    assert (build, compiled) == ("compiled", "True")
    assert Path(where).is_relative_to(tree / "build" / "native"), "it loaded another tree's build"

    source = tree / "src" / "potluck" / "games" / "cafe_carnage" / "round.py"
    source.write_text(source.read_text("utf-8") + "\n# edited after the build\n", "utf-8")
    stale = _which_build(tree)
    assert stale.returncode == 0, stale.stderr
    assert stale.stdout.split()[:2] == ["pure", "False"]
    assert "stale: round.py" in stale.stderr
    assert "pure Python" in stale.stderr
    assert stale.stderr.count("potluck:") == 1, "one line says so"

    refused = _which_build(tree, "compiled")
    assert refused.returncode != 0
    assert "POTLUCK_BUILD=compiled, but the build is stale: round.py" in refused.stderr


def test_a_tree_without_a_build_runs_pure_python_quietly(tmp_path: Path) -> None:
    tree = _tree(tmp_path, with_build=False)
    found = _which_build(tree)
    assert found.returncode == 0, found.stderr
    assert found.stdout.split()[:2] == ["pure", "False"]
    assert "potluck:" not in found.stderr
    assert _which_build(tree, "pure").stdout.split()[:2] == ["pure", "False"]
    refused = _which_build(tree, "compiled")
    assert refused.returncode != 0
    assert "no compiled build in" in refused.stderr


def _manifest(directory: Path, **changes: object) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, object] = {
        "format": native.FORMAT,
        "platform": native.platform_tag(),
        "built": "now",
        "sources": native.source_digests(),
    }
    manifest.update(changes)
    (directory / native.MANIFEST).write_text(json.dumps(manifest), "utf-8")


def test_check_build_says_what_is_wrong(tmp_path: Path) -> None:
    assert native.check_build(None) is not None
    assert "no compiled build" in (native.check_build(tmp_path / "none") or "")
    _manifest(tmp_path / "other", platform="cpython-99.so")
    assert "is for cpython-99.so" in (native.check_build(tmp_path / "other") or "")
    _manifest(tmp_path / "format", format=0)
    assert "another format" in (native.check_build(tmp_path / "format") or "")
    digests = native.source_digests()
    digests.pop(native.COMPILED_MODULES[-1])
    _manifest(tmp_path / "fewer", sources=digests)
    assert "other modules" in (native.check_build(tmp_path / "fewer") or "")
    changed = native.source_digests()
    changed[native.COMPILED_MODULES[0]] = hashlib.sha256(b"old").hexdigest()
    _manifest(tmp_path / "stale", sources=changed)
    assert "stale: state.py" in (native.check_build(tmp_path / "stale") or "")
    _manifest(tmp_path / "empty")  # a manifest, but no compiled files
    assert "lacks" in (native.check_build(tmp_path / "empty") or "")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / native.MANIFEST).write_text("{", "utf-8")
    assert "cannot be read" in (native.check_build(tmp_path / "broken") or "")


def test_a_build_is_not_loaded_without_its_runtime_packages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A whole build, but librt (the compiled modules' typed vectors) uninstalled since:
    # pure Python runs (with lists), rather than the import failing.
    directory = native.build_directory()
    if native.check_build(directory) is not None:
        pytest.skip("no fresh compiled build in this tree (make native)")
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *args: None if name == "librt" else real(name, *args),
    )
    assert "needs librt" in (native.check_build(directory) or "")


def _play_hash(game_id: str, players: int, seeds: range) -> str:
    game = potluck.load_game(game_id)
    digest = hashlib.sha256()
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        while game.to_act(state):
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            game.step(state, seat, legal[rng.randrange(len(legal))])
        digest.update(json.dumps(game.to_json(state), sort_keys=True).encode())
    return digest.hexdigest()


@pytest.mark.skipif(not HAVE_BUILD, reason="no fresh compiled build in this tree (make native)")
@pytest.mark.parametrize("mode", ["pure", "compiled"])
def test_both_builds_play_the_same_games(mode: str) -> None:
    env = {**os.environ, native.MODE_VARIABLE: mode}
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from test_native import _play_hash;"
        "print(','.join(_play_hash(g, 4 if g != 'burger-joint' else 2, range(3))"
        " for g in sys.argv[2:]))"
    )
    games = potluck.list_games()
    other = subprocess.run(
        [sys.executable, "-c", code, str(Path(__file__).parent), *games],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    here = [_play_hash(g, 4 if g != "burger-joint" else 2, range(3)) for g in games]
    assert other.stdout.strip().split(",") == here
