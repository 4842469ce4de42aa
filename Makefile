# Developer entry points. `make run` and `make test` are the README's Quick start.
#
#   make run                  install into .venv, migrate, seed demo games, serve on 127.0.0.1:8000
#                             with the job worker (manage.py run_jobs) beside the server
#   make test                 the whole test suite, one test process per core
#                             (PYTEST_ARGS="-k replay -x" to narrow it, "-n 0" for one process)
#   make lint                 ruff over the repository, mypy --strict over the engine
#   make native               the compiled engine again (install builds it): after editing the
#                             engine, which runs as pure Python until it is rebuilt
#
# DATABASE_URL picks the database for all of them (SQLite under var/ when unset).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# Touched after a successful install: reinstalling only when pyproject.toml is newer.
STAMP := $(VENV)/.installed
RUN_ADDR ?= 127.0.0.1:8000
PYTEST_ARGS ?=

.PHONY: run test lint install chromium migrate native

install: $(STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

# uv installs: it fetches and unpacks the packages in parallel, where pip takes them one at a
# time and compiles every module it installs. `make install` with empty caches: 33-58 s and
# 11-15 s of CPU, against pip's 108-200 s and 35-41 s (the same machine, loaded, runs
# alternated). pip stays in the environment, up to date (`.venv/bin/pip install -e '.[bench]'`).
$(STAMP): pyproject.toml | $(PY)
	@[ -x $(VENV)/bin/uv ] || $(PY) -m pip install --quiet --disable-pip-version-check uv
	$(VENV)/bin/uv pip install --quiet --python $(PY) --upgrade-package pip pip -e '.[dev]'
	@$(MAKE) --no-print-directory native
	touch $@

# The reviewer's hot engine modules compiled by mypyc (fourcolor/compiled.py), when mypy and a
# C compiler are there; otherwise one line says why, and the engine stays pure Python.
native: | $(PY)
	@$(PY) scripts/build_native.py 2>&1 | tail -n 1

migrate: $(STAMP)
	$(PY) manage.py migrate --noinput

# seed_demo runs only once it exists (records app) and only into a database without games,
# so that repeated `make run`s never pile up demo data.
run: migrate
	@if $(PY) manage.py help seed_demo >/dev/null 2>&1; then \
		if $(PY) manage.py shell -c "import sys; from django.apps import apps; \
sys.exit(0 if apps.get_model('records', 'Game').objects.exists() else 1)" >/dev/null 2>&1; then \
			echo "Database already has games: not seeding."; \
		else \
			$(PY) manage.py seed_demo; \
		fi; \
	fi
	@# The job worker runs beside the server (uploads over 256 KiB, statistics) and exits with
	@# it: on Ctrl-C, on the trap below, or by itself when this shell is gone (--parent-pid).
	@# With CELERY_BROKER_URL set, Celery runs the jobs: start `celery -A config worker -B`.
	@if [ -z "$$CELERY_BROKER_URL" ]; then \
		$(PY) manage.py run_jobs --parent-pid $$$$ & worker=$$!; \
		trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT; \
		$(PY) manage.py runserver $(RUN_ADDR); \
	else \
		$(PY) manage.py runserver $(RUN_ADDR); \
	fi

# Browser tests drive Debian's Chromium headless shell. Installing it is best effort: only as
# root with apt.
chromium:
	@if [ ! -x /usr/bin/chromium-headless-shell ] && [ "$$(id -u)" = 0 ] \
			&& command -v apt-get >/dev/null; then \
		echo "Installing Debian's chromium-headless-shell for the browser tests (apt-get)..."; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends chromium-headless-shell; } \
			>/dev/null 2>&1 \
			|| echo "warning: could not install chromium-headless-shell; the browser tests cannot run."; \
	fi

test: $(STAMP) chromium
	$(VENV)/bin/pytest -q -n auto --dist loadgroup $(PYTEST_ARGS)

# Both linters always run, so that one report shows everything; either failing fails the target.
lint: $(STAMP)
	@status=0; \
	echo "ruff check ."; $(VENV)/bin/ruff check . || status=1; \
	echo "mypy --strict fourcolor"; $(VENV)/bin/mypy --strict fourcolor || status=1; \
	exit $$status
