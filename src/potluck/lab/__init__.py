"""The simulation lab: balance studies with paired arms, streamed results and reports.

Needs the ``lab`` extra (``pip install -e '.[lab]'``: pyarrow, matplotlib, scipy, ray).
The lab imports the engine; the engine never imports the lab.

    >>> from potluck.lab import load_study, run_study, load_results, analyse  # doctest: +SKIP
    >>> study = load_study("studies/cafe-player-counts.toml")                 # doctest: +SKIP
    >>> run_study(study, "results/cafe", workers=2)                           # doctest: +SKIP
    >>> print(console_summary(analyse(*load_results("results/cafe"))))        # doctest: +SKIP
"""

from potluck.lab.report import Analysis, analyse, console_summary, write_html
from potluck.lab.runner import Chunk, load_results, plan_chunks, play_chunk, run_study
from potluck.lab.study import BASELINE, Arm, Study, StudyError, load_study, parse_study

__all__ = [
    "BASELINE",
    "Analysis",
    "Arm",
    "Chunk",
    "Study",
    "StudyError",
    "analyse",
    "console_summary",
    "load_results",
    "load_study",
    "parse_study",
    "plan_chunks",
    "play_chunk",
    "run_study",
    "write_html",
]
