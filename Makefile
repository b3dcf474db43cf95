# mahjong-table — every target creates or reuses .venv and installs the project idempotently.
PY      ?= python3
VENV    := .venv
VPY     := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
JOBS    ?= 2

.PHONY: run test test-long bench lint hw-test clean venv screenshots deps deps-run

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(VPY) || $(PY) -m venv $(VENV)
	@$(VPY) -m pip install -q --upgrade pip
	@$(VPY) -m pip install -q -e '.[dev]'
	@touch $(STAMP)

deps:  # the Debian packages the tests need: installed when root, else one line naming the command (exit 2)
	@MT_DEPS_PYTHON=$(PY) bash tools/install_deps.sh test

deps-run:  # what make run needs (python3-venv)
	@MT_DEPS_PYTHON=$(PY) bash tools/install_deps.sh run

run: deps-run $(STAMP)
	@$(VENV)/bin/mahjong-table demo
	@$(VENV)/bin/mahjong-table serve --demo --pace 0.6

test: deps $(STAMP)
	@MT_TEST_SIZE=small $(VPY) -m pytest -n $(JOBS)

test-long: deps $(STAMP)
	@MT_TEST_SIZE=long $(VPY) -m pytest -n $(JOBS) --timeout=3600

bench: $(STAMP)
	@$(VPY) -m bench.run

lint: $(STAMP)
	@$(VPY) -m ruff check .
	@$(VPY) -m mypy

screenshots: $(STAMP)  # docs/screenshots/*.png of a live demo table (Debian's chromium)
	@$(VPY) -m tests.web.screenshots

.PHONY: test-arm64
test-arm64: $(STAMP)  # the program as a Raspberry Pi runs it: aarch64 wheels in a bookworm arm64 root, qemu-user
	@bash tools/arm64/run.sh

hw-test: $(STAMP)
	@$(VPY) -m pytest hw_tests $(HW_ARGS)

clean:
	rm -rf $(VENV) bench/out .pytest_cache
