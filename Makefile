# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export RAY_USAGE_STATS_ENABLED := 0

.PHONY: setup run test bench baselines clean

setup: $(STAMP)

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.lock
	$(BIN)/pip install --quiet --no-deps -e .
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/evoplay evolve configs/fogel1993.toml --out results/fogel1993
	$(BIN)/python -m evoplay.recipes.fogel.report results/fogel1993

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_fogel.py

baselines: $(STAMP)
	$(BIN)/python -m evoplay.baselines

clean:
	rm -rf $(VENV)
