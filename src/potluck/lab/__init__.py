"""The simulation lab: balance studies with paired arms, streamed results and reports.

Needs the ``lab`` extra (``pip install -e '.[lab]'``: pyarrow, matplotlib, scipy, ray).
The lab imports the engine; the engine never imports the lab.

    >>> from potluck.lab import load_study, run_study, load_results, analyse  # doctest: +SKIP
    >>> study = load_study("studies/cafe-player-counts.toml")                 # doctest: +SKIP
    >>> run_study(study, "results/cafe", workers=2)                           # doctest: +SKIP
    >>> print(console_summary(analyse(*load_results("results/cafe"))))        # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from potluck.lab.analysis import Analysis, analyse
    from potluck.lab.html import write_html
    from potluck.lab.report import console_summary
    from potluck.lab.runner import load_results, plan_chunks, run_study
    from potluck.lab.study import BASELINE, Arm, Study, StudyError, load_study, parse_study
    from potluck.lab.worker import Chunk, play_chunk

#: Where each public name lives. Imported on first use (PEP 562), so that a
#: worker process that needs only ``potluck.lab.worker`` loads no pyarrow or scipy.
_WHERE = {
    "Analysis": "analysis",
    "analyse": "analysis",
    "console_summary": "report",
    "write_html": "html",
    "load_results": "runner",
    "plan_chunks": "runner",
    "run_study": "runner",
    "BASELINE": "study",
    "Arm": "study",
    "Study": "study",
    "StudyError": "study",
    "load_study": "study",
    "parse_study": "study",
    "Chunk": "worker",
    "play_chunk": "worker",
}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'potluck.lab' has no attribute {name!r}")
    return getattr(importlib.import_module(f"potluck.lab.{_WHERE[name]}"), name)


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
