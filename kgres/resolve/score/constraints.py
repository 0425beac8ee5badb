"""Cannot-links: named reasons two entities may never be one, whatever any evidence says.

A :class:`Constraint` is a name, a sentence, and a test over two names (:class:`Side`) that returns
the reason in words, or None. The match model's probabilities never override one; clustering
checks them between whole groups. Two lists, declared once:

- :data:`MODEL_CONSTRAINTS`, what the match model honours;
- :data:`RULE_CONSTRAINTS`, the rule scorer's (``--strategy rules``), kept as they were for
  comparison: stricter on numbers and surnames, since the rule table has no way to weigh a near miss.

Pair-level facts (a recorded ``NOT_SAME_AS``, a non-synonym relation between the two) are checked by
:func:`pair_conflict` after the name constraints.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rapidfuzz.distance import DamerauLevenshtein, JaroWinkler

from kgres.resolve.normalize import QUALIFIERS
from kgres.resolve.score.identifiers import identifier_conflict
from kgres.resolve.score.names import (given_names_conflict, numbers_clash, predicate_key, qualifiers,
                                       surnames_conflict, unaccent)
from kgres.resolve.score.sides import Side

# Predicates that state identity or kind ("X is Y", "X aka Y"): a relation with one of them between
# two entities does not keep them apart.
SYNONYM_PREDICATES = frozenset({"same_as", "alias_of", "also_known_as", "aka", "known_as", "synonym_of",
                                "abbreviation_of", "abbreviates", "acronym_of", "short_for", "renamed_to",
                                "formerly_known_as", "related_to",
                                "be", "is", "are", "was", "were", "been", "be_supposed_to_be", "become",
                                "becomes", "be_also", "be_call", "be_called", "be_know_as", "be_known_as"})


def keeps_apart(predicate: str) -> bool:
    """A relation by ``predicate`` between two entities is a cannot-link (not a synonym's)."""
    return predicate_key(predicate) not in SYNONYM_PREDICATES


@dataclass(frozen=True)
class Constraint:
    """A named cannot-link test over two names: the reason they are two things, or None."""

    name: str
    description: str
    test: Callable[[Side, Side], str | None]
    persons: bool = False  # only two persons can be in conflict by it (name_conflict skips other pairs)

    def __call__(self, a: Side, b: Side) -> str | None:
        return self.test(a, b)


def _persons(a: Side, b: Side) -> bool:
    return a.type == "PERSON" and b.type == "PERSON"


def _numbers_differ(a: Side, b: Side) -> str | None:
    if a.numbers != b.numbers and (a.numbers or b.numbers):
        return f"numbers differ: {' '.join(a.numbers) or '-'} vs {' '.join(b.numbers) or '-'}"
    return None


def _numbers_conflict(a: Side, b: Side) -> str | None:
    if not (a.numbers and b.numbers) or a.numbers == b.numbers:
        return None
    if numbers_clash(a, b):
        return f"numbers differ: {' '.join(a.numbers)} vs {' '.join(b.numbers)}"
    return None


def _gender(a: Side, b: Side) -> str | None:
    """Mr. / Mrs.; Mrs. / Miss (``key_gender`` "f.mrs" / "f.miss"); "Ms." (``f``) goes with either."""
    if not (_persons(a, b) and a.gender and b.gender) or a.gender == b.gender:
        return None
    (x, _, married_x), (y, _, married_y) = a.gender.partition("."), b.gender.partition(".")
    if x != y:
        return f"honorifics differ in gender: {x} vs {y}"
    if married_x and married_y:
        return f"honorifics differ in marital status: {married_x} vs {married_y}"
    return None


def _title(a: Side, b: Side) -> str | None:
    if _persons(a, b) and a.title and b.title and a.title != b.title:
        return f"titles differ: {a.title} vs {b.title}"
    return None


def _qualifiers(a: Side, b: Side) -> str | None:
    if not _persons(a, b):
        return None
    if QUALIFIERS.isdisjoint(a.tokens) and QUALIFIERS.isdisjoint(b.tokens):
        return None  # the common case, decided without building sets
    qa, qb = qualifiers(a.tokens), qualifiers(b.tokens)
    if qa != qb and not _records_agree(a, b):
        return f"different qualifiers: {' '.join(sorted(qa)) or '-'} vs {' '.join(sorted(qb)) or '-'}"
    return None


def _given_names_strict(a: Side, b: Side) -> str | None:
    if _persons(a, b) and given_names_conflict(a.tokens, b.tokens):
        return f"different given names: {a.tokens[0]} vs {b.tokens[0]}"
    return None


# Records that agree on this many attributes (a date of birth and a postcode, say) are not told
# apart by their names alone: a register's names carry typos, swaps and maiden names. The match
# model weighs such a pair instead.
RECORD_AGREEMENTS = 2


def _records_agree(a: Side, b: Side) -> bool:
    """Two attributes agree, or one does and a date or a code of another nearly does (the same email,
    a birth date a month off: "Reuben James" / "Rubnen James")."""
    exact = a.agreements(b)
    return exact >= RECORD_AGREEMENTS or (exact >= 1 and exact + a.near_agreements(b) >= RECORD_AGREEMENTS)


def _reordered(a: Side, b: Side) -> bool:
    """The same words in another order, each equal or a spelling of the other (:func:`_spelling_of`:
    a record that swapped given name and surname, with a typo: "Hannagan Mikhayla" / "Mikhvyla
    Hannagan", "Bailey Freddie" / "Freddie Baiyel"). Words that pair off in place are not reordered:
    "Sherlock Holmes" / "Shylock Holmes" is for the given-name rule to judge."""
    if len(a.tokens) != len(b.tokens) or len(a.tokens) < 2 or _spelt_as(a.tokens[-1], b.tokens[-1]):
        return False
    rest = [unaccent(t) for t in b.tokens]
    for t in (unaccent(x) for x in a.tokens):
        match = next((u for u in rest if u == t or _spelling_of(t, u)), None)
        if match is None:
            return False
        rest.remove(match)
    return True


def _spelt_as(x: str, y: str) -> bool:
    """One word, or a spelling of it (:func:`_spelling_of`), once accents go."""
    x, y = unaccent(x), unaccent(y)
    return x == y or _spelling_of(x, y)


def _given_names(a: Side, b: Side) -> str | None:
    """As the strict rule, but a given name that starts the other ("Jon" / "Jonathan") is its short
    form, the same words reordered are one name, and records that agree on two attributes are left
    to the model."""
    if not (_persons(a, b) and given_names_conflict(a.tokens, b.tokens)) or _reordered(a, b) or _records_agree(a, b):
        return None
    x, y = unaccent(a.tokens[0]), unaccent(b.tokens[0])
    if len(x) >= 3 and len(y) >= 3 and (x.startswith(y) or y.startswith(x)):
        return None
    return f"different given names: {a.tokens[0]} vs {b.tokens[0]}"


def _surnames_strict(a: Side, b: Side) -> str | None:
    if _persons(a, b) and surnames_conflict(a.tokens, b.tokens):
        return f"different surnames: {a.tokens[-1]} vs {b.tokens[-1]}"
    return None


def _surnames(a: Side, b: Side) -> str | None:
    """Two full names whose surnames are different words, not spellings of one ("Smith" / "Smyth" is
    a spelling, "Lovelace" / "Turing" is not), unless the two names are the same words in another
    order, or records that agree on two attributes (left to the model)."""
    if not (_persons(a, b) and len(a.tokens) >= 2 and len(b.tokens) >= 2) or a.tokens[-1] == b.tokens[-1]:
        return None
    if _reordered(a, b) or _records_agree(a, b):
        return None
    if _spelling_of(unaccent(a.tokens[-1]), unaccent(b.tokens[-1])):
        return None
    return f"different surnames: {a.tokens[-1]} vs {b.tokens[-1]}"


def _spelling_of(x: str, y: str) -> bool:
    """Two words that can be one surname typed twice: close by Jaro-Winkler, or (same first letter,
    four letters or more) two keystrokes apart in five ("Alan" / "Allen") or the same letters
    shuffled ("Holmes" / "Hsmel"). The model weighs how alike the names are; this only rules out
    what no typist makes of one name ("Lovelace" / "Turing")."""
    if JaroWinkler.similarity(x, y) >= 0.85:
        return True
    if x[:1] != y[:1] or min(len(x), len(y)) < 4:
        return False
    if DamerauLevenshtein.normalized_similarity(x, y) >= 0.6:
        return True
    shared = sum((Counter(x) & Counter(y)).values())
    return shared / max(len(x), len(y)) >= 0.8


# Words that make a name a derivative of the thing the rest of it names: a karaoke or instrumental
# track is not the recording, an erratum is not the paper. Across the four magellan-dev sets' labelled
# pairs (every split), a name with one of these the other lacks was a match 0 times in 32.
DERIVATIVE_WORDS = frozenset({"karaoke", "instrumental", "erratum", "corrigendum"})
NEGATION = "non"  # "non" before a word both names carry: Non-Organic Ale / Organic Ale, Non-Hodgkin / Hodgkin


def _derivative(a: Side, b: Side) -> str | None:
    """Names that share words, one marking itself a derivative of what the other names (a karaoke
    version, an erratum) or negating a word of the other's ("non organic")."""
    if NEGATION not in a.tokens and NEGATION not in b.tokens and DERIVATIVE_WORDS.isdisjoint(a.tokens) \
            and DERIVATIVE_WORDS.isdisjoint(b.tokens):
        return None  # the common case, decided without building sets
    sa, sb = set(a.tokens), set(b.tokens)
    if not (sa & sb - {NEGATION}):
        return None
    marked = sorted((sa ^ sb) & DERIVATIVE_WORDS)
    if marked:
        return f"one is a derivative of the other: '{marked[0]}'"
    for x, y in ((a, b), (b, a)):
        if NEGATION not in y.tokens:
            negated = next((u for t, u in zip(x.tokens, x.tokens[1:]) if t == NEGATION and u in y.tokens), None)
            if negated:
                return f"one negates a word of the other: '{NEGATION} {negated}'"
    return None


def _identifiers(a: Side, b: Side) -> str | None:
    if not (a.identifiers and b.identifiers):
        return None
    conflict = identifier_conflict(a.identifiers, b.identifiers)
    return f"identifiers differ: {conflict}" if conflict else None


def _types(a: Side, b: Side) -> str | None:
    if a.type and b.type and a.type != b.type and a.core != b.core and not (a.identifiers & b.identifiers):
        return f"types differ: {a.type} vs {b.type}"
    return None


_NUMBERS = "numbers", ("each name carries a number the other does not, of one kind (iPhone 7 / iPhone 8, "
                       "SD1000 / SD800, 40in / 46in)")
_GENDER = "gender", ("persons whose honorifics differ in gender (Mr. / Mrs. Fezziwig) or in marital status (Mrs. "
                     "Fezziwig / Miss Fezziwig)")
_TITLE = "title", "persons with different occupational titles (Colonel / Professor Moriarty)"
_QUALIFIERS = "qualifiers", "persons qualified differently (Young Scrooge / Scrooge, Marley's Ghost / Marley)"
_GIVEN = "given_names", "one surname, different given names (Sherlock / Mycroft Holmes)"
_SURNAMES = "surnames", "full names with different surnames (Ada Lovelace / Ada Turing)"
_DERIVATIVE = "derivative", ("one name marks a derivative of the other or negates one of its words (Bad Blood / "
                             "Bad Blood (Karaoke Version), Organic Ale / Non-Organic Ale)")
_IDENTIFIERS = "identifiers", "different values of one identifier (orcid, wikidata, isbn...)"
_TYPES = "types", "different types under different names (Baker Street GEO / Baker Street Irregulars ORG)"

MODEL_CONSTRAINTS: tuple[Constraint, ...] = (
    Constraint(*_NUMBERS, _numbers_conflict), Constraint(*_GENDER, _gender, persons=True),
    Constraint(*_TITLE, _title, persons=True), Constraint(*_QUALIFIERS, _qualifiers, persons=True),
    Constraint(*_GIVEN, _given_names, persons=True), Constraint(*_SURNAMES, _surnames, persons=True),
    Constraint(*_DERIVATIVE, _derivative), Constraint(*_IDENTIFIERS, _identifiers), Constraint(*_TYPES, _types))
RULE_CONSTRAINTS: tuple[Constraint, ...] = (
    Constraint(_NUMBERS[0], "names whose numbers differ at all (iPhone / iPhone 7)", _numbers_differ),
    Constraint(*_GENDER, _gender, persons=True), Constraint(*_QUALIFIERS, _qualifiers, persons=True),
    Constraint(*_GIVEN, _given_names_strict, persons=True),
    Constraint(_SURNAMES[0], "full names whose surnames differ beyond a typo of six letters or more",
               _surnames_strict, persons=True),
    Constraint(*_IDENTIFIERS, _identifiers), Constraint(*_TYPES, _types), Constraint(*_TITLE, _title, persons=True))
PAIR_CONSTRAINTS = (("not_same_as", "a recorded NOT_SAME_AS (a person or the LLM judge said: different)"),
                    ("related", "a non-synonym relation between the two (merging would make a self-loop)"))


def name_conflict(a: Side, b: Side, constraints: Sequence[Constraint] = MODEL_CONSTRAINTS) -> str | None:
    """The first reason two names are two things, or None (one name each: see :func:`conflict`)."""
    persons = a.type == "PERSON" and b.type == "PERSON"
    for c in constraints:
        # 9 tests for each pair of names of every scored pair (100k generated mentions: 8.8M calls)
        if (persons or not c.persons) and (reason := c.test(a, b)) is not None:
            return reason
    return None


def pair_conflict(not_same_as: bool, predicates_between: Sequence[str]) -> str | None:
    """The pair-level cannot-links: a recorded NOT_SAME_AS, a non-synonym relation between the two."""
    if not_same_as:
        return "recorded NOT_SAME_AS"
    others = sorted({p for p in predicates_between if keeps_apart(p)})
    if others:
        return f"related by {', '.join(others)}: merging would create a self-loop"
    return None


def conflict(a: Side, b: Side, not_same_as: bool = False, predicates_between: Sequence[str] = (),
             constraints: Sequence[Constraint] = MODEL_CONSTRAINTS) -> str | None:
    """Why two entities may never be one: any pair of their names (a merged entity carries several)
    in conflict, or a pair-level fact; None when nothing forbids it."""
    for x in a.names():
        for y in b.names():
            if (reason := name_conflict(x, y, constraints)) is not None:
                return reason
    return pair_conflict(not_same_as, predicates_between)


def names() -> list[str]:
    """Every constraint name, model's first (for docs, ``explain`` and tests)."""
    return [c.name for c in MODEL_CONSTRAINTS] + [n for n, _ in PAIR_CONSTRAINTS]
