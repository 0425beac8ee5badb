"""Everything kgres says to Neo4j goes through here.

- :mod:`kgres.db.database`: :class:`Database` (connection, named queries: ``read`` / ``query`` /
  ``write`` / ``stream`` / ``script``, driver errors wrapped), :func:`resolve_target`;
- :mod:`kgres.db.cypher`: where the ``cypher/*.cypher`` files are and how they are loaded;
- :mod:`kgres.db.gds`: GDS projections as context managers;
- :mod:`kgres.db.lock`: the writer lock every command that changes the graph holds;
- :mod:`kgres.db.overlap`: one call in flight on a worker thread, so Neo4j works while Python does;
- :func:`batches`: items grouped into transaction-sized batches.
"""

from kgres.db.database import MAX_INDEXED_CHARS, Database, Target, batches, resolve_target

__all__ = ["MAX_INDEXED_CHARS", "Database", "Target", "batches", "resolve_target"]
