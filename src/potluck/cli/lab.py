"""``potluck lab``: run balance studies and report on them.

    potluck lab run studies/cafe-player-counts.toml --out results/cafe --workers 2
    potluck lab run studies/cafe-player-counts.toml --out results/cafe --backend ray
    potluck lab report results/cafe --html reports/cafe.html

The work is in ``potluck.lab``; these commands only parse, show progress and print.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from potluck.cli.common import CliError, console, reports_errors

lab_app = typer.Typer(
    name="lab",
    help="Balance studies: paired arms, many games, a report with confidence intervals.",
    no_args_is_help=True,
)


def _lab() -> None:
    """Fail with the install command when the lab extra is missing."""
    try:
        import matplotlib  # noqa: F401
        import pyarrow  # noqa: F401
        import scipy  # noqa: F401
    except ImportError as error:
        raise CliError(
            f"the lab needs {error.name}: install it with pip install -e '.[lab]'"
        ) from None


class EtaColumn(ProgressColumn):
    """The time left by the lab's own estimate (``potluck.lab.eta``): each arm's and
    line-up's measured time a game, counted down between chunks."""

    max_refresh = 1.0

    def __init__(self, remaining: Callable[[], float | None]) -> None:
        super().__init__()
        self._remaining = remaining

    def render(self, task: Task) -> Text:
        left = self._remaining()
        if left is None:
            return Text("ETA -:--:--", style="progress.remaining")
        minutes, seconds = divmod(int(left + 0.5), 60)
        hours, minutes = divmod(minutes, 60)
        return Text(f"ETA {hours}:{minutes:02d}:{seconds:02d}", style="progress.remaining")


@lab_app.command("run")
@reports_errors
def run_command(
    study_path: Annotated[Path, typer.Argument(metavar="STUDY.toml", help="The study file.")],
    out: Annotated[Path, typer.Option("--out", help="The results folder (resumed if it exists).")],
    workers: Annotated[
        int | None, typer.Option(min=1, help="Local processes (default: every core).")
    ] = None,
    backend: Annotated[str, typer.Option(help="local or ray.")] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: RAY_ADDRESS or local).")
    ] = None,
    chunk: Annotated[int, typer.Option(min=1, help="Games per work unit and result file.")] = 50,
    games: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Games per arm, line-up and player count instead of the study's (quick looks).",
        ),
    ] = None,
) -> None:
    """Play a study's games and stream one row per game to Parquet files under --out."""
    _lab()
    from dataclasses import replace

    from potluck.lab import load_study, run_study
    from potluck.lab.eta import Eta
    from potluck.lab.worker import Chunk

    study = load_study(study_path)
    if games is not None:
        study = replace(study, games=games)
    if backend not in ("local", "ray"):
        raise CliError(f"--backend must be local or ray, not {backend!r}")
    out_console = console()
    out_console.print(
        f"[bold]{escape(study.game)}[/]: {study.total_games} games "
        f"({study.games} x players {list(study.players)} x line-ups "
        f"{', '.join(study.lineup_names)} x arms {', '.join(study.arm_names)})"
    )
    eta = Eta([])
    cpu = [0.0]
    started = time.monotonic()

    def timed(chunk: Chunk, seconds: float) -> None:
        eta.finished(chunk, seconds)
        cpu[0] += seconds

    with Progress(
        TextColumn("Playing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        EtaColumn(eta.remaining),
        console=out_console,
        disable=not out_console.is_terminal,
    ) as bar:
        task = bar.add_task("games", total=study.total_games)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            played = run_study(
                study,
                out,
                workers=workers,
                backend=backend,
                address=address,
                chunk_size=chunk,
                progress=progress,
                planned=lambda todo, _parallel: eta.add(todo),
                timing=timed,
            )
        except KeyboardInterrupt:
            # Finished chunks are on disk; the same command picks up from there.
            bar.stop()
            out_console.print(
                f"Interrupted. The games finished so far are kept in {escape(str(out))}; "
                "run the same command again to resume."
            )
            raise typer.Exit(130) from None
    skipped = study.total_games - played
    note = f" ({skipped} already there)" if skipped else ""
    out_console.print(
        f"Played {played} games{note} in {time.monotonic() - started:.1f} s "
        f"({cpu[0]:.1f} s of the workers' CPU); results in {escape(str(out))}"
    )
    out_console.print(f"Report: potluck lab report {escape(str(out))} --html REPORT.html")


@lab_app.command("report")
@reports_errors
def report_command(
    results: Annotated[Path, typer.Argument(metavar="RESULTS", help="A results folder.")],
    html_path: Annotated[
        Path | None, typer.Option("--html", metavar="REPORT.html", help="Write the HTML report.")
    ] = None,
    json_path: Annotated[
        Path | None,
        typer.Option("--json", metavar="FIGURES.json", help="Write every figure as JSON."),
    ] = None,
    full: Annotated[
        bool, typer.Option("--full", help="Print every table, not only the opening.")
    ] = False,
    arms: Annotated[
        str | None,
        typer.Option("--arms", metavar="A,B", help="Show only these arms (comma-separated)."),
    ] = None,
    metrics: Annotated[
        str | None,
        typer.Option(
            "--metrics",
            metavar="M,N",
            help="Show only the quantities and metrics containing these names.",
        ),
    ] = None,
) -> None:
    """Print a study's answer in about 60 lines (--full: every table); --html writes the
    report with plots of the findings."""
    _lab()
    from potluck.lab import analyse, console_summary, load_results, write_html
    from potluck.lab.runner import load_header
    from potluck.lab.tune import ANSWER, CONFIRMATION, TUNE_FILE, answer_text

    if (results / TUNE_FILE).exists() and not (results / "study.json").exists():
        # a search's folder: its answer, then the confirmation's own report
        if not (results / ANSWER).exists():
            raise CliError(
                f"{results} holds a search that has not finished; run the same "
                "`potluck lab tune` command again to resume it"
            )
        import json

        typer.echo(answer_text(json.loads((results / ANSWER).read_text("utf-8"))))
        typer.echo(
            f"\nThe confirmation run's report (potluck lab report {results / CONFIRMATION}):\n"
        )
        results = results / CONFIRMATION
    study, rows = load_results(results)
    if not rows:
        raise CliError(f"{results} holds no finished games yet")
    chosen = [a.strip() for a in arms.split(",") if a.strip()] if arms else None
    unknown = sorted(set(chosen or ()) - set(study.arm_names))
    if unknown:
        raise CliError(
            f"--arms: the study has no arm {unknown[0]!r}; its arms are: "
            + ", ".join(study.arm_names)
        )
    wanted = [m.strip() for m in metrics.split(",") if m.strip()] if metrics else None
    found = analyse(study, rows, load_header(results).get("provenance"))
    typer.echo(console_summary(found, full=full, arms=chosen, metrics=wanted))
    if html_path is not None:
        written = write_html(found, rows, html_path, arms=chosen, metrics=wanted).resolve()
        typer.echo(f"\nHTML report written to {written} (open {written.as_uri()})")
    if json_path is not None:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(found.to_json_text(), "utf-8")
        typer.echo(f"Figures written to {json_path}")


@lab_app.command("tune")
@reports_errors
def tune_command(
    study_path: Annotated[Path, typer.Argument(metavar="STUDY.toml", help="The study file.")],
    out: Annotated[Path, typer.Option("--out", help="The search's folder (resumed if it exists).")],
    trials: Annotated[
        int | None, typer.Option(min=1, help="Trials in all (default: the study's [search]).")
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Games per trial, table size and line-up at the last rung (default: "
            "[search] games, else the study's games).",
        ),
    ] = None,
    confirm_games: Annotated[
        int | None,
        typer.Option(
            min=2, help="Games of the confirmation run per arm and cell (default: 2x games)."
        ),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Local processes (default: every core).")
    ] = None,
    backend: Annotated[str, typer.Option(help="local or ray.")] = "local",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: RAY_ADDRESS or local).")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the answer as JSON (best, confirmation, ...).")
    ] = False,
) -> None:
    """Search the study's [search] parameters with Optuna, then confirm the best point on
    fresh deals; only the confirmation's figures are the answer."""
    _lab()
    try:
        import optuna  # noqa: F401
    except ImportError:
        raise CliError("lab tune needs optuna: install it with pip install -e '.[lab]'") from None
    import json

    from potluck.lab import load_study
    from potluck.lab.tune import TuneProgress, tune

    study = load_study(study_path)
    if backend not in ("local", "ray"):
        raise CliError(f"--backend must be local or ray, not {backend!r}")
    # with --json the answer alone goes to stdout; the progress bar and notes to stderr
    out_console = Console(stderr=True, highlight=False) if as_json else console()
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[note]}"),
        console=out_console,
        disable=not out_console.is_terminal,
    ) as bar:
        task = bar.add_task("Trials", total=trials, note="")

        def progress(state: TuneProgress) -> None:
            note = f"{state.games_played} games"
            if state.best:
                best = ", ".join(f"{k}={v}" for k, v in state.best.items())
                note += f"; best so far {best} (metric {state.best_value:.3g})"
            if state.stage == "confirmation":
                bar.update(
                    task,
                    description="Confirming",
                    completed=state.trials_done,
                    total=state.trials,
                    note=note,
                )
            else:
                bar.update(task, completed=state.trials_done, total=state.trials, note=note)

        try:
            answer = tune(
                study,
                out,
                trials=trials,
                games=games,
                confirm_games=confirm_games,
                workers=workers,
                backend=backend,
                address=address,
                progress=progress,
            )
        except KeyboardInterrupt:
            bar.stop()
            out_console.print(
                f"Interrupted. Finished trials are kept in {escape(str(out))}; "
                "run the same command again to resume."
            )
            raise typer.Exit(130) from None
    if as_json:
        typer.echo(json.dumps(answer, indent=1))
        return
    from potluck.lab.tune import answer_text

    typer.echo(answer_text(answer))
    typer.echo(
        f"\nThe confirmation run is a study of its own: potluck lab report "
        f"{answer['confirmation_results']} (Optuna's record: optuna-dashboard "
        f"{answer['search']['storage']})"
    )
