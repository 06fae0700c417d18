# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export RAY_USAGE_STATS_ENABLED := 0
# The docs theme's banner on every build (Material for MkDocs reaches end of life in May 2027): a notice, not a fault.
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup run test docs bench bench-study baselines clean

setup: $(STAMP)

# Each step says what it does and about how long it takes (measured on the 2-core machine).
$(STAMP): pyproject.toml requirements.lock
	@echo "make setup: creating $(VENV) (seconds)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	@echo "make setup: installing the pinned packages of requirements.lock (Ray, numba, OpenSpiel, ...: about 1-3 minutes)"
	$(BIN)/pip install --quiet -r requirements.lock
	@echo "make setup: installing evoplay itself, editable (seconds)"
	$(BIN)/pip install --quiet --no-deps -e .
	@echo "make setup: compiling evoplay's kernels into numba's cache, so that no run pays it (under a minute)"
	$(BIN)/python -c "from evoplay.cli.warmup import warm_compiled_code; warm_compiled_code()"
	touch $(STAMP)
	@echo "make setup: done ($(BIN)/evoplay)"

# `make run` makes the reference reproduction in a folder of its own (runs/, not committed) and
# ends by checking it against the committed run: `evoplay diff` prints that they are identical,
# file by file, or which files differ (and make fails). The committed results stay untouched.
run: $(STAMP)
	$(BIN)/evoplay evolve configs/fogel1993.toml --out runs/fogel1993 --overwrite
	$(BIN)/evoplay report runs/fogel1993
	$(BIN)/evoplay diff runs/fogel1993 results/fogel1993

# The browser test (tests/test_web_browser.py) drives the system's Chromium: installed
# here with apt-get when run as root (as in CI), else named in one line and skipped.
# The test files run on two processes (pytest-xdist; each file stays on one process), the
# longest files first (tests/conftest.py, LONGEST_FILES; xdist's own reordering off).
test: $(STAMP)
	@if [ -z "$$EVOPLAY_CHROMIUM" ] && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "make test: installing chromium with apt-get for the browser test"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null 2>&1 \
	      || echo "make test: apt-get could not install chromium: the browser test will be skipped"; \
	  else \
	    echo "make test: browser test skipped (no Chromium): sudo apt-get install chromium, or set EVOPLAY_CHROMIUM=/path/to/chromium"; \
	  fi; \
	fi
	$(BIN)/python -m pytest -q --durations=15 -n 2 --dist loadfile --no-loadscope-reorder

# The documentation site: docs/ (and pages generated from the code and results/) into site/.
# --strict: any warning (a broken link or anchor, a missing docstring target) fails the build.
docs: $(STAMP)
	$(BIN)/mkdocs build --strict --site-dir site

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_fogel.py

bench-study: $(STAMP)
	$(BIN)/python benchmarks/bench_study.py

baselines: $(STAMP)
	$(BIN)/evoplay baselines

clean:
	rm -rf $(VENV) site
