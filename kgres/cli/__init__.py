"""The ``kgres`` command line: thin commands over the stage functions.

Commands parse options, call one function, print. Tables and progress go to stderr-aware rich
consoles; ``--json`` prints one JSON document on stdout. Exit codes::

    0  ok
    1  kgres error (bad input, failed query, setup problem): the message names file, line, field
    2  usage error (click)
    3  Neo4j unreachable or credentials refused
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from pydantic import BaseModel
from rich.console import Console

from kgres import __version__
from kgres.config import Settings, load_settings
from kgres.errors import DatabaseUnavailable, KgresError

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
EXIT_CODES = """\b
Exit codes: 0 ok, 1 kgres error (names file, line and field),
2 usage error, 3 Neo4j unreachable or credentials refused."""


class Unreachable(click.ClickException):
    exit_code = 3


class KgresGroup(click.Group):
    """Turns kgres errors into clean messages and documented exit codes."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except DatabaseUnavailable as e:
            raise Unreachable(_message(e)) from e
        except KgresError as e:
            raise click.ClickException(_message(e)) from e


def _message(e: Exception) -> str:
    """The error's message and the notes added on its way up (what was done about it)."""
    return "\n".join([str(e), *getattr(e, "__notes__", [])])


# Characters a terminal acts on rather than shows: C0/C1 controls (ESC starts escape sequences) and
# the bidirectional overrides that reorder what follows them ("\u202e" makes "txt.exe" look like
# "exe.txt"). Names come from LLM output: printed, they are shown as escapes instead.
_UNSHOWN = {c: f"\\u{c:04x}" for c in [*range(0x00, 0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F,
                                      *range(0x202A, 0x202F), *range(0x2066, 0x206A)] if chr(c) not in "\n\t"}


class SafeConsole(Console):
    """A rich console that shows control and bidirectional-override characters in text it renders
    (table cells included) as ``\\uXXXX`` escapes, so a hostile name cannot drive the terminal."""

    def render_str(self, text: str, *args: Any, **kwargs: Any) -> Any:
        return super().render_str(text.translate(_UNSHOWN), *args, **kwargs)


class App:
    """Shared state of one invocation: settings, consoles, a lazily opened database."""

    def __init__(self, config: Path | None, quiet: bool) -> None:
        self._config_file = config
        self.quiet = quiet
        self.out = SafeConsole(soft_wrap=True)
        self.err = SafeConsole(stderr=True, quiet=quiet)
        self._settings: Settings | None = None
        self._db = None

    @property
    def config_file(self) -> Path | None:
        return self._config_file

    @config_file.setter
    def config_file(self, path: Path | None) -> None:
        """A command's own --config replaces the group's; settings are read again from it."""
        self._config_file = path
        self._settings = None

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            self._settings = load_settings(self.config_file)
        return self._settings

    @property
    def db(self):
        if self._db is None:
            from kgres.db import Database

            self._db = Database.connect(self.settings)
        return self._db

    @contextmanager
    def writing(self, command: str, db=None) -> Iterator[Any]:
        """Hold the database's writer lock (:mod:`kgres.db.lock`) while ``command`` changes the graph;
        a busy lock is reported on stderr while waiting. Yields the database."""
        from kgres.db.lock import writer_lock

        db = db if db is not None else self.db
        with writer_lock(db, command, self.settings.lock, on_wait=lambda m: self.err.print(f"note: {m}")):
            yield db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()

    def emit_json(self, value: BaseModel | dict | list) -> None:
        click.echo(to_json(value))


def to_json(value: BaseModel | dict | list) -> str:
    """One strict JSON document: a NaN or infinite number (a weight a source graph carried) becomes
    null, since bare ``NaN`` is not JSON and breaks the scripts that read ``--json``."""
    data = value.model_dump(mode="json") if isinstance(value, BaseModel) else value
    return json.dumps(_finite(data), indent=2, sort_keys=False, default=str, allow_nan=False)


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def writes(command: str) -> Callable:
    """Decorate a command (under ``click.pass_obj``) that changes the graph: it runs holding the
    writer lock, so two writers never interleave (a second one waits, then fails naming the holder)."""
    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def run(app: App, *args: Any, **kwargs: Any) -> Any:
            with app.writing(command):
                return fn(app, *args, **kwargs)
        return run
    return wrap


json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON document on stdout.")


@click.group(cls=KgresGroup, context_settings=CONTEXT_SETTINGS, epilog=EXIT_CODES)
@click.version_option(__version__, "-V", "--version", prog_name="kgres")
@click.option("--config", "config", type=click.Path(dir_okay=False, path_type=Path), envvar="KGRES_CONFIG",
              help="TOML settings file (also KGRES_CONFIG).")
@click.option("-q", "--quiet", is_flag=True, help="No progress or log output on stderr.")
@click.pass_context
def main(ctx: click.Context, config: Path | None, quiet: bool) -> None:
    """kgres: resolve duplicate entities and denoise LLM-built knowledge graphs inside Neo4j.

    \b
    Connection: NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD, NEO4J_DATABASE; with
    NEO4J_URI unset, kgres uses its managed local server (kgres neo4j start).

    \b
    Example:
        kgres demo
        kgres ingest graphrag ./output --json
    """
    app = App(config, quiet)
    ctx.obj = app
    ctx.call_on_close(app.close)


from kgres.cli import demo as _demo  # noqa: E402,F401  (registers commands)
from kgres.cli import graph as _graph  # noqa: E402,F401
from kgres.cli import neo4j as _neo4j  # noqa: E402,F401
from kgres.cli import resolve as _resolve  # noqa: E402,F401
from kgres.cli import curate as _curate  # noqa: E402,F401
from kgres.cli import llm as _llm  # noqa: E402,F401
from kgres.cli import model as _model  # noqa: E402,F401
from kgres.cli import evaluate as _evaluate  # noqa: E402,F401
from kgres.cli import retrieve as _retrieve  # noqa: E402,F401
