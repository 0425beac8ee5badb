"""Quality on CESI (ReVerb45K-derived open-IE triples with Freebase gold), noun-phrase clusters,
kgres next to every baseline strategy (GraphRAG, LightRAG, HippoRAG, Deg-Rag) in one process.

    python bench/cesi.py [../shared/data/cesi-base/base_valid.jsonl]

Each distinct noun phrase becomes one mention (CESI clusters phrases); triples link subject and
object phrases. Gold: true_link.subject and true_link.object (the first id a phrase gets). Runs on its own temporary managed Neo4j.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import bench_database, print_table  # noqa: E402
from bench.compare import HEADER, compare  # noqa: E402
from kgres import ingest  # noqa: E402

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "cesi-base" / "base_valid.jsonl"


def load(path: Path) -> tuple[list[dict], dict[str, str]]:
    """kgres JSONL records and gold {phrase: freebase id} for subject and object phrases."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    phrases, gold, triples = {}, {}, set()
    for r in rows:
        s, p, o = r["triple"]
        phrases.setdefault(s, None)
        phrases.setdefault(o, None)
        for phrase, link in ((s, r["true_link"]["subject"]), (o, r["true_link"]["object"])):
            if link != "NULL":
                gold.setdefault(phrase, link)
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
    with tempfile.TemporaryDirectory() as tmp, bench_database() as db:
        jl = Path(tmp) / "cesi.jsonl"
        jl.write_text("".join(json.dumps(r) + "\n" for r in recs))
        ingest.ingest(db, "jsonl", jl, source="cesi")
        rows = compare(db, gold)
    print(f"CESI base_valid: {len(names)} phrases, {len(gold)} with gold over {len(set(gold.values()))} entities")
    print_table("noun-phrase clustering vs Freebase gold", HEADER, rows)


if __name__ == "__main__":
    main()
