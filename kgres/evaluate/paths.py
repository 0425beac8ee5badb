"""``kgres eval paths``: each question is a chain of entity names (question -> bridge -> answer); a
chain holds when each consecutive pair is directly related, through the same node for each name.
Counted on the mention layer (``RELATES``, before resolution) and on the entity layer (``RELATED``,
after): resolution should join chains that exact-string merging leaves broken."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from kgres.db import Database
from kgres.errors import InputError
from kgres.evaluate.gold import read_jsonl


class PathEval(BaseModel):
    questions: int
    before: float  # share of chains with a path in the mention layer
    after: float   # ... in the entity layer
    results: list[dict[str, Any]]


def load_questions(path: Path) -> list[dict[str, Any]]:
    """JSONL lines ``{"id"?, "question"?, "chain": [name, name, ...]}`` (two names or more)."""
    out = []
    for n, row in read_jsonl(path, "questions file"):
        chain = row.get("chain") if isinstance(row, dict) else None
        if not isinstance(chain, list) or len(chain) < 2 or not all(isinstance(c, str) and c for c in chain):
            raise InputError("chain must be a list of two or more names", path=path, line=n, field="chain")
        out.append({"id": str(row.get("id", n)), "question": row.get("question"), "chain": chain})
    return out


def paths(db: Database, questions: list[dict[str, Any]]) -> PathEval:
    """For each chain: does it connect in the mention layer (before) and the entity layer (after)?"""
    results = []
    for q in questions:
        results.append({**q, "before": _chain(db, "mentions", q["chain"]), "after": _chain(db, "entities", q["chain"])})
    n = len(results)
    return PathEval(questions=n, before=sum(r["before"] for r in results) / n if n else 0.0,
                    after=sum(r["after"] for r in results) / n if n else 0.0, results=results)


def _chain(db: Database, layer: str, chain: list[str]) -> bool:
    frontier: list[str] | None = None
    for name in chain:
        frontier = [r["id"] for r in db.read(f"evaluate_path_step_{layer}", target=name, frm=frontier)]
        if not frontier:
            return False
    return True
