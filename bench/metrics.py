"""Clustering metrics against gold (pairwise and B-cubed), on the items that have a gold label."""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations


def pairwise(pred: dict[str, str], gold: dict[str, str]) -> dict[str, float]:
    """Precision/recall/F1 over item pairs: a pair is positive when both items share a cluster."""
    items = sorted(i for i in gold if i in pred)
    tp = fp = fn = 0
    for a, b in combinations(items, 2):
        same_p, same_g = pred[a] == pred[b], gold[a] == gold[b]
        tp += same_p and same_g
        fp += same_p and not same_g
        fn += same_g and not same_p
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return {"p": p, "r": r, "f1": 2 * p * r / (p + r) if p + r else 0.0, "false_merges": fp, "missed": fn}


def bcubed(pred: dict[str, str], gold: dict[str, str]) -> dict[str, float]:
    items = [i for i in gold if i in pred]
    by_p, by_g = defaultdict(set), defaultdict(set)
    for i in items:
        by_p[pred[i]].add(i)
        by_g[gold[i]].add(i)
    p = sum(len(by_p[pred[i]] & by_g[gold[i]]) / len(by_p[pred[i]]) for i in items) / len(items)
    r = sum(len(by_p[pred[i]] & by_g[gold[i]]) / len(by_g[gold[i]]) for i in items) / len(items)
    return {"p": p, "r": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}
