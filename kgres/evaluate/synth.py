"""``kgres synth``: seeded, noisy LLM-style extractions with ground truth (kgres JSONL + gold JSONL).

Real entities live in *topics* (a lab, a league, a city...): each chunk draws its mentions from one
topic, so an entity's neighbours are topical, as in real text. Each mention is one surface form of
its entity, drawn from variants an extractor produces:

- persons: full name, honorific + name, honorific + surname, given name, initial + surname,
  nickname ("Bob" for Robert), a typo, upper case, a transliteration ("Jürgen" / "Juergen"), and
  the same name typed ORGANIZATION in some chunks (extractors disagree on types);
- organisations: name, "The" + name, upper case, acronym, possessive, plural of the last word;
- products: numbered models and versions ("Nova 7" / "Nova 8" are hard negatives);
- places: a place and its neighbouring places ("North Harbor" / "South Harbor").

Hard negatives are built in: relatives share surnames (bare surnames are genuinely ambiguous),
numbered products, neighbouring places, and *homonyms*: two people with one full name in different
topics, which only context separates. *Chain traps*: an initial ("J. Keller") that fits two people
("John Keller", "Jane Keller"). Some relations point to an endpoint that has no mention line (the
importer infers a mention for it; it has no gold).

Deterministic: the same ``mentions``, ``seed`` and ``per_entity`` give byte-identical files.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from pydantic import BaseModel

GIVEN = ["Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "John", "Karen", "Tim", "Radia",
         "Ken", "Dennis", "Margaret", "Leslie", "Niklaus", "Shafi", "Whitfield", "Judea", "Yoshua", "Fei",
         "Andrew", "Jeffrey", "Sophie", "Hedy", "Claude", "Mary", "Robert", "Ivan", "Lynn", "William",
         "Elizabeth", "Jane", "Jürgen", "Zoë", "José", "François", "Søren", "Małgorzata", "Björn"]
NICKNAMES = {"Robert": "Bob", "William": "Bill", "Elizabeth": "Liz", "Margaret": "Peggy", "Andrew": "Andy",
             "Jeffrey": "Jeff", "Donald": "Don", "Dennis": "Denny", "Timothy": "Tim", "Barbara": "Barb"}
TRANSLIT = {"ü": "ue", "ö": "oe", "ä": "ae", "ë": "e", "é": "e", "ç": "c", "ø": "o", "ł": "l"}
SURNAMES = ["Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Allen", "Backus", "Jones",
            "Berners", "Perlman", "Thompson", "Ritchie", "Hamilton", "Lamport", "Wirth", "Goldwasser",
            "Diffie", "Pearl", "Bengio", "Li", "Ng", "Dean", "Wilson", "Lamarr", "Shannon", "Keller", "Floyd",
            "Sutherland", "Conway", "Müller", "Kowalski", "Ødegaard", "García"]
ORG_WORDS = ["Global", "United", "Northern", "Pacific", "Atlantic", "Quantum", "Digital", "Advanced", "Royal",
             "National", "Central", "Applied", "General", "Modern", "Integrated", "Open"]
ORG_KINDS = ["System", "Laboratory", "Industry", "Dynamic", "Network", "Research", "Holding", "Instrument",
             "Robotic", "Analytic"]
PRODUCTS = ["Nova", "Orion", "Vega", "Atlas", "Zephyr", "Echo", "Pulse", "Apex"]
PLACES = ["Harbor", "Ridge", "Falls", "Valley", "Point", "Springs", "Haven", "Crossing"]
SIDES = ["North", "South", "East", "West", "Upper", "Lower"]
HONORIFICS = ["Dr.", "Prof."]
PREDICATES = ["WORKS_WITH", "CITES", "FOUNDED", "USES", "LOCATED_IN", "MEETS"]


class SynthStats(BaseModel):
    mentions: int
    entities: int
    triples: int
    topics: int
    homonym_pairs: int
    missing_endpoints: int


def _typo(word: str, rnd: random.Random) -> str:
    if len(word) < 6:
        return word
    i = rnd.randrange(1, len(word) - 1)
    return word[:i] + word[i + 1:]


def _translit(s: str) -> str:
    return "".join(TRANSLIT.get(c, c) for c in s)


def _person(i: int, topic: int, rnd: random.Random, given: str, surname: str) -> dict:
    name = f"{given} {surname}"
    honorific = rnd.choice(HONORIFICS)
    variants = [(name, 8), (f"{honorific} {name}", 2), (f"{given[0]}. {surname}", 2), (name.upper(), 1),
                (f"{given} {_typo(surname, rnd)}", 1), (surname, 1), (f"{honorific} {surname}", 1), (given, 1)]
    if given in NICKNAMES:
        variants.append((f"{NICKNAMES[given]} {surname}", 2))
    if _translit(name) != name:
        variants.append((_translit(name), 2))
    e = {"gold": f"p{i}", "type": "PERSON", "topic": topic, "variants": variants}
    if rnd.random() < 0.1:
        e["mistyped"] = "ORGANIZATION"  # some chunks' extractor calls this person an organisation
    return e


def _organisation(i: int, topic: int, rnd: random.Random) -> dict:
    words = [rnd.choice(ORG_WORDS), rnd.choice(ORG_WORDS), rnd.choice(ORG_KINDS)]
    if words[0] == words[1]:
        words[1] = "Standard"
    name = " ".join(words)
    acronym = "".join(w[0] for w in words).upper()
    variants = [(name, 8), (f"The {name}", 2), (name.upper(), 1), (acronym, 1), (name + "'s", 1), (name + "s", 1)]
    return {"gold": f"o{i}", "type": "ORGANIZATION", "topic": topic, "variants": variants}


def entities(n: int, topics: int, rnd: random.Random) -> list[dict]:
    """``n`` real entities over ``topics`` topics, with the hard negatives described above."""
    out: list[dict] = []
    seen: set[tuple[str, str]] = set()
    families: dict[str, int] = {}
    for i in range(n):
        topic = i % topics
        kind = rnd.random()
        if kind < 0.55:
            given, surname = rnd.choice(GIVEN), rnd.choice(SURNAMES)
            e = _person(i, topic, rnd, given, surname)
            families[surname] = families.get(surname, 0) + 1
        elif kind < 0.8:
            e = _organisation(i, topic, rnd)
        elif kind < 0.9:
            name = f"{rnd.choice(PRODUCTS)} {rnd.randint(1, 12)}"
            e = {"gold": f"x{i}", "type": "PRODUCT", "topic": topic,
                 "variants": [(name, 8), (name.upper(), 1), (name.lower(), 1), (name.replace(" ", "-"), 1)]}
        else:
            place = f"{rnd.choice(SIDES)} {rnd.choice(PLACES)}"
            e = {"gold": f"g{i}", "type": "GEO", "topic": topic,
                 "variants": [(place, 8), (place.upper(), 1), (f"the {place}", 1)]}
        key = (e["variants"][0][0].lower(), e["type"])
        if key in seen:
            continue  # one name for two entities only where we mean it (the homonyms below)
        seen.add(key)
        out.append(e)
    return out


def _triple(tid: str, subject: str, predicate: str, obj: str, chunk: str, names: dict[str, str]) -> dict:
    """A triple record with the one-sentence description an extractor writes for it."""
    claim = f"{names[subject]} {predicate.lower().replace('_', ' ')} {names[obj]}."
    return {"kind": "triple", "id": tid, "subject": subject, "object": obj, "predicate": predicate,
            "chunk_id": chunk, "description": claim}


def generate(path: Path, gold_path: Path, mentions: int, seed: int = 11, per_entity: int = 4,
             topic_size: int = 40) -> SynthStats:
    """Write ``mentions`` mentions (about one triple per mention) to ``path`` and their gold to
    ``gold_path`` (``{"mention_id", "cluster"}`` lines, the format ``kgres eval clusters`` reads)."""
    rnd = random.Random(seed)
    n = max(2, mentions // per_entity)
    topics = max(1, n // topic_size)
    ents = entities(n, topics, rnd)
    by_topic: dict[int, list[dict]] = {}
    for e in ents:
        by_topic.setdefault(e["topic"], []).append(e)
    homonyms = {}
    for e in ents:  # a homonym: the same full name in another topic, a different person
        if e["type"] == "PERSON" and rnd.random() < 0.04 and topics > 1:
            twin = dict(e, gold=e["gold"] + "h", topic=(e["topic"] + 1) % topics)
            # the next topic may hold no entity of its own: its names were all taken (1M mentions)
            by_topic.setdefault(twin["topic"], []).append(twin)
            homonyms[e["gold"]] = twin["gold"]
    gold: dict[str, str] = {}
    triples = missing = 0
    with open(path, "w", encoding="utf-8") as f:
        m = c = 0
        while m < mentions:
            topic = rnd.randrange(topics)
            pool = by_topic.get(topic) or ents
            chunk = f"c{c}"
            c += 1
            lines: list[dict] = []  # the chunk's records; its text is written from their claims
            members, names = [], {}
            # distinct entities per chunk: an extractor lists each thing once per chunk, and a triple
            # between two mentions of one entity would be a self-relation (a cannot-link) by construction
            for e in rnd.sample(pool, min(5, mentions - m, len(pool))):
                name = rnd.choices([v for v, _ in e["variants"]], [w for _, w in e["variants"]])[0]
                type_ = e.get("mistyped", e["type"]) if rnd.random() < 0.15 else e["type"]
                mid = f"m{m}"
                lines.append({"kind": "mention", "id": mid, "name": name, "type": type_, "chunk_id": chunk})
                gold[mid] = e["gold"]
                members.append(mid)
                names[mid] = name
                m += 1
            for a, b in zip(members, members[1:]):
                lines.append(_triple(f"t{triples}", a, rnd.choice(PREDICATES), b, chunk, names))
                triples += 1
            if members and rnd.random() < 0.05:  # an endpoint the extractor never listed as an entity
                names[f"missing-{chunk}"] = "an unnamed source"
                lines.append(_triple(f"t{triples}", members[0], "MENTIONS", f"missing-{chunk}", chunk, names))
                triples += 1
                missing += 1
            claims = [r["description"] for r in lines if r["kind"] == "triple"] or [
                f"{n} is mentioned." for n in names.values()]
            text = " ".join([f"Generated chunk {chunk}, topic {topic}.", *claims])
            for r in [{"kind": "chunk", "id": chunk, "text": text}, *lines]:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    gold_path.write_text("".join(json.dumps({"mention_id": k, "cluster": v}) + "\n" for k, v in gold.items()),
                         encoding="utf-8")
    return SynthStats(mentions=len(gold), entities=len(set(gold.values())), triples=triples, topics=topics,
                      homonym_pairs=len(homonyms), missing_endpoints=missing)


def gold_of(gold_path: Path) -> dict[str, str]:
    """Read a gold file written by :func:`generate`."""
    return {r["mention_id"]: r["cluster"] for r in map(json.loads, Path(gold_path).read_text().splitlines())}


def increments(path: Path, out_dir: Path, parts: int) -> list[Path]:
    """Split a JSONL interchange file into ``parts`` files of consecutive chunks (a chunk record and
    every record after it up to the next chunk), as a pipeline delivering documents over time would:
    ``increments/part-00.jsonl``, ... Records before the first chunk go with the first part."""
    lines = path.read_text(encoding="utf-8").splitlines()
    starts = [i for i, line in enumerate(lines) if json.loads(line).get("kind") == "chunk"] or [0]
    starts[0] = 0
    bounds = [starts[round(k * len(starts) / parts)] for k in range(parts)] + [len(lines)]
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(parts):
        p = out_dir / f"part-{k:02d}.jsonl"
        p.write_text("".join(line + "\n" for line in lines[bounds[k]:bounds[k + 1]]), encoding="utf-8")
        paths.append(p)
    return paths
