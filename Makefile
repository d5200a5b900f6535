# Potluck: the two Quickstart commands are `make play` and `make test`.
# Everything installs into .venv beside this file; only Python 3.11+ is needed.

PYTHON ?= python3
PORT   ?= 8000
HOST   ?= 127.0.0.1
VENV   := .venv
BIN    := $(VENV)/bin
# Two stamps: `make play` installs only what serving needs (.[web], about a minute);
# `make test` adds the rest (.[dev,lab,web,rl]: the test tools, the lab, the learning adapters).
WEB_STAMP  := $(VENV)/.web-stamp
FULL_STAMP := $(VENV)/.full-stamp

.PHONY: play play-terminal test lint typecheck unit bench setup setup-web native clean

setup: $(FULL_STAMP) native

setup-web: $(WEB_STAMP)

$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; sys.exit("Potluck needs Python 3.11 or newer, not " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	@echo "==> Creating the virtual environment in $(VENV)"
	$(PYTHON) -m venv $(VENV)

$(WEB_STAMP): pyproject.toml $(VENV)/bin/python
	@echo "==> Installing Potluck and what the browser game needs (.[web]); about a minute on first use"
	$(BIN)/python -m pip install --progress-bar on -e '.[web]'
	@touch $(WEB_STAMP)

$(FULL_STAMP): pyproject.toml $(VENV)/bin/python
	@echo "==> Installing Potluck with every extra (.[dev,lab,web,rl]: test tools, lab, learning adapters); several minutes on first use"
	$(BIN)/python -m pip install --progress-bar on -e '.[dev,lab,web,rl]'
	@touch $(FULL_STAMP) $(WEB_STAMP)

## The compiled rules (mypyc) in build/native/, loaded only while their sources are unchanged
## (docs/engine.md, "Compiled build"); a no-op when fresh; without a C compiler one line says
## the rules run as pure Python.
native: $(FULL_STAMP)
	POTLUCK_BUILD=pure $(BIN)/python -m potluck.native_build

## The main job: serve the games in the browser (embedded SQLite), then open the address it prints.
## `make play PORT=8001` chooses another port.
play: $(WEB_STAMP)
	$(BIN)/potluck serve --host $(HOST) --port $(PORT)

## Play Café Carnage in the terminal against three greedy bots.
play-terminal: $(WEB_STAMP)
	$(BIN)/potluck play cafe-carnage --seats you,greedy,greedy,greedy

## The whole test suite: lint, format, types, then every test on all cores.
test: lint typecheck unit

lint: $(FULL_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(FULL_STAMP)
	$(BIN)/mypy

unit: $(FULL_STAMP) native
	$(BIN)/pytest -q -n auto

bench: $(WEB_STAMP)
	$(BIN)/potluck bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build/native
