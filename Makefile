# Task file used by the README and .ci/run.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup demo test lint typecheck layers check bench-speed clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

setup: $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'

demo: setup
	$(BIN)/groundgraph --db demo.db index --example
	$(BIN)/groundgraph --db demo.db search "why does the config fail to load"

lint: setup
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: setup
	$(BIN)/mypy

layers: setup
	$(BIN)/lint-imports

test: setup lint typecheck layers
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 $(BIN)/pytest -q

check: test

bench-speed: setup
	$(BIN)/python benchmarks/speed.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache demo.db*
