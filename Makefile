# Two commands for a newcomer: `make demo` and `make test`. Both build .venv when it is missing.
# Debian's own Python 3.11 where there is one (the README's fresh Debian 12 machine), else the PATH's.
PYTHON ?= $(if $(wildcard /usr/bin/python3.11),/usr/bin/python3.11,python3.11)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo demo-all hub test check test-portability release publish check-source check-source-next sandbox-deps browser-deps tpu-bundle clean

# Ray and the class hub are optional extras (`pip install -e '.[ray,hub]'`); the test suite needs
# both, pinned here.
$(STAMP): requirements-cpu.txt requirements-ray.txt requirements-hub.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-cpu.txt -r requirements-ray.txt -r requirements-hub.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $(STAMP)

# The grader refuses to run without bubblewrap; install it where apt is available and we are root.
sandbox-deps:
	@command -v bwrap >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq bubblewrap >/dev/null; \
	  else echo "bubblewrap (bwrap) is missing: install the 'bubblewrap' package" >&2; exit 1; fi; }

# tests/test_browser.py drives Debian's chromium (not Playwright's download); install it the same way.
browser-deps:
	@test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	  else echo "chromium is missing, so tests/test_browser.py will fail: install the Debian packages" \
	    "'chromium chromium-driver' (apt-get install -y chromium chromium-driver, as root)" >&2; fi; }

# `make demo`: course.toml's [demo] lessons (a handful across the phases); `make demo-all`: every lesson.
demo: $(STAMP) sandbox-deps
	$(BIN)/jaxcourse demo --course-dir demo-course
demo-all: $(STAMP) sandbox-deps
	$(BIN)/jaxcourse demo --all --course-dir demo-course

# A class hub on this machine, as root (docs/hub.md): `make hub ROSTER=roster.csv`.
# Every account runs the hub's own environment, outside this clone (which the hub makes private):
# root's, readable by all (umask 022), with this clone's package installed, not linked.
HUB_DIR ?= /srv/jaxcourse-hub
HUB_VENV := $(HUB_DIR)/venv
$(HUB_VENV)/.installed: requirements-cpu.txt requirements-hub.txt
	umask 022 && { test -x $(HUB_VENV)/bin/python || $(PYTHON) -m venv $(HUB_VENV); }
	umask 022 && $(HUB_VENV)/bin/python -m pip install --quiet --upgrade pip
	umask 022 && $(HUB_VENV)/bin/python -m pip install --quiet -r requirements-cpu.txt -r requirements-hub.txt
	touch $@
$(HUB_VENV)/.package: $(HUB_VENV)/.installed pyproject.toml $(shell find jaxcourse -type f -not -path '*/__pycache__/*')
	umask 022 && $(HUB_VENV)/bin/python -m pip install --quiet --no-deps --force-reinstall .
	touch $@
hub: sandbox-deps
	@test -n "$(ROSTER)" || { echo "usage: make hub ROSTER=roster.csv [HUB_DIR=$(HUB_DIR)] [HUB_ARGS='--port 8000']" >&2; exit 2; }
	$(MAKE) --no-print-directory $(HUB_VENV)/.package
	$(HUB_VENV)/bin/jaxcourse hub --roster $(ROSTER) --hub-dir $(HUB_DIR) --course-dir $(CURDIR) $(HUB_ARGS)

# Two pytest workers: much of the suite waits (kernels starting, timeouts running out) on one core.
# --durations: each run's log names the slowest tests, where CI's time goes.
TEST_JOBS ?= 2
test: $(STAMP) sandbox-deps browser-deps
	$(BIN)/python -m pytest -n $(TEST_JOBS) --durations=25 $(PYTEST_ARGS)

# The fast tier: the pure core, table-driven, no kernels (82 s); docs/performance.md says when and how.
check: $(STAMP)
	$(BIN)/python -m pytest -m fast $(PYTEST_ARGS)

# Every release in clean venvs at the course's pins and with the newest packages the registry
# serves today. Not in `make test`, which runs every release on Colab's package set instead: a
# registry release must not turn CI red, and the pinned set is the grader's own.
PORTABILITY_FLAVOURS ?= pinned,newest
test-portability: $(STAMP)
	PORTABILITY_FLAVOURS=$(PORTABILITY_FLAVOURS) $(BIN)/python -m pytest tests/test_portability.py $(PYTEST_ARGS)

release: $(STAMP)
	$(BIN)/jaxcourse release

# The student edition (no solutions) for a public repository: `make publish PUBLISH_DIR=...`.
PUBLISH_DIR ?= ../$(notdir $(CURDIR))-student
publish: $(STAMP)
	$(BIN)/jaxcourse publish $(PUBLISH_DIR)

check-source: $(STAMP) sandbox-deps
	$(BIN)/jaxcourse check-source

# A second environment with a newer jax than the pins (NEXT_JAX: 0.10.2, the version the TPU runs used),
# for `check-source-next`; `make check-source-next NEXT_JAX=...` tries another.
NEXT_JAX ?= 0.10.2
VENV_NEXT := .venv-next
$(VENV_NEXT)/.installed: requirements-cpu.txt pyproject.toml
	test -x $(VENV_NEXT)/bin/python || $(PYTHON) -m venv $(VENV_NEXT)
	$(VENV_NEXT)/bin/python -m pip install --quiet --upgrade pip
	grep -vE '^(jax|jaxlib|numpy|ml_dtypes|scipy|opt_einsum)==' requirements-cpu.txt > $(VENV_NEXT)/requirements.txt
	$(VENV_NEXT)/bin/python -m pip install --quiet -r $(VENV_NEXT)/requirements.txt jax==$(NEXT_JAX) jaxlib==$(NEXT_JAX)
	$(VENV_NEXT)/bin/python -m pip install --quiet --no-deps -e .
	touch $@

check-source-next: $(VENV_NEXT)/.installed sandbox-deps
	$(VENV_NEXT)/bin/jaxcourse check-source

# What grading on a TPU host needs beyond that host's own packages (docs/tpu.md, docs/tpu-evidence.md):
# the grader's wheels (requirements-tpu-host.txt, x86-64, Python 3.11) and a course of fabricated students,
# with one more student for each TPU_MUTANTS entry (a lesson's mutant, graded on the chip beside its correct one).
TPU_MUTANTS ?= pallas-02/exercise_no_running_max
WHEEL_PLATFORMS := $(foreach n,2_28 2_27 2_26 2_24 2_17,--platform manylinux_$(n)_x86_64) --platform manylinux2014_x86_64 --platform manylinux1_x86_64
tpu-bundle: $(STAMP)
	rm -rf .whl-tpu .tpu-course .tpu-course.tar.xz
	$(BIN)/python -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11.7 --implementation cp \
	  $(WHEEL_PLATFORMS) -d .whl-tpu -r requirements-tpu-host.txt
	$(BIN)/python benchmarks/grade_on_chip.py prepare .tpu-course $(addprefix --mutant ,$(TPU_MUTANTS))
	tar -cJf .tpu-course.tar.xz .tpu-course

clean:
	rm -rf demo-course .jaxcourse submitted feedback grades gradebook.db
