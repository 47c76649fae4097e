# `make run` and `make test` are all a fresh machine needs: each builds .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The bidding table at http://127.0.0.1:8000/ (boards in the user's data directory); it
# serves until Ctrl-C. The tour of the CLI is `$(BIN)/bidbox demo`.
run: $(STAMP)
	$(BIN)/bidbox serve

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_evaluate.py
	$(BIN)/python benchmarks/bench_bidding.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
