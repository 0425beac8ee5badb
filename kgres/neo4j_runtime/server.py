"""Start, stop and inspect one managed Neo4j server (a child JVM bound to 127.0.0.1).

A server's state lives in its folder::

    conf/neo4j.conf   written on every start from ServerSettings
    data/ logs/ run/ import/
    plugins/          links to the runtime's plugin jars (APOC, OpenGDS, kgres)
    console.log       the JVM's stdout/stderr
    server.json       pid, port and start time of the running JVM
    password          generated on first start, mode 0600; kgres reads it to connect

Authentication stays on. The password is set with ``neo4j-admin dbms set-initial-password`` before
the very first start, so there is never a moment where ``neo4j/neo4j`` is accepted.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import time
from pathlib import Path

from pydantic import BaseModel

from kgres.config import ServerSettings
from kgres.errors import RuntimeSetupError
from kgres.neo4j_runtime.install import Runtime

# Default 5.26 JVM flags that bin/neo4j would add (see research/neo4j-maven-recipe.md, step 7).
JVM_FLAGS = [
    "-XX:+UseG1GC", "-XX:-OmitStackTraceInFastThrow", "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields", "-XX:+DisableExplicitGC", "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true", "-Djdk.tls.ephemeralDHKeySize=2048",
    "-Djdk.tls.rejectClientInitiatedRenegotiation=true", "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED", "-Dlog4j2.disable.jmx=true", "-Djol.skipHotspotSAAttach=true",
    "-XX:+ExitOnOutOfMemoryError",
]
USER = "neo4j"


class ServerStatus(BaseModel):
    """What ``kgres neo4j status`` reports."""

    running: bool
    pid: int | None = None
    uri: str
    home: str
    started_at: float | None = None


class ManagedServer:
    """One server instance rooted at ``home`` (its state folder)."""

    def __init__(self, home: Path, settings: ServerSettings = ServerSettings()) -> None:
        self.home = Path(home)
        self.settings = settings

    # -- paths ------------------------------------------------------------------------------
    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.settings.bolt_port}"

    @property
    def password_file(self) -> Path:
        return self.home / "password"

    @property
    def console_log(self) -> Path:
        return self.home / "console.log"

    @property
    def _state_file(self) -> Path:
        return self.home / "server.json"

    def password(self) -> str:
        """The generated password.

        Raises:
            RuntimeSetupError: the server was never started here, so there is no password yet.
        """
        if not self.password_file.is_file():
            raise RuntimeSetupError(f"no managed Neo4j password at {self.password_file}; "
                                    "run 'kgres neo4j start' first (or set NEO4J_URI for your own server)")
        return self.password_file.read_text().strip()

    # -- lifecycle --------------------------------------------------------------------------
    def status(self) -> ServerStatus:
        state = self._read_state()
        alive = state is not None and self._is_ours(state["pid"])
        return ServerStatus(running=alive, pid=state["pid"] if alive else None, uri=self.uri,
                            home=str(self.home), started_at=state.get("started_at") if alive else None)

    def start(self, runtime: Runtime, on_step=lambda msg: None) -> ServerStatus:
        """Start the server unless it already runs; return once Bolt accepts our credentials.

        Raises:
            RuntimeSetupError: the port is taken, the JVM exited, or Bolt did not answer in time.
        """
        current = self.status()
        if current.running:
            return current
        if _port_open(self.settings.bolt_port):
            raise RuntimeSetupError(
                f"port {self.settings.bolt_port} on 127.0.0.1 is already in use by another process; "
                "stop it or choose another port with KGRES_SERVER__BOLT_PORT")
        for sub in ("conf", "data", "logs", "run", "import", "plugins"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        # The data holds auth.ini and the graph, the logs its queries: this user's alone.
        for path in (self.home, *(self.home / sub for sub in ("conf", "data", "logs", "run", "import", "plugins"))):
            path.chmod(0o700)
        (self.home / "conf" / "neo4j.conf").write_text(self._conf())
        self._link_plugins(runtime)
        if not (self.home / "data" / "dbms" / "auth.ini").exists() and not self._has_database():
            on_step("setting the initial password")
            self._set_initial_password(runtime)
        on_step(f"starting Neo4j {runtime.neo4j_version} on {self.uri}")
        proc = self._spawn(runtime)
        self._write_state({"pid": proc.pid, "port": self.settings.bolt_port, "started_at": time.time()})
        self._wait_until_ready(proc)
        return self.status()

    def stop(self, timeout_s: float = 60.0) -> bool:
        """Stop the server by PID (SIGTERM, then SIGKILL after ``timeout_s``). False if it was not running."""
        state = self._read_state()
        if state is None or not self._is_ours(state["pid"]):
            self._state_file.unlink(missing_ok=True)
            return False
        pid = state["pid"]
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.2)
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
            while _alive(pid):
                time.sleep(0.1)
        self._state_file.unlink(missing_ok=True)
        return True

    def logs(self, lines: int = 50) -> str:
        """The last ``lines`` lines the server printed."""
        if not self.console_log.is_file():
            return ""
        return "\n".join(self.console_log.read_text(errors="replace").splitlines()[-lines:])

    # -- internals --------------------------------------------------------------------------
    def _conf(self) -> str:
        h, s = self.home, self.settings
        return "\n".join([
            "# Written by kgres on every start; edit settings through kgres, not here.",
            "server.default_listen_address=127.0.0.1",
            "server.bolt.enabled=true",
            f"server.bolt.listen_address=127.0.0.1:{s.bolt_port}",
            f"server.bolt.advertised_address=127.0.0.1:{s.bolt_port}",
            "server.http.enabled=false",
            "server.https.enabled=false",
            "dbms.security.auth_enabled=true",
            "dbms.security.procedures.unrestricted=apoc.*,gds.*,kgres.*",
            "dbms.usage_report.enabled=false",
            f"server.directories.data={h / 'data'}",
            f"server.directories.logs={h / 'logs'}",
            f"server.directories.run={h / 'run'}",
            f"server.directories.import={h / 'import'}",
            f"server.directories.plugins={h / 'plugins'}",
            f"server.directories.transaction.logs.root={h / 'data' / 'transactions'}",
            f"server.memory.pagecache.size={s.pagecache}",
            "db.transaction.timeout=30m",
            # Neo4j keeps two days of transaction logs by default: 8 GB beside a 1 GB store after one
            # resolve at 100k mentions. kgres undoes through its own records (REFERRED_TO, runs), not
            # the logs, so a bounded tail is enough; logs are pruned at checkpoints.
            "db.tx_log.rotation.retention_policy=1G size",
            "",
        ])

    def _link_plugins(self, runtime: Runtime) -> None:
        folder = self.home / "plugins"
        for old in folder.iterdir():
            old.unlink()
        for jar in runtime.plugins:
            (folder / Path(jar).name).symlink_to(jar)

    def _classpath(self, runtime: Runtime) -> str:
        # Plugins on -cp too: APOC and GDS register extensions through ServiceLoader.
        return f"{self.home / 'plugins'}/*:{runtime.lib}/*"

    def _env(self) -> dict[str, str]:
        return dict(os.environ, NEO4J_HOME=str(self.home), NEO4J_CONF=str(self.home / "conf"))

    def _has_database(self) -> bool:
        return (self.home / "data" / "databases").is_dir()

    def _set_initial_password(self, runtime: Runtime) -> None:
        pw = new_password()
        cmd = [runtime.java, "-cp", self._classpath(runtime), "org.neo4j.cli.AdminTool",
               "dbms", "set-initial-password", pw]
        done = subprocess.run(cmd, env=self._env(), capture_output=True, text=True, timeout=180)
        if done.returncode != 0:
            raise RuntimeSetupError(f"setting the initial Neo4j password failed: {done.stdout}{done.stderr}")
        fd = os.open(self.password_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(pw + "\n")

    def _spawn(self, runtime: Runtime) -> subprocess.Popen:
        s = self.settings
        cmd = [runtime.java, f"-Xms{s.heap}", f"-Xmx{s.heap}", *JVM_FLAGS, "-cp", self._classpath(runtime),
               "org.neo4j.server.CommunityEntryPoint", f"--home-dir={self.home}",
               f"--config-dir={self.home / 'conf'}", "--console-mode"]
        log = open(self.console_log, "ab")
        try:
            return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    env=self._env(), cwd=self.home, start_new_session=True)
        finally:
            log.close()

    def _wait_until_ready(self, proc: subprocess.Popen) -> None:
        from neo4j import GraphDatabase
        from neo4j.exceptions import AuthError, DriverError, Neo4jError

        deadline = time.monotonic() + self.settings.startup_timeout_s
        auth = (USER, self.password())
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                self._state_file.unlink(missing_ok=True)
                raise RuntimeSetupError(f"Neo4j exited with code {proc.returncode} while starting; "
                                        f"last lines of {self.console_log}:\n{self.logs(25)}")
            if _port_open(self.settings.bolt_port):
                try:
                    with GraphDatabase.driver(self.uri, auth=auth) as d:
                        d.verify_connectivity()
                        d.execute_query("RETURN 1", database_="neo4j")
                    return
                except AuthError as e:
                    raise RuntimeSetupError(f"Neo4j refused the stored password in {self.password_file}: {e}") from e
                except (DriverError, Neo4jError, OSError):  # still starting: databases come up after Bolt
                    pass
            time.sleep(0.5)
        raise RuntimeSetupError(f"Neo4j did not answer on {self.uri} within {self.settings.startup_timeout_s:.0f}s; "
                                f"see {self.console_log}:\n{self.logs(25)}")

    def _read_state(self) -> dict | None:
        try:
            return json.loads(self._state_file.read_text())
        except (OSError, ValueError):
            return None

    def _write_state(self, state: dict) -> None:
        self._state_file.write_text(json.dumps(state))

    def _is_ours(self, pid: int) -> bool:
        """True when ``pid`` is alive and is the JVM started for this home (not a recycled pid)."""
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
        except OSError:
            return _alive(pid)  # no /proc (macOS): trust the pid
        return f"--home-dir={self.home}" in cmdline


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie child of ours counts as gone
        return os.waitpid(pid, os.WNOHANG) == (0, 0)
    except ChildProcessError:
        return True


def _port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def new_password() -> str:
    """A random URL-safe password that neo4j-admin cannot mistake for an option.

    ``token_urlsafe`` may start with ``-``; neo4j-admin then reads the password as an unknown flag
    and fails with "Missing required parameter: '<password>'" (about one start in 64).
    """
    return "k" + secrets.token_urlsafe(18)
