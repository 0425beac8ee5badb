"""The one place kgres talks to Neo4j: connection resolution, named queries, error wrapping.

Stages call ``db.write("ingest_mentions", rows=batch)``; the text comes from ``cypher/``
(:mod:`kgres.db.cypher`), values always travel as parameters. Pick the method by what the
statement does:

=================  ==================================================================
``read``           read-only, rows as dicts (nodes become property maps); read access
``stream``         read-only, rows one at a time (large results)
``query``          writes and returns rows (one write transaction)
``write``          writes; returns the update counters
``auto_commit``    ``CALL ... IN TRANSACTIONS`` and other statements that manage their own
``script``         a multi-statement file (schema, index rebuilds)
=================  ==================================================================
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import neo4j
from neo4j import GraphDatabase, NotificationMinimumSeverity
from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable, SessionExpired

from kgres.db import cypher
from kgres.config import Neo4jSettings, Settings
from kgres.errors import DatabaseError, DatabaseUnavailable, KgresError


@dataclass(frozen=True)
class Target:
    """Where to connect: URI, credentials, database name, and a label for messages."""

    uri: str
    user: str
    password: str | None
    database: str
    managed: bool


def resolve_target(settings: Settings, managed_only: bool = False) -> Target:
    """``NEO4J_URI`` (+ user/password/database) if set, else the managed local server.

    Args:
        managed_only: ignore ``NEO4J_URI`` and use the managed server (the demo does).

    Raises:
        DatabaseUnavailable: the managed server is wanted but was never started.
    """
    env = Neo4jSettings()
    if env.uri and not managed_only:
        pw = env.password.get_secret_value() if env.password else None
        return Target(env.uri, env.user, pw, env.database, managed=False)
    from kgres.neo4j_runtime.server import USER, ManagedServer
    from kgres.errors import RuntimeSetupError

    server = ManagedServer(settings.home / "server", settings.server)
    try:
        pw = server.password()
    except RuntimeSetupError as e:
        raise DatabaseUnavailable(str(e)) from e
    return Target(server.uri, USER, pw, "neo4j" if managed_only else env.database, managed=True)


class Database:
    """A driver plus the database name; runs named Cypher files and wraps driver errors."""

    def __init__(self, target: Target) -> None:
        self.target = target
        auth = (target.user, target.password) if target.password is not None else None
        # Notifications (unknown label/property on an empty graph) are noise for a CLI; errors still raise.
        self._driver = GraphDatabase.driver(target.uri, auth=auth,
                                            notifications_min_severity=NotificationMinimumSeverity.OFF)

    @classmethod
    def connect(cls, settings: Settings) -> "Database":
        """Connect and verify the server answers.

        Raises:
            DatabaseUnavailable: unreachable, or credentials refused.
        """
        db = cls(resolve_target(settings))
        try:
            db._driver.verify_connectivity()
        except Exception as e:
            db.close()
            raise _wrap(e, "connect", db.target) from e
        return db

    def close(self) -> None:
        self._driver.close()

    def __enter__(self) -> "Database":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- running statements -----------------------------------------------------------------
    def query(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """Run ``cypher/<name>.cypher``, which writes, in one write transaction; return its rows as
        dicts. Read-only statements go through :meth:`read` instead."""
        return self.run(cypher.load(name), _name=name, **params)

    def run(self, text: str, _name: str = "statement", **params: Any) -> list[dict[str, Any]]:
        """Run literal Cypher (kgres-internal text only, never built from user values)."""
        try:
            records, _, _ = self._driver.execute_query(text, params, database_=self.target.database,
                                                       routing_=neo4j.RoutingControl.WRITE)
        except Exception as e:
            raise _wrap(e, _name, self.target) from e
        return [r.data() for r in records]

    def script(self, name: str, **params: Any) -> int:
        """Run each statement of a multi-statement file (:func:`kgres.cypher.statements`) in its own
        transaction, as schema commands need; each gets only the parameters it names. Returns the
        number of statements run."""
        statements = cypher.statements(name)
        for text in statements:
            self.run(text, _name=name, **{k: v for k, v in params.items() if f"${k}" in text})
        return len(statements)

    def write(self, name: str, **params: Any) -> dict[str, int]:
        """Run a named write query in one transaction; return its update counters."""
        try:
            _, summary, _ = self._driver.execute_query(cypher.load(name), params, database_=self.target.database,
                                                       routing_=neo4j.RoutingControl.WRITE)
        except Exception as e:
            raise _wrap(e, name, self.target) from e
        c = summary.counters
        return {"nodes_created": c.nodes_created, "relationships_created": c.relationships_created,
                "properties_set": c.properties_set, "nodes_deleted": c.nodes_deleted,
                "relationships_deleted": c.relationships_deleted}

    def replan(self) -> None:
        """Bring the planner's statistics up to date (``cypher/db_replan.cypher``); call after bulk changes."""
        self.auto_commit("db_replan")

    def replan_if_bulk(self, changed: int, size: int, share: float | None = None) -> bool:
        """:meth:`replan` when ``changed`` nodes are at least ``share`` (default :data:`REPLAN_SHARE`)
        of the ``size`` they changed (a load into a small graph, a merge of many entities); return
        whether it did.

        A replan clears every cached plan, so each following query is planned again (tens of
        milliseconds apiece): 100 mentions joining a resolved graph spent more in planning than in
        their queries. Smaller changes are left to Neo4j, which resamples an index once about that
        share of it has changed and replans a query whose statistics moved."""
        if changed and changed >= (REPLAN_SHARE if share is None else share) * max(size, 1):
            self.replan()
            return True
        return False

    def auto_commit(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """Run a named query in an auto-commit transaction (needed for ``CALL ... IN TRANSACTIONS``)."""
        try:
            with self._driver.session(database=self.target.database) as s:
                return [r.data() for r in s.run(cypher.load(name), params)]
        except Exception as e:
            raise _wrap(e, name, self.target) from e

    def read(self, name: str, _text: str | None = None, _plain: bool = False, **params: Any) -> list[dict[str, Any]]:
        """Run a named read-only query in an auto-commit read transaction (one network round trip
        instead of a managed transaction's two); return its rows as dicts.

        ``_plain``: the query returns plain values only (maps, lists, scalars; no nodes), so rows are
        taken as decoded, without ``Record.data()``'s recursive copy, which cost more than the query
        itself for retrieval's nested context rows. ``_text``: the statement when it is composed
        (:func:`kgres.db.cypher.chain`); ``name`` then names it in errors."""
        try:
            with self._driver.session(database=self.target.database,
                                      default_access_mode=neo4j.READ_ACCESS) as s:
                result = s.run(_text or cypher.load(name), params)
                return [dict(r.items()) for r in result] if _plain else [r.data() for r in result]
        except Exception as e:
            raise _wrap(e, name, self.target) from e

    def collected(self, name: str, **params: Any) -> list[Any]:
        """The rows of a read query that returns them collected into one list (``RETURN collect({id:
        e.id, key: e.key}) AS rows``), in its order. For many narrow rows: the driver builds a record
        per row returned, about 17 us each here, while one list of maps is decoded at once (11k
        entities' ids and keys: 0.21 s as rows, 0.03 s collected). Not for wide rows (each entity's
        vectors and neighbours): the server holds the whole list first, which cost more than it saved."""
        rows = self.read(name, _plain=True, **params)
        return rows[0]["rows"] if rows else []

    def entity_ids(self, size: int) -> Iterator[list[str]]:
        """Every entity id, in pages of ``size`` (keyset pagination: stable while edges are written)."""
        after = ""
        while ids := self.collected("db_entity_ids", after=after, limit=size):
            yield ids
            after = ids[-1]

    def count(self, label: str) -> int:
        """How many nodes carry ``label`` (one of :data:`COUNTABLE`), from the count store."""
        if label not in COUNTABLE:
            raise KgresError(f"cannot count '{label}': one of {', '.join(sorted(COUNTABLE))}")
        return self.read("db_count")[0][label]

    def stream(self, name: str, _plain: bool = False, **params: Any) -> Iterator[dict[str, Any]]:
        """Yield rows of a read query one at a time (results are not held in memory); ``_plain`` as
        for :meth:`read`."""
        try:
            with self._driver.session(database=self.target.database,
                                      default_access_mode=neo4j.READ_ACCESS) as s:
                for r in s.run(cypher.load(name), params):
                    yield dict(r.items()) if _plain else r.data()
        except Exception as e:
            raise _wrap(e, name, self.target) from e


# Neo4j refuses to index a property value over about 8 kB ("Property value is too large to index").
# Indexed text kgres writes (ids, types, name keys) is held to this many characters (4 bytes each at
# most in UTF-8): importers refuse longer ids and types; name keys are cut.
MAX_INDEXED_CHARS = 1000

# A change of at least this share of the graph replans (Neo4j's own index resampling threshold,
# db.index_sampling.update_percentage, is 5%).
REPLAN_SHARE = 0.05
# A merge replans once it retires at least this share of the entities. A merge changes counts, not
# kinds of data: label counts stay exact, indexes resample at 5% by themselves, and a plan chosen for
# a graph a tenth larger serves this one (Neo4j itself drops a cached plan once a statistic it read
# moves by 75%). After a replan every query plans again: 1,012 new mentions into a resolved 100k
# graph, whose collapse retired 833 of 10.7k entities (7.8%), then ran 10.6-11.7 s, its one-entity
# lookups 50-90 ms on a first call and 1 ms on the next; without the replan 8.2-8.6 s, the same merges.
# A whole resolve's first collapse retires most of the graph (100k generated mentions: 77%) and replans.
MERGE_REPLAN_SHARE = 0.25

COUNTABLE = frozenset({"Entity", "Mention", "RetiredEntity", "Chunk", "Document", "ResolutionRun"})
T = TypeVar("T")


def batches(items: Iterable[T], max_size: int, size: Callable[[T], int] = len,
            max_items: int | None = None) -> Iterator[list[T]]:
    """Consecutive items grouped so that a batch's summed ``size`` is at most ``max_size`` (a larger
    item is a batch alone) and it holds at most ``max_items`` items: one set of queries per batch."""
    batch: list[T] = []
    total = 0
    for item in items:
        n = size(item)
        if batch and (total + n > max_size or (max_items is not None and len(batch) >= max_items)):
            yield batch
            batch, total = [], 0
        batch.append(item)
        total += n
    if batch:
        yield batch


def _wrap(e: Exception, what: str, target: Target) -> KgresError:
    if isinstance(e, KgresError):
        return e
    where = f"Neo4j at {target.uri}" + (" (managed)" if target.managed else "")
    if isinstance(e, AuthError):
        hint = "" if target.managed else "; check NEO4J_USER / NEO4J_PASSWORD"
        return DatabaseUnavailable(f"{where} refused the credentials{hint}: {e.message}")
    if isinstance(e, (ServiceUnavailable, SessionExpired, OSError)):
        hint = " Start it with 'kgres neo4j start'." if target.managed else ""
        return DatabaseUnavailable(f"{where} is not reachable ({e}).{hint}")
    if isinstance(e, Neo4jError):
        hint = ""
        if re.search(r"(Unknown function|no procedure with the name) .kgres\.", e.message or ""):
            hint = (" The server's kgres plugin is older than this kgres: rebuild it and restart Neo4j "
                    "('kgres neo4j install' and 'kgres neo4j stop/start'; Docker: 'make plugin' and restart).")
        return DatabaseError(f"query '{what}' failed on {where}: {e.code}: {e.message}{hint}")
    return DatabaseError(f"query '{what}' failed on {where}: {e!r}")
