"""The documentation's examples run: the code in docs/*.md and the docstrings' examples."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import shlex
from pathlib import Path
from typing import Any

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


def unwrapped(line: str) -> str:
    """A shell line without the ``time``/``nice``/``nice -n N`` in front of its command."""
    return re.sub(r"^(?:(?:time|nice(?:\s+-n\s*-?\d+)?)\s+)+", "", line)


def potluck_lines(path: Path) -> list[str]:
    """The ``potluck ...`` command lines of a page's shell blocks (comments cut off)."""
    lines = []
    for block in re.findall(
        r"```(?:sh|bash|console)\n(.*?)```", path.read_text("utf-8"), re.DOTALL
    ):
        for line in block.replace("\\\n", " ").splitlines():
            line = unwrapped(line.split(" #")[0].strip())
            if line.startswith("potluck "):
                lines.append(line)
    return lines


def parse_command_line(line: str) -> None:
    """Parse ``line`` as the ``potluck`` command would, without running it: an unknown
    command, option or a bad value raises click's error."""
    import typer

    from potluck.cli import app

    # Typer may bring its own copy of click: the group is told by what it can do.
    command: Any = typer.main.get_command(app)
    context = command.make_context("potluck", shlex.split(line)[1:])
    while hasattr(command, "resolve_command"):
        # a group keeps its subcommand's words aside (click 8.2: ``_protected_args``)
        words = [*getattr(context, "_protected_args", []), *context.args]
        if not words:
            break
        name, sub, rest = command.resolve_command(context, words)
        assert sub is not None
        command = sub
        context = sub.make_context(name or sub.name or "", rest, parent=context)


@pytest.mark.parametrize("path", [p for p in DOCS if potluck_lines(p)], ids=lambda p: p.name)
def test_shell_examples_are_commands_the_cli_takes(path: Path) -> None:
    """Every ``potluck`` line in the README's and the docs' shell blocks parses: its
    commands, options and values exist (running them all would take minutes)."""
    for line in potluck_lines(path):
        try:
            parse_command_line(line)
        except Exception as error:
            raise AssertionError(f"{path.name}: `{line}` does not parse: {error}") from None


def test_a_bad_shell_example_would_be_caught() -> None:
    with pytest.raises(Exception, match="bogus"):
        parse_command_line("potluck simulate cafe-carnage --bogus")
