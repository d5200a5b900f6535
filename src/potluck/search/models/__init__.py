"""The value models the search bots ship with: one JSON file per game and table size,
made by ``python -m potluck.search.training`` (see docs/bots.md, "Learned values")."""
