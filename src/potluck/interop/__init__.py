"""Potluck games behind the interfaces learning code already uses.

- :mod:`potluck.interop.pettingzoo`: AEC environments for every game, and a
  Parallel environment for games whose turns are simultaneous (Café Carnage);
- :mod:`potluck.interop.gymnasium`: one seat against Potluck bots, registered as
  ``potluck/<Game>-v1``;
- :mod:`potluck.interop.openspiel`: every game registered with ``pyspiel`` as
  ``potluck_<id>``.

They need the ``rl`` extra (``pip install 'potluck[rl]'``); the rules core never
imports them. See ``docs/interop.md``.
"""
