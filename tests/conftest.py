"""Test fixtures: one real Neo4j (APOC + GDS + kgres plugin) per session, an empty database per test.

Server, in this order: ``NEO4J_URI`` if set; else testcontainers when a Docker engine answers;
else the managed local server, started in a temporary folder on a free port (the user's own
managed server and data are never touched; the runtime cache in ``$KGRES_HOME`` is reused).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from kgres import schema
from kgres.config import Neo4jSettings, ServerSettings, load_settings
from kgres.db import Database, Target
from kgres.neo4j_runtime import ManagedServer, install
from kgres.neo4j_runtime.server import USER

ROOT = Path(__file__).resolve().parent.parent

# The suite replays the same generated inputs on every run, so CI never goes red on an example nobody
# has seen. HYPOTHESIS_PROFILE=explore draws new ones: run it after touching an importer or a model.
hypothesis_settings.register_profile("replay", derandomize=True)
hypothesis_settings.register_profile("explore", derandomize=False)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "replay"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _docker_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=15).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture(scope="session")
def runtime_home() -> Path:
    """Where the managed runtime is cached (``KGRES_HOME`` or ~/.kgres)."""
    return load_settings().home


@pytest.fixture(scope="session")
def neo4j_target(tmp_path_factory: pytest.TempPathFactory, runtime_home: Path) -> Iterator[Target]:
    env = Neo4jSettings()
    if env.uri:
        yield Target(env.uri, env.user, env.password.get_secret_value() if env.password else None, env.database,
                     managed=False)
        return
    if _docker_answers():
        yield from _container_target(runtime_home)
        return
    runtime = install(runtime_home)
    server = ManagedServer(tmp_path_factory.mktemp("neo4j"),
                           ServerSettings(bolt_port=_free_port(), heap="1g", pagecache="256m"))
    server.start(runtime)
    try:
        yield Target(server.uri, USER, server.password(), "neo4j", managed=True)
    finally:
        server.stop()


def _container_target(runtime_home: Path) -> Iterator[Target]:
    """Neo4j 5.26 in Docker with APOC + GDS from the image's plugin loader and our plugin mounted."""
    from testcontainers.neo4j import Neo4jContainer

    plugin = next(p for p in install(runtime_home).plugins if "kgres-procedures" in p)
    container = (Neo4jContainer("neo4j:5.26-community", password="kgres-test-password")
                 .with_env("NEO4J_PLUGINS", '["apoc", "graph-data-science"]')
                 .with_env("NEO4J_dbms_security_procedures_unrestricted", "apoc.*,gds.*,kgres.*")
                 .with_volume_mapping(plugin, "/plugins/kgres-procedures.jar", "ro"))
    with container:
        yield Target(container.get_connection_url(), "neo4j", "kgres-test-password", "neo4j", managed=False)


@pytest.fixture(scope="session")
def session_db(neo4j_target: Target) -> Iterator[Database]:
    with Database(neo4j_target) as db:
        yield db


@pytest.fixture
def db(session_db: Database) -> Database:
    """The session's database, emptied and with the schema applied."""
    schema.reset(session_db)
    schema.init(session_db, load_settings().schema_)
    return session_db


@pytest.fixture
def neo4j_env(neo4j_target: Target, monkeypatch: pytest.MonkeyPatch) -> Target:
    """Point the CLI (which reads NEO4J_* variables) at the test server."""
    monkeypatch.setenv("NEO4J_URI", neo4j_target.uri)
    monkeypatch.setenv("NEO4J_USER", neo4j_target.user)
    monkeypatch.setenv("NEO4J_PASSWORD", neo4j_target.password or "")
    monkeypatch.setenv("NEO4J_DATABASE", neo4j_target.database)
    return neo4j_target
