"""``normalize``: name keys as pure functions (known answers, and properties with hypothesis), and the
stage on the real database (keys written, only changed entities recomputed)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgres import ingest
from kgres.resolve.normalize import fold, name_codes, name_keys, norm_type, normalize, number_kind, singular
from tests.graphs import write_jsonl


@pytest.mark.parametrize("name, type_, core, gender", [
    ("Mr. Sherlock Holmes", "PERSON", "sherlock holmes", "m"),
    ("Mrs. Fezziwig", "person", "fezziwig", "f.mrs"),
    ("Miss Fezziwigs", "PERSON", "fezziwigs", "f.miss"),
    ("Ms. Fezziwig", "PERSON", "fezziwig", "f"),  # says nothing of marriage
    ("Dr. Watson", "CHARACTER", "watson", None),
    ("Holmes's", "PERSON", "holmes", None),
    ("Marley's Ghost", "PERSON", "marleys ghost", None),
    ("The Tailor's Wife", "PERSON", "tailors wife", None),
    ("Large Language Models", "CONCEPT", "large language model", None),
    ("Ｃａｆé  Royal", "ORGANIZATION", "café royal", None),
    ("J.R.R. Tolkien", "PERSON", "jrr tolkien", None),
    ("Mr", "PERSON", "mr", None),  # a bare honorific is kept as the name
])
def test_core_keys(name, type_, core, gender):
    k = name_keys(name, type_)
    assert k.core == core and k.gender == gender


@pytest.mark.parametrize("a, b, type_", [
    ("Sen. Hillary Clinton", "Senator Hillary Clinton", None),  # an open-IE phrase, untyped
    ("Sen. Hillary Clinton", "Hillary Clinton", "PERSON"),  # an office is dropped from a person's name
    ("Governor Bush", "Bush", "PERSON"),
    ("Ft. Myers", "Fort Myers", "GEO"),
    ("St. Louis", "Saint Louis", None),
    ("Mt. Everest", "Mount Everest", None),
])
def test_abbreviations_and_offices_share_a_key(a, b, type_):
    assert name_keys(a, type_).core == name_keys(b, type_).core


def test_abbreviations_are_written_out_only_where_they_cannot_be_a_word_of_their_own():
    """A leading "St", "Mt", "Ft" or "Sen" is written out only with its full stop and before another
    word: "ST" may be an acronym, "St." alone a bare abbreviation, and a street's "St." comes last."""
    assert name_keys("ST Microelectronics", "ORGANIZATION").core == "st microelectronic"
    assert name_keys("St.", None).core == "st"
    assert name_keys("Main St.", "GEO").core == "main st"
    assert name_keys("Ft Myers", "GEO").core == "ft myer"
    assert name_keys("ACM SIGMOD Intl. Conf.", None).core == "acm sigmod intl conf"  # only a first word
    assert name_keys("Congressman John Lewis", "PERSON").gender == "m"
    assert name_keys("Senator Clinton", "PERSON").title is None  # an office is no title: it changes hands


def test_acronym_keys_meet_from_both_sides():
    assert name_keys("Large Language Models", "CONCEPT").acronym == "llm"
    assert name_keys("LLMs", "CONCEPT").acronym == "llm" == name_keys("LLMs", "CONCEPT").core
    assert name_keys("llms", "CONCEPT").acronym is None  # a lowercase word is not written as an acronym
    assert name_keys("Ada Lovelace", "PERSON").acronym is None  # persons have initials, not acronyms


def test_numbers_and_roman_numerals_are_kept_apart():
    assert name_keys("iPhone 7", "PRODUCT").numbers == ("7",)
    assert name_keys("Apple II", "PRODUCT").numbers == ("ii",)
    assert name_keys("I, Robot", "WORK").numbers == ()  # a leading "I" is a word, not a numeral


def test_a_number_is_spelt_one_way():
    """A part number is one number however it is hyphenated, a measure keeps one spelling of its unit;
    a model code is one code however it is written."""
    assert name_keys("Sony DSC-W55 7.2MP", "PRODUCT").numbers == ("w55", "72mp")  # "DSC-" is a word
    assert name_keys("Apex-11", "PRODUCT").numbers == ("11",)
    assert name_keys("SanDisk SDCZ6-4096-A11", "PRODUCT").numbers == ("sdcz64096a11",)
    assert name_keys("Sony DSCW55 7.2 Megapixel", "PRODUCT").numbers == ("dscw55", "72mp")
    assert name_keys("Samsung 40 Inch 1080p TV", "PRODUCT").numbers == ("40in", "1080p")
    assert name_keys("Photoshop Elements 6.0", "PRODUCT").numbers == ("6",)
    assert name_keys("Windows 10 in 2015", "PRODUCT").numbers == ("10", "2015")  # "in" alone is no unit
    assert [number_kind(n) for n in ("2015", "ii", "6s", "72mp", "21st", "dscw55")] == [
        "plain", "plain", "plain", "unit:mp", "ordinal", "code"]
    assert name_codes("Sony DSC-W55 7.2MP") == name_codes("Sony DSCW55 7.2 Megapixel") == {"dscw55"}
    assert name_codes("Samsung Galaxy S5 10MP") == set()  # too short to identify; a measure is no code


def test_legal_suffixes_only_when_asked():
    assert name_keys("Acme Corp.", "ORGANIZATION").core == "acme corp"
    assert name_keys("Acme Corp.", "ORGANIZATION", strip_legal=True).core == "acme"
    assert name_keys("ACME Corporation", "ORGANIZATION", strip_legal=True).core == "acme"


def test_types_and_singulars():
    assert [norm_type(t) for t in ("per", "Organisation", '"geo"', "  ", None, "Spaceship")] == \
        ["PERSON", "ORGANIZATION", "GEO", None, None, "SPACESHIP"]
    assert [singular(w) for w in ("models", "companies", "boxes", "glasses", "bus", "analysis", "status")] == \
        ["model", "company", "box", "glass", "bus", "analysis", "status"]


def test_a_singular_word_that_ends_in_s_keeps_it_so_the_names_carrying_it_share_it():
    """"Christmas" keyed "christma" was no word of "Christmas Day" and scored as a misspelling of it
    (carol-nano chained "Christmas", "Christmas Day" and "Christmas Eve" into one entity)."""
    from kgres.resolve.score.levels import TYPO, name_level
    from kgres.resolve.score.sides import Side

    assert [singular(w) for w in ("christmas", "texas", "news", "series", "ideas", "dramas")] == \
        ["christmas", "texas", "news", "series", "idea", "drama"]
    assert name_keys("CHRISTMAS", "EVENT").core == "christmas"
    assert name_keys("Dallas", "LOCATION").tokens == ("dallas",)

    def side(name: str) -> Side:
        k = name_keys(name, "EVENT")
        return Side.from_row({"id": name, "name": name, "key_core": k.core, "key_tokens": list(k.tokens),
                              "key_acronym": k.acronym, "key_numbers": list(k.numbers), "norm_type": k.norm_type})

    assert name_level(side("CHRISTMAS DAY"), side("CHRISTMAS")) != TYPO
    assert set(side("CHRISTMAS").tokens) < set(side("CHRISTMAS DAY").tokens)


# Words that normalisation treats specially, joined by what extractors put between them, beside free text.
WORDS = ["the", "a", "of", "Mr.", "dr", "jr", "Holmes's", "glasses", "companies", "II", "7", "Corp.", "young",
         "A.", "LLMs", "St.", "Sen", "senator"]
names = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).flatmap(
        lambda ws: st.sampled_from([" ", ", ", "-", ". "]).map(lambda sep: sep.join(ws))))
types = st.sampled_from(["PERSON", "PERSON", "ORGANIZATION", None, "CONCEPT", "the"])


@given(name=names, type_=types, strip=st.booleans())
@settings(max_examples=1000, deadline=None)
def test_the_key_of_a_key_is_the_key(name, type_, strip):
    """Normalisation is idempotent: a core key normalises to itself (so stored keys are stable)."""
    k = name_keys(name, type_, strip)
    again = name_keys(k.core, type_, strip)
    assert again.core == k.core
    assert fold(" ".join(fold(name))) == fold(name)


@given(name=names, type_=types)
@settings(max_examples=200, deadline=None)
def test_keys_are_deterministic_and_well_formed(name, type_):
    k = name_keys(name, type_)
    assert k == name_keys(name, type_)
    assert k.core == k.core.strip() and "  " not in k.core
    assert sorted(c for n in k.numbers for c in n if c.isdigit()) == sorted(c for c in k.core if c.isdigit())
    assert k.gender in (None, "m", "f", "f.mrs", "f.miss") and (k.gender is None or k.norm_type == "PERSON")


def test_stage_writes_keys_and_recomputes_only_what_changed(db, tmp_path):
    path = write_jsonl(tmp_path / "g.jsonl", [
        {"kind": "mention", "id": "m1", "name": "Mr. Sherlock Holmes", "type": "PERSON"},
        {"kind": "mention", "id": "m2", "name": "LLMs", "type": "CONCEPT"}])
    ingest.ingest(db, "jsonl", path)
    assert normalize(db).entities_updated == 2
    assert normalize(db).entities_updated == 0  # keys are stamped with what they were computed from
    rows = {r["name"]: r for r in db.run("MATCH (e:Entity) RETURN e.name AS name, e.key_core AS core, "
                                         "e.key_gender AS gender, e.key_acronym AS acronym")}
    assert rows["Mr. Sherlock Holmes"]["core"] == "sherlock holmes" and rows["Mr. Sherlock Holmes"]["gender"] == "m"
    assert rows["LLMs"]["acronym"] == "llm"
    db.run("MATCH (e:Entity {name: 'LLMs'}) SET e.type = 'TECHNOLOGY'")
    assert normalize(db).entities_updated == 1


def test_pages_reach_every_stale_entity_once(db, tmp_path):
    names = [f"Company {i:02d}" for i in range(25)]
    path = write_jsonl(tmp_path / "g.jsonl", [{"kind": "mention", "id": f"m{i:02d}", "name": n, "type": "ORG"}
                                              for i, n in enumerate(names)])
    ingest.ingest(db, "jsonl", path)
    pages: list[int] = []
    assert normalize(db, batch_size=4, on_batch=pages.append).entities_updated == 25
    assert pages == [4, 4, 4, 4, 4, 4, 1]
    # every third entity renamed: stale ones lie between fresh ones, and a page still finds them all
    db.run("MATCH (e:Entity) WITH e ORDER BY e.id SKIP 1 WITH collect(e) AS es "
           "UNWIND range(0, size(es) - 1, 3) AS i WITH es[i] AS e SET e.name = e.name + ' Ltd'")
    assert normalize(db, batch_size=2).entities_updated == 8
    assert db.run("MATCH (e:Entity) WHERE e.key_core IS NULL OR NOT e.key_core STARTS WITH 'company' "
                  "RETURN count(e) AS n")[0]["n"] == 0
    assert normalize(db, batch_size=2).entities_updated == 0
