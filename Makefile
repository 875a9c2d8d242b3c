# Stakes: `make run` serves the API on the embedded SQLite store; `make test` lints, type-checks and runs the whole suite.
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: run test lint bench clean browser lock screenshots

# The versions the suite passed with are pinned in the lock files (issue 30): a fresh clone installs exactly
# those, then the project itself without resolving anything again. `make lock` writes them anew from pyproject.toml.
$(BIN)/stakes: pyproject.toml requirements.lock
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.lock
	$(BIN)/pip install --quiet --no-deps -e .
	@touch $@

$(VENV)/.test-extras: $(BIN)/stakes requirements-test.lock
	$(BIN)/pip install --quiet -r requirements-test.lock
	@touch $@

# `make run HOST=0.0.0.0` listens on every address, so the players' phones on the same network reach the table.
run: $(BIN)/stakes
	$(BIN)/stakes serve $(if $(HOST),--host $(HOST))

# The browser tests drive Debian's chromium through Playwright (tests/e2e/test_web_browser.py).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq chromium; fi; }

# ruff and mypy as configured in pyproject.toml; both must be clean.
lint: $(VENV)/.test-extras
	$(BIN)/ruff check .
	$(BIN)/mypy

# One worker per core (pytest-xdist): every test has its own SQLite files and PostgreSQL schema (a module marked
# shared_store: each test its own campaign in the module's store).
# Temporary files (each test's SQLite store, the browsers' profiles) go to memory where /dev/shm is writable: the
# same SQLite, without the disk's flushes (about a tenth of an SQLite test's time here). STAKES_TEST_TMPDIR overrides.
TEST_TMPDIR ?= $(or $(STAKES_TEST_TMPDIR),$(shell test -d /dev/shm -a -w /dev/shm && echo /dev/shm),$(TMPDIR),/tmp)
test: lint browser
	TMPDIR=$(TEST_TMPDIR) $(BIN)/python -m pytest -n auto --dist worksteal $(PYTEST_ARGS)

# The guides' and the README's pictures, from the browser tests (tests/e2e/board.py: shoot).
screenshots: $(VENV)/.test-extras browser
	STAKES_SCREENSHOTS=1 $(BIN)/python -m pytest -p no:randomly tests/e2e/test_board_*.py tests/e2e/test_web_browser.py

bench: $(VENV)/.test-extras
	$(BIN)/python -m pytest tests/benchmarks --benchmark-enable --benchmark-only -p no:randomly $(PYTEST_ARGS)

lock: $(VENV)/.test-extras
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --python-version 3.11 --no-header --annotation-style line -o requirements.lock
	$(BIN)/uv pip compile pyproject.toml --extra test --python-version 3.11 --no-header --annotation-style line \
	  -c requirements.lock -o requirements-test.lock

clean:
	rm -rf $(VENV)
