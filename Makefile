# mahjong-table — every target creates or reuses .venv and installs the project idempotently.
PY      ?= python3
VENV    := .venv
VPY     := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
JOBS    ?= 2

.PHONY: run test test-long bench lint hw-test clean venv screenshots

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(VPY) || $(PY) -m venv $(VENV)
	@$(VPY) -m pip install -q --upgrade pip
	@$(VPY) -m pip install -q -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	@$(VENV)/bin/mahjong-table demo
	@$(VENV)/bin/mahjong-table serve --demo --pace 0.6

test: $(STAMP)
	@MT_TEST_SIZE=small $(VPY) -m pytest -n $(JOBS)

test-long: $(STAMP)
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
