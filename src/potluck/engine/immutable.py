"""The refusal that makes an action immutable, kept out of the compiled modules.

``potluck.engine.action`` sets :func:`refuse_change` on ``Action`` as its
``__setattr__`` and ``__delattr__`` after making the class. It stays a Python
function on purpose: set on a class, a Python function binds to the instance as a
method (so it can name the action's class), while a compiled function would not
bind and would be called without the instance.
"""

from __future__ import annotations


def refuse_change(action: object, name: str, value: object = None) -> None:
    """Refuse to set or delete ``name`` on ``action``: an action is a value."""
    raise AttributeError(f"{type(action).__name__} is immutable")
