"""Quality on CESI (ReVerb45K-derived open-IE triples with Freebase gold), noun-phrase clusters,
kgres next to every baseline strategy (GraphRAG, LightRAG, HippoRAG, Deg-Rag) in one process.

    python bench/cesi.py [../shared/data/cesi-base/base_valid.jsonl]

Each distinct noun phrase becomes one mention (CESI clusters phrases); triples link subject and
object phrases. Gold: true_link.subject and true_link.object (the first id a phrase gets). Runs on its own temporary managed Neo4j.

The tables are printed twice: against the gold as published, then with the gold links in
ADJUDICATED corrected (each with its evidence), every strategy scored against the same gold.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import bench_database, print_table  # noqa: E402
from bench.compare import HEADER, SWEEP_HEADER, compare  # noqa: E402
from kgres import ingest  # noqa: E402
from kgres.curate import export
from kgres.resolve import merge
from kgres.evaluate.metrics import bcubed, pairwise  # noqa: E402
from kgres.resolve import ResolveConfig, resolve
from kgres.resolve.baselines import BaselineConfig  # noqa: E402

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "cesi-base" / "base_valid.jsonl"

# Gold links we read as errors: phrase -> (the Freebase id it should have, why).
ADJUDICATED = {
    "authorisation": ("/m/07pm40w", "the British spelling of 'authorization' in the same sense: the object of "
                      "'Authentication shall precede', as 'authorization' is of nine 'Authentication ...' "
                      "triples; the gold gives the spelling its own Freebase topic, /m/07pm40g"),
    "Sen. Hillary Clinton": ("/m/06x8tkf", "the same senator as 'Senator Hillary Clinton' (/m/06x8tkf), in the same "
                             "news: 'Rupert Murdoch will host a fundraiser for Sen. Hillary Clinton' beside 'Rupert "
                             "Murdoch host a fundraiser for Senator Hillary Clinton'; the gold gives the abbreviation "
                             "another topic, /m/05nft6c"),
}


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
        sweep: list = []
        clusters: dict[str, dict[str, str]] = {}
        rows = compare(db, gold, sweep_out=sweep, clusters_out=clusters)
        degrag = []
        for t in DEG_RAG_TARGETS:
            clusters[f"deg-rag@{t}"] = _deg_rag_at(db, t)
            pw = pairwise(clusters[f"deg-rag@{t}"], gold)
            degrag.append([t, len(set(clusters[f"deg-rag@{t}"].values())), pw["p"], pw["r"], pw["f1"]])
    print(f"CESI {path.stem}: {len(names)} phrases, {len(gold)} with gold over {len(set(gold.values()))} entities")
    print_table("noun-phrase clustering vs Freebase gold", HEADER, rows)
    print_table("cosine (HippoRAG) at stricter thresholds, from the same run's SAME_AS links", SWEEP_HEADER, sweep)
    print_table("deg-rag at smaller merge targets (share of entities merged away)",
                ["target", "clusters", "pair P", "pair R", "pair F1"], degrag)
    fixed = {**gold, **{phrase: link for phrase, (link, _) in ADJUDICATED.items() if phrase in gold}}
    for phrase, (link, why) in ADJUDICATED.items():
        print(f"\nadjudicated: {phrase!r} {gold.get(phrase)} -> {link}: {why}")
    adjudicated = []
    for name, pred in clusters.items():
        pw, b3 = pairwise(pred, fixed), bcubed(pred, fixed)
        adjudicated.append([name, len(set(pred.values())), pw["p"], pw["r"], pw["f1"], b3["f1"], pw["false_merges"]])
    print_table(f"every row above against the gold with {len(ADJUDICATED)} adjudicated link(s)",
                ["strategy", "clusters", "pair P", "pair R", "pair F1", "B3 F1", "false-merge pairs"], adjudicated)


DEG_RAG_TARGETS = (0.02, 0.05, 0.1, 0.2)


def _deg_rag_at(db, target: float) -> dict[str, str]:
    """The clusters of one deg-rag run with another merge target (rolled back afterwards)."""
    stats = resolve(db, ResolveConfig(strategy="deg-rag", baseline=BaselineConfig(deg_rag_target=target)))
    pred = {k: row["entity_id"] for row in export.clusters(db) for k in row["mention_ids"]}
    merge.rollback(db, stats.run_id)
    return pred


if __name__ == "__main__":
    main()
