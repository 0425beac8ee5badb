"""Clustering metrics against gold, on the items that have a gold label and a prediction.

``pred`` and ``gold`` map item (mention) ids to cluster labels. All metrics run in O(n) from
cluster-size counts, so a giant cluster costs no more than many small ones.

Degenerate cases are defined, not errors: with no pair to get right (no items, or singletons only),
precision and recall are 1.0: nothing was claimed wrongly and nothing was missed.
"""

from __future__ import annotations

from collections import Counter


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def _items(pred: dict[str, str], gold: dict[str, str]) -> list[str]:
    return [i for i in gold if i in pred]


def _pairs(sizes: Counter) -> int:
    return sum(v * (v - 1) // 2 for v in sizes.values())


def pairwise(pred: dict[str, str], gold: dict[str, str]) -> dict[str, float]:
    """Precision/recall/F1 over item pairs (a pair is positive when both items share a cluster),
    with the number of false-merge and missed pairs."""
    items = _items(pred, gold)
    both = _pairs(Counter((pred[i], gold[i]) for i in items))
    same_p, same_g = _pairs(Counter(pred[i] for i in items)), _pairs(Counter(gold[i] for i in items))
    p = both / same_p if same_p else 1.0
    r = both / same_g if same_g else 1.0
    return {"p": p, "r": r, "f1": _f1(p, r), "false_merges": same_p - both, "missed": same_g - both}


def bcubed(pred: dict[str, str], gold: dict[str, str]) -> dict[str, float]:
    """B-cubed: per item, the share of its predicted cluster that is truly its own (precision) and
    the share of its true cluster that it was put with (recall), averaged over items."""
    items = _items(pred, gold)
    if not items:
        return {"p": 1.0, "r": 1.0, "f1": 1.0}
    both = Counter((pred[i], gold[i]) for i in items)
    size_p, size_g = Counter(pred[i] for i in items), Counter(gold[i] for i in items)
    p = sum(both[(pred[i], gold[i])] / size_p[pred[i]] for i in items) / len(items)
    r = sum(both[(pred[i], gold[i])] / size_g[gold[i]] for i in items) / len(items)
    return {"p": p, "r": r, "f1": _f1(p, r)}


def cesi(pred: dict[str, str], gold: dict[str, str]) -> dict[str, float]:
    """The CESI protocol's macro and micro cluster scores (Vashishth et al. 2018, after Galárraga
    et al. 2014).

    Macro precision: share of predicted clusters that are pure (one gold entity); macro recall:
    share of gold clusters found whole inside one predicted cluster. Micro precision: items that
    agree with their predicted cluster's majority gold entity; micro recall: items that sit in the
    predicted cluster holding most of their gold cluster.
    """
    items = _items(pred, gold)
    if not items:
        return {f"{k}_{m}": 1.0 for k in ("macro", "micro") for m in ("p", "r", "f1")}
    both = Counter((pred[i], gold[i]) for i in items)
    golds_of: dict[str, set[str]] = {}
    preds_of: dict[str, set[str]] = {}
    for (c, e) in both:
        golds_of.setdefault(c, set()).add(e)
        preds_of.setdefault(e, set()).add(c)
    macro_p = sum(len(g) == 1 for g in golds_of.values()) / len(golds_of)
    macro_r = sum(len(c) == 1 for c in preds_of.values()) / len(preds_of)
    micro_p = sum(max(both[(c, e)] for e in g) for c, g in golds_of.items()) / len(items)
    micro_r = sum(max(both[(c, e)] for c in cs) for e, cs in preds_of.items()) / len(items)
    return {"macro_p": macro_p, "macro_r": macro_r, "macro_f1": _f1(macro_p, macro_r),
            "micro_p": micro_p, "micro_r": micro_r, "micro_f1": _f1(micro_p, micro_r)}
