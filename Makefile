# The two commands of the README: `make run` (the whole product, embedded) and `make test`.
PYTHON ?= python3.11
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
DATA_DIR ?= ./var
LOCK := requirements.lock

export PORT DATA_DIR

.PHONY: run restore test lint format bench install lock lock-upgrade spelling screenshots

install: $(VENV)/.installed

# Everything the venv holds comes from requirements.lock: every package, transitive ones, pip and
# setuptools included, pinned with its hashes (pip refuses anything unpinned or unhashed). The
# locked pip goes in first: the venv's own pip (23.2 with Python 3.11.7) takes litellm's
# `httpx[http2]` for an unpinned requirement once a newer httpx is out, and refuses the lock. The
# project itself goes in last as an editable install of no dependencies of its own, built by the
# locked setuptools. Re-runs (a fresh venv) when the lock or pyproject.toml changes.
$(VENV)/.installed: $(LOCK) pyproject.toml
	rm -rf $(VENV)  # made anew: pip never removes what the lock no longer holds
	$(PYTHON) -m venv $(VENV)
	awk '/^pip==/{p=1} p{print} p && !/\\$$/{exit}' $(LOCK) > $(VENV)/pip.lock
	$(VENV)/bin/pip install --quiet --require-hashes --no-deps -r $(VENV)/pip.lock
	$(VENV)/bin/pip install --quiet --require-hashes -r $(LOCK)
	$(VENV)/bin/pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

# Regenerate the lock from pyproject.toml's ranges, keeping the pins that still fit them;
# `make lock-upgrade` moves every package to the newest release the ranges allow. One universal
# resolution for Python 3.11, whichever machine runs it; pip and setuptools (the installer and
# the build backend) are locked alongside. Never by hand: edit the ranges, then run this.
UV_COMPILE = printf 'pip\nsetuptools>=68\n' | $(VENV)/bin/uv pip compile pyproject.toml - \
	--extra dev --universal --python-version 3.11 --generate-hashes \
	--custom-compile-command "make lock" --quiet -o $(LOCK)

lock: install
	$(UV_COMPILE)

spelling: install
	$(PY) -m memory.rules.spelling > memory/rules/spelling_words.txt

lock-upgrade: install
	$(UV_COMPILE) --upgrade

run: install
	bin/run

# Put back a snapshot of the embedded database (`make run` stopped), then erase again whatever
# was erased after it: make restore SNAPSHOT=var/backups/daily-2026-12-01.sqlite3
restore: install
	$(PY) manage.py restore_snapshot $(SNAPSHOT)

# Tests run against real PostgreSQL and Redis (DATABASE_URL and REDIS_URL when set, else the
# local servers); browser tests use Debian's chromium at /usr/bin/chromium. One worker per core
# (pytest-xdist), each with its own test database and Redis database (config/settings_test.py).
TEST_WORKERS ?= auto
test: install node_modules/.installed
	$(PY) manage.py makemigrations --check --dry-run --settings=config.settings_test
	$(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

# What the browser tests inject into pages (axe-core), from package-lock.json with its hashes.
node_modules/.installed: package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	touch $@

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

# Refresh docs/screenshots/ (Settings → Memory in English and Italian, the chat on a desktop and a
# phone) from a real browser.
screenshots: install node_modules/.installed
	UPDATE_SCREENSHOTS=1 $(PY) -m pytest tests/e2e -k screenshots
