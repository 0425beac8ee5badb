"""``kgres neo4j install|start|stop|status|logs``: the managed local server."""

from __future__ import annotations

import time

import click
from rich.table import Table

from kgres.cli import App, json_option, main
from kgres.errors import RuntimeSetupError
from kgres.neo4j_runtime import ManagedServer, install, installed_runtime


def managed_server(app: App) -> ManagedServer:
    return ManagedServer(app.settings.home / "server", app.settings.server)


def ensure_running(app: App) -> ManagedServer:
    """Install (if needed) and start the managed server, reporting each step on stderr."""
    server = managed_server(app)
    if server.status().running:
        return server
    with app.err.status("preparing the managed Neo4j") as spinner:
        rt = installed_runtime(app.settings.home) or install(app.settings.home, on_step=spinner.update)
        server.start(rt, on_step=spinner.update)
    return server


@main.group("neo4j")
def neo4j_group() -> None:
    """Manage the local Neo4j server (no Docker needed).

    \b
    The server is assembled from Maven Central jars (Neo4j 5.26 + APOC core +
    OpenGDS + the kgres plugin) into ~/.kgres/runtime and listens on
    127.0.0.1 only. Authentication stays on; the generated password is kept
    in ~/.kgres/server/password (mode 0600) and kgres reads it by itself.
    """


@neo4j_group.command("install")
@click.option("--force", is_flag=True, help="Rebuild even if the cached runtime is current.")
@json_option
@click.pass_obj
def install_cmd(app: App, force: bool, as_json: bool) -> None:
    """Build the runtime and the kgres plugin with Maven (needs Java 17 and Maven).

    \b
    Idempotent: a second run only checks the cache. The first run downloads
    a few hundred MB from Maven Central.

    \b
    Example:
        kgres neo4j install
    """
    started = time.perf_counter()
    with app.err.status("installing the managed Neo4j") as spinner:
        rt = install(app.settings.home, on_step=lambda m: (spinner.update(m), app.err.print(m)), force=force)
    if as_json:
        app.emit_json({"runtime": rt.__dict__, "seconds": round(time.perf_counter() - started, 1)})
    else:
        app.out.print(f"Neo4j {rt.neo4j_version} + APOC {rt.apoc_version} + OpenGDS {rt.gds_version} ready in "
                      f"{app.settings.home / 'runtime'}")


@neo4j_group.command("start")
@json_option
@click.pass_obj
def start_cmd(app: App, as_json: bool) -> None:
    """Start the server (installing it first if needed); waits until Bolt answers.

    \b
    Example:
        kgres neo4j start && kgres status
    """
    server = ensure_running(app)
    status = server.status()
    if as_json:
        app.emit_json(status)
    else:
        app.out.print(f"Neo4j running at {status.uri} (pid {status.pid})")


@neo4j_group.command("stop")
@json_option
@click.pass_obj
def stop_cmd(app: App, as_json: bool) -> None:
    """Stop the server cleanly (SIGTERM by PID, SIGKILL after 60 s)."""
    stopped = managed_server(app).stop()
    if as_json:
        app.emit_json({"stopped": stopped})
    else:
        app.out.print("Neo4j stopped" if stopped else "Neo4j was not running")


@neo4j_group.command("status")
@json_option
@click.pass_obj
def status_cmd(app: App, as_json: bool) -> None:
    """Show whether the server runs, its pid, URI and the runtime versions.

    Exits 3 when the server is not running (scripts can test it).
    """
    server = managed_server(app)
    st = server.status()
    rt = installed_runtime(app.settings.home)
    doc = {**st.model_dump(), "installed": rt is not None,
           "versions": {"neo4j": rt.neo4j_version, "apoc": rt.apoc_version, "gds": rt.gds_version} if rt else None}
    if as_json:
        app.emit_json(doc)
    else:
        t = Table(show_header=False, box=None)
        for k in ("running", "pid", "uri", "home", "installed"):
            t.add_row(k, str(doc[k]))
        if rt:
            t.add_row("versions", f"Neo4j {rt.neo4j_version}, APOC {rt.apoc_version}, OpenGDS {rt.gds_version}")
        app.out.print(t)
    if not st.running:
        raise click.exceptions.Exit(3)


@neo4j_group.command("logs")
@click.option("-n", "--lines", default=50, show_default=True, help="How many lines.")
@click.option("-f", "--follow", is_flag=True, help="Keep printing new lines (Ctrl-C to stop).")
@click.pass_obj
def logs_cmd(app: App, lines: int, follow: bool) -> None:
    """Print the server's console log."""
    server = managed_server(app)
    if not server.console_log.is_file():
        raise RuntimeSetupError(f"no log yet at {server.console_log}; start the server first")
    click.echo(server.logs(lines))
    if follow:
        with open(server.console_log, errors="replace") as fh:
            fh.seek(0, 2)
            try:
                while True:
                    line = fh.readline()
                    if line:
                        click.echo(line, nl=False)
                    else:
                        time.sleep(0.5)
            except KeyboardInterrupt:
                pass
