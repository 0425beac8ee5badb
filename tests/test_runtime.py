"""The managed runtime: pinned versions, plugins answering, auth on, lifecycle, setup errors."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest
from neo4j import GraphDatabase

from kgres.config import ServerSettings
from kgres.db import Database, Target
from kgres.errors import DatabaseUnavailable, RuntimeSetupError
from kgres.neo4j_runtime import (APOC_VERSION, GDS_VERSION, NEO4J_VERSION, ManagedServer, install,
                                 installed_runtime)
from kgres.neo4j_runtime.install import find_java, java_major
from tests.conftest import ROOT, _free_port


def test_pom_pins_the_same_versions_as_python():
    pom = (ROOT / "neo4j" / "pom.xml").read_text()
    found = dict(re.findall(r"<(neo4j|gds|apoc)\.version>([^<]+)<", pom))
    assert found == {"neo4j": NEO4J_VERSION, "gds": GDS_VERSION, "apoc": APOC_VERSION}


def test_all_three_plugins_answer(session_db):
    row = session_db.run("RETURN gds.version() AS gds, apoc.version() AS apoc, kgres.version() AS kgres")[0]
    assert row["kgres"] == "0.1.0" and row["gds"] and row["apoc"]
    if session_db.target.managed:  # a server of our own build: exactly the pinned versions
        assert (row["gds"], row["apoc"]) == (GDS_VERSION, APOC_VERSION)


def test_apoc_and_gds_procedures_we_rely_on_work(db):
    db.run("UNWIND range(1, 20) AS i CREATE (:P {id: i})-[:R]->(:Q {id: i})")
    assert db.run("CALL gds.graph.project('t', ['P', 'Q'], 'R') YIELD nodeCount RETURN nodeCount")[0]["nodeCount"] == 40
    wcc = db.run("CALL gds.wcc.stats('t', {concurrency: 2}) YIELD componentCount RETURN componentCount")
    assert wcc[0]["componentCount"] == 20
    db.run("CALL gds.graph.drop('t')")
    merged = db.run("MATCH (a:P {id: 1}), (b:P {id: 2}) CALL apoc.refactor.mergeNodes([a, b], {properties: 'combine'}) "
                    "YIELD node RETURN node.id AS ids")
    assert sorted(merged[0]["ids"]) == [1, 2]
    assert db.run("RETURN apoc.text.jaroWinklerDistance('Holmes', 'Holmes') AS d")[0]["d"] == 0.0


def test_a_runtime_whose_kgres_plugin_was_built_from_other_sources_is_not_taken(tmp_path: Path):
    """After an upgrade that changed the plugin, the recorded runtime is stale: installed_runtime says
    so (ensure_running then builds the plugin), instead of starting a server the queries fail on."""
    from kgres.neo4j_runtime.install import Runtime, _plugin_path, runtime_root

    root = runtime_root(tmp_path)
    (root / "lib").mkdir(parents=True)
    old, current = root / "kgres-procedures-0123456789.jar", _plugin_path(tmp_path)
    for jar in (old, current):
        jar.write_bytes(b"jar")

    def record(plugin: Path) -> None:
        rt = Runtime(java="java", lib=str(root / "lib"), plugins=[str(plugin)], neo4j_version=NEO4J_VERSION,
                     gds_version=GDS_VERSION, apoc_version=APOC_VERSION)
        (root / "current.json").write_text(rt.to_json())

    record(old)
    assert installed_runtime(tmp_path) is None
    record(current)
    assert installed_runtime(tmp_path).plugins == [str(current)]


def test_auth_is_on_and_wrong_password_is_refused(neo4j_target: Target):
    if not neo4j_target.managed:
        pytest.skip("auth policy is only ours on the managed server")
    bad = Database(Target(neo4j_target.uri, "neo4j", "wrong-password", "neo4j", managed=True))
    with pytest.raises(DatabaseUnavailable, match="refused the credentials"):
        bad.run("RETURN 1")
    bad.close()
    with GraphDatabase.driver(neo4j_target.uri, auth=None) as d, pytest.raises(Exception):
        d.verify_connectivity()


def test_server_lifecycle_password_file_and_status(runtime_home: Path, tmp_path: Path):
    """A second, small server: start (twice), password file 0600, its folders 0700, status, stop, then
    unreachable."""
    rt = installed_runtime(runtime_home) or install(runtime_home)
    server = ManagedServer(tmp_path / "srv", ServerSettings(bolt_port=_free_port(), heap="512m", pagecache="64m"))
    assert server.status().running is False
    with pytest.raises(RuntimeSetupError, match="kgres neo4j start"):
        server.password()
    st = server.start(rt)
    try:
        assert st.running and st.pid and st.uri == server.uri
        assert server.start(rt).pid == st.pid  # already running: no second JVM
        assert stat.S_IMODE(os.stat(server.password_file).st_mode) == 0o600
        for path in (server.home, server.home / "data", server.home / "conf", server.home / "logs"):
            assert stat.S_IMODE(os.stat(path).st_mode) == 0o700, path  # auth.ini, graph and logs are private
        conf = (server.home / "conf" / "neo4j.conf").read_text()
        assert "server.default_listen_address=127.0.0.1" in conf and "auth_enabled=true" in conf
        with Database(Target(server.uri, "neo4j", server.password(), "neo4j", managed=True)) as db:
            assert db.run("RETURN kgres.version() AS v")[0]["v"] == "0.1.0"
        assert "Started" in server.logs(200) or "Remote interface" in server.logs(200)
    finally:
        assert server.stop() is True
    assert server.status().running is False and server.stop() is False
    with pytest.raises(DatabaseUnavailable, match="not reachable"):
        Database(Target(server.uri, "neo4j", server.password(), "neo4j", managed=True)).run("RETURN 1")


def test_port_already_taken_is_a_clear_error(runtime_home: Path, tmp_path: Path, neo4j_target: Target):
    if not neo4j_target.managed:
        pytest.skip("needs the managed server's port")
    port = int(neo4j_target.uri.rsplit(":", 1)[1])
    server = ManagedServer(tmp_path / "srv2", ServerSettings(bolt_port=port))
    with pytest.raises(RuntimeSetupError, match=f"port {port} .* already in use"):
        server.start(installed_runtime(runtime_home))


def test_install_is_a_no_op_when_current(runtime_home: Path):
    steps: list[str] = []
    rt = install(runtime_home, on_step=steps.append)
    assert all("already built" in s for s in steps) and len(steps) == 2
    assert Path(rt.lib).is_dir() and any("kgres-procedures" in p for p in rt.plugins)


def test_install_without_maven_names_maven(runtime_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no mvn, no java on PATH (Debian's JDK is still found)
    with pytest.raises(RuntimeSetupError, match=r"Maven \('mvn'\) is not on PATH"):
        install(tmp_path / "home")


def test_java_detection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    assert java_major(find_java()) in (17, 21)
    fake = tmp_path / "jdk" / "bin"
    fake.mkdir(parents=True)
    (fake / "java").write_text('#!/bin/sh\necho \'openjdk version "11.0.2"\' >&2\n')
    (fake / "java").chmod(0o755)
    assert java_major(str(fake / "java")) == 11
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "jdk"))
    assert find_java() != str(fake / "java")  # Java 11 is skipped for a 17


def test_generated_passwords_never_look_like_an_option():
    """neo4j-admin reads a password starting with '-' as a flag; one start in 64 used to fail."""
    from kgres.neo4j_runtime.server import new_password

    pws = {new_password() for _ in range(2000)}
    assert len(pws) == 2000 and not any(p.startswith("-") for p in pws)
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{20,}", p) for p in pws)
