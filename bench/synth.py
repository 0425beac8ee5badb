"""A seeded generator of noisy, LLM-style extractions with ground truth (kgres JSONL + gold).

Each real entity is emitted as several mentions, one per chunk, drawn from its variants:
persons: full name, honorific + full name, honorific + surname, given name, initial + surname,
a typo, upper case; organisations: name, "The" + name, upper case, acronym, plural; products:
numbered models ("Nova 7" / "Nova 8": hard negatives). Families share surnames (hard negatives),
so bare surnames are genuinely ambiguous. Triples join mentions that share a chunk.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

GIVEN = ["Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "John", "Karen", "Tim", "Radia",
         "Ken", "Dennis", "Margaret", "Leslie", "Niklaus", "Shafi", "Whitfield", "Judea", "Yoshua", "Fei",
         "Andrew", "Jeffrey", "Sophie", "Hedy", "Claude", "Mary", "Robert", "Ivan", "Lynn"]
SURNAMES = ["Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Allen", "Backus", "Jones",
            "Berners", "Perlman", "Thompson", "Ritchie", "Hamilton", "Lamport", "Wirth", "Goldwasser",
            "Diffie", "Pearl", "Bengio", "Li", "Ng", "Dean", "Wilson", "Lamarr", "Shannon", "Keller", "Floyd",
            "Sutherland", "Conway"]
ORG_WORDS = ["Global", "United", "Northern", "Pacific", "Atlantic", "Quantum", "Digital", "Advanced", "Royal",
             "National", "Central", "Applied", "General", "Modern", "Integrated", "Open"]
ORG_KINDS = ["Systems", "Laboratories", "Industries", "Dynamics", "Networks", "Research", "Holdings",
             "Instruments", "Robotics", "Analytics"]
PRODUCTS = ["Nova", "Orion", "Vega", "Atlas", "Zephyr", "Echo", "Pulse", "Apex"]
HONORIFICS = ["Mr.", "Dr.", "Prof."]


def _typo(word: str, rnd: random.Random) -> str:
    if len(word) < 5:
        return word
    i = rnd.randrange(1, len(word) - 1)
    return word[:i] + word[i + 1:]


def entities(n: int, rnd: random.Random) -> list[dict]:
    out = []
    for i in range(n):
        kind = rnd.random()
        if kind < 0.6:
            g, s = rnd.choice(GIVEN), rnd.choice(SURNAMES)
            name = f"{g} {s}"
            variants = [name, f"{rnd.choice(HONORIFICS)} {name}", f"{g[0]}. {s}", name.upper(),
                        f"{g} {_typo(s, rnd)}", s, f"{rnd.choice(HONORIFICS)} {s}", g]
            weights = [6, 2, 2, 1, 1, 1, 1, 1]
            out.append({"gold": f"p{i}", "type": "PERSON", "variants": variants, "weights": weights})
        elif kind < 0.9:
            words = [rnd.choice(ORG_WORDS), rnd.choice(ORG_WORDS), rnd.choice(ORG_KINDS)]
            if words[0] == words[1]:
                words[1] = "Standard"
            name = " ".join(words)
            acronym = "".join(w[0] for w in words).upper()
            variants = [name, f"The {name}", name.upper(), acronym, name + "'s"]
            out.append({"gold": f"o{i}", "type": "ORGANIZATION", "variants": variants, "weights": [6, 2, 1, 1, 1]})
        else:
            name = f"{rnd.choice(PRODUCTS)} {rnd.randint(1, 12)}"
            out.append({"gold": f"x{i}", "type": "PRODUCT", "variants": [name, name.upper(), name.lower()],
                        "weights": [6, 1, 1]})
    # identical names for different real entities are indistinguishable by any method: keep one
    seen, unique = set(), []
    for e in out:
        key = (e["variants"][0].lower(), e["type"])
        if key not in seen:
            seen.add(key)
            unique.append(e)
    return unique


def generate(path: Path, gold_path: Path, mentions: int, seed: int = 11, per_entity: int = 4) -> dict:
    """Write ``mentions`` mentions (and ~2 triples per mention) to ``path``; gold {mention id: entity}."""
    rnd = random.Random(seed)
    ents = entities(max(1, mentions // per_entity), rnd)
    gold: dict[str, str] = {}
    with open(path, "w", encoding="utf-8") as f:
        chunk_mentions: list[list[str]] = []
        m = 0
        while m < mentions:
            chunk = f"c{len(chunk_mentions)}"
            members = []
            f.write(json.dumps({"kind": "chunk", "id": chunk, "text": f"Generated chunk {chunk}."}) + "\n")
            for _ in range(min(5, mentions - m)):
                e = rnd.choice(ents)
                name = rnd.choices(e["variants"], e["weights"])[0]
                mid = f"m{m}"
                f.write(json.dumps({"kind": "mention", "id": mid, "name": name, "type": e["type"],
                                    "chunk_id": chunk}) + "\n")
                gold[mid] = e["gold"]
                members.append(mid)
                m += 1
            chunk_mentions.append(members)
        t = 0
        for members in chunk_mentions:
            for a, b in zip(members, members[1:]):
                f.write(json.dumps({"kind": "triple", "id": f"t{t}", "subject": a, "object": b,
                                    "predicate": rnd.choice(["WORKS_WITH", "CITES", "FOUNDED", "USES"])}) + "\n")
                t += 1
    gold_path.write_text("".join(json.dumps({"mention_id": k, "cluster": v}) + "\n" for k, v in gold.items()))
    return gold
