# Traders of Osaka: `make run` serves the app on http://127.0.0.1:8000 (SQLite ./osaka.db),
# `make test` runs the whole test suite. Install steps are stamped on pyproject.toml, so they
# are fast when nothing changed.
VENV    ?= .venv
PYTHON  ?= python3
PY      := $(VENV)/bin/python
HOST    ?= 127.0.0.1
PORT    ?= 8000
STAMP      := $(VENV)/.stamp-install
TEST_STAMP := $(VENV)/.stamp-install-test

.PHONY: install install-test run migrate test test-debs lint jstest clean bench screenshots icons

install: $(STAMP)

$(STAMP): pyproject.toml
	@echo "Installing the server into $(VENV) (the first time takes about two minutes)..."
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -e .
	@touch $@

install-test: $(TEST_STAMP)

$(TEST_STAMP): pyproject.toml $(STAMP)
	@echo "Installing what the tests need into $(VENV)..."
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $@

migrate: install
	@echo "Migrating the database..."
	$(VENV)/bin/osaka migrate

run: migrate
	$(VENV)/bin/osaka serve --host $(HOST) --port $(PORT)

# Debian packages the tests drive, installed when missing (as root; else the command is shown):
# chromium (browser tests, /usr/bin/chromium),
# docker-compose (`docker-compose config` checks of docker-compose.yml; no daemon needed) and
# caddy (the reverse proxy in front of the app under a path prefix, tests/e2e/test_prefix_proxy.py).
# nodejs and npm (the JS linter, `make lint`). apt waits up to 10 minutes for a dpkg lock another
# apt-get holds (DPkg::Lock::Timeout) instead of failing at once.
TEST_DEBS := chromium docker-compose caddy
test-debs:
	@missing=""; for p in $(TEST_DEBS); do command -v $$p >/dev/null || missing="$$missing $$p"; done; \
	command -v node >/dev/null || missing="$$missing nodejs"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get -o DPkg::Lock::Timeout=600 update && \
	      DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y $$missing; \
	  else \
	    echo "Missing:$$missing: run 'sudo apt-get update && sudo apt-get install -y$$missing'"; \
	  fi; \
	fi

# The JS linter (ESLint, pinned in package.json / package-lock.json, rules in eslint.config.js)
# over static/js; npm ci runs again only when the lockfile changed.
NODE_STAMP := node_modules/.stamp-npm-ci
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

lint: test-debs $(NODE_STAMP)
	node_modules/.bin/eslint static/js tests/js

# The client's pure modules (the room page's store) under node's own test runner: no browser.
jstest: test-debs
	node --test tests/js/

test: install-test test-debs lint jstest
	$(VENV)/bin/pytest

# Engine benchmark, then a short load run (SQLite, 25 and 100 rooms of 4 WebSocket players);
# the full ramp and PostgreSQL: see docs/performance.md.
BENCH_ROOMS    ?= 25,100
BENCH_DURATION ?= 20
bench: install-test
	$(PY) bench/engine_bench.py --games 300 --repeat 1
	$(PY) bench/load.py --rooms $(BENCH_ROOMS) --duration $(BENCH_DURATION) --json bench/results/load-latest.json

# Screenshots of every screen for docs/ui.md (tests/e2e/test_screenshots.py), written to
# docs/screenshots/ and optimized with Debian's pngquant/optipng when they are installed.
SHOTS_DIR ?= docs/screenshots
screenshots: install-test test-debs
	rm -f $(SHOTS_DIR)/*.png
	OSAKA_SHOTS_DIR=$(SHOTS_DIR) $(VENV)/bin/pytest -q -p no:cacheprovider tests/e2e/test_screenshots.py
	@if command -v pngquant >/dev/null; then pngquant --force --ext .png --quality 65-90 --skip-if-larger $(SHOTS_DIR)/*.png || true; fi
	@if command -v optipng >/dev/null; then optipng -quiet -o2 $(SHOTS_DIR)/*.png; fi
	@du -ch $(SHOTS_DIR)/*.png | tail -1

# The app icons (PNG) from static/img/icon.svg.
icons: install-test test-debs
	$(PY) tools/make_icons.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache node_modules
