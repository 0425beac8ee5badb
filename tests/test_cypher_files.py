"""Every Cypher file parses on the real server, and every query name the code uses exists."""

from __future__ import annotations

import re

import pytest

from kgres.db import cypher
from kgres.errors import UnknownQuery
from tests.conftest import ROOT


MULTI = {"schema", "resolve_block_lexical_reindex", "resolve_embed_reindex", "resolve_block_exact_index"}  # several statements, schema commands among them


@pytest.mark.parametrize("name", [n for n in cypher.names() if n not in MULTI])
def test_every_query_file_explains(session_db, name):
    text = cypher.load(name)
    assert text.lstrip().startswith(f"// {name}:"), "header names the query and its purpose"
    assert "Params:" in text
    with session_db._driver.session(database=session_db.target.database) as s:
        assert s.run("EXPLAIN " + text).consume().plan is not None


# Queries that seek a relationship-property index once per row on purpose: per ingest run
# (resolve_new_entities) or per resolution run (console_run_effect), a handful of rows.
PER_ROW_SEEKS = {"resolve_new_entities", "console_run_effect"}


def _per_row_relationship_seeks(plan, per_row: bool = False) -> list[str]:
    """The relationship-index seeks and scans of ``plan`` that run once per row of an outer operator."""
    op = plan["operatorType"].split("@")[0]
    found = [plan.get("args", {}).get("Details", op)] if per_row and "RelationshipIndex" in op else []
    for i, child in enumerate(plan.get("children", [])):
        inner = i == 1 and any(w in op for w in ("Apply", "Foreach", "Optional", "Subquery"))
        found += _per_row_relationship_seeks(child, per_row or inner)
    return found


@pytest.mark.parametrize("name", [n for n in cypher.names() if n not in MULTI | PER_ROW_SEEKS])
def test_no_query_seeks_a_relationship_index_per_row(session_db, name):
    # A seek of CANDIDATE(run_id), REFERS_TO(run_id) or RELATES(status) for every row of an UNWIND reads
    # the run's (or the graph's) whole edge set per row; on an index sampled before a bulk write the
    # planner picks it (FEBRL 5k records: one such query took 85 s). Expand from the bound node instead.
    with session_db._driver.session(database=session_db.target.database) as s:
        plan = s.run("EXPLAIN " + cypher.load(name)).consume().plan
    assert _per_row_relationship_seeks(plan) == []


@pytest.mark.parametrize("name", ["resolve_block_lexical_reindex", "resolve_embed_reindex",
                                  "resolve_block_exact_index"])
def test_a_reindex_recreates_the_schema_definition(name):
    text = cypher.load(name)
    assert text.startswith(f"// {name}:") and "Params:" in text
    create = [s for s in cypher.statements(name) if s.startswith("CREATE")]
    assert len(create) == 1 and create[0] in cypher.statements("schema")


def test_schema_statements_are_all_idempotent():
    stmts = cypher.statements("schema")
    assert len(stmts) >= 15 and all("IF NOT EXISTS" in s for s in stmts)


# Names the code builds from a fixed list instead of spelling them out.
DYNAMIC = {
    'f"ingest_{kind}"': [f"ingest_{k}" for k in ("documents", "chunks", "mentions", "triples")],
    'f"schema_status_plugin_{name}"': [f"schema_status_plugin_{p}" for p in ("apoc", "gds", "kgres")],
    'f"resolve_block_{strategy}"': ["resolve_block_exact", "resolve_block_acronym", "resolve_block_lexical", "resolve_block_semantic"],
    'f"evaluate_path_step_{layer}"': ["evaluate_path_step_mentions", "evaluate_path_step_entities"],
    'f"report_project_{layer}"': ["report_project_mentions", "report_project_entities"],
}


def test_every_referenced_query_exists():
    source = "\n".join(p.read_text() for p in (ROOT / "kgres").rglob("*.py"))
    used = set(re.findall(r'\.(?:query|write|auto_commit|stream|read|script)\(\s*"([a-z_]+)"', source))
    for pattern, names in DYNAMIC.items():
        assert pattern in source, f"{pattern} is no longer used; update DYNAMIC"
        used |= set(names)
    assert len(used) > 10
    assert used <= set(cypher.names()), used - set(cypher.names())


def test_unknown_query_is_a_clear_error():
    with pytest.raises(UnknownQuery, match="no Cypher query named 'nope'"):
        cypher.load("nope")


# Writers that add one edge per pair and run. A relationship index seek on run_id inside them is
# executed once per row and returns every edge of the run so far: quadratic (a 2,000-entity page
# took minutes instead of a second). They must expand between the two bound nodes instead.
PER_ROW_WRITERS = {
    "resolve_block_exact": {}, "resolve_block_acronym": {}, "resolve_block_lexical": {}, "resolve_block_semantic": {},
    "resolve_block_pairs": {"pairs": [], "method": "kmeans"},
    "resolve_block_structural": {"graph": "g", "cutoff": 0.5, "focus": None},
    "resolve_baseline_cosine_links": {"decided_by": "x"},
    "resolve_merge_same_as": {"groups": [], "method": "m", "decided_by": "x"},
}


def test_pair_writers_never_seek_the_run_index_per_row(db):
    def operators(plan) -> list[str]:
        out = [plan["operatorType"].split("@")[0]]
        for child in plan.get("children", []):
            out += operators(child)
        return out

    for name, extra in PER_ROW_WRITERS.items():
        params = {"ids": ["x"], "k": 20, "run_id": "r", "min_cosine": 0.8, **extra}
        with db._driver.session() as s:
            plan = s.run("EXPLAIN " + cypher.load(name), params).consume().plan
        ops = operators(plan)
        assert not any("RelationshipIndexSeek" in o for o in ops), (name, ops)
