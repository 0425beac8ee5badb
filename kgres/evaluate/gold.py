"""Gold for ``kgres eval clusters``: JSONL clusters ``{"mention_id", "cluster"}`` or CSV pairs
``id_a,id_b,label`` (label 1/0, true/false or same/different); and the JSONL reader every evaluation
input (gold, questions) goes through, which names the file and line of what it cannot read."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from pydantic import BaseModel

from kgres.errors import InputError
from kgres.resolve.cluster import UnionFind


class Gold(BaseModel):
    clusters: dict[str, str]                      # mention id -> gold cluster
    pairs: list[tuple[str, str, bool]] | None = None  # CSV gold: the labelled pairs


def load_gold(path: Path) -> Gold:
    """Read gold from JSONL clusters or CSV pairs (by extension; ``.csv`` means pairs).

    Raises:
        InputError: unreadable, malformed, or empty of labels; names the file, line and field.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read gold file: {e.strerror}", path=path) from e
    return _gold_pairs(path, text) if str(path).lower().endswith(".csv") else _gold_clusters(path, text)


def _jsonl_lines(path: Path, text: str):
    """(line number, parsed value) for each non-blank line; InputError naming the line otherwise."""
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield n, json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"not JSON: {e.msg}", path=path, line=n) from e


def read_jsonl(path: Path, what: str):
    """(line number, parsed value) for each non-blank line of the file ``path`` (``what`` names it
    in errors: "questions file"); InputError for an unreadable file or a line that is not JSON."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read {what}: {e.strerror}", path=path) from e
    return _jsonl_lines(path, text)


def _gold_clusters(path: Path, text: str) -> Gold:
    clusters: dict[str, str] = {}
    for n, row in _jsonl_lines(path, text):
        if not isinstance(row, dict):
            raise InputError("expected an object {\"mention_id\", \"cluster\"}", path=path, line=n)
        for field in ("mention_id", "cluster"):
            if not isinstance(row.get(field), (str, int)) or isinstance(row.get(field), bool):
                raise InputError("missing or not a string", path=path, line=n, field=field)
        clusters[str(row["mention_id"])] = str(row["cluster"])
    return Gold(clusters=clusters)


LABELS = {"1": True, "true": True, "same": True, "yes": True, "0": False, "false": False, "different": False,
          "no": False}


def _gold_pairs(path: Path, text: str) -> Gold:
    pairs, uf = [], UnionFind()
    reader = csv.reader(text.splitlines())
    for n, row in enumerate(reader, 1):
        if not row or (n == 1 and [c.strip().lower() for c in row[:3]] == ["id_a", "id_b", "label"]):
            continue
        if len(row) < 3:
            raise InputError(f"expected id_a,id_b,label, got {len(row)} column(s)", path=path, line=n)
        label = LABELS.get(row[2].strip().lower())
        if label is None:
            raise InputError(f"label '{row[2]}' is not 1/0, true/false or same/different", path=path, line=n,
                             field="label")
        a, b = row[0].strip(), row[1].strip()
        pairs.append((a, b, label))
        uf.find(a), uf.find(b)
        if label:
            uf.union(a, b)
    return Gold(clusters={x: uf.find(x) for x in uf.parent}, pairs=pairs)


