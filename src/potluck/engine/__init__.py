"""The rules engine: pure, deterministic, with no I/O beyond reading game data."""
