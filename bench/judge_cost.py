"""What the LLM judge costs and buys on a generated graph: how many candidate pairs reach the LLM
(the review band) against all candidates, calls and tokens per 1,000 candidate pairs, and quality
before and after, with a scripted judge that answers from the gold (an oracle: the best a model
could do) over real HTTP on a local OpenAI-compatible server.

    python bench/judge_cost.py [--mentions 100000]

Tokens are estimated as characters / 4 of the real prompts kgres sends.
"""

from __future__ import annotations

import argparse
from collections import Counter
import json
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import bench_database, print_table  # noqa: E402
from kgres import ingest  # noqa: E402
from kgres.curate import export
from kgres.llm.judge import judge  # noqa: E402
from kgres.llm import LLMSettings, client  # noqa: E402
from kgres.evaluate.metrics import bcubed, pairwise  # noqa: E402
from kgres.resolve import resolve  # noqa: E402
from kgres.evaluate.synth import generate, gold_of  # noqa: E402
from tests.openai_server import OpenAIServer  # noqa: E402


def oracle(db, gold: dict[str, str]):
    """Answer 'same' when the two entities' mentions mostly belong to one gold cluster, else 'different'
    (the entities are read by the id each record carries)."""
    def majority(entity_id: str) -> str | None:
        rows = db.run("MATCH (m:Mention)-[:REFERS_TO]->(:Entity {id: $id}) RETURN m.source_key AS k", id=entity_id)
        clusters = Counter(gold[r["k"]] for r in rows if r["k"] in gold)
        return clusters.most_common(1)[0][0] if clusters else None

    def answer(body) -> str:
        prompt = body["messages"][1]["content"]
        a, b = re.findall(r"^  id: (.*)$", prompt, re.MULTILINE)[:2]
        same = majority(a) is not None and majority(a) == majority(b)
        return json.dumps({"decision": "same" if same else "different", "confidence": 0.95, "evidence": ["gold"]})
    return answer


def quality(db, gold):
    pred = {k: row["entity_id"] for row in export.clusters(db) for k in row["mention_ids"]}
    pw, b3 = pairwise(pred, gold), bcubed(pred, gold)
    return [round(pw["p"], 4), round(pw["r"], 4), round(pw["f1"], 4), round(b3["f1"], 4), pw["false_merges"]]


def measure(db, gold: dict[str, str], candidate_pairs: int, sample: int) -> None:
    """Judge up to ``sample`` review pairs (best score first) with the oracle over real HTTP and print
    what reaches the LLM, calls and tokens per 1,000 candidate pairs, and quality before and after."""
    before = quality(db, gold)
    review = db.run("MATCH (a:Entity)-[c:CANDIDATE {band: 'review'}]->(b:Entity) WHERE c.decision IS NULL "
                    "RETURN count(DISTINCT [a.id, b.id]) AS n")[0]["n"]
    with OpenAIServer() as server:
        server.chat = oracle(db, gold)
        llm = client(db, LLMSettings(model="oracle", base_url=server.base_url, concurrency=4))
        t = time.perf_counter()
        j = judge(db, llm, limit=sample)
        secs = time.perf_counter() - t
    after = quality(db, gold)
    pairs = candidate_pairs
    tokens = j.usage.prompt_tokens + j.usage.completion_tokens
    per_call = tokens / max(1, j.usage.calls)
    calls_per_1k = 1000 * review / max(1, pairs)  # one call per pending review pair (answers are cached)
    print(f"\n{pairs:,} candidate pairs scored; {review:,} distinct pairs of current entities wait in the review "
          f"band: {review / max(1, pairs):.1%} of candidates reach the LLM, {1 - review / max(1, pairs):.1%} never do")
    print(f"judge on {j.pairs:,} of them (best score first): {j.usage.calls:,} calls, {tokens:,} tokens "
          f"({per_call:,.0f} per call) in {secs:.0f}s; merged {j.merged}, kept apart {j.rejected}, blocked by "
          f"rules {j.blocked_by_rules}, left {j.left_in_review}, failed {j.failed}")
    print(f"per 1,000 candidate pairs: {calls_per_1k:.1f} calls and {calls_per_1k * per_call:,.0f} tokens "
          f"(review share x measured tokens per call)")
    print_table("quality before and after the judge (oracle answers)",
                ["stage", "pair P", "pair R", "pair F1", "B3 F1", "false-merge pairs"],
                [["rules + embeddings", *before], [f"+ judge ({j.pairs:,} pairs)", *after]])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mentions", type=int, default=100_000)
    ap.add_argument("--sample", type=int, default=2000, help="review pairs to judge (best score first)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path, gold_path = Path(tmp) / "g.jsonl", Path(tmp) / "g.gold.jsonl"
        generate(path, gold_path, args.mentions)
        gold = gold_of(gold_path)
        with bench_database() as db:
            ingest.ingest(db, "jsonl", path)
            stats = resolve(db)
            measure(db, gold, stats.candidate_pairs, args.sample)


if __name__ == "__main__":
    main()
