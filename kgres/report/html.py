"""The report as one self-contained HTML file: inline CSS and SVG plots, no script, no network."""

from __future__ import annotations

from html import escape
from typing import Any

from kgres.evaluate.sweep import SweepPoint
from kgres.report.diagnostics import SIZE_BUCKETS, Report
from kgres.resolve.score.store import ModelInfo

COLOURS = {"before": "#9aa5b1", "after": "#2f6fde", "auto": "#1b9e77", "review": "#e6ab02", "reject": "#b3b3b3",
           "precision": "#d95f02", "recall": "#2f6fde", "for": "#1b9e77", "against": "#d95f02"}
W, H, PAD = 560, 220, 36


def render(r: Report, sweep: list[SweepPoint] | None = None, window: tuple[float, float] | None = None) -> str:
    """The whole page. ``sweep`` (from ``kgres eval clusters --sweep``) adds the threshold plot."""
    parts = [f"<h1>kgres report</h1><p>{_counts(r)}</p>",
             "<h2>Connected components, before and after</h2>", _components_table(r),
             _bars("plot-components", "Components per size (log scale)", list(SIZE_BUCKETS),
                   {"before (mentions)": [r.before.size_distribution.get(b, 0) for b in SIZE_BUCKETS],
                    "after (entities)": [r.after.size_distribution.get(b, 0) for b in SIZE_BUCKETS]},
                   [COLOURS["before"], COLOURS["after"]], log=True)]
    if r.score_histogram:
        labels = [f"{i / 20:.2f}" for i in range(20)]
        bands = [b for b in ("auto", "review", "reject") if b in r.score_histogram]
        parts += [f"<h2>Candidate scores of {escape(r.score_run or '')}</h2>",
                  _bars("plot-scores", "Candidate pairs per score (each at its last pass), by band", labels,
                        {b: r.score_histogram[b] for b in bands}, [COLOURS[b] for b in bands], stacked=True)]
    if r.model is not None:
        m = r.model
        parts += [f"<h2>Match model {escape(m.id)}</h2><p>Trained on {m.pairs:,} candidate pairs and {m.labels} "
                  f"decided ones; auto band from p &ge; {_fmt(m.auto_threshold)}, expected precision "
                  f"{_fmt(m.expected_precision)}, expected recall {_fmt(m.expected_recall)}. Each level adds "
                  f"log2(m/u) to a pair's match weight, which starts at the prior ({m.prior_weight:+.2f}).</p>",
                  _weights(m)]
    if sweep:
        parts += ["<h2>Threshold sweep against gold</h2>", _sweep(sweep, window)]
    if r.reflection_histogram:
        parts += ["<h2>Triple reflection</h2>",
                  _bars("plot-reflection", "Reflected triples per score", [f"{i / 10:.1f}" for i in range(10)],
                        {"triples": r.reflection_histogram}, [COLOURS["after"]]),
                  _table("Filtered triples (kept, unused)", r.filtered_triples,
                         ("subject", "predicate", "object", "score", "analysis"))]
    parts += [_table("Resolution runs", r.runs),
              _table("Near-duplicates still separate", r.near_duplicates, ("a", "b", "score", "bands")),
              _table("One name, several types", r.multi_type_names, ("key", "types", "entities", "names")),
              _table("Likely variant spellings (long description, one mention)", r.variant_suspects,
                     ("name", "description_chars")),
              _table("Over-merge suspects: self-loops made by merges", r.self_loops, ("name", "predicate", "triples")),
              _table("Over-merge suspects: weakest merge decisions", r.weak_groups,
                     ("name", "weakest", "mean", "moved", "mentions"))]
    return ("<!doctype html><html><head><meta charset='utf-8'><title>kgres report</title><style>"
            "body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse;"
            "margin:.5em 0 1.5em}td,th{border:1px solid #ddd;padding:.2em .6em;text-align:left}"
            "svg{display:block;margin:.5em 0 1.5em}h2{margin-top:1.6em}</style></head><body>"
            + "".join(parts) + "</body></html>")


def _counts(r: Report) -> str:
    c = r.counts
    return (f"{c['mentions']:,} mentions ({c['inferred_mentions']:,} inferred from relations), "
            f"{c['triples']:,} triples ({c['filtered_triples']:,} filtered) &rarr; {c['entities']:,} entities "
            f"({r.entity_reduction:.1%} fewer), {c['relations']:,} relations ({r.relation_reduction:.1%} fewer); "
            f"{c['same_as_links']:,} SAME_AS links; review backlog {c['review_pairs']:,} pairs.")


def _components_table(r: Report) -> str:
    rows = [{"layer": x.layer, "nodes": x.nodes, "components": x.components, "largest": x.largest,
             "largest share": f"{x.largest_share:.1%}"} for x in (r.before, r.after)]
    return _table("", rows)


def _table(title: str, rows: list[dict[str, Any]], cols: tuple[str, ...] | None = None) -> str:
    head = f"<h2>{escape(title)}</h2>" if title else ""
    if not rows:
        return head + "<p>none</p>"
    cols = cols or tuple(rows[0])
    body = "".join("<tr>" + "".join(f"<td>{escape(_fmt(row.get(c)))}</td>" for c in cols) + "</tr>" for row in rows)
    return head + "<table><tr>" + "".join(f"<th>{escape(c)}</th>" for c in cols) + "</tr>" + body + "</table>"


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.3f}"
    if isinstance(v, list):
        return ", ".join(map(str, v))
    return "" if v is None else str(v)


def _bars(plot_id: str, title: str, labels: list[str], series: dict[str, list[int]], colours: list[str],
          log: bool = False, stacked: bool = False) -> str:
    import math

    def scale(v: float) -> float:
        return math.log10(1 + v) if log else v

    columns = [sum(col) for col in zip(*series.values())] if stacked else [v for vals in series.values() for v in vals]
    peak = max(columns, default=0)
    top = scale(peak) or 1
    slot = (W - 2 * PAD) / max(1, len(labels))
    bar = slot * 0.8 / (1 if stacked else max(1, len(series)))
    out = [f"<svg id='{plot_id}' class='plot' width='{W}' height='{H + 40}' role='img' aria-label='{escape(title)}'>",
           f"<title>{escape(title)}</title>",
           f"<text x='{PAD}' y='14' font-size='13'>{escape(title)}</text>",
           f"<line x1='{PAD}' y1='{H}' x2='{W - PAD}' y2='{H}' stroke='#333'/>",
           f"<text x='{PAD - 4}' y='34' font-size='10' text-anchor='end'>{peak:,}</text>"]
    base = [0.0] * len(labels)
    for k, (name, vals) in enumerate(series.items()):
        for i, v in enumerate(vals):
            if not v:
                continue
            x = PAD + i * slot + slot * 0.1 + (0 if stacked else k * bar)
            h0 = scale(base[i]) / top * (H - 30) if stacked else 0
            h1 = scale(base[i] + v if stacked else v) / top * (H - 30)
            out.append(f"<rect x='{x:.1f}' y='{H - h1:.1f}' width='{bar:.1f}' height='{h1 - h0:.1f}' "
                       f"fill='{colours[k]}'><title>{escape(name)} {escape(labels[i])}: {v:,}</title></rect>")
            if stacked:
                base[i] += v
    step = max(1, len(labels) // 10)
    for i in range(0, len(labels), step):
        out.append(f"<text x='{PAD + i * slot + slot / 2:.1f}' y='{H + 14}' font-size='10' "
                   f"text-anchor='middle'>{escape(labels[i])}</text>")
    out += _legend(list(series), colours)
    return "".join(out) + "</svg>"


def _legend(names: list[str], colours: list[str]) -> list[str]:
    return [f"<rect x='{PAD + k * 150}' y='{H + 24}' width='10' height='10' fill='{colours[k]}'/>"
            f"<text x='{PAD + k * 150 + 14}' y='{H + 33}' font-size='11'>{escape(n)}</text>"
            for k, n in enumerate(names)]


def _sweep(points: list[SweepPoint], window: tuple[float, float] | None) -> str:
    lo, hi = points[0].threshold, points[-1].threshold

    def x(t: float) -> float:
        return PAD + (t - lo) / ((hi - lo) or 1) * (W - 2 * PAD)

    def y(v: float) -> float:
        return H - v * (H - 30)

    out = ["<svg id='plot-sweep' class='plot' width='%d' height='%d' role='img' aria-label='threshold sweep'>"
           % (W, H + 40), "<title>Precision and recall by auto threshold</title>",
           f"<text x='{PAD}' y='14' font-size='13'>Precision and recall by auto threshold</text>",
           f"<line x1='{PAD}' y1='{H}' x2='{W - PAD}' y2='{H}' stroke='#333'/>"]
    if window:
        out.append(f"<rect x='{x(window[0]):.1f}' y='30' width='{max(2.0, x(window[1]) - x(window[0])):.1f}' "
                   f"height='{H - 30}' fill='#1b9e77' opacity='0.15'><title>usable window "
                   f"{window[0]:.2f}..{window[1]:.2f}</title></rect>")
    for name in ("precision", "recall"):
        attr = "p" if name == "precision" else "r"
        pts = " ".join(f"{x(p.threshold):.1f},{y(getattr(p, attr)):.1f}" for p in points)
        out.append(f"<polyline fill='none' stroke='{COLOURS[name]}' stroke-width='2' points='{pts}'/>")
    for p in points[::4]:
        out.append(f"<text x='{x(p.threshold):.1f}' y='{H + 14}' font-size='10' text-anchor='middle'>"
                   f"{p.threshold:.2f}</text>")
    out += _legend(["precision", "recall"], [COLOURS["precision"], COLOURS["recall"]])
    return "".join(out) + "</svg>"


def _weights(m: ModelInfo) -> str:
    """One horizontal bar per comparison level: its weight log2(m/u), for (right) or against (left)."""
    rows = [(c.name, lv.level, lv.weight) for c in m.comparisons for lv in c.levels]
    row_h, label_w = 13, 230
    peak = max((abs(w) for _, _, w in rows), default=1.0) or 1.0
    half = (W - label_w - PAD) / 2
    zero = label_w + half
    height = 30 + row_h * len(rows)
    out = [f"<svg id='plot-weights' class='plot' width='{W}' height='{height}' role='img' "
           "aria-label='match weights'><title>Match weight of each comparison level</title>",
           "<text x='0' y='14' font-size='13'>Match weight of each comparison level, log2(m/u)</text>",
           f"<line x1='{zero:.1f}' y1='22' x2='{zero:.1f}' y2='{height}' stroke='#333'/>"]
    for i, (comparison, level, w) in enumerate(rows):
        y = 24 + i * row_h
        width = abs(w) / peak * half
        x = zero if w >= 0 else zero - width
        colour = COLOURS["for"] if w >= 0 else COLOURS["against"]
        out.append(f"<text x='{label_w - 6}' y='{y + 10}' font-size='10' text-anchor='end'>"
                   f"{escape(comparison)}: {escape(level)}</text>"
                   f"<rect x='{x:.1f}' y='{y + 1}' width='{max(width, 0.5):.1f}' height='{row_h - 3}' fill='{colour}'>"
                   f"<title>{escape(comparison)} {escape(level)}: {w:+.2f}</title></rect>")
    return "".join(out) + "</svg>"
