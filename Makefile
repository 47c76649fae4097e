# `make run` and `make test` are all a fresh machine needs: each builds .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean notes

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The bidding table at http://127.0.0.1:8000/ (boards in the user's data directory); it
# serves until Ctrl-C. The tour of the CLI is `$(BIN)/bidbox demo`.
run: $(STAMP)
	@echo "System notes (HTML, the whole tree): make notes writes out/notes/sbu-level1.html and out/notes/tosr.html; any system: bidbox publish --system NAME --format html -o notes.html"
	$(BIN)/bidbox serve

# The HTML notes of the shipped systems in out/notes/ and their README screenshots.
notes: $(STAMP)
	$(BIN)/python tools/publish_notes.py

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_evaluate.py
	$(BIN)/python benchmarks/bench_bidding.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
