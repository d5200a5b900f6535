# Potluck: the two Quickstart commands are `make play` and `make test`.
# Everything installs into .venv beside this file; only Python 3.11+ is needed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: play play-terminal test lint typecheck unit bench setup clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit("Potluck needs Python 3.11 or newer, not " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,lab,web,rl]'
	@touch $(STAMP)

## The main job: serve the games in the browser (embedded SQLite), then open the address it prints.
play: $(STAMP)
	$(BIN)/potluck serve

## Play Café Carnage in the terminal against three greedy bots.
play-terminal: $(STAMP)
	$(BIN)/potluck play cafe-carnage --seats you,greedy,greedy,greedy

## The whole test suite: lint, format, types, then every test on all cores.
test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -q -n auto

bench: $(STAMP)
	$(BIN)/potluck bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
