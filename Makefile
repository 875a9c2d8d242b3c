# Stakes: `make run` serves the API on the embedded SQLite store; `make test` runs the whole suite.
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: run test bench clean browser

$(BIN)/stakes: pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	@touch $@

$(VENV)/.test-extras: $(BIN)/stakes
	$(BIN)/pip install --quiet -e '.[test]'
	@touch $@

run: $(BIN)/stakes
	$(BIN)/stakes serve

# The browser tests drive Debian's chromium through Playwright (tests/e2e/test_web_browser.py).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq chromium; fi; }

# One worker per core (pytest-xdist): every test has its own SQLite files and PostgreSQL schema.
test: $(VENV)/.test-extras browser
	$(BIN)/python -m pytest -n auto $(PYTEST_ARGS)

bench: $(VENV)/.test-extras
	$(BIN)/python -m pytest tests/benchmarks --benchmark-enable --benchmark-only -p no:randomly $(PYTEST_ARGS)

clean:
	rm -rf $(VENV)
