"""The documentation's examples run: the code in docs/*.md and the docstrings' examples."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import potluck

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text("utf-8"), flags=re.DOTALL)


@pytest.mark.parametrize("path", [p for p in DOCS if python_blocks(p)], ids=lambda p: p.name)
def test_markdown_examples_run(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every Python block in the README and the docs runs and prints what it shows."""
    for number, block in enumerate(python_blocks(path), 1):
        exec(compile(block, str(path), "exec"), {"__name__": "docs_example"})
        printed = capsys.readouterr().out
        assert printed.strip(), f"{path.name}, Python block {number} prints nothing"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_docs_stand_alone(path: Path) -> None:
    """The docs name nothing outside the repository and nothing of how it was made."""
    text = path.read_text("utf-8")
    for outside in ("../shared", "GAMES.md", "ENGINE.md", "STYLE.md", "issue notes", "/work/"):
        assert outside not in text, f"{path.name} refers to {outside!r}, outside the repository"


#: Packages of optional extras (``rl``) that some adapter modules import.
OPTIONAL = {"pettingzoo", "gymnasium", "pyspiel", "numpy"}

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(potluck.__path__, "potluck.")
    if not info.name.startswith("potluck.cli")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name not in OPTIONAL:
            raise
        pytest.skip(f"{name} needs the optional package {missing.name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
