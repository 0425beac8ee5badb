"""What retrieval returns: a :class:`Context` (entities with their alias trail, relations with their
source triples' descriptions, source chunks, communities), rendered as prompt text and cut to a
token budget (characters / 4)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class Context(BaseModel):
    query: str
    mode: str
    layer: str
    entities: list[dict[str, Any]] = []
    relations: list[dict[str, Any]] = []
    chunks: list[dict[str, Any]] = []
    communities: list[dict[str, Any]] = []
    tokens: int = 0
    truncated: bool = False
    ms: float = 0.0

    def text(self) -> str:
        """The context as the prompt an answering model reads (and ``kgres query`` prints)."""
        out = []
        if self.communities:
            out.append("## Communities")
            out += [f"[{c['id']}] {c.get('title') or ''}: {c.get('summary') or ''}" for c in self.communities]
        if self.entities:
            out.append("## Entities")
            out += [entity_line(e) for e in self.entities]
        if self.relations:
            out.append("## Relations")
            out += [relation_line(r) for r in self.relations]
        if self.chunks:
            out.append("## Sources")
            out += [f"[{c['id']}] {c['text']}" for c in self.chunks]
        return "\n".join(out)


def entity_line(e: dict) -> str:
    line = f"[{e['id']}] {e['name']} ({e.get('type') or 'unknown'})"
    if e.get("description"):
        line += f": {e['description']}"
    others = [a for a in e.get("alias_trail") or [] if a["alias"] != e["name"]]
    if others:
        line += " | also: " + ", ".join(
            f"{a['alias']} ({a['method'] or 'ingest'}, {a['confidence'] if a['confidence'] is not None else 1:.2f})"
            for a in others)
    return line


def relation_line(r: dict) -> str:
    line = f"{r['source_name']} -{r['predicate']}-> {r['target_name']}"
    return line + (f": {' / '.join(r['descriptions'])}" if r.get("descriptions") else "")


def _tokens(text: str) -> int:
    return max(1, len(text) // 4)


def budget(ctx: Context, budget: int) -> Context:
    """Cut the context to ``budget`` tokens: communities first, then entities, relations and chunks
    each up to a share of the budget, then whatever still fits, in rank order."""
    shares = (("communities", 0.25, lambda c: f"{c.get('title')}: {c.get('summary')}"),
              ("entities", 0.25, entity_line), ("relations", 0.25, relation_line),
              ("chunks", 1.0, lambda c: c["text"]))
    kept: dict[str, list] = {name: [] for name, _, _ in shares}
    used, truncated = 0, False
    rest: list[tuple[str, Any, int]] = []
    for name, share, render in shares:
        cap = used + share * budget if name != "chunks" else budget
        for item in getattr(ctx, name):
            cost = _tokens(render(item))
            if used + cost <= cap:
                kept[name].append(item)
                used += cost
            else:
                rest.append((name, item, cost))
    for name, item, cost in rest:  # leftovers fill what the others did not use, in order
        if used + cost <= budget:
            kept[name].append(item)
            used += cost
        else:
            truncated = True
    return ctx.model_copy(update={**kept, "tokens": used, "truncated": truncated})
