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
from test_docs import DOCS, ROOT, potluck_lines, unwrapped

#: Lines that are not run, by what they contain, and why.
NOT_RUN = {
    "potluck serve": "starts a server that runs until stopped (tests/test_server*.py cover it)",
    "<file>": "names the reader's own saved record",
    "my-dishes.toml": "names the reader's own data file",
    "--backend ray": "needs a Ray cluster at HOST",
    "studies/NAME.toml": "a template for the reader's own study",
    "results/NAME": "a template for the reader's own study",
    "lab report results/": "reports a study run just above it (tests/test_lab.py makes reports)",
    "openspiel-ismcts:time=": "OpenSpiel's ISMCTS at a CPU budget over whole games (minutes); "
    "tests/test_ismcts.py seats it",
}

#: Shell lines that are not ``potluck`` commands, by how they start, and why no test runs them.
OTHER_NOT_RUN = {
    "make play": "installs the web extra into .venv, then serves until stopped",
    "make test": "the whole suite, which CI runs (a test cannot run the suite inside itself)",
    "pip install": "installs packages: a test must not change the environment it runs in",
    "curl ": "calls a running server (tests/test_server.py makes the same calls in-process)",
    'python -c "from potluck.search.openspiel': "a speed benchmark on OpenSpiel (minutes)",
    "python examples/ismcts_strength.py": "a strength benchmark of dozens of games",
    "python examples/improve_model_dev.py": "three bots over dozens of deals (an hour); "
    "tests/test_value_model.py plays one deal",
    "python examples/lineup_shares.py": "a benchmark of dozens of games between a line-up of bots",
    "python examples/search_deviations.py": "judges each departure with hundreds of whole games",
    "python examples/decision_screen.py": "several bots decide at every position and are "
    "judged with hundreds of whole games; tests/test_decision_screen.py runs it on one deal",
    "python examples/truth_screen.py": "two bots decide at every position and their "
    "differences are judged with hundreds of whole games; tests/test_truth_screen.py runs it "
    "on one deal",
    "python examples/belly_win_model.py": "fits on 12,000 games (minutes); "
    "tests/test_belly_win_model.py runs it on 10",
    ".venv/bin/python examples/openspiel_ismcts.py": "OpenSpiel's ISMCTS over whole games",
    "python examples/openspiel_equal_time.py": "both searches over whole games at equal CPU "
    "time (hours); tests/test_ismcts.py plays a duel",
    "python -m potluck.lab.speedup": "a timing benchmark that first measures the machine (~40 s)",
    "python examples/lab_search_benchmark.py": "tens of thousands of games (minutes): a grid, "
    "a bisection and searches on one problem",
    "python -m potluck.search.training": "fits a value model on thousands of games (minutes); "
    "tests/test_value_model.py runs it on 24",
    "python examples/tune_greedy.py": "an Optuna search over thousands of games (minutes to hours)",
    "python examples/judge_agreement.py": "judges move pairs with hundreds of whole-game playouts",
    "python examples/analysis_benchmark.py": "move analysis of 20 games, twice (hours); "
    "tests/test_review.py runs its summary on a small game",
    "python -m potluck.server.botratings": "the bots' reference ratings: hundreds of games "
    "(the hard level's minutes of CPU a pool); tests/test_server_ratings.py checks the file",
    "python examples/analysis_calibration.py": "move analysis of 20 held-out games (hours); "
    "tests/test_review.py runs its summary on a small game",
    "python examples/analysis_measures.py": "reads a run's saved games (the benchmark's, "
    "hours); tests/test_analysis_checks.py runs it on two",
    "python examples/judge_positions.py": "every legal move on hundreds of worlds at "
    "each position of 20 games (minutes); tests/test_analysis_checks.py runs it on one",
    "python examples/analysis_truth.py": "2,000 paired deals a game (minutes); "
    "tests/test_analysis_checks.py runs it on four",
    "python examples/judge_improvement.py": "a seat judged at every decision over 40 games "
    "(minutes); tests/test_analysis_checks.py plays one",
    "python examples/food_advice_levers.py": "a lever of FoodAdvice's hard bot over hundreds "
    "of whole games (minutes); tests/test_food_advice_levers.py plays each lever's decisions",
    "python examples/belly_policy_screen.py": "500 paired whole games a lever (seconds "
    "compiled, minutes in pure Python); tests/test_search_policy_screen.py plays its levers",
}

#: Sample sizes and budgets scaled down: (pattern, replacement).
SCALE: list[tuple[str, Any]] = [
    (r"(-n|--games) \d+", r"\1 2"),
    # a twenty-fifth of each budget, at least 2: distinct budgets stay distinct
    (r"sims=(\d+)", lambda m: f"sims={max(2, int(m.group(1)) // 25)}"),
    (r"--workers \d+", "--workers 1"),
    (r"--vs-openspiel", ""),
    (r"--out /tmp/", "--out "),  # into the scratch folder
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
    if line.startswith(("potluck lab run", "potluck lab tune")) and "--games" not in line:
        line += " --games 2"
    if line.startswith("potluck lab tune"):
        line += " --trials 2 --confirm-games 2"
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


def shell_lines(path: Path) -> list[str]:
    """Every command line of a page's sh/bash/console blocks (comments cut off)."""
    lines = []
    for block in re.findall(
        r"```(?:sh|bash|console)\n(.*?)```", path.read_text("utf-8"), re.DOTALL
    ):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split(" #")[0].strip()
            # a loop's body is what runs: `for seed in 1 2; do CMD; done` is CMD's line,
            # and so is a loop of background runs, `for ...; do CMD & done; wait`
            loop = re.fullmatch(r"for .*?; do (.*?)\s*[;&]? done(?:; wait)?", line)
            line = unwrapped(loop.group(1).strip() if loop else line)
            if line and not line.startswith("#"):
                lines.append(line)
    return lines


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_every_shell_line_runs_or_says_why_not(path: Path) -> None:
    """A shell line is a ``potluck`` command (run above, or listed in ``NOT_RUN``) or is
    listed in ``OTHER_NOT_RUN`` with the reason no test runs it."""
    runs = set(potluck_lines(path))
    unexplained = [
        line
        for line in shell_lines(path)
        if line not in runs and not any(line.startswith(start) for start in OTHER_NOT_RUN)
    ]
    assert unexplained == [], f"{path.name}: run these in a test or say why not: {unexplained}"
