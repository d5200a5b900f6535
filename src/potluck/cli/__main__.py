"""``python -m potluck.cli``: the same as the ``potluck`` command."""

from potluck.cli import main

main()
