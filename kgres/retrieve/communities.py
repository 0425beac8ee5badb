"""Community retrieval's derived state: GDS Leiden communities of the resolved graph, each summarised
(by the LLM when one is configured, else extractively) and embedded, stored as ``:Community`` nodes
stamped with the graph state they were built from (``retrieve_stamp``), and rebuilt when it changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from kgres.db import Database
from kgres.errors import KgresError

COMMUNITY_PROMPT = "community-v1"


def build(db: Database, graph: str, stamp: str, seed: int, min_size: int, llm: Any,
          encode: Callable[[list[str]], list[list[float]]]) -> dict[str, Any]:
    """Replace the communities with Leiden's on the projection ``graph``: those of at least
    ``min_size`` entities, summarised and embedded; stamped with ``stamp``."""
    db.query("retrieve_communities_drop")
    leiden = db.query("retrieve_communities_leiden", graph=graph, seed=seed)[0]
    built = db.query("retrieve_communities_build", min_size=min_size, stamp=stamp)[0]["communities"]
    summarized_by = f"llm:{llm.model}" if llm is not None else "extractive"
    while page := db.read("retrieve_communities_page", limit=200, relations=8):
        rows = [dict(id=p["id"], **summary(p, llm), summarized_by=summarized_by) for p in page]
        vectors = encode([r["title"] + ": " + r["summary"] for r in rows])
        db.write("retrieve_communities_write", rows=[dict(r, embedding=v) for r, v in zip(rows, vectors)])
    return {"built": True, "communities": built, "leiden_communities": leiden["communities"],
            "modularity": leiden["modularity"]}


def current(db: Database) -> dict[str, Any]:
    """The stamp the stored communities were built from, and how many there are."""
    return db.read("retrieve_communities_stamp")[0]


COMMUNITY_SYSTEM = (
    "Summarise this community of a knowledge graph in one paragraph: who or what is in it and how they "
    "relate. Use only the records given. Reply with one JSON object: {\"title\": a few words, \"summary\": "
    "one paragraph}.")


class CommunitySummary(BaseModel):
    title: str
    summary: str


def summary(page: dict, llm: Any) -> dict[str, str]:
    members = [m["name"] for m in page["members"]]
    extractive = {"title": ", ".join(members[:3]),
                  "summary": f"{page['size']} entities, among them {', '.join(members)}. "
                             + "; ".join(page["relations"])}
    if llm is None:
        return extractive
    records = "\n".join(f"- {m['name']} ({m.get('type') or 'unknown'}): {m.get('description') or ''}"
                        for m in page["members"]) + "\nRelations:\n" + "\n".join(page["relations"])
    try:
        s = llm.ask(COMMUNITY_PROMPT, COMMUNITY_SYSTEM, records, CommunitySummary)
    except KgresError:
        return extractive  # a failed summary falls back to the extractive one (summarized_by says which)
    return {"title": s.title, "summary": s.summary}


