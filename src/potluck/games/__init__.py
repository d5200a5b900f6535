"""The built-in games, one package each."""
