"""What the LLM judge costs and buys on a generated graph: how many candidate pairs reach the LLM
(the review band) against all candidates, calls and tokens per 1,000 candidate pairs, and quality
before and after, with a scripted judge that answers from the gold (an oracle: the best a model
could do) over real HTTP on a local OpenAI-compatible server.

    python bench/judge_cost.py [--mentions 100000]

Tokens are estimated as characters / 4 of the real prompts kgres sends.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import bench_database, print_table  # noqa: E402
from kgres import export, ingest  # noqa: E402
from kgres.judge import judge  # noqa: E402
from kgres.llm import LLMSettings, client  # noqa: E402
from kgres.metrics import bcubed, pairwise  # noqa: E402
from kgres.resolve import resolve  # noqa: E402
from kgres.synth import generate, gold_of  # noqa: E402
from tests.openai_server import OpenAIServer  # noqa: E402


def oracle(db, gold: dict[str, str]):
    """Answer 'same' when the two entities' mentions share a gold cluster, else 'different'."""
    def clusters_of(name: str) -> set[str]:
        rows = db.run("MATCH (m:Mention)-[:REFERS_TO]->(e:Entity {name: $n}) RETURN m.source_key AS k", n=name)
        return {gold[r["k"]] for r in rows if r["k"] in gold}

    def answer(body) -> str:
        prompt = body["messages"][1]["content"]
        a, b = re.findall(r"^Entity [AB]: (.*) \(type: ", prompt, re.MULTILINE)[:2]
        same = bool(clusters_of(a) & clusters_of(b))
        return json.dumps({"decision": "same" if same else "different", "confidence": 0.95, "evidence": ["gold"]})
    return answer


def quality(db, gold):
    pred = {k: row["entity_id"] for row in export.clusters(db) for k in row["mention_ids"]}
    pw, b3 = pairwise(pred, gold), bcubed(pred, gold)
    return [round(pw["p"], 4), round(pw["r"], 4), round(pw["f1"], 4), round(b3["f1"], 4), pw["false_merges"]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mentions", type=int, default=100_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path, gold_path = Path(tmp) / "g.jsonl", Path(tmp) / "g.gold.jsonl"
        generate(path, gold_path, args.mentions)
        gold = gold_of(gold_path)
        with bench_database() as db:
            ingest.ingest(db, "jsonl", path)
            stats = resolve(db)
            before = quality(db, gold)
            review = db.run("MATCH (:Entity)-[c:CANDIDATE {band: 'review'}]->(:Entity) RETURN count(c) AS n")[0]["n"]
            with OpenAIServer() as server:
                server.chat = oracle(db, gold)
                llm = client(db, LLMSettings(model="oracle", base_url=server.base_url, concurrency=4))
                t = time.perf_counter()
                j = judge(db, llm, limit=1_000_000)
                secs = time.perf_counter() - t
            after = quality(db, gold)
    pairs = stats.candidate_pairs
    tokens = j.usage.prompt_tokens + j.usage.completion_tokens
    print(f"\n{args.mentions:,} mentions: {pairs:,} candidate pairs, {review:,} in the review band "
          f"({review / max(1, pairs):.1%} reach the LLM, {1 - review / max(1, pairs):.1%} never do)")
    print(f"judge: {j.pairs:,} pairs, {j.usage.calls:,} calls, {tokens:,} tokens in {secs:.0f}s; "
          f"{1000 * j.usage.calls / max(1, pairs):.1f} calls and {1000 * tokens / max(1, pairs):,.0f} tokens "
          f"per 1,000 candidate pairs; merged {j.merged}, kept apart {j.rejected}, blocked by rules "
          f"{j.blocked_by_rules}, left {j.left_in_review}")
    print_table("quality before and after the judge (oracle answers)",
                ["stage", "pair P", "pair R", "pair F1", "B3 F1", "false-merge pairs"],
                [["rules + embeddings", *before], ["+ judge", *after]])


if __name__ == "__main__":
    main()
