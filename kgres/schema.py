"""``kgres init``, ``kgres status`` and ``kgres reset``: the schema and the state of the graph."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from kgres import __version__
from kgres.config import SchemaSettings
from kgres.db import Database
from kgres.errors import DatabaseError, DatabaseUnavailable

# The two layers of the graph model: raw extractions (Mention, RELATES) and the resolved projection
# (Entity, RELATED). Reports measure both; retrieval serves either.
Layer = Literal["entities", "mentions"]


class InitResult(BaseModel):
    """What ``init`` applied, and any index whose size disagrees with the settings."""

    statements: int
    warnings: list[str]


class Versions(BaseModel):
    neo4j: str | None
    edition: str | None
    apoc: str | None
    gds: str | None
    kgres_plugin: str | None
    kgres: str = __version__


class Counts(BaseModel):
    documents: int
    chunks: int
    mentions: int
    inferred_mentions: int
    triples: int
    entities: int
    relations: int


class StatusReport(BaseModel):
    uri: str
    database: str
    managed: bool
    versions: Versions
    counts: Counts
    unfinished_imports: list[str] = []  # what each import that did not finish means, and how to end it


def init(db: Database, settings: SchemaSettings) -> InitResult:
    """Create every constraint and index of ``cypher/schema.cypher`` that does not exist yet.

    Idempotent. An existing vector index keeps its size; a mismatch with ``settings`` is returned as a
    warning (recreating it would drop stored embeddings' index, which is the embed stage's decision).
    """
    statements = db.script("schema", embedding_dimensions=settings.embedding_dimensions,
                           fastrp_dimensions=settings.fastrp_dimensions)
    want = {"entity_embedding": settings.embedding_dimensions, "mention_embedding": settings.embedding_dimensions,
            "community_embedding": settings.embedding_dimensions,
            "entity_fastrp": settings.fastrp_dimensions}
    warnings = [f"vector index {r['name']} has {r['dimensions']} dimensions but settings say {want[r['name']]}"
                for r in db.read("schema_vector_indexes") if r["dimensions"] != want[r["name"]]]
    return InitResult(statements=statements, warnings=warnings)


def status(db: Database) -> StatusReport:
    """Server and plugin versions plus the sizes of the graph."""
    comp = db.read("schema_status_versions")[0]
    plugins = {}
    for name in ("apoc", "gds", "kgres"):
        try:
            plugins[name] = db.read(f"schema_status_plugin_{name}")[0]["version"]
        except DatabaseUnavailable:
            raise
        except DatabaseError:
            plugins[name] = None  # plugin not installed on this server
    versions = Versions(neo4j=comp["neo4j"], edition=comp["edition"], apoc=plugins["apoc"], gds=plugins["gds"],
                        kgres_plugin=plugins["kgres"])
    counts = Counts(**db.read("schema_status_counts")[0])
    from kgres.ingest.rollback import unfinished, what_to_do  # here: the ingest package loads every reader

    return StatusReport(uri=db.target.uri, database=db.target.database, managed=db.target.managed,
                        versions=versions, counts=counts, unfinished_imports=[what_to_do(r) for r in unfinished(db)])


def reset(db: Database) -> None:
    """Delete all data and GDS projections; constraints and indexes stay."""
    try:
        db.query("schema_reset_drop_projections")
    except DatabaseUnavailable:
        raise
    except DatabaseError:
        pass  # no GDS on this server: nothing to drop
    from kgres.db.lock import held_token

    db.auto_commit("schema_reset_delete_relationships")
    db.auto_commit("schema_reset_delete_all", token=held_token(db))
