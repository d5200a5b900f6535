"""The ``potluck`` command line (Typer + Rich); see :mod:`potluck.cli.app`."""

from potluck.cli.app import app, main

__all__ = ["app", "main"]
