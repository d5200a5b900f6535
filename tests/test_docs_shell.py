"""The README's and the docs' shell examples run, not only parse.

Each ``potluck`` line of a shell block runs through the CLI in a scratch folder (with
the repository's studies beside it), with its sample sizes scaled down so the whole
file takes seconds: ``-n``/``--games`` to a handful, search budgets to a few
simulations. It must exit 0 and print something. Lines that cannot run in a test
are listed in ``NOT_RUN`` with the reason; a new line must either run or be listed.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from potluck.cli import app
from test_docs import DOCS, ROOT, potluck_lines

#: Lines that are not run, by what they contain, and why.
NOT_RUN = {
    "potluck serve": "starts a server that runs until stopped (tests/test_server*.py cover it)",
    "<file>": "names the reader's own saved record",
    "my-dishes.toml": "names the reader's own data file",
    "--backend ray": "needs a Ray cluster at HOST",
    "studies/NAME.toml": "a template for the reader's own study",
    "results/NAME": "a template for the reader's own study",
    "lab report results/": "reports a study run just above it (tests/test_lab.py makes reports)",
}

#: Sample sizes and budgets scaled down: (pattern, replacement).
SCALE: list[tuple[str, Any]] = [
    (r"(-n|--games) \d+", r"\1 2"),
    # a twenty-fifth of each budget, at least 2: distinct budgets stay distinct
    (r"sims=(\d+)", lambda m: f"sims={max(2, int(m.group(1)) // 25)}"),
    (r"--workers \d+", "--workers 1"),
    (r"--vs-openspiel", ""),
]


def _reason_not_run(line: str) -> str | None:
    return next((why for part, why in NOT_RUN.items() if part in line), None)


def _runnable() -> list[tuple[str, str]]:
    found = []
    for path in DOCS:
        for line in potluck_lines(path):
            if _reason_not_run(line) is None:
                found.append((path.name, line))
    return found


def _scaled(line: str) -> str:
    for pattern, replacement in SCALE:
        line = re.sub(pattern, replacement, line)
    if line.startswith("potluck bench"):
        line += " --seconds 0.2 --repeat 1"
    if line.startswith("potluck lab run") and "--games" not in line:
        line += " --games 2"
    return line


@pytest.mark.parametrize(("page", "line"), _runnable(), ids=lambda v: str(v)[:60])
def test_shell_example_runs(
    page: str, line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(ROOT / "studies", tmp_path / "studies")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # records go here
    words = shlex.split(_scaled(line))[1:]
    result = CliRunner().invoke(app, words, input="quit\n" * 3)
    assert result.exit_code == 0, f"{page}: `{line}` failed:\n{result.output}"
    assert result.output.strip(), f"{page}: `{line}` printed nothing"


def test_every_line_left_out_says_why() -> None:
    left_out = [line for path in DOCS for line in potluck_lines(path) if _reason_not_run(line)]
    assert all(_reason_not_run(line) for line in left_out)
    assert len(_runnable()) > 20
