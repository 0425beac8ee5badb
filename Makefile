# Two entry points do all set-up on a fresh machine (Python 3.11+, Java 17, Maven 3.8+):
#   make demo   venv + managed Neo4j (built from Maven Central) + the bundled sample graph
#   make test   venv + managed runtime + Java plugin tests + the Python suite on a real Neo4j
# Downloads are cached outside the clone (~/.cache/pip, ~/.m2, ~/.kgres/runtime) and keyed by
# what they are built from, so a second run on the same machine is fast.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-java test-python install browser venv plugin bench clean

demo: venv
	$(BIN)/kgres demo

test: install browser test-java test-python

install: venv
	$(BIN)/kgres neo4j install

# Headless Chromium renders the HTML report in tests (Debian's package; root or sudo needed once).
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium; }

test-java:
	mvn -B -ntp -f procedures/pom.xml verify

test-python: venv
	$(BIN)/python -m pytest

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "kgres needs Python 3.11+")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[dev]"
	touch $(STAMP)

# The kgres plugin jar alone, for docker-compose (mounted from procedures/target/).
plugin:
	mvn -B -q -f procedures/pom.xml package -DskipTests

bench: install
	$(BIN)/python bench/ingest_throughput.py

clean:
	rm -rf $(VENV) procedures/target .pytest_cache
