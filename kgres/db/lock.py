"""One writer at a time: a lock held in the database, with owner, heartbeat and timeout.

Every command that changes the graph (ingest, resolve, rollback, decide, split, judge, ...) runs
inside :func:`writer_lock`. A second writer waits up to ``wait_s`` seconds, saying who holds the
lock, then fails with :class:`LockHeld` naming the holder. The holder refreshes a heartbeat every
``ttl_s / 3`` seconds from a background thread; a holder that died (``kill -9``, a lost machine)
stops heartbeating, and its lock is taken over ``ttl_s`` seconds after its last heartbeat. The
interrupted work itself is finished by the next run (``kgres resolve`` resumes a 'running' run,
``kgres rollback`` continues, ``kgres ingest`` finishes an import). Readers never take the lock.

The lock is re-entrant within one thread and database handle: ``kgres ingest --resolve`` holds it
once for both stages. Threads of one process sharing a handle (``kgres serve`` answering two
``POST /mentions`` at once) queue on a process-local lock first, so they hand over without polling.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from kgres.config import LockSettings
from kgres.db.database import Database
from kgres.errors import KgresError

NAME = "writer"


class LockHeld(KgresError):
    """Another writer holds the database's writer lock (exit 1; the message names the holder)."""


def owner_label(command: str) -> str:
    """Who holds the lock, as other writers see it: command, process and host."""
    return f"kgres {command} (pid {os.getpid()} on {socket.gethostname()})"


_held: dict[tuple[int, int], str] = {}  # (database handle, thread) -> token of the lock it holds
_local: dict[int, threading.Lock] = {}  # database handle -> the lock its threads queue on
_registry = threading.Lock()


def held_token(db: Database) -> str | None:
    """The token of the writer lock this thread holds on ``db``, if it holds it."""
    return _held.get((id(db), threading.get_ident()))


@contextmanager
def writer_lock(db: Database, command: str, settings: LockSettings = LockSettings(),
                on_wait: Callable[[str], None] = lambda m: None) -> Iterator[str]:
    """Hold the writer lock for the ``with`` body; yields the lock token.

    ``on_wait`` receives a message once if the lock is busy, and one if a dead holder's lock was
    taken over.

    Raises:
        LockHeld: another live writer kept the lock for ``settings.wait_s`` seconds.
    """
    key = (id(db), threading.get_ident())
    if key in _held:  # re-entrant: an outer command of this thread already holds it
        yield _held[key]
        return
    with _registry:
        local = _local.setdefault(id(db), threading.Lock())
    deadline = time.monotonic() + settings.wait_s
    if not (local.acquire(timeout=settings.wait_s) if settings.wait_s else local.acquire(blocking=False)):
        raise LockHeld(f"another writer of this process ({owner_label('serve')}) kept the database for "
                       f"{settings.wait_s:g} s (KGRES_LOCK__WAIT_S)")
    try:
        token = uuid.uuid4().hex
        _acquire(db, token, owner_label(command), settings, deadline, on_wait)
        _held[key] = token
        stop = threading.Event()
        beat = threading.Thread(target=_heartbeat, args=(db, token, settings.ttl_s / 3, stop),
                                name="kgres-writer-lock", daemon=True)
        beat.start()
        try:
            yield token
        finally:
            stop.set()
            beat.join()
            del _held[key]
            try:
                db.query("lock_release", lock=NAME, token=token)
            except KgresError:
                pass  # the database went away; the lock expires after its ttl
    finally:
        local.release()


def _acquire(db: Database, token: str, owner: str, settings: LockSettings, deadline: float,
             on_wait: Callable[[str], None]) -> None:
    told = False
    ttl_ms = int(settings.ttl_s * 1000)
    while True:
        row = db.query("lock_acquire", lock=NAME, token=token, owner=owner, ttl_ms=ttl_ms)[0]
        if row["acquired"]:
            if row["taken_over_from"]:
                on_wait(f"took over the writer lock of {row['taken_over_from']}, silent longer than its "
                        f"{row['ttl_ms'] / 1000:.0f} s timeout (presumed dead)")
            return
        holder = (f"{row['owner']}, holding it for {row['held_ms'] / 1000:.0f} s, last heartbeat "
                  f"{row['idle_ms'] / 1000:.0f} s ago")
        left = deadline - time.monotonic()
        if left <= 0:
            raise LockHeld(f"another writer holds the database: {holder}. Retry when it finishes, or "
                           f"wait longer (KGRES_LOCK__WAIT_S, now {settings.wait_s:g} s); a crashed holder's "
                           f"lock is taken over {row['ttl_ms'] / 1000:.0f} s after its last heartbeat")
        if not told:
            on_wait(f"waiting up to {settings.wait_s:g} s for the writer lock: {holder}")
            told = True
        time.sleep(min(0.2, max(left, 0.05)))


def _heartbeat(db: Database, token: str, every_s: float, stop: threading.Event) -> None:
    while not stop.wait(every_s):
        try:
            db.query("lock_heartbeat", lock=NAME, token=token)
        except KgresError:
            pass  # a transient failure; the next beat retries well within the ttl
