"""The strategies of the systems kgres is measured against, selectable with ``--strategy``.

Each reproduces what that system does to its entity layer, on the same database, so one benchmark
run can put them side by side (all are recorded, reversible ResolutionRuns like ``default``):

- ``exact``: GraphRAG: entities with the same upper-cased title and type are one node.
- ``exact-name``: LightRAG / nano-graphrag: the same name as written (any type) is one node.
- ``cosine``: HippoRAG: ``SAME_AS`` synonym edges between entities whose text embeddings have cosine
  >= ``cosine_threshold`` (0.8); nothing is merged.
- ``deg-rag``: the Deg-Rag paper's default: k-means semantic blocks (k = sqrt(|E|/10)), pairs ranked
  by ego embedding cosine, union-find over the best pairs until ``deg_rag_target`` (40%) of the
  entities are merged away, direct merge. No cannot-link rules: this is the chaining baseline.
"""

from __future__ import annotations

from array import array

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from kgres.db import Database
from kgres.resolve.block import BlockConfig, block
from kgres.resolve.cluster import Evidence, Group, UnionFind

DECIDED_BY = "kgres resolve --strategy {}"


class BaselineConfig(BaseModel):
    """Parameters of the comparison strategies (``[resolve.baseline]``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cosine_threshold: float = Field(0.8, ge=-1, le=1)
    deg_rag_target: float = Field(0.4, gt=0, lt=1)


def name_groups(db: Database, fold_case: bool, by_type: bool, rule: str) -> list[Group]:
    """Groups of entities with the same name (as the rule says); canonical = most mentions."""
    groups = []
    for r in db.read("resolve_baseline_name_groups", fold_case=fold_case, by_type=by_type):
        ids = r["ids"]
        evidence = {m: Evidence(linked_to=ids[0], score=1.0, rule=rule) for m in ids}
        groups.append(Group(members=tuple(sorted(ids)), canonical=ids[0], confidence=1.0, evidence=evidence))
    return groups


def cosine_links(db: Database, run_id: str, k: int, min_cosine: float, batch_size: int = 2000) -> int:
    """HippoRAG synonym edges; return how many SAME_AS edges the run holds."""
    for ids in db.entity_ids(batch_size):
        db.write("resolve_baseline_cosine_links", ids=ids, k=k, min_cosine=min_cosine, run_id=run_id,
                 decided_by=DECIDED_BY.format("cosine"))
    return db.read("resolve_baseline_cosine_count", run_id=run_id)[0]["n"]


def deg_rag_groups(db: Database, run_id: str, k: int, target: float, seed: int) -> tuple[list[Group], int]:
    """Deg-Rag: k-means blocks, then union-find over pairs by descending cosine until ``target`` of
    the entities are absorbed. Returns the groups and the number of candidate pairs."""
    stats = block(db, run_id, BlockConfig(strategies=("kmeans",), k=k, kmeans_seed=seed))
    n = db.count("Entity")
    goal = int(target * n)
    ids, pairs, cosines, mentions = _ranked_pairs(db, run_id)
    uf, joined, link = UnionFind(), 0, {}
    for i in np.lexsort((pairs[:, 1], pairs[:, 0], -cosines)):  # best cosine first, then by ids
        if joined >= goal:
            break
        a, b, c = ids[pairs[i, 0]], ids[pairs[i, 1]], float(cosines[i])
        if uf.find(a) != uf.find(b):
            uf.union(a, b)
            joined += 1
            for x, y in ((a, b), (b, a)):
                link.setdefault(x, (y, round(c, 4)))
    groups = []
    for members in uf.components():
        if len(members) < 2:
            continue
        canonical = sorted(members, key=lambda m: (-mentions.get(m, 1), m))[0]
        evidence = {m: Evidence(linked_to=link[m][0], score=link[m][1], rule="deg-rag union-find",
                                signals={"ego_cosine": link[m][1]}) for m in members}
        conf = round(sum(link[m][1] for m in members) / len(members), 4)
        groups.append(Group(members=tuple(sorted(members)), canonical=canonical, confidence=conf, evidence=evidence))
    return sorted(groups, key=lambda g: g.canonical), stats.pairs


def _ranked_pairs(db: Database, run_id: str) -> tuple[list[str], "np.ndarray", "np.ndarray", dict[str, int]]:
    """The run's candidate pairs as compact arrays: sorted entity ids, pairs of indexes into them
    (so index order is id order), cosines, and each entity's mention count. A million pairs take
    ~16 MB here, where sorting them in the database needed more than a transaction may hold."""
    index: dict[str, int] = {}
    mentions: dict[str, int] = {}
    left, right, cos = array("l"), array("l"), array("d")
    for r in db.stream("resolve_baseline_cosine_pairs", run_id=run_id):
        mentions[r["a"]], mentions[r["b"]] = r["ma"], r["mb"]
        left.append(index.setdefault(r["a"], len(index)))
        right.append(index.setdefault(r["b"], len(index)))
        cos.append(r["cosine"])
    ids = sorted(index)
    rank = np.empty(len(ids), dtype=np.int64)
    rank[[index[i] for i in ids]] = np.arange(len(ids))
    pairs = np.stack([rank[np.asarray(left, dtype=np.int64)], rank[np.asarray(right, dtype=np.int64)]], axis=1) \
        if len(cos) else np.empty((0, 2), dtype=np.int64)
    return ids, pairs, np.asarray(cos, dtype=np.float64), mentions
