"""Shared bench plumbing: a throwaway database (never the user's), timing, table printing."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import socket
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from kgres import schema
from kgres.config import ServerSettings, load_settings
from kgres.db import Database, Target
from kgres.neo4j_runtime import ManagedServer, install, installed_runtime
from kgres.neo4j_runtime.server import USER


@contextlib.contextmanager
def bench_database(heap: str = "2g", pagecache: str = "1g") -> Iterator[Database]:
    """A fresh managed server in a temp folder, or NEO4J_URI when KGRES_BENCH_USE_NEO4J_URI=1
    (that database is emptied: only point it at a scratch instance)."""
    if os.environ.get("NEO4J_URI") and os.environ.get("KGRES_BENCH_USE_NEO4J_URI") == "1":
        from kgres.db import resolve_target

        with Database(resolve_target(load_settings())) as db:
            schema.reset(db)
            schema.init(db, load_settings().schema_)
            yield db
        return
    home = load_settings().home
    rt = installed_runtime(home) or install(home)
    with tempfile.TemporaryDirectory(prefix="kgres-bench-") as tmp:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = ManagedServer(Path(tmp), ServerSettings(bolt_port=port, heap=heap, pagecache=pagecache))
        # A killed benchmark must still stop its server: turn SIGTERM into SystemExit so `finally` runs.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
        server.start(rt)
        try:
            with Database(Target(server.uri, USER, server.password(), "neo4j", managed=True)) as db:
                schema.init(db, load_settings().schema_)
                yield db
        finally:
            server.stop()


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def print_table(title: str, header: list[str], rows: list[list[object]]) -> None:
    cells = [header] + [[f"{c:,.0f}" if isinstance(c, float) and abs(c) >= 100 else
                         f"{c:.2f}" if isinstance(c, float) else str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    print(f"\n{title}")
    for j, r in enumerate(cells):
        print("  " + "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))))
        if j == 0:
            print("  " + "  ".join("-" * w for w in widths))
