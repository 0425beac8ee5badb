"""Quality on CESI (ReVerb45K-derived open-IE triples with Freebase gold), subject-phrase clusters,
kgres next to name-only baselines in one process.

    python bench/cesi.py [../shared/data/cesi-base/base_valid.jsonl]

Each distinct noun phrase becomes one mention (CESI clusters phrases); triples link subject and
object phrases. Gold: true_link.subject. Runs on its own temporary managed Neo4j.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import bench_database, print_table  # noqa: E402
from bench.metrics import bcubed, pairwise  # noqa: E402
from kgres import export, ingest  # noqa: E402
from kgres.normalize import name_keys  # noqa: E402
from kgres.resolve import resolve  # noqa: E402

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "cesi-base" / "base_valid.jsonl"


def load(path: Path) -> tuple[list[dict], dict[str, str]]:
    """kgres JSONL records and gold {phrase: freebase id} for subject phrases."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    phrases, gold, triples = {}, {}, set()
    for r in rows:
        s, p, o = r["triple"]
        phrases.setdefault(s, None)
        phrases.setdefault(o, None)
        if r["true_link"]["subject"] != "NULL":
            gold.setdefault(s, r["true_link"]["subject"])
        triples.add((s, p, o))
    recs = [{"kind": "mention", "id": ph, "name": ph} for ph in phrases]
    recs += [{"kind": "triple", "subject": s, "predicate": p, "object": o} for s, p, o in sorted(triples)]
    return recs, gold


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    if not path.is_file():
        sys.exit(f"CESI data not found at {path} (see ../shared/data/README.md)")
    recs, gold = load(path)
    names = {r["id"]: r["name"] for r in recs if r["kind"] == "mention"}
    baselines = {
        "exact-name (LightRAG)": {n: n for n in names},
        "exact upper-cased (GraphRAG)": {n: n.upper() for n in names},
        "normalised key only": {n: name_keys(n).core for n in names},
    }
    with tempfile.TemporaryDirectory() as tmp, bench_database() as db:
        jl = Path(tmp) / "cesi.jsonl"
        jl.write_text("".join(json.dumps(r) + "\n" for r in recs))
        ingest.ingest(db, "jsonl", jl, source="cesi")
        t = time.perf_counter()
        stats = resolve(db)
        secs = time.perf_counter() - t
        pred = {k: row["entity_id"] for row in export.clusters(db) for k in row["mention_ids"]}
    rows = []
    for label, p in [("kgres default", pred), *baselines.items()]:
        pw, b3 = pairwise(p, gold), bcubed(p, gold)
        rows.append([label, pw["p"], pw["r"], pw["f1"], b3["p"], b3["r"], b3["f1"], pw["false_merges"], pw["missed"]])
    print(f"CESI base_valid: {len(names)} phrases, {len(gold)} with gold over {len(set(gold.values()))} "
          f"entities; kgres resolve {secs:.1f}s, {stats.passes} pass(es), {stats.candidate_pairs} candidate pairs")
    print_table("subject-phrase clustering vs Freebase gold",
                ["strategy", "pair P", "pair R", "pair F1", "B3 P", "B3 R", "B3 F1", "false-merge pairs",
                 "missed pairs"], rows)


if __name__ == "__main__":
    main()
