# The two commands of the README: `make run` (the whole product, embedded) and `make test`.
PYTHON ?= python3.11
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
DATA_DIR ?= ./var

export PORT DATA_DIR

.PHONY: run test lint format bench install screenshots

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e ".[dev]"
	touch $@

run: install
	bin/run

# Tests run against real PostgreSQL and Redis (DATABASE_URL and REDIS_URL when set, else the
# local servers); browser tests use Debian's chromium at /usr/bin/chromium.
test: install
	$(PY) manage.py makemigrations --check --dry-run --settings=config.settings_test
	$(PY) -m pytest $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

format: install
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: install
	$(PY) benchmarks/memory_bench.py

# Refresh docs/screenshots/ (Settings → Memory in English and Italian) from a real browser.
screenshots: install
	UPDATE_SCREENSHOTS=1 $(PY) -m pytest tests/e2e -k screenshots
