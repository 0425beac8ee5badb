"""How two names compare: the name rules shared by the rule scorer and the match model's ``name``
comparison (same key, acronym, person name parts and initials, typo variants, word subsets), with
the word-level tests behind them. Pure functions of name keys (:mod:`kgres.resolve.normalize`)."""

from __future__ import annotations

import functools
import itertools
import unicodedata
from typing import TYPE_CHECKING

from nicknames import name_triplets
from rapidfuzz.distance import JaroWinkler, Levenshtein
from rapidfuzz.fuzz import token_set_ratio

from kgres.resolve.normalize import QUALIFIERS, ROMAN_VALUES, STOP_WORDS, name_codes, number_kind

if TYPE_CHECKING:
    from kgres.resolve.score.sides import Side


def jaccard(x: frozenset[str], y: frozenset[str]) -> float:
    union = x | y
    return len(x & y) / len(union) if union else 0.0


def predicate_key(p: str) -> str:
    return p.strip().lower().replace(" ", "_").replace("-", "_")


def name_similarity(a: Side, b: Side) -> tuple[float, str]:
    if a.core and a.core == b.core:
        return 1.0, "same_key"
    if acronym_of(a, b) or acronym_of(b, a):
        return 0.92, "acronym"
    sa, sb = set(a.tokens), set(b.tokens)
    subset = bool(sa and sb) and (sa < sb or sb < sa)
    if a.type == "PERSON" and b.type == "PERSON":
        if subset and max(len(sa), len(sb)) <= 3 and name_part(a.tokens, b.tokens) and plain(a.core, b.core):
            return 0.88, "person_subset"
        if initials_match(a.tokens, b.tokens):
            return 0.88, "person_initials"
    fuzzy = 0.5 * token_set_ratio(a.core, b.core) / 100 + 0.5 * JaroWinkler.similarity(a.core, b.core)
    if not (sa & sb) and fuzzy < 0.85:
        return fuzzy, "disjoint"
    if subset:
        # "Baker Street" in "Baker Street Irregulars", "The Dinner" in "The Dinner by the Fire": a word
        # subset is a reason to look, never enough to merge on the name alone.
        return min(fuzzy, 0.75), "subset"
    if not typo_variant(a.core.split(), b.core.split()):
        # "a healthy diet" / "a healthy meal": close strings, different words. Review at most.
        return min(fuzzy, 0.75), "fuzzy_words_differ"
    return fuzzy, "typo"


def acronym_of(long_: Side, short: Side) -> bool:
    """``short`` is written as an acronym ("LLMs", "AUR": its own acronym key) of multi-word ``long_``.
    A lowercase word is not an acronym: "cf" is not "a comfort food"."""
    return bool(long_.acronym and len(long_.tokens) >= 2 and len(short.tokens) == 1
                and short.acronym == short.core == long_.acronym)


def typo_variant(a: list[str], b: list[str]) -> bool:
    """Same words in the same order, each equal or a misspelling of the other ("sherlok"/"sherlock").
    Words under six letters must match exactly: "cain"/"chain" and "earth"/"hearth" are different words.
    A misspelling keeps its first letter (unless a letter there is non-ASCII, as in a transliterated
    "Ødegaard"/"Odegaard"): "winner"/"dinner" are different words."""
    if len(a) != len(b):
        return False
    return all(x == y or unaccent(x) == unaccent(y) or misspelt(unaccent(x), unaccent(y)) for x, y in zip(a, b))


def misspelt(x: str, y: str) -> bool:
    same_start = x[:1] == y[:1] or not (x[:1].isascii() and y[:1].isascii())
    return same_start and min(len(x), len(y)) >= 6 and Levenshtein.normalized_similarity(x, y) >= 0.8


def same_name_tokens(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Two multi-word names that can be one entity's spellings ("ada shannon" / "ada shnnon"), or one
    name with its given name as its nickname ("bob cratchit" / "robert cratchit")."""
    return typo_variant(list(a), list(b)) or (len(a) == len(b) >= 2 and nickname_pair(unaccent(a[0]), unaccent(b[0]))
                                              and typo_variant(list(a[1:]), list(b[1:])))


@functools.lru_cache(maxsize=1 << 16)
def unaccent(word: str) -> str:
    """Accents folded ("josé" -> "jose"), so transliterated and accented spellings compare equal.
    Cached: scoring asks for the same few thousand words millions of times."""
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def plain(*cores: str) -> bool:
    """No stop word in any core: "ragged men and boys" is a group of people, not a person's name."""
    return not any(w in STOP_WORDS for c in cores for w in c.split())


def name_part(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """The shorter person name is the longer one's given name(s) or surname, in place."""
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return tuple(long_[:len(short)]) == short or tuple(long_[-len(short):]) == short


def person_spelling(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Two person names of two or three words each, as many words each, whose words pair off in some
    order, each pair equal, an initial and its name, one name typed twice (Jaro-Winkler >= 0.9,
    the bar under which :func:`given_names_conflict` calls two given names different) or a name and
    its nickname: "Ran Cole" / "Ryan Cole", "Eli Rowe" / "Eli Roew", "Rowe Caleb" / "Caleb Rowe",
    "Bob Cratchit" / "Robert Cratchit". Registers and stories carry such names;
    words under six letters are too short for :func:`typo_variant`."""
    if len(a) != len(b) or not 2 <= len(a) <= 3 or a == b:
        return False
    xs = [unaccent(t) for t in a]
    return any(all(_one_word(x, y) for x, y in zip(xs, order))
               for order in itertools.permutations([unaccent(t) for t in b]))


def _one_word(x: str, y: str) -> bool:
    return x == y or (len(x) == 1 and y.startswith(x)) or (len(y) == 1 and x.startswith(y)) or \
        JaroWinkler.similarity(x, y) >= 0.9 or nickname_pair(x, y)


def qualifiers(tokens: tuple[str, ...]) -> frozenset[str]:
    return frozenset(t for t in tokens if t in QUALIFIERS)


def initials_match(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Same surname, and each given name of the shorter is the other's or its initial ("j" ~ "john")."""
    if len(a) < 2 or len(b) < 2 or a[-1] != b[-1] or len(a) != len(b):
        return False
    return all(x == y or (len(x) == 1 and y.startswith(x)) or (len(y) == 1 and x.startswith(y))
               for x, y in zip(a[:-1], b[:-1]))


def surnames_conflict(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Two full names (2+ words each) whose surnames differ, and not by a typo: different people."""
    if len(a) < 2 or len(b) < 2 or a[-1] == b[-1]:
        return False
    return not typo_variant([a[-1]], [b[-1]])


def given_names_conflict(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Same surname, different given names that are neither initials, nor spelling variants, nor a
    name and its nickname (:func:`nickname_pair`: "Bob Cratchit" / "Robert Cratchit")."""
    if len(a) < 2 or len(b) < 2 or a[-1] != b[-1]:
        return False
    x, y = unaccent(a[0]), unaccent(b[0])
    if x == y or (len(x) == 1 and y.startswith(x)) or (len(y) == 1 and x.startswith(y)):
        return False
    return JaroWinkler.similarity(x, y) < 0.9 and not nickname_pair(x, y)


def nickname_pair(x: str, y: str) -> bool:
    """One given name is the other's nickname (lower case): "bob" / "robert", "bill" / "william",
    "liz" / "elizabeth" (:func:`nicknames`)."""
    return y in nicknames().get(x, ())


@functools.cache
def nicknames() -> dict[str, frozenset[str]]:
    """Each given name (lower case) and the names it is a nickname of or has as its nickname, both
    ways, from the ``nicknames`` package's hand-curated table of English names. The table comes from
    genealogy and also links names that share no letters with their pair: "robert" / "bill", "john" /
    "ivan", "billy" / "fred" (a nickname passed from one name to another, a name in another language).
    In a graph those are two people more often than one ("Bill Gates" / "Robert Gates"), so a pair is
    kept only when the two start with one letter or share two letters in a row ("bob" / "robert",
    "ted" / "edward", "jack" / "john"). That drops 143 of the table's 2,691 links, a few true ones
    among them ("peggy" / "margaret")."""
    table: dict[str, set[str]] = {}
    for t in name_triplets():
        x, y = t.name1, t.name2
        if x[0] == y[0] or _bigrams(x) & _bigrams(y):
            table.setdefault(x, set()).add(y)
            table.setdefault(y, set()).add(x)
    return {name: frozenset(others) for name, others in table.items()}


def _bigrams(word: str) -> set[str]:
    return {word[i:i + 2] for i in range(len(word) - 1)}


def numbers_apart(a: Side, b: Side) -> tuple[list[str], list[str]]:
    """The numbers of each name (``key_numbers``) the other name does not carry (:func:`_carries`)."""
    return ([x for x in a.numbers if not _carries(x, a.core, b.numbers, b.core)],
            [y for y in b.numbers if not _carries(y, b.core, a.numbers, a.core)])


def numbers_clash(a: Side, b: Side) -> bool:
    """Each name carries a number the other does not, and two of those are of one kind
    (:func:`~kgres.resolve.normalize.number_kind`): "iPhone 7" / "iPhone 8", "iPhone 6" / "iPhone 6s",
    "SD1000" / "SD800", "40in" / "46in". Numbers of different kinds say different things: "Nikon D40
    6.1MP" / "Nikon D40 f/3.5-5.6G" (megapixels, an aperture), "Garmin nuvi 660 4.3-Inch" / "Garmin
    nuvi 660 010-00538-00" (a screen, a part number) are one product each."""
    mine, theirs = numbers_apart(a, b)
    return bool(mine and theirs and {number_kind(x) for x in mine} & {number_kind(y) for y in theirs})


def shares_code(a: Side, b: Side) -> bool:
    """Both names write one model code (:func:`~kgres.resolve.normalize.name_codes`) and carry no
    numbers of one kind that differ (:func:`numbers_clash`): two shops' titles of one product
    ("Panasonic Lumix DMC-FX534 7.2MP Digital Camera White" / "Panasonic DMCFX534 Digital Camera 7.2
    Megapixel 938-49971-61") share little else but that code."""
    if not (a.numbers and b.numbers):  # a code has digits: most pairs end here
        return False
    return bool(name_codes(a.name) & name_codes(b.name)) and not numbers_clash(a, b)


def _carries(number: str, own_core: str, numbers: tuple[str, ...], core: str) -> bool:
    """Whether a name with these ``numbers`` and key ``core`` carries ``number`` of a name keyed
    ``own_core``: as one of its numbers, as the same value (a measure and its bare number, "II" and
    "2"), or spelt in its key with the words run together, ending where a word ends ("DSC W55" carries
    ``dscw55``, "SD850 IS" carries ``sd850is``; "WRT54GL" does not carry ``wrt54g``); and a number
    its own name spells on with the letters the other's goes on with ("SD850IS" carries "SD850 IS"'s
    ``sd850``; "iPhone 6s" does not carry "iPhone 6"'s ``6``)."""
    if number in numbers:
        return True
    value = _value(number)
    if value is not None and any(_value(n) == value for n in numbers):
        return True
    if number in ROMAN_VALUES:
        return False
    return _spells(core, number) or any(
        n.startswith(number) and n[len(number):].isalpha() and _spells(own_core, n) for n in numbers)


def _spells(core: str, number: str) -> bool:
    """``number`` is in ``core`` with its words run together, ending where a word ends and not
    right after a digit."""
    text, ends = _run_together(core)
    start = text.find(number)
    while start >= 0:
        if start + len(number) in ends and (start == 0 or not text[start - 1].isdigit()):
            return True
        start = text.find(number, start + 1)
    return False


def _value(number: str) -> str | None:
    """The digits of a plain number, a roman numeral's or a measure's (``40in``: 40), else None."""
    if number in ROMAN_VALUES:
        return str(ROMAN_VALUES[number])
    kind = number_kind(number)
    if kind == "plain":
        return number
    return number.rstrip("abcdefghijklmnopqrstuvwxyz") if kind.startswith("unit:") else None


@functools.lru_cache(maxsize=1 << 16)
def _run_together(core: str) -> tuple[str, frozenset[int]]:
    """A name key's words run together, and where each word ends in that string."""
    text, ends = "", set()
    for word in core.split():
        text += word
        ends.add(len(text))
    return text, frozenset(ends)
