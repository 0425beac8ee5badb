"""``normalize``: deterministic, per-type name keys beside the untouched originals.

For every Entity, :func:`name_keys` derives, from its name and type:

- ``key_core``: the comparison key. Case, Unicode forms, punctuation and possessives are folded
  for every type, and a leading abbreviation written out ("St. Louis" -> "saint louis"). Honorifics
  and offices are dropped for persons ("Mr. Sherlock Holmes" -> "sherlock holmes", "Sen. Hillary
  Clinton" -> "hillary clinton").
  A gendered honorific is kept as ``key_gender`` ("m" for Mr., "f" for Ms., "f.mrs" for Mrs., "f.miss"
  for Miss: :func:`_gender`), an occupational one as ``key_title`` ("colonel", "doctor").
  For other types the last word is made singular ("Large Language Models" -> "large language model").
  Legal suffixes are dropped only when configured ("Acme Corp." -> "acme").
- ``key_tokens``: the words of the core key, minus stop words.
- ``key_acronym``: the initials of a multi-word name ("llm"), or the name itself when it looks like
  an acronym ("LLMs" -> "llm"), so both sides of an acronym pair share one key.
- ``key_numbers``: the name's numbers (:func:`number_facts`) and roman numerals, which stay
  significant: "iPhone 7" and "iPhone 8", "Apple I" and "Apple II" have different numbers, which
  forbids merging them. A part number is one number however it is hyphenated ("010-00455-00"), a
  measure keeps its unit in one spelling ("7.2MP", "7.2 Megapixel": ``72mp``). The model codes a
  name writes (:func:`name_codes`: "DSC-W55" and "DSCW55" are ``dscw55``) are read from the name.
- ``norm_type``: PERSON, ORGANIZATION, GEO, EVENT or the upper-cased original type.

Keys are pure functions of (name, type, settings), so normalize is idempotent; only entities whose
name or type changed since their keys were written are recomputed.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pydantic import BaseModel

from kgres.db import MAX_INDEXED_CHARS, Database
from kgres.db.overlap import Overlap

HONORIFICS = frozenset({
    "mr", "mrs", "ms", "miss", "mister", "madam", "madame", "mme", "mlle", "dr", "doctor", "prof",
    "professor", "sir", "dame", "lady", "lord", "rev", "reverend", "fr", "father", "sr", "jr",
    "inspector", "captain", "capt", "colonel", "col", "major", "sergeant", "sgt", "general", "gen",
    "president", "king", "queen", "prince", "princess", "saint", "st", "herr", "frau", "don",
    # offices, which one person holds in turn ("Senator Clinton", "Secretary Clinton"): dropped, not titles
    "senator", "sen", "governor", "gov", "mayor", "judge", "justice", "rep", "representative", "congressman",
    "congresswoman", "secretary", "minister", "chancellor", "ambassador", "lieutenant", "lt", "detective", "det",
})
# Honorifics that state a gender: "Mr. Fezziwig" and "Mrs. Fezziwig" are two people.
MALE_HONORIFICS = frozenset({"mr", "mister", "sir", "lord", "king", "prince", "herr", "don", "father", "fr",
                             "congressman"})
FEMALE_HONORIFICS = frozenset({"mrs", "ms", "miss", "madam", "madame", "mme", "mlle", "dame", "lady", "queen",
                               "princess", "frau", "congresswoman"})
# ... and whether a woman is married: "Mrs. Bennet" and "Miss Bennet" are a mother and her daughter
# ("Ms.", "Lady", "Madam" say neither).
MARRIED_HONORIFICS = frozenset({"mrs", "madame", "mme"})
UNMARRIED_HONORIFICS = frozenset({"miss", "mlle"})
# Honorifics that state an occupation or rank, folded to one spelling: "Colonel" and "Professor
# Moriarty" are two people, "Dr." and "Doctor Watson" one.
TITLES = {"dr": "doctor", "doctor": "doctor", "prof": "professor", "professor": "professor",
          "colonel": "colonel", "col": "colonel", "major": "major", "captain": "captain", "capt": "captain",
          "sergeant": "sergeant", "sgt": "sergeant", "general": "general", "gen": "general",
          "inspector": "inspector", "rev": "reverend", "reverend": "reverend", "president": "president",
          "king": "king", "queen": "queen", "prince": "prince", "princess": "princess"}
# Abbreviations written out as the first word, when written with their full stop: "St. Louis" and
# "Saint Louis", "Ft. Myers" and "Fort Myers" share a key ("ST" alone may be an acronym, a street's "St."
# comes last). Not inside a name: Scholar's titles end in "acm sigmod intl", and written out as
# "international" it cost DBLP-Scholar a point of recall.
LEADING_ABBREVIATIONS = {"st": "saint", "mt": "mount", "ft": "fort", "sen": "senator"}
_LEADING_ABBREVIATION = re.compile(r"\s*(st|mt|ft|sen)\.", re.IGNORECASE)
STOP_WORDS = frozenset({"the", "of", "a", "an", "and", "&", "for", "in", "on", "at", "to", "de", "la", "le"})
LEGAL_SUFFIXES = frozenset({"inc", "incorporated", "corp", "corporation", "co", "company", "ltd", "limited",
                            "llc", "plc", "gmbh", "ag", "sa", "srl", "bv", "nv", "holdings", "group"})
# Words that make a person name denote a different referent than the bare name: "Young Scrooge" is
# not "Scrooge" (nor "Older Scrooge"), "Marley's Ghost" is not "Marley".
QUALIFIERS = frozenset({"young", "younger", "old", "older", "elder", "late", "ghost", "spirit", "uncle", "aunt",
                        "cousin", "nephew", "niece", "brother", "sister", "father", "mother", "son", "daughter",
                        "wife", "husband", "widow", "baby", "grandfather", "grandmother"})
ROMAN_VALUES = {r: i for i, r in enumerate(("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi",
                                            "xii", "xiii", "xiv", "xv", "xvi"), start=1)} | {"xx": 20}
ROMAN = frozenset(ROMAN_VALUES)
TYPE_SYNONYMS = {
    "PERSON": "PERSON", "PER": "PERSON", "PEOPLE": "PERSON", "CHARACTER": "PERSON", "HUMAN": "PERSON",
    "ORGANIZATION": "ORGANIZATION", "ORGANISATION": "ORGANIZATION", "ORG": "ORGANIZATION",
    "COMPANY": "ORGANIZATION", "INSTITUTION": "ORGANIZATION",
    "GEO": "GEO", "LOCATION": "GEO", "LOC": "GEO", "PLACE": "GEO", "GPE": "GEO", "CITY": "GEO",
    "COUNTRY": "GEO", "ADDRESS": "GEO", "STREET": "GEO",
    "EVENT": "EVENT",
}
# Only a trailing possessive is folded ("Holmes's" -> "holmes"); inside a name it heads a different
# thing ("Tailor's Wife", "Marley's Ghost") and stays ("tailors wife").
_POSSESSIVE = re.compile(r"(?<=\w)['\u2019]s$|(?<=s)['\u2019]$", re.IGNORECASE)
_JOINERS = re.compile(r"['\u2019\u2018`\u00b4.]")
_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)
_ZERO_DECIMAL = re.compile(r"(?<=\d)\.0+(?![\d.])")  # "8.0" is "8", "2.00" is "2"; "1.0.2" stays
_CODE_WORD = re.compile(r"[^\w-]+", re.UNICODE)  # words for numbers: hyphenated codes stay one word
_MEASURE = re.compile(r"(\d+)([a-z]+)")
# Units written after a number, as one word with it ("8MP", "40in") or (UNIT_WORDS) as the next word
# ("8 Megapixel"), each folded to one spelling. Short ones that are often no unit ("in", "m") count
# only written together with the number.
UNIT_SUFFIXES = {
    "mp": "mp", "megapixel": "mp", "megapixels": "mp", "mpix": "mp", "gb": "gb", "gig": "gb", "gigabyte": "gb",
    "gigabytes": "gb", "gbs": "gb", "mb": "mb", "megabyte": "mb", "megabytes": "mb", "tb": "tb", "kb": "kb",
    "in": "in", "inch": "in", "inches": "in", "mm": "mm", "cm": "cm", "m": "m", "ft": "ft", "ghz": "ghz",
    "mhz": "mhz", "khz": "khz", "hz": "hz", "w": "w", "watt": "w", "watts": "w", "kw": "kw", "v": "v", "volt": "v",
    "volts": "v", "mah": "mah", "kg": "kg", "g": "g", "lb": "lb", "lbs": "lb", "oz": "oz", "ml": "ml", "x": "x",
    "p": "p", "k": "k", "fps": "fps", "rpm": "rpm",
}
UNIT_WORDS = {w: u for w, u in UNIT_SUFFIXES.items() if len(w) > 2 or w in ("mp", "gb", "mb", "tb", "mm", "cm")}
ORDINALS = frozenset({"st", "nd", "rd", "th"})


@dataclass(frozen=True)
class NameKeys:
    core: str
    tokens: tuple[str, ...]
    acronym: str | None
    numbers: tuple[str, ...]
    norm_type: str | None
    gender: str | None = None  # "m" / "f" from a gendered honorific of a person name
    title: str | None = None  # an occupational title of a person name (TITLES)


class NormalizeStats(BaseModel):
    entities_updated: int


def norm_type(t: str | None) -> str | None:
    """Canonical entity type: known synonyms folded, quotes and case removed; None when absent."""
    if t is None:
        return None
    key = t.strip().strip('"').strip().upper().replace(" ", "_")
    return TYPE_SYNONYMS.get(key, key) or None


def fold(name: str) -> list[str]:
    """NFKC, case fold, a trailing possessive dropped, joiners (' and .) closed up, other punctuation split."""
    return [t for t in _NON_WORD.sub(" ", _folded(name)).replace("_", " ").split() if t]


def _folded(name: str) -> str:
    """The text :func:`fold` and :func:`_number_words` split: NFKC, a trailing possessive dropped, case
    folded, zero decimals dropped ("8.0"), joiners closed up."""
    s = _POSSESSIVE.sub("", unicodedata.normalize("NFKC", name).strip()).casefold()
    return _JOINERS.sub("", _ZERO_DECIMAL.sub("", s))


def number_facts(name: str) -> tuple[str, ...]:
    """The numbers of a name as :func:`fold` spells them, in order, each written one way: the parts
    of a hyphenated word run together from its first part with a digit ("SDCZ6-4096-A11":
    ``sdcz64096a11``, "18-55mm": ``1855mm``; a word before the number stays out: "Apex-11", "F-16",
    "DSC-W55" give ``11``, ``16``, ``w55``); a number with a unit is the number and the unit's one
    spelling, whether written together or as the next word ("7.2MP", "7.2 Megapixel": ``72mp``;
    "40 Inch": ``40in``). Roman numerals are not numbers here (:func:`name_keys` adds them)."""
    words = _number_words(name)
    out: list[str] = []
    for i, word in enumerate(words):
        if not any(c.isdigit() for c in word):
            continue
        parts = [part for part in word.split("-") if part]
        while len(parts) > 1 and not any(c.isdigit() for c in parts[0]):
            parts.pop(0)
        code = "".join(parts)
        if (m := _MEASURE.fullmatch(code)) and m.group(2) in UNIT_SUFFIXES:
            code = m.group(1) + UNIT_SUFFIXES[m.group(2)]
        elif code.isdigit() and i + 1 < len(words) and words[i + 1] in UNIT_WORDS:
            code += UNIT_WORDS[words[i + 1]]
        out.append(code)
    return tuple(out)


MIN_CODE = 4  # a model code this long identifies a product ("dscw55"; not "s5", "3d")


@functools.lru_cache(maxsize=1 << 16)  # score asks for the same names' codes pair after pair
def capitalised(name: str) -> bool:
    """Every word of ``name`` that has a letter starts with a capital ("Bill Gates", "B. F. Skinner")."""
    words = [w for w in name.split() if any(c.isalpha() for c in w)]
    return bool(words) and all(next(c for c in w if c.isalpha()).isupper() for w in words)


def name_codes(name: str) -> frozenset[str]:
    """The model codes a name writes, each hyphenated word run together whole ("DSC-W55" and "DSCW55":
    ``dscw55``; "LN-T4061F": ``lnt4061f``): words of letters and digits, :data:`MIN_CODE`+ characters,
    that are no measure (:func:`is_code`). What two shops' titles of one product share."""
    codes = (w.replace("-", "") for w in _number_words(name) if any(c.isdigit() for c in w))
    return frozenset(c for c in codes if len(c) >= MIN_CODE and is_code(c))


def _number_words(name: str) -> list[str]:
    """A name folded as :func:`fold` folds it, split into words with their hyphens kept."""
    return _CODE_WORD.sub(" ", _folded(name)).replace("_", "-").split()


def is_code(number: str) -> bool:
    """A number of :func:`name_keys` with letters that is no measure or ordinal: a model code
    ("dmcfx777", "sd850is", "720sw")."""
    return not number.isdigit() and number not in ROMAN and number_kind(number) in ("code", "plain")


def number_kind(number: str) -> str:
    """What a number of :func:`name_keys` is, to tell which two can disagree: ``plain`` (digits, a
    roman numeral, digits and letters that are no unit: "2", "II", "6s", "720sw"), ``ordinal``,
    ``unit:<unit>`` (a measure), or ``code`` (a letter first: "w55", "sd1000", "lnt4061f")."""
    if number.isdigit() or number in ROMAN:
        return "plain"
    if m := _MEASURE.fullmatch(number):
        if m.group(2) in ORDINALS:
            return "ordinal"
        return f"unit:{m.group(2)}" if m.group(2) in UNIT_SUFFIXES.values() else "plain"
    return "code"


def singular(word: str) -> str:
    """English singular of a plural-looking word ("models" -> "model", "companies" -> "company"), not of a
    word in :data:`ENDS_IN_S` ("christmas" stays whole, so "Christmas" is a word of "Christmas Day")."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "us", "is")) or word in ENDS_IN_S:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    return word[:-1]


# Common singular words and names that end in a plural-looking "s": singular() would cut it, and the
# name whose last word it is would no longer share that word with the names that carry it inside
# ("christma" against "christmas day", which the cut then scores as a misspelling of it).
ENDS_IN_S = frozenset({
    "alias", "arkansas", "atlas", "bias", "canvas", "chaos", "christmas", "dallas", "douglas", "economics",
    "ethics", "honduras", "kansas", "lens", "lucas", "mathematics", "news", "nicholas", "physics", "politics",
    "series", "species", "texas", "thomas", "vegas", "xmas",
})


def name_keys(name: str, type_: str | None = None, strip_legal: bool = False) -> NameKeys:
    """Derive the comparison keys of one name (see module docstring). Pure and deterministic."""
    ntype = norm_type(type_)
    tokens = _written_out(name, fold(name))
    gender = title = None
    # Each rule can expose what another removes ("the Mr. Smith", "0 Companies" whose singular is a
    # legal suffix), so they run until nothing changes: the key of a key is the key.
    while True:
        before = list(tokens)
        if ntype == "PERSON":
            while len(tokens) > 1 and tokens[0] in HONORIFICS:
                word = tokens.pop(0)
                gender = gender or _gender(word)
                title = title or TITLES.get(word)
            while len(tokens) > 1 and tokens[-1] in {"jr", "sr"}:
                tokens.pop()
        else:
            if strip_legal and ntype in (None, "ORGANIZATION"):
                while len(tokens) > 1 and singular(tokens[-1]) in LEGAL_SUFFIXES:
                    tokens.pop()
            if tokens and not tokens[-1].isdigit():
                tokens[-1] = singular(tokens[-1])
        # For persons a leading "A." is an initial ("A. Berners"), not an article.
        while len(tokens) > 1 and tokens[0] in (("the",) if ntype == "PERSON" else ("the", "a", "an")):
            tokens.pop(0)
        if tokens == before:
            break
    numbers = number_facts(name) + tuple(t for i, t in enumerate(tokens) if i > 0 and t in ROMAN)
    content = [t for t in tokens if t not in STOP_WORDS or (ntype == "PERSON" and len(t) == 1)] or tokens
    acronym = None if ntype == "PERSON" else _acronym(name, content)
    return NameKeys(core=" ".join(tokens), tokens=tuple(content), acronym=acronym, numbers=numbers,
                    norm_type=ntype, gender=gender, title=title)


def _written_out(name: str, tokens: list[str]) -> list[str]:
    """``tokens`` with a first word :data:`LEADING_ABBREVIATIONS` holds written out, when ``name`` writes
    it with a full stop and more words follow."""
    out = list(tokens)
    if len(out) > 1 and out[0] in LEADING_ABBREVIATIONS and _LEADING_ABBREVIATION.match(name):
        out[0] = LEADING_ABBREVIATIONS[out[0]]
    return out


def _acronym(original: str, content: list[str]) -> str | None:
    """Initials of a multi-word name, or the (already singular) word of an acronym-looking name."""
    if len(content) >= 2:
        letters = [t[0] for t in content if t[0].isalpha()]
        return "".join(letters) if len(letters) >= 2 else None
    if len(content) == 1 and re.fullmatch(r"[A-Z][A-Z.&]{1,9}s?", original.strip().strip(".")):
        return content[0]
    return None


def normalize(db: Database, batch_size: int = 5000, strip_legal: bool = False,
              on_batch: Callable[[int], None] = lambda n: None, ids: list[str] | None = None) -> NormalizeStats:
    """Write keys on every Entity whose name or type changed since its keys were computed (of
    ``ids`` only, when given: an incremental resolve)."""
    updated = 0
    # the server writes a page while the next is read and keyed (kgres.db.overlap): pages are read by id
    # and stamp, so a write never changes what the next page holds
    with Overlap("kgres-normalize-write") as ahead:
        for page in _stale(db, batch_size, keys_version(strip_legal), ids):
            rows = _keyed(page, strip_legal)
            ahead.submit(db.write, "resolve_normalize_write", rows=rows)
            updated += len(rows)
            on_batch(len(rows))
    return NormalizeStats(entities_updated=updated)


def _keyed(page: list[dict], strip_legal: bool) -> list[dict]:
    """resolve_normalize_write's rows for a page of entities (id, name, type)."""
    rows = []
    for r in page:
        k = name_keys(r["name"], r["type"], strip_legal)
        # core and acronym keys are indexed: a name of thousands of characters gets a bounded key
        rows.append({"id": r["id"], "core": k.core[:MAX_INDEXED_CHARS],
                     "tokens": list(k.tokens), "acronym": k.acronym and k.acronym[:MAX_INDEXED_CHARS],
                     "numbers": list(k.numbers), "norm_type": k.norm_type, "gender": k.gender, "title": k.title,
                     "search": _search(k.tokens, plural_last=k.norm_type != "PERSON"), **_holder_words(k),
                     "stamp": _stamp(r["name"], r["type"], strip_legal)})
    return rows


def _holder_words(k: NameKeys) -> dict[str, str | None]:
    """A multi-word person's or untyped name's first and last word, indexed: the short forms it can be
    meant by ("Holmes", "J. Holmes", "Gates") are found from them (kgres.resolve.ambiguity.Ambiguity.lazy).
    An untyped name's first word is indexed in the singular, as its last word and a single word are keyed
    ("Gates Foundation": "gate", the key of "Gates")."""
    if k.norm_type not in ("PERSON", None) or len(k.tokens) < 2:
        return {"first": None, "last": None}
    first = k.tokens[0] if k.norm_type == "PERSON" else singular(k.tokens[0])
    return {"first": first[:MAX_INDEXED_CHARS], "last": k.tokens[-1][:MAX_INDEXED_CHARS]}


def keys_version(strip_legal: bool) -> str:
    """What a run's keys were computed under (the end of every key stamp it wrote): entities stamped
    with another need normalizing again."""
    return f"{int(strip_legal)}{KEY_VERSION}"


def _stale(db: Database, batch_size: int, legal: str, ids: list[str] | None) -> Iterator[list[dict]]:
    """Pages of entities whose keys are stale, in id order."""
    if ids is None:
        after = ""
        while page := db.read("resolve_normalize_page", _plain=True, after=after, limit=batch_size,
                              legal=legal)[0]["page"]:
            yield page
            after = page[-1]["id"]
        return
    for start in range(0, len(ids), batch_size):
        if page := db.read("resolve_normalize_ids", _plain=True, ids=ids[start:start + batch_size],
                           legal=legal)[0]["page"]:
            yield page


def _gender(honorific: str) -> str | None:
    """``key_gender`` of an honorific: "m", "f", or "f.mrs" / "f.miss" where it also says whether a
    woman is married."""
    if honorific in MALE_HONORIFICS:
        return "m"
    if honorific in MARRIED_HONORIFICS:
        return "f.mrs"
    if honorific in UNMARRIED_HONORIFICS:
        return "f.miss"
    return "f" if honorific in FEMALE_HONORIFICS else None


def _stamp(name: str, type_: str | None, strip_legal: bool) -> str:
    """What the keys were computed from; resolve_normalize_page builds the same string in Cypher.
    (Bump KEY_VERSION when the key rules change, so stored keys are recomputed.)"""
    return f"{name}|{type_ if type_ is not None else ''}|{keys_version(strip_legal)}"


KEY_VERSION = "v17"  # v10: key_first and key_last; v11: key_numbers as number_facts, "8.0" folded to "8";
# v12: key_first and key_last of untyped names too; v13: an untyped name's key_first in the singular;
# v14: mentions carry block_values (an increment after an upgrade re-keys, and fills them, first);
# v15: offices dropped from person names, a leading abbreviation written out; v16: key_gender "f.mrs" / "f.miss";
# v17: words that end in "s" but are singular (ENDS_IN_S) kept whole


def _search(tokens: tuple[str, ...], plural_last: bool = False) -> str:
    """Full-text query for blocking: every word of 3+ letters must match (typo-tolerant from 6, as
    score's typo rule: shorter near-spellings are different words, "cain"/"chain"), so
    a name finds longer names containing it ("holmes" finds "Sherlock Holmes") but not every entity
    sharing one common word; initials, short words and legal suffixes only rank ("j smith" finds
    "John Smith", "acme corp" finds "ACME Corporation").
    ``plural_last``: the last word is a key made singular (:func:`name_keys`), and the index holds
    names as written: a short one also matches its plural ("gate" finds "Bill Gates"; from six
    letters the typo tolerance does).
    Pairs are symmetric, so the shorter side's query is enough."""
    def term(t: str, last: bool = False) -> str:
        if len(t) >= 6:
            return f"{_lucene(t)}~1"
        if last and plural_last and len(t) >= 3:
            return "(" + " ".join(_lucene(w) for w in (t, plural(t))) + ")"
        return _lucene(t)

    def must(t: str) -> bool:  # legal suffixes are abbreviated too often to require ("Corp."/"Corporation")
        return len(t) >= 3 and t not in LEGAL_SUFFIXES

    last = len(tokens) - 1
    if not any(must(t) for t in tokens):
        return " ".join(term(t, i == last) for i, t in enumerate(tokens))
    return " ".join(("+" if must(t) else "") + term(t, i == last) for i, t in enumerate(tokens))


def plural(word: str) -> str:
    """The English plural :func:`singular` takes back to ``word`` ("gate" -> "gates", "box" -> "boxes",
    "city" -> "cities")."""
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("ch", "sh", "x")):
        return word + "es"
    return word + "s"


_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')


def _lucene(token: str) -> str:
    return _LUCENE_SPECIAL.sub(r"\\\1", token)
