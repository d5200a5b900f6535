"""Moved to :mod:`potluck.renderers` (shared by the CLI and the adapters); kept for old imports."""

from potluck.renderers import ViewRenderer, renderer_for

__all__ = ["ViewRenderer", "renderer_for"]
