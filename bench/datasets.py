"""The development sets of ``../shared/data`` as kgres JSONL records plus their gold, one loader each.

Every loader returns a :class:`Dataset`: the records to ingest (kgres JSONL), and the gold, either
clusters ({mention id: gold entity}) or labelled pairs ([(mention id, mention id, same?)]); story graphs
carry hard negatives (names that must stay apart) and known variants (names that should join).

- ``cesi-base``, ``cesi-ambiguous``: open-IE triples; every subject and object phrase of every
  triple is one mention (the phrase as extracted), its source sentence a chunk, the triple a
  relation. Gold: each phrase occurrence's Freebase id (scored on subject phrases, where it is given).
- ``febrl3``: FEBRL dataset3, 5,000 person records (typos, missing values); the name is given name and
  surname, every other field an attribute. Gold: the entity number in ``rec_id``.
- ``febrl4``: FEBRL dataset4a and 4b, 10,000 person records: 5,000 originals and one duplicate of each
  (more corrupted than dataset3's), loaded and resolved as one set.
- ``fake1000``: Splink's fake_1000 person records (name, dob, city, email), less the 36 without a
  name. Gold: ``cluster``.
- ``magellan-<set>``: a Magellan benchmark (records of two sources, from all its splits); the first
  column is the name, the rest attributes (Fodors-Zagats' ``class`` is left out: it is the gold
  entity number). Gold: the test split's labelled pairs.
- ``carol-graphrag``, ``carol-nano``: the two Christmas Carol graphs through kgres's own importers;
  no cluster gold, but hard negatives and known variants.
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@dataclass
class Dataset:
    name: str
    kind: str  # "phrases", "records", "pairs", "story"
    records: list[dict] = field(default_factory=list)  # kgres JSONL; empty for story graphs (see path)
    clusters: dict[str, str] | None = None  # mention id (as given) -> gold entity
    pairs: list[tuple[str, str, bool]] | None = None  # labelled mention pairs
    fmt: str = "jsonl"  # the importer for ``path`` (story graphs)
    path: Path | None = None
    negatives: list[tuple[str, str]] = field(default_factory=list)  # names that must stay apart
    variants: list[tuple[str, str]] = field(default_factory=list)  # names that should join
    scored: set[str] | None = None  # the mention ids scored against clusters (None: all with gold)


def cesi(split: str = "base") -> Dataset:
    path = DATA / ("cesi-base/base_valid.jsonl" if split == "base" else "cesi-ambiguous-valid/ambiguous_valid.jsonl")
    recs: list[dict] = []
    gold: dict[str, str] = {}
    subjects: set[str] = set()
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        t = f"t{r['_id']}"
        s, p, o = r["triple"]
        text = (r.get("src_sentences") or [" ".join(r["triple"])])[-1][:2000]
        recs.append({"kind": "chunk", "id": t, "text": text})
        for role, phrase in (("s", s), ("o", o)):
            mid = f"{t}:{role}"
            recs.append({"kind": "mention", "id": mid, "name": phrase, "chunk_id": t})
            link = r["true_link"]["subject" if role == "s" else "object"]
            if link != "NULL":
                gold[mid] = link
                if role == "s":
                    subjects.add(mid)
        recs.append({"kind": "triple", "id": t, "subject": f"{t}:s", "predicate": p, "object": f"{t}:o",
                     "chunk_id": t})
    return Dataset(name=f"cesi-{split}", kind="phrases", records=recs, clusters=gold, scored=subjects)


def febrl3() -> Dataset:
    return _febrl("febrl3", "dataset3.csv")


def febrl4() -> Dataset:
    return _febrl("febrl4", "dataset4a.csv", "dataset4b.csv")


def _febrl(name: str, *files: str) -> Dataset:
    recs, gold = [], {}
    for file in files:
        with (DATA / "febrl" / file).open() as f:
            for row in csv.DictReader(f, skipinitialspace=True):
                rid = row.pop("rec_id").strip()
                full = " ".join(v.strip() for v in (row.pop("given_name"), row.pop("surname")) if v and v.strip())
                attrs = {k.strip(): v.strip() for k, v in row.items() if v and v.strip()}
                recs.append({"kind": "mention", "id": rid, "name": full or "(no name)", "type": "PERSON",
                             "attributes": attrs})
                gold[rid] = re.match(r"rec-(\d+)-", rid).group(1)
    return Dataset(name=name, kind="records", records=recs, clusters=gold)


def fake1000() -> Dataset:
    recs, gold = [], {}
    with (DATA / "splink-fake-1000" / "fake_1000.csv").open() as f:
        for row in csv.DictReader(f):
            rid = row["unique_id"]
            name = " ".join(v for v in (row["first_name"], row["surname"]) if v)
            if not name:
                continue  # 36 records without a name: a mention needs one (scored sets leave them out)
            attrs = {k: row[k] for k in ("dob", "city", "email") if row[k]}
            recs.append({"kind": "mention", "id": rid, "name": name, "type": "PERSON", "attributes": attrs})
            gold[rid] = row["cluster"]
    return Dataset(name="fake1000", kind="records", records=recs, clusters=gold)


MAGELLAN = ("Beer", "DBLP-GoogleScholar", "Fodors-Zagats", "iTunes-Amazon")
LEAKS = {"Fodors-Zagats": {"class"}}  # columns that are the gold itself


def magellan(name: str, split: str = "test") -> Dataset:
    records: dict[str, dict] = {}
    ids: dict[tuple[str, str], str] = {}
    pairs: list[tuple[str, str, bool]] = []

    def record(side: str, text: str) -> str:
        key = (side, text.strip())
        if key not in ids:
            # split at the markers: an empty value leaves no space of its own ("COL year VAL" at the end)
            parts = re.split(r"(?:^| )COL (\S+) VAL(?= |$)", text.strip())
            cols = list(zip(parts[1::2], parts[2::2]))
            values = [(c, _clean(v)) for c, v in cols if c not in LEAKS.get(name, ())]
            ids[key] = f"{side}{len(ids)}"
            label = next((v for _, v in values if v), "(no name)")
            records[ids[key]] = {"kind": "mention", "id": ids[key], "name": label,
                                 "attributes": {c: v for c, v in values[1:] if v}}
        return ids[key]

    folder = DATA / "magellan-dev" / name
    if not (folder / f"{split}.txt").is_file():  # else the set scores P = R = 1.00 on no pairs at all
        raise FileNotFoundError(f"{folder / f'{split}.txt'}: the labelled pairs of magellan-{name} are missing")
    for part in ("train", "valid", "test"):  # every split's records make the graph; the test pairs score it
        path = folder / f"{part}.txt"
        if not path.is_file():
            continue
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            left, right, label = line.split("\t")
            a, b = record("a", left), record("b", right)
            if part == split:
                pairs.append((a, b, label.strip() == "1"))
    return Dataset(name=f"magellan-{name}", kind="pairs", records=list(records.values()), pairs=pairs)


def _clean(v: str) -> str:
    v = v.strip().strip("`'").strip()
    return "" if v in ("-", "nan", "NaN") else v


# Names in the Christmas Carol graphs that are different things (the kgres name, upper-cased).
CAROL_NEGATIVES = [
    ("YOUNG SCROOGE", "OLDER SCROOGE"), ("YOUNG SCROOGE", "SCROOGE"), ("BELL", "BELLE"), ("THE BELL", "BELLE"),
    ("MR. FEZZIWIG", "MRS. FEZZIWIG"), ("MISS FEZZIWIGS", "MR. FEZZIWIG"), ("MRS. FEZZIWIG", "MISS FEZZIWIGS"),
    ("FEZZIWIG'S WAREHOUSE", "FEZZIWIG"),
    ("BOB CRATCHIT", "MRS. CRATCHIT"), ("MARTHA CRATCHIT", "BELINDA CRATCHIT"), ("PETER CRATCHIT", "TIM CRATCHIT"),
    ("BOB CRATCHIT", "PETER CRATCHIT"), ("CRATCHIT FAMILY", "BOB CRATCHIT"), ("MARLEY'S GHOST", "MARLEY"),
    ("GHOST OF CHRISTMAS PAST", "GHOST OF CHRISTMAS PRESENT"),
    ("GHOST OF CHRISTMAS PRESENT", "GHOST OF CHRISTMAS YET TO COME"),
    ("GHOST OF CHRISTMAS PAST", "GHOST OF CHRISTMAS YET TO COME"), ("SCROOGE", "SCROOGE'S NEPHEW"),
    ("SCROOGE", "SCROOGE AND MARLEY"), ("SCROOGE'S NIECE", "SCROOGE'S NEPHEW"), ("SCROOGE'S HOUSE", "SCROOGE'S OFFICE"),
    ("SCROOGE'S FUNERAL", "MARLEY'S FUNERAL"), ("THE FIRST OF THE THREE SPIRITS", "THE SECOND OF THE THREE SPIRITS"),
    ("THE SECOND OF THE THREE SPIRITS", "THE LAST OF THE SPIRITS"), ("SCROOGE'S BEDROOM", "SCROOGE'S OFFICE"),
    ("SCROOGE", "FRED"), ("SCROOGE", "MARLEY"), ("SCROOGE", "JACOB MARLEY"), ("TINY TIM", "BOB CRATCHIT"),
]
# ... and names that are one thing (recall on the story graphs, where there is no gold).
CAROL_VARIANTS = [
    ("SCROOGE", "EBENEZER SCROOGE"), ("SCROOGE", "MR. SCROOGE"), ("TIM", "TINY TIM"), ("TINY TIM", "TIM CRATCHIT"),
    ("MARLEY'S GHOST", "GHOST OF JACOB MARLEY"), ("THE GHOST OF JACOB MARLEY", "GHOST OF JACOB MARLEY"),
    ("JACOB MARLEY", "MARLEY"), ("BOB CRATCHIT", "ROBERT CRATCHIT"), ("FEZZIWIG", "MR. FEZZIWIG"),
    ("THE GHOST OF CHRISTMAS PAST", "GHOST OF CHRISTMAS PAST"), ("SCROOGE'S NEPHEW", "FRED"),
    ("SCROOGE'S CHAMBER", "SCROOGE'S CHAMBERS"), ("THE CRATCHIT FAMILY", "CRATCHIT FAMILY"),
]


def carol(which: str) -> Dataset:
    if which == "graphrag":
        return Dataset(name="carol-graphrag", kind="story", fmt="graphrag", path=DATA / "graphrag-christmas-carol",
                       negatives=CAROL_NEGATIVES, variants=CAROL_VARIANTS)
    return Dataset(name="carol-nano", kind="story", fmt="graphml",
                   path=DATA / "nano-graphrag-dickens" / "graph_chunk_entity_relation.graphml",
                   negatives=CAROL_NEGATIVES, variants=CAROL_VARIANTS)


LOADERS = {
    "cesi-base": lambda: cesi("base"), "cesi-ambiguous": lambda: cesi("ambiguous"), "febrl3": febrl3,
    "febrl4": febrl4, "fake1000": fake1000, **{f"magellan-{m}": (lambda m=m: magellan(m)) for m in MAGELLAN},
    "carol-graphrag": lambda: carol("graphrag"), "carol-nano": lambda: carol("nano"),
}


def load(name: str) -> Dataset:
    return LOADERS[name]()
