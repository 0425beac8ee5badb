"""The match model: comparison levels, EM, constraints, decisions as labels, the waterfall, and the
model commands, on the real database where the database is involved."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from click.testing import CliRunner

from kgres import ingest
from kgres.cli import main
from kgres.curate.explain import explain_pair
from kgres.curate.review import decide
from kgres.resolve import ResolveConfig, resolve
from kgres.resolve.score import constraints, store
from kgres.resolve.score.names import shares_code
from kgres.resolve.score.levels import (BANDS, FIXED, NULL, OVERLAP_40, SAME_KEY, UNIFORM, PairFrame,
                                        attribute_comparison, attribute_kind, attribute_level, best_names, closed_up,
                                        comparisons, head_added, normalise_value, titles_apart, vectors,
                                        words_replaced, words_swapped)
from kgres.resolve.score.model import MatchModel, probability, train
from kgres.resolve.score.sides import Side
from kgres.resolve.score.stage import Candidates, EvidenceJson, evidence, rare_agreements, weak_names
from tests.graphs import write_jsonl

# The declared levels, in order. A change here changes what stored models and labels mean: it must
# be deliberate (and models trained before it will not fit the graph's comparisons any more).
EXPECTED = {
    "short_form": ["unique", "dominant", "ambiguous"],
    "neighbour_cosine": [">=0.95", ">=0.85", ">=0.7", ">=0.5", "<0.5"],
    "neighbours": [">=0.5", ">=0.2", ">0", "none"],
    "type": ["same", "different"],
    "numbers": ["same", "contained", "one_side"],
    "description": [">=0.9", ">=0.7", ">=0.5", "<0.5"],
    "same_chunk": ["yes", "no"],
}
NAMES = ["same_key", "typo", "legal_suffix", "acronym", "explained", "person_name", "person_spelling", "overlap_80",
         "overlap_60", "overlap_40", "overlap_20", "none"]


def test_levels_are_declared_enumerable_and_stable():
    comps = comparisons([("dob", "date"), ("price", "number"), ("postcode", "code"), ("city", "text")])
    assert [c.name for c in comps] == ["name", *EXPECTED, "attr:dob", "attr:price", "attr:postcode", "attr:city"]
    by_name = {c.name: c.level_names() for c in comps}
    assert {k: by_name[k] for k in EXPECTED} == EXPECTED
    assert by_name["name"] == [f"{n}, {b}" for n in NAMES for b in ("cos>=0.9", "cos>=0.8", "cos<0.8", "no vector")]
    assert by_name["attr:dob"] == ["exact", "one_edit", "within_month", "within_year", "within_10_years", "different"]
    assert by_name["attr:postcode"] == ["exact", "one_edit", "two_edits", "close", "different"]
    for c in comps:  # every level is explained and has priors; names are unique within a comparison
        assert len(set(c.level_names())) == len(c.levels) >= 2
        assert all(lv.description and 0 < lv.m_prior and 0 < lv.u_prior for lv in c.levels)
    assert constraints.names() == ["numbers", "gender", "title", "qualifiers", "given_names", "surnames",
                                   "derivative", "identifiers", "types", "not_same_as", "related"]
    assert comparisons() == list(FIXED)


def test_attribute_kinds_are_read_from_the_values():
    assert attribute_kind(["1971-06-24", "19560409", "17-Mar-08", "March 17, 2008"]) == "date"
    assert attribute_kind(["$ 1.99", "$ 12.00", "8.70 %"]) == "number"
    assert attribute_kind(["2119", "3165", "213/857-0034", "ada@example.org"]) == "code"
    assert attribute_kind(["1999", "2000.0", "1976", "2003"]) == "year"  # not a quantity 5% apart
    assert attribute_kind(["2615", "4350", "2000", "7010"]) == "code"  # postcodes, not years
    assert attribute_kind(["london", "new york", "paris"]) == "text"


def side(name: str, type_: str | None = "PERSON", **attrs: str) -> Side:
    from kgres.resolve.normalize import name_keys

    k = name_keys(name, type_)
    row = {"id": name, "name": name, "key_core": k.core, "key_tokens": list(k.tokens), "key_acronym": k.acronym,
           "key_numbers": list(k.numbers), "norm_type": k.norm_type, "key_gender": k.gender, "key_title": k.title,
           "attributes": [json.dumps(attrs)] if attrs else []}
    return Side.from_row(row)


def test_a_page_of_pairs_gets_one_level_per_comparison():
    comps = comparisons([("dob", "date")])
    pairs = [(side("Sherlock Holmes", dob="1854-01-06"), side("Mr. Sherlock Holmes", dob="06/01/1854")),
             (side("Sherlock Holmes", dob="1854-01-06"), side("Sherlock Holmez", dob="1855-01-06")),
             (side("Large Language Models", "CONCEPT"), side("LLMs", "CONCEPT")),
             (side("Ada Lovelace"), side("Charles Babbage"))]
    frame = PairFrame.of(pairs, ego=[0.95, 0.85, 0.5, None])
    gamma = vectors(frame, comps)
    name = [comps[0].levels[g].name for g in gamma[:, 0]]
    assert name == ["same_key, cos>=0.9", "typo, cos>=0.8", "acronym, cos<0.8", "none, no vector"]
    dob = [comps[-1].levels[g].name if g != NULL else None for g in gamma[:, -1]]
    assert dob == ["exact", "one_edit", None, None]  # a date is one date however it is written


def merged(name: str, *aliases: str, type_: str | None = "CONCEPT") -> Side:
    """An entity a resolve already merged: its name and the other names it carries."""
    from kgres.resolve.normalize import name_keys

    k = name_keys(name, type_)
    return Side.from_row({"id": name, "name": name, "key_core": k.core, "key_tokens": list(k.tokens),
                          "key_acronym": k.acronym, "key_numbers": list(k.numbers), "norm_type": k.norm_type,
                          "aliases": list(aliases)})


def test_a_merged_entity_compares_each_unalike_name_once():
    """Of a merged entity's other names, those alike in every key and in being written as proper names
    are compared once (the first of them); a name written otherwise is kept (proper names decide some
    levels: "Gates" / "Bill Gates"), and so is a name keyed differently."""
    holmes = merged("Holmes", "SHERLOCK HOLMES", "Sherlock Holmes", "sherlock holmes", "Sherlock  Holmes.",
                    "Mr. Sherlock Holmes", "Holmes", type_="PERSON")
    assert [a.name for a in holmes.aliases] == ["Mr. Sherlock Holmes", "SHERLOCK HOLMES", "sherlock holmes"]
    assert best_names(holmes, side("Sherlock Holmes", "PERSON"))[0] == SAME_KEY
    gates = merged("Microsoft founder", "bill gates", "BILL GATES", type_=None)
    assert [a.name for a in gates.aliases] == ["BILL GATES", "bill gates"]
    assert best_names(gates, side("Gates", None))[2].name == "Gates" and \
        best_names(gates, side("Gates", None))[1].name == "BILL GATES"  # the proper name reaches person_name


def test_merged_titles_each_keeping_words_of_their_own_stay_apart_whatever_their_closest_names_say():
    """One pass joined each paper to a "mining association rules" copy; the next compares the two by
    that shared name (same_key) unless every pair of their names is checked."""
    generalized = merged("mining generalized association rules", "mining association rules")
    quantitative = merged("mining quantitative association rules in large tables", "mining association rules")
    assert best_names(generalized, quantitative)[0] == SAME_KEY
    assert titles_apart(generalized, quantitative)
    assert not titles_apart(generalized, quantitative, replaced=True)  # ... a tail differs: not a replaced word
    assert titles_apart(generalized, merged("mining quantitative association rules", "mining association rules"),
                        replaced=True)                                   # ... which keeps their groups apart
    cited = merged("the case for enhanced abstract data types 23rd vldb conf",
                   "the case for enhanced abstract data types")
    assert titles_apart(cited, merged("the case for enhanced abstract data types athens greece", "abstract data types"))
    assert not titles_apart(cited, merged("the case for enhanced abstract data types athens greece",
                                          "abstract data types"), replaced=True)  # two tails: a library's citations
    assert not titles_apart(merged("online dynamic reordering", "online dynamic reordering for interactive data"),
                            merged("online dynamic reordering for interactive data processing"))  # one adds words
    assert not titles_apart(side("mining generalized association rules", "CONCEPT"),
                            side("mining quantitative association rules", "CONCEPT"))  # one name each: ``swapped``
    assert not titles_apart(merged("Sofia Russell", "foSia Russell", type_="PERSON"),
                            merged("SoSfia Russell", type_="PERSON"))  # a register's typos scramble words


@pytest.mark.parametrize("a, b, level", [
    ("Ella Crouch", "Ella Crou Ch", "typo"), ("Amber Black Well", "Ambre Blackwell", "typo"),
    ("Content management", "Content management system", "overlap_60"),  # a word more is no misspelling
    ("Data mining using two-dimensional optimized association rules", "Data mining using two-dimensional optimi",
     "typo"),  # ... but a long title cut short is one
    ("Hey Mama ( feat . Nicki Minaj ) [ Extended ]", "Hey Mama ( feat . Nicki Minaj ) [ Club Killers Remix ]",
     "overlap_40"),  # two versions, each with words of its own
])
def test_a_misspelling_is_a_few_edits_not_a_shared_start(a, b, level):
    from kgres.resolve.score.levels import NAME_LEVELS, name_level

    assert NAME_LEVELS[name_level(side(a, "CONCEPT"), side(b, "CONCEPT"))].name == level


@pytest.mark.parametrize("x, y, level", [
    ("19710624", "19710624", "exact"), ("19710624", "19710524", "one_edit"), ("19710624", "19712406", "one_edit"),
    ("19921120", "19921205", "within_month"), ("19770913", "19760915", "within_year"),
    ("19741005", "19841003", "within_10_years"), ("19100101", "19850101", "different"),
    ("19710231", "19711230", "within_year"),  # not a real date: the year still compares
])
def test_dates_compare_by_how_far_apart_they_are(x, y, level):
    c = attribute_comparison("dob", "date")
    assert c.levels[attribute_level("date", x, y)].name == level


@pytest.mark.parametrize("a, b, level", [
    ("Ran Cole", "Ryan Cole", "person_spelling"), ("Eli Rowe", "Eli Roew", "person_spelling"),
    ("Rowe Caleb", "Caleb Rowe", "person_spelling"),  # reordered
    ("Elanor Eavns", "Eleanor Evans", "person_spelling"),  # both words mistyped
    ("Jon Smith", "Jan Smith", None), ("Anna Cole", "Emma Cole", None),  # other given names
    ("Ran Cole", "Ryan Cole Smith", None),  # a word more: not the same name typed again
    ("Bob Cratchit", "Robert Cratchit", "person_spelling"), ("Liz Taylor", "Elizabeth Taylor", "person_spelling"),
    ("Cole Ted", "Edward Cole", "person_spelling"),  # a nickname, reordered
    ("Bill Gates", "Robert Gates", None),  # the nickname table's "robert" / "bill": two people
])
def test_a_person_name_typed_again_is_its_own_level(a, b, level):
    """``level`` None: any level but person_spelling (a word overlap)."""
    from kgres.resolve.score.levels import NAME_LEVELS, name_level

    got = NAME_LEVELS[name_level(side(a), side(b))].name
    assert got == level if level else got.startswith("overlap")
    assert NAME_LEVELS[name_level(side(a, "CONCEPT"), side(b, "CONCEPT"))].name != "person_spelling"


@pytest.mark.parametrize("x, y, level", [
    ("dmacdonald@rivers-glass.biz", "dmacdoald@riverb-glass.siz", "close"),  # three slips in a long code
    ("r.cole1@ramirez-anthony.com", "r.cole1@ramtrez-anihony.com", "two_edits"),
    ("2119", "3165", "different"), ("0412345678", "0499871234", "different"),
])
def test_a_long_code_mistyped_in_a_few_places_is_close(x, y, level):
    c = attribute_comparison("email", "code")
    assert c.levels[attribute_level("code", normalise_value("code", x), normalise_value("code", y))].name == level


@pytest.mark.parametrize("x, y, level", [
    ("1999", "1999.0", "exact"), ("1999", "2000", "one_apart"), ("1995", "1999", "within_5"),
    ("1976", "1999", "different"),
])
def test_years_compare_by_how_many_apart(x, y, level):
    c = attribute_comparison("year", "year")
    assert c.levels[attribute_level("year", normalise_value("year", x), normalise_value("year", y))].name == level


@pytest.mark.parametrize("a, b, level", [
    ("Acme Corporation", "ACME Corp.", "legal_suffix"), ("Acme", "Acme, Inc.", "legal_suffix"),
    ("reminiscences on influential papers", "reminiscences an influential papers", "overlap_80"),  # no suffix
])
def test_a_legal_suffix_level_needs_a_suffix(a, b, level):
    from kgres.resolve.score.levels import NAME_LEVELS, name_level

    assert NAME_LEVELS[name_level(side(a, None), side(b, None))].name == level


@pytest.mark.parametrize("a, b, type_, level", [
    ("Gates", "Bill Gates", None, "person_name"), ("Portland", "Portland Oregon", None, "person_name"),
    ("Content", "Free content", None, "overlap_40"),  # a common noun's compound is another thing
    ("gates", "bill gates", None, "overlap_40"),  # written as no proper name is
    ("Gates", "Bill Gates", "CONCEPT", "overlap_40"),  # a typed name is a person's or nobody's
    ("Bill", "Bill Gates Foundation Trust", None, "overlap_20"),  # a word of four
    ("Gates", "Bank of Gates", None, "overlap_40"),  # with a stop word: a phrase, not a name
])
def test_an_untyped_proper_name_and_its_first_or_last_word_are_a_name_part(a, b, type_, level):
    """Open-IE phrases carry no types: "Gates" / "Bill Gates" were only a shared word, and most of
    cesi-ambiguous's missed pairs."""
    from kgres.resolve.score.levels import NAME_LEVELS, name_level

    assert NAME_LEVELS[name_level(side(a, type_), side(b, type_))].name == level
    assert NAME_LEVELS[name_level(side(b, type_), side(a, type_))].name == level


def test_which_proper_name_an_untyped_word_stands_for_is_the_holder_tables_question():
    from kgres.resolve.ambiguity import Ambiguity, holder_keys, short_keys
    from kgres.resolve.score.levels import PERSON_NAME, short_form_question

    assert holder_keys(("bill", "gate"), None, "bill gate", "bg") >= {("w", "bill"), ("w", "gate")}
    assert ("w", "gate") in short_keys(("gate",), None) and ("w", "gate") not in short_keys(("gate",), "PERSON")
    gates, bill = side("Gates", None), side("Bill Gates", None)
    question = short_form_question(PERSON_NAME, gates, bill)
    assert question == (None, "proper_part")
    rows = [{"type": None, "core": "bill gate", "tokens": ["bill", "gate"], "acronym": "bg", "mentions": 40}]
    alone = Ambiguity(rows, lambda x, y: x == y)
    assert alone.short_form(gates.core, gates.tokens, bill.core, bill.tokens, *question).holders == 1
    shared = Ambiguity(rows + [{"type": None, "core": "gate foundation", "tokens": ["gate", "foundation"],
                                "acronym": "gf", "mentions": 30}], lambda x, y: x == y)
    verdict = shared.short_form(gates.core, gates.tokens, bill.core, bill.tokens, *question)
    assert verdict.holders == 2 and not verdict.dominant_side


def _city_and_year() -> MatchModel:
    """Two comparisons with term frequencies: a city whose agreement is evidence, a year whose is not."""
    from kgres.resolve.score.model import ComparisonWeights

    def comp(name: str, kind: str, m: list[float], u: list[float]) -> ComparisonWeights:
        return ComparisonWeights(name=name, kind=kind, levels=["exact", "different"], m=m, u=u,
                                 u_random=[0.05, 0.95], tf={"rare": 0.001, "common": 0.5}, tf_levels=[0],
                                 tf_baseline=0.05)

    return MatchModel(comparisons=[comp("attr:city", "text", [0.8, 0.2], [0.1, 0.9]),
                                   comp("attr:year", "text", [0.5, 0.5], [0.5, 0.5])], prior=0.5)


def test_term_frequencies_scale_the_evidence_a_level_gives():
    """A rare value agreeing weighs more than a common one; a common one weighs at least nothing; and
    a level that says nothing (or against) gains nothing from its value's rarity."""
    model = _city_and_year()
    gamma = np.zeros((3, 2), dtype=np.int8)
    w = model.weights(gamma, [["rare", "rare"], ["common", "common"], [None, None]])
    assert w[2, 0] == pytest.approx(3.0)  # log2(0.8 / 0.1), no value to adjust by
    assert w[0, 0] > w[2, 0] > w[1, 0] == 0.0
    assert (w[:, 1] == 0).all()  # m = u: no evidence, whatever the value
    # a score stage passes the values as cells, (pair, comparison) -> value, and predicts from the weights
    cells = {(0, 0): "rare", (0, 1): "rare", (1, 0): "common", (1, 1): "common"}
    assert (model.cell_weights(gamma, cells) == w).all()
    weight, probability = model.predict(gamma, level_weights=w)
    assert (weight == model.prior_weight() + w.sum(axis=1)).all()
    assert (probability == model.predict(gamma, [["rare", "rare"], ["common", "common"], [None, None]])[1]).all()


def test_a_score_stage_weighs_a_chunk_of_pairs_at_a_time_as_predict_weighs_them_all(monkeypatch):
    """Match weights a chunk of pairs at a time, each chunk with its own pairs' term-frequency cells
    (numbered from the chunk's first pair), are the floats predict gives over the whole pass."""
    from kgres.resolve.score import stage
    from kgres.resolve.score.model import Cells

    model = _city_and_year()
    gamma = np.zeros((7, 2), dtype=np.int8)
    gamma[4:, 0] = 1  # cities that differ
    cells = Cells()
    for i, value in [(0, "rare"), (2, "common"), (3, "rare"), (5, "rare"), (6, "common")]:
        cells.add(i, 0, value)
    assert list(cells.window(2, 4).items()) == [((0, 0), "common"), ((1, 0), "rare")]
    whole = model.predict(gamma, level_weights=model.cell_weights(gamma, dict(cells.items())))[0]
    monkeypatch.setattr(stage, "OUTCOME_CHUNK", 2)
    assert stage.match_weights(model, gamma, cells).tolist() == whole.tolist()
    assert len(set(whole[:4].tolist())) == 3  # rare, common and no value weigh differently, in every chunk
    assert stage.match_weights(model, gamma[:0], Cells()).tolist() == []


def test_a_score_stages_cosines_are_each_pairs_dot_product_of_unit_vectors_kept_in_reused_rows():
    """The sides a score stage keeps hold their vectors as rows of one matrix per kind: a page's cosines
    are the dot products of the pairs' unit vectors, None where either vector is missing; the rows of
    entities pushed out are used again by those read next; vectors of another length (never after one
    embed stage) are compared pair by pair."""
    from kgres.resolve.score.stage import _Matrix, Sides

    rng = np.random.default_rng(7)
    vectors = {f"e{i}": rng.normal(size=4 if i == 7 else 8) for i in range(8)}
    unit = {i: v / np.linalg.norm(v) for i, v in vectors.items()}

    def row(i: str, embedding: bool = True) -> dict:
        return {"e": {"id": i, "embedding": vectors[i].tolist() if embedding else None, "context_embedding": None,
                      "chunks": []}}

    def cos(x: str, y: str) -> float:
        return pytest.approx(float(unit[x] @ unit[y]), abs=1e-12)

    sides = Sides([row("e0"), row("e1"), row("e2", embedding=False)], limit=3, structural=False)
    assert sides.cosines(["e0", "e0", "e1"], ["e1", "e2", "e0"], 0) == [cos("e0", "e1"), None, cos("e1", "e0")]
    assert sides.cosines(["e0"], ["e1"], 1) == [None]  # no entity has a context vector
    sides.load(None, ["e3", "e4", "e5"], ready=[row("e3"), row("e4"), row("e5")])
    assert sides.missing(["e0", "e1", "e2", "e3"]) == ["e0", "e1", "e2"]  # pushed out: the limit is 3
    assert sides.cosines(["e3", "e4"], ["e4", "e5"], 0) == [cos("e3", "e4"), cos("e4", "e5")]
    sides.load(None, ["e5", "e6"], ready=[row("e6")])
    assert sides._vectors[0].row["e6"] in (0, 1, 2)  # a row one of the first three held
    assert sides.cosines(["e5", "e4"], ["e6", "e6"], 0) == [cos("e5", "e6"), cos("e4", "e6")]
    matrix = _Matrix()
    for i in ("e6", "e7", "e2"):
        matrix.put(i, unit[i] if i != "e2" else None)
    assert set(matrix.odd) == {"e7"} and matrix.get("e2") is None
    assert matrix.get("e7").tolist() == unit["e7"].tolist() and matrix.get("e6").tolist() == unit["e6"].tolist()
    odd = Sides([row("e7"), row("e6")], structural=False)  # the first vector read sets the length
    assert odd.cosines(["e6"], ["e6"], 0) == [cos("e6", "e6")]
    matrix.drop("e7")
    assert not matrix.odd
    small = _Matrix(rows=1)  # grows past the rows it was made with, keeping what they hold
    for i in ("e0", "e1", "e3"):
        small.put(i, unit[i])
    assert [small.get(i).tolist() for i in ("e0", "e1", "e3")] == [unit[i].tolist() for i in ("e0", "e1", "e3")]
    small.put("e1", None)  # put again: the entity's new vector (none), in one row
    assert small.get("e1") is None and sorted(small.row.values()) == [0, 1, 2] and small.has.sum() == 2


def test_random_pairs_cosines_are_each_pairs_cosine_a_block_of_pairs_at_a_time():
    """The random pairs that teach the model chance agreement get each pair's cosine, NaN where a
    vector is missing (a row of zeros), computed a block of pairs at a time (more pairs than a block)."""
    from kgres.resolve.score import training

    rng = np.random.default_rng(3)
    embedding = rng.normal(size=(200, 16))  # 19,900 pairs: more than are drawn
    embedding[5] = 0.0  # no vector
    sides = [Side(id=f"e{i}", core=f"name {i}", tokens=("name", str(i)), acronym=None, numbers=(), type=None)
             for i in range(200)]
    sample = training.Sample(sides=sides, embedding=embedding, context=None, entities=200)
    frame = training.random_frame(sample, pairs=3 * training.COSINE_ROWS, seed=1, ambiguity=None)
    index = {s.id: n for n, s in enumerate(sides)}
    i = np.array([index[x.id] for x in frame.a])
    j = np.array([index[y.id] for y in frame.b])
    assert len(i) > training.COSINE_ROWS and np.isnan(frame.neighbour).all()
    unit = embedding / np.maximum(np.linalg.norm(embedding, axis=1, keepdims=True), 1e-12)
    expected = np.where((i == 5) | (j == 5), np.nan, (unit[i] * unit[j]).sum(axis=1))
    assert np.allclose(frame.ego, expected, equal_nan=True, rtol=0, atol=1e-12)
    assert np.isnan(frame.ego).sum() == ((i == 5) | (j == 5)).sum() > 0


def test_em_recovers_known_m_and_u():
    """Pairs drawn from a known two-class model: EM finds the share of matches and m and u again."""
    comps = [attribute_comparison(k, "number") for k in ("a", "b", "c", "d")]  # four levels each
    rng = np.random.default_rng(7)
    true_m = [np.array(x) for x in ([0.7, 0.15, 0.1, 0.05], [0.6, 0.2, 0.1, 0.1], [0.8, 0.1, 0.05, 0.05],
                                    [0.5, 0.3, 0.1, 0.1])]
    true_u = [np.array(x) for x in ([0.05, 0.05, 0.1, 0.8], [0.02, 0.08, 0.2, 0.7], [0.1, 0.1, 0.1, 0.7],
                                    [0.03, 0.07, 0.1, 0.8])]
    n, share = 40_000, 0.3
    match = rng.random(n) < share
    gamma = np.stack([np.where(match, rng.choice(4, n, p=m), rng.choice(4, n, p=u))
                      for m, u in zip(true_m, true_u)], axis=1).astype(np.int8)
    gamma[rng.random(gamma.shape) < 0.1] = NULL  # a tenth of the values missing
    model = train(gamma, comps, [np.full(4, 0.25)] * 4)
    assert model.converged and abs(model.prior - share) < 0.02
    for c, m, u in zip(model.comparisons, true_m, true_u):
        assert np.abs(np.array(c.m) - m).max() < 0.03, (c.name, c.m, m)
        assert np.abs(np.array(c.u) - u).max() < 0.03, (c.name, c.u, u)


def test_known_non_matches_shape_m_and_u_but_not_the_share_of_matches():
    """Pairs a constraint forbids are labelled non-matches outside the share (``in_share``): the
    prior over the candidates the model is asked about stays, and the comparison they carry (the
    other is null: the constraint read it) learns its ``u`` from them too."""
    comps = [attribute_comparison(k, "number") for k in ("a", "b")]  # four levels each
    rng = np.random.default_rng(3)
    n, m, u = 4000, [0.8, 0.1, 0.05, 0.05], [0.05, 0.05, 0.1, 0.8]
    match = rng.random(n) < 0.3
    gamma = np.stack([np.where(match, rng.choice(4, n, p=m), rng.choice(4, n, p=u)) for _ in comps],
                     axis=1).astype(np.int8)
    forbidden = np.full((6000, 2), NULL, dtype=np.int8)
    forbidden[:, 1] = rng.choice(4, len(forbidden), p=u)
    rows = np.concatenate([gamma, forbidden])
    labels = np.concatenate([np.full(n, np.nan), np.zeros(len(forbidden))])
    model = train(rows, comps, [np.full(4, 0.25)] * 2, labels, in_share=np.arange(len(rows)) < n)
    assert abs(model.prior - 0.3) < 0.03
    assert np.abs(np.array(model.comparisons[1].u) - u).max() < 0.02
    counted = train(rows, comps, [np.full(4, 0.25)] * 2, labels)  # counted in the share, they halve the prior
    assert counted.prior < 0.2


@pytest.mark.parametrize("a, b, swapped", [
    (["quantum", "royal", "laboratory"], ["quantum", "applied", "laboratory"], True),
    (["general", "motors"], ["general", "electric"], True),
    (["amber", "waves", "ale"], ["capitol", "city", "amber", "waves", "ale"], False),
    (["royal", "laboratory"], ["royal", "laboratorys"], False),  # a misspelling is the same word
])
def test_words_swapped(a, b, swapped):
    assert words_swapped(a, b) is swapped


@pytest.mark.parametrize("a, b, replaced", [
    ("mining generalized association rules", "mining quantitative association rules", True),
    ("quantum royal laboratory", "quantum applied laboratory", True),
    ("christmas eve", "christmas day", False),
    ("general motors", "general electric", False),  # differing tails: a library's citations do that to one title
    ("the case for enhanced abstract data types 23rd vldb conf", "the case for enhanced abstract data types athens",
     False),
    ("mining association rules", "mining generalized association rules", False),  # a word added
    ("join synopses for approximate query answering", "join synopsesfor approximate query answering", False),
    ("aggregates over continual data streams", "aggregates over continuous data streams", False),  # one stem
    ("", "data streams", False),
])
def test_words_replaced_inside_a_name_make_another_thing(a, b, replaced):
    assert words_replaced(a.split(), b.split()) is replaced
    assert words_replaced(b.split(), a.split()) is replaced


@pytest.mark.parametrize("a, b, added", [
    ("Content management", "Content management systems", True),   # an activity, a kind of software
    ("machine learning", "machine learning model", True),
    ("Content", "Content management", False),                       # one word: a short form's question
    ("Portland Maine", "Portland Maine Harbor", False),             # proper names add qualifiers
    ("digital camera", "digital camera 32gb", False),               # a product's spec is no head
    ("management systems", "content management systems", False),    # words before, not a head after
])
def test_head_added(a, b, added):
    assert head_added(side(a, None), side(b, None)) is added
    assert head_added(side(b, None), side(a, None)) is added


@pytest.mark.parametrize("a, b, closed", [
    (("sony", "cyber", "shot", "dsc", "w55"), ("sony", "dscw55", "cybershot"), ("sony", "cybershot", "dscw55")),
    (("mary", "ann", "smith"), ("maryann", "smith"), ("maryann", "smith")),
    (("general", "motors"), ("general", "electric"), ("general", "motors")),  # nothing run together
])
def test_words_one_name_runs_together_count_as_one(a, b, closed):
    assert tuple(closed_up(a, b)) == closed
    assert UNIFORM.overlap(a, b) == UNIFORM.overlap(closed, b)


def test_names_that_each_have_their_own_word_never_auto_merge_on_context():
    """Shared words with a word of each side's own cap the pair (review at most), unless two rare
    dates or codes agree."""
    comps = comparisons()
    k = {c.name: i for i, c in enumerate(comps)}
    gamma = np.full((3, len(comps)), NULL, dtype=np.int8)
    gamma[:, k["name"]] = OVERLAP_40 * BANDS  # overlap_40, cos>=0.9
    gamma[:, k["neighbours"]] = 0
    capped = weak_names(gamma, comps, np.array([0, 0, 2], dtype=np.int16), np.array([True, False, True]))
    assert capped.tolist() == [True, False, False]
    coded = weak_names(gamma, comps, np.array([0, 0, 0], dtype=np.int16), np.array([True, True, False]),
                       np.array([True, False, False]))
    assert coded.tolist() == [False, True, False]  # a shared model code places the pair as two rare values do


def test_names_that_share_nothing_auto_merge_only_on_texts_embedded_nearly_alike():
    """"Bedroom" / "Closet" (one sentence lists both; cosine 0.9065 in the Christmas Carol graph) is
    capped; texts at NAMELESS_COSINE or more pass, as do two rare codes; without the cosines the
    level's band decides as before."""
    from kgres.resolve.score.levels import NONE
    from kgres.resolve.score.stage import NAMELESS_COSINE
    comps = comparisons()
    k = {c.name: i for i, c in enumerate(comps)}
    gamma = np.full((4, len(comps)), NULL, dtype=np.int8)
    gamma[:, k["name"]] = NONE * BANDS  # none, cos>=0.9
    gamma[:, k["neighbours"]] = 0
    egos = np.array([0.9065, NAMELESS_COSINE, 0.9065, np.nan])
    rare = np.array([0, 0, 2, 0], dtype=np.int16)
    assert weak_names(gamma, comps, rare, egos=egos).tolist() == [True, False, False, True]
    assert weak_names(gamma, comps, rare).tolist() == [False, False, False, False]
    gamma[:, k["name"]] = NONE * BANDS + 1  # cos>=0.8: capped whatever the cosine says
    assert weak_names(gamma, comps, rare, egos=np.full(4, 0.99)).tolist() == [True, True, False, True]


@pytest.mark.parametrize("a, b, coded", [
    ("Panasonic Lumix DMC-FX534 7.2MP Digital Camera White", "Panasonic DMCFX534 Digital Camera 7.2 Megapixel", True),
    ("Canon PowerShot SD850 IS 8MP", "Canon SD850IS PowerShot 8.0 Megapixel", False),  # no one spelling shared
    ("Samsung Galaxy S5 Mini", "Samsung Galaxy S5 Active", False),  # too short to identify
    ("Sony DSC-W55 7.2MP", "Sony DSC-W55 6MP", False),  # numbers of one kind differ
    ("APEX 1", "Apex-11", False),
    ("Nikon 10MP Camera", "Canon 10MP Camera", False),  # a measure is no code
])
def test_names_share_a_model_code(a, b, coded):
    assert shares_code(side(a, None), side(b, None)) is coded


def test_a_rare_value_and_a_second_near_one_count_as_two_agreements():
    """A register's record typed twice: the same rare email and a birth date a month off pass the
    name cap; a rare email alone, or a birth date a month off alone, does not."""
    comps = comparisons([("dob", "date"), ("email", "code")])
    model = train(np.zeros((2, len(comps)), dtype=np.int8), comps, [np.full(len(c.levels), 1 / len(c.levels))
                                                                   for c in comps])
    k = {c.name: i for i, c in enumerate(comps)}
    dob, email = model.comparisons[k["attr:dob"]], model.comparisons[k["attr:email"]]
    email.tf, dob.tf = {"ada@example.org": 0.0001, "info@example.org": 0.5}, {"19710624": 0.0001}
    gamma = np.full((5, len(comps)), NULL, dtype=np.int8)
    gamma[:, k["attr:dob"]] = [2, 2, 2, 5, 0]  # within a month (x3), different, exact
    gamma[:, k["attr:email"]] = [0, NULL, 0, 0, 0]
    cands = Candidates(a=list("abcde"), b=list("vwxyz"))
    for (i, c), value in {(0, k["attr:email"]): "ada@example.org", (2, k["attr:email"]): "info@example.org",
                          (3, k["attr:email"]): "ada@example.org", (4, k["attr:email"]): "ada@example.org",
                          (4, k["attr:dob"]): "19710624"}.items():
        cands.tf.add(i, c, value)
    counts = rare_agreements(model, cands, entities=1000, gamma=gamma)
    assert counts.tolist() == [2, 0, 0, 1, 2]  # rare + near; near alone; common + near; rare alone; two rare
    assert rare_agreements(model, cands, entities=1000).tolist() == [1, 0, 0, 1, 2]  # exact rare values only


@pytest.mark.parametrize("a, b, reason", [
    ("Sherlock Holmes", "Mycroft Holmes", "different given names"),
    ("Sherlock Holmes", "Shylock Holmes", "different given names"),  # alike, in place: not a reordering
    ("Mary Smith", "Mark Smith", "different given names"),
    ("Mr. Fezziwig", "Mrs. Fezziwig", "honorifics differ in gender: m vs f"),
    ("Miss Fezziwig", "Mr. Fezziwig", "honorifics differ in gender: f vs m"),
    ("Mrs. Fezziwig", "Miss Fezziwig", "honorifics differ in marital status: mrs vs miss"),  # her daughter
    ("Colonel Moran", "Professor Moran", "titles differ"),
    ("Young Scrooge", "Scrooge", "different qualifiers"),
    ("Ada Lovelace", "Ada Turing", "different surnames"),
    ("Robert Smith", "Robert Jones", "different surnames"),
    ("Bill Gates", "Robert Gates", "different given names"),  # linked in the nickname table, share no letters
    ("John Smith", "Ivan Smith", "different given names"),  # one name in two languages: two people here
])
def test_constraints_name_the_reason(a, b, reason):
    assert (constraints.conflict(side(a), side(b)) or "").startswith(reason)


def test_ms_goes_with_mrs_and_miss_and_an_honorific_with_none():
    for a, b in (("Ms. Fezziwig", "Mrs. Fezziwig"), ("Ms. Fezziwig", "Miss Fezziwig"), ("Fezziwig", "Miss Fezziwig"),
                 ("Mrs. Fezziwig", "Mrs Fezziwig")):
        assert constraints.conflict(side(a), side(b)) is None


@pytest.mark.parametrize("a, b", [("Bob Cratchit", "Robert Cratchit"), ("Bill Turing", "William Turing"),
                                  ("Ted Hughes", "Edward Hughes"), ("Jack Kennedy", "John Kennedy")])
def test_a_given_name_and_its_nickname_are_one_name_to_either_rule_set(a, b):
    """The given-name cannot-link (the model's and the rule scorer's stricter one) lets a name and its
    nickname through; the match model weighs them (person_spelling)."""
    from kgres.resolve.score.names import nickname_pair
    assert nickname_pair(a.split()[0].lower(), b.split()[0].lower())
    assert constraints.conflict(side(a), side(b)) is None
    assert constraints.conflict(side(a), side(b), constraints=constraints.RULE_CONSTRAINTS) is None


@pytest.mark.parametrize("a, b, reason", [
    ("Bad Blood", "Bad Blood ( Karaoke Version )", "one is a derivative of the other: 'karaoke'"),
    ("A database model for object dynamics", "Erratum: a database model for object dynamics",
     "one is a derivative of the other: 'erratum'"),
    ("Green Lakes Organic Ale", "Deschutes Green Lakes Non-Organic Ale",
     "one negates a word of the other: 'non organic'"),
    ("Hodgkin lymphoma", "Non-Hodgkin lymphoma", "one negates a word of the other: 'non hodgkin'"),
    ("Bad Blood", "Bad Blood ( Taylor's Version )", None),  # a version word that marks no derivative
    ("Karaoke night", "Karaoke night at the Ritz", None),  # both carry the word
    ("Non-Organic Ale", "Non-Organic Pale Ale", None),  # both negate
    ("Non-stick pan", "Frying pan", None),  # the negated word is not the other's
    ("Instrumental", "Karaoke", None),  # nothing shared: nothing to derive from
])
def test_a_derivative_or_a_negation_is_a_different_thing(a, b, reason):
    assert constraints.conflict(side(a, None), side(b, None)) == reason


@pytest.mark.parametrize("a, b, reason", [
    ("iPhone 7", "iPhone 8", "numbers differ: 7 vs 8"),
    ("Apple I", "Apple II", "numbers differ: i vs ii"),
    ("Garmin nuvi 350", "Garmin nuvi 360", "numbers differ: 350 vs 360"),
    ("Samsung LN-T4061F 40in LCD HDTV", "Samsung LN-T4661F 46in LCD HDTV",
     "numbers differ: t4061f 40in vs t4661f 46in"),
    ("Canon PowerShot SD1000 7.1MP", "Canon PowerShot SD800 IS 7.1MP", "numbers differ: sd1000 71mp vs sd800 71mp"),
    ("Linksys WRT54G Router", "Linksys WRT54GL Router", "numbers differ: wrt54g vs wrt54gl"),  # a code extended
    ("iPhone 6", "iPhone 6s", "numbers differ: 6 vs 6s"),
    ("APEX 1", "Apex-11", "numbers differ: 1 vs 11"),  # a word before a number is no part of it
    ("Kingston 2GB SD Card", "Kingston SD Card 1 GB", "numbers differ: 2gb vs 1gb"),
    # one product as two shops write it: codes with and without hyphens or spaces, units spelt out
    ("Sony Cyber-shot DSC-W55 7.2MP Camera", "Sony DSCW55 Cybershot 7.2 Megapixel Camera", None),
    ("Canon PowerShot SD850 IS 8MP", "Canon SD850IS PowerShot 8.0 Megapixel", None),
    ("Olympus Stylus 572 SW 5MP", "Olympus 572SW 5MP Camera 785-74469-62", None),  # and a part number
    ("Samsung LN-T4061F 40in LCD HDTV", "Samsung LNT4061F 40 Inch 1080p LCD TV", None),  # one adds a resolution
    # numbers of different kinds say different things: megapixels against an aperture, a screen
    # size against a part number, a model code against a USB version
    ("Nikon D40 6.1MP SLR Kit 18-55mm", "Nikon D40 SLR with 18-55mm f/3.5-5.6G ED II Lens", None),
    ("Garmin nuvi 660 4.3-Inch GPS", "Garmin nuvi 660 Navigator 010-00538-00", None),
    ("SanDisk Cruzer 4GB SDCZ6-4096-A11", "SanDisk 4GB Cruzer USB 2.0 Flash Drive", None),
    ("Photoshop Elements 6.0", "Photoshop Elements 6", None),
    ("Apple II", "Apple 2", None),
    ("Vol. 2", "Vol. 2 (Deluxe)", None),
])
def test_numbers_conflict_only_where_two_of_one_kind_differ(a, b, reason):
    assert constraints.conflict(side(a, None), side(b, None)) == reason


def test_record_agreement_leaves_a_name_conflict_to_the_model():
    """A register's records agreeing on a birth date and a tax number are not told apart by a replaced
    given name; two people of a story with no records are."""
    x = side("Caleb Challenor", dob="19560409", ssn="1804974")
    y = side("Nathan Challenor", dob="19560409", ssn="1804974")
    assert constraints.conflict(x, y) is None
    assert constraints.conflict(side("Caleb Challenor"), side("Nathan Challenor")) is not None
    assert constraints.conflict(side("Hannagan Mikhayla"), side("Mikhvyla Hannagan")) is None  # swapped, misspelt
    x = side("Reuben James", email="r.james@jackson.com", dob="1976-08-22")
    assert constraints.conflict(x, side("Rubnen James", email="r.james@jackson.com", dob="1976-07-24")) is None
    assert constraints.conflict(x, side("Rubnen James", email="r.james@jackson.com", dob="1990-01-05")) is not None
    assert constraints.conflict(x, side("Rubnen James", email="r.jones@jackson.com", dob="1976-07-24")) is not None
    assert constraints.conflict(side("Bailey Freddie"), side("Freddie Baiyel")) is None  # letters swapped too
    assert constraints.conflict(side("Curtis Maya"), side("Maya Curtsi")) is None
    assert constraints.conflict(side("Eva Armstrong"), side("Armstrong Turing")) is not None  # not one name


@pytest.mark.parametrize("table", [constraints.MODEL_CONSTRAINTS, constraints.RULE_CONSTRAINTS])
def test_a_constraint_marked_for_persons_forbids_nothing_else(table):
    """name_conflict skips a constraint marked ``persons`` unless both names are persons': it must
    never fire for other pairs, or skipping it would let them merge. Pairs that conflict as persons."""
    pairs = [("Sherlock Holmes", "Mycroft Holmes"), ("Mr. Fezziwig", "Mrs. Fezziwig"), ("Young Scrooge", "Scrooge"),
             ("Colonel Moriarty", "Professor Moriarty"), ("Ada Lovelace", "Ada Turing")]
    marked = [c for c in table if c.persons]
    assert {c.name for c in marked} == {"gender", "title", "qualifiers", "given_names", "surnames"}
    for a, b in pairs:
        assert constraints.name_conflict(side(a), side(b), table) is not None
        for type_a, type_b in [(None, None), ("PERSON", "ORGANIZATION"), ("GEO", "PERSON")]:
            assert all(c.test(side(a, type_a), side(b, type_b)) is None for c in marked)


@pytest.mark.parametrize("a, b", [("Robert Alan", "Robert Allen"), ("Ellie Ellis", "Ellie Eislls"),
                                  ("Freddie Holmes", "Freddie Hsmel")])
def test_a_mistyped_surname_is_left_to_the_model(a, b):
    """Keystrokes slipped or letters shuffled make no different person: the name level weighs it."""
    assert constraints.conflict(side(a), side(b)) is None


def story(tmp_path, extra: list[dict] | None = None):
    recs = [{"kind": "chunk", "id": f"c{i}", "text": f"chunk {i}"} for i in range(1, 5)]
    names = [("s1", "Sherlock Holmes"), ("s2", "Mr. Sherlock Holmes"), ("s3", "Sherlock"), ("s4", "Holmes"),
             ("m1", "Mycroft Holmes"), ("w1", "John Watson"), ("w2", "Dr. Watson"), ("w3", "Watson"),
             ("b1", "Baker Street"), ("p1", "Pall Mall")]
    recs += [{"kind": "mention", "id": i, "name": n, "type": "GEO" if i[0] in "bp" else "PERSON",
              "chunk_id": f"c{1 + k % 4}", "attributes": {"born": "1847"} if i in ("m1", "s1") else None}
             for k, (i, n) in enumerate(names)]
    recs += [{"kind": "triple", "subject": s, "predicate": "LIVES_AT", "object": "b1"} for s in ("s1", "s2", "w1")]
    recs += [{"kind": "triple", "subject": "m1", "predicate": "MEMBER_OF", "object": "p1"}]
    recs += extra or []
    for r in recs:
        if r.get("attributes") is None:
            r.pop("attributes", None)
    return write_jsonl(tmp_path / "story.jsonl", recs)


def test_no_weight_overrides_a_constraint(db, tmp_path):
    """A pinned model that calls every pair all but certain still never merges Sherlock with his
    brother (a year of birth in common makes them a candidate pair): the cannot-link is checked before
    any weight, and again between whole groups."""
    ingest.ingest(db, "jsonl", story(tmp_path))
    resolve(db)
    model = store.load(db)
    model.prior, model.u_source = 0.999999, "candidates"  # every pair all but certain before any evidence
    for c in model.comparisons:  # ... and no level says otherwise
        c.m = c.u = c.u_random = [1.0 / len(c.levels)] * len(c.levels)
    store.import_model(db, model.to_json())
    pinned = ResolveConfig.model_validate({"model": {"train": "never"}})
    from kgres.resolve import merge

    for run in db.run("MATCH (r:ResolutionRun) WHERE r.parent IS NULL RETURN r.id AS id ORDER BY r.started_at DESC"):
        merge.rollback(db, run["id"])
    resolve(db, pinned)
    entity = {r["k"]: r["e"] for r in db.run("MATCH (m:Mention)-[:REFERS_TO]->(e) RETURN m.source_key AS k, e.id AS e")}
    assert entity["s1"] != entity["m1"]
    vetoed = db.run("MATCH ()-[c:CANDIDATE]->() WHERE c.cannot_link STARTS WITH 'different given names' "
                    "RETURN c.score AS p, c.band AS band")
    assert vetoed and all(r["p"] == 0 and r["band"] == "reject" for r in vetoed)


def _older(model):
    """``model`` as a kgres whose name comparison lacked its last level would have stored it."""
    name = model.comparisons[0]
    name.levels = name.levels[:-1]
    for what in ("m", "u", "u_random"):
        values = getattr(name, what)[:-1]
        setattr(name, what, [v / sum(values) for v in values])
    return model


def test_a_model_whose_levels_are_not_this_kgres_ones_is_never_used(db, tmp_path):
    """A model stored by a kgres whose levels differ (an upgrade added one) weighs other evidence
    than the pairs' levels say: pinned, it fits no graph (``train = "never"`` says so and leaves the
    graph as it was; ``auto`` trains), and as the last resolve's model it is neither reused by an
    unchanged graph's resolve nor by an increment's (which resolves the whole graph instead)."""
    from kgres.errors import ConfigError
    from kgres.resolve import merge

    ingest.ingest(db, "jsonl", story(tmp_path))
    first = resolve(db)
    stale = _older(store.load(db))
    db.run("MATCH (x:MatchModel) SET x.model_json = $json", json=stale.to_json())  # the last resolve's, settled
    again = resolve(db)
    assert again.model_id and again.model_id != stale.id  # trained again, not scored with the stale one
    assert again.entities_after == first.entities_after

    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "more.jsonl", [
        {"kind": "mention", "id": "s5", "name": "Sherlock Holmes", "type": "PERSON"}]), source="more")
    db.run("MATCH (x:MatchModel) SET x.model_json = $json", json=_older(store.load(db)).to_json())
    added = resolve(db)
    assert not added.incremental  # the last model does not fit: the whole graph, with a new model

    for run in db.run("MATCH (r:ResolutionRun) WHERE r.parent IS NULL RETURN r.id AS id ORDER BY r.started_at DESC"):
        merge.rollback(db, run["id"])
    store.store(db, _older(store.load(db)), None, trained=False, pinned=True)
    before = db.run("MATCH (m:Mention)-[:REFERS_TO]->(e) RETURN m.id AS m, e.id AS e ORDER BY m")
    with pytest.raises(ConfigError, match="no pinned model fits .* was undone"):
        resolve(db, ResolveConfig.model_validate({"model": {"train": "never"}}))
    # ... and the passes it ran are undone: resumed with its stored settings it would stop again
    assert db.run("MATCH (m:Mention)-[:REFERS_TO]->(e) RETURN m.id AS m, e.id AS e ORDER BY m") == before
    assert not db.run("MATCH (r:ResolutionRun) WHERE r.status = 'running' RETURN r.id AS id")
    trained = resolve(db)
    assert store.load(db, trained.model_id).comparisons[0].levels == FIXED[0].level_names()


def test_a_prior_alone_never_merges_names_that_share_only_a_word(db, tmp_path):
    """On a graph whose candidates are nearly all matches the prior alone lifts a pair over the auto
    threshold. Names that share only some words and mean different things ("Diesel fuel" / "Fuel")
    then wait in review unless their evidence favours a match, saying why (CESI's ambiguous phrases)."""
    from kgres.resolve import merge
    from kgres.resolve.score.stage import AGAINST

    fuels = [{"kind": "mention", "id": i, "name": n, "type": "CONCEPT", "chunk_id": c}
             for i, n, c in (("f1", "Diesel fuel", "c1"), ("f2", "Fuel", "c2"), ("f3", "fuel", "c3"))]
    ingest.ingest(db, "jsonl", story(tmp_path, fuels))
    resolve(db)
    model = store.load(db)
    model.prior, model.u_source = 0.99, "candidates"  # p 0.99 before any evidence
    for c in model.comparisons:  # ... and no level moves it
        c.m = c.u = c.u_random = [1.0 / len(c.levels)] * len(c.levels)
    store.import_model(db, model.to_json())
    for run in db.run("MATCH (r:ResolutionRun) WHERE r.parent IS NULL RETURN r.id AS id ORDER BY r.started_at DESC"):
        merge.rollback(db, run["id"])
    resolve(db, ResolveConfig.model_validate({"model": {"train": "never"}}))
    rows = db.run("MATCH (a:Entity)-[c:CANDIDATE]-(b:Entity) WHERE a.name = 'Diesel fuel' "
                  "RETURN b.name AS other, c.band AS band, c.score AS p, c.signals_json AS s")
    assert rows and all(r["p"] >= 0.9 and r["band"] == "review" and json.loads(r["s"])["capped"] == AGAINST
                        for r in rows)
    entity = {r["k"]: r["e"] for r in db.run("MATCH (m:Mention)-[:REFERS_TO]->(e) RETURN m.source_key AS k, e.id AS e")}
    assert entity["f1"] != entity["f2"] and entity["f2"] == entity["f3"]   # "Fuel" / "fuel" keep the prior


def test_the_waterfall_sums_to_the_stored_probability(db, neo4j_env, tmp_path):
    ingest.ingest(db, "jsonl", story(tmp_path))
    stats = resolve(db, ResolveConfig(mode="synonym"))  # scored pairs between entities that stay
    scored = db.run("MATCH (a:Entity)-[c:CANDIDATE]->(b:Entity) WHERE c.match_weight IS NOT NULL "
                    "RETURN a.id AS a, b.id AS b, c.score AS p, c.match_weight AS w, c.band AS band")
    assert scored and stats.model_id and {r["band"] == "reject" for r in scored} == {True, False}
    for r in scored:
        # a reject keeps no evidence: its run's model compares it again, on the graph it scored (nothing merged)
        ex = explain_pair(db, r["a"], r["b"])
        assert ex.source == ("recomputed" if r["band"] == "reject" else "stored") and ex.steps[0].step == "prior"
        assert ex.band == r["band"]
        assert sum(s.log2 for s in ex.steps) == pytest.approx(ex.match_weight, abs=1e-3)
        assert ex.match_weight == pytest.approx(r["w"], abs=2e-3)
        assert ex.probability == pytest.approx(r["p"], abs=1e-3)
        evidence = float(probability(np.array([ex.match_weight]))[0])
        assert ex.probability == (0.0 if ex.cannot_link else pytest.approx(evidence, abs=1e-3))
    out = CliRunner().invoke(main, ["explain", scored[0]["a"], "--pair", scored[0]["b"], "--json"],
                             catch_exceptions=False)
    assert out.exit_code == 0 and json.loads(out.output)["probability"] == pytest.approx(scored[0]["p"], abs=1e-3)
    table = CliRunner().invoke(main, ["explain", scored[0]["a"], "--pair", scored[0]["b"]], catch_exceptions=False)
    assert "prior" in table.output and "probability" in table.output


def test_a_pair_no_run_scored_is_compared_as_the_graph_is_now(db, tmp_path):
    ingest.ingest(db, "jsonl", story(tmp_path))
    resolve(db)
    ex = explain_pair(db, "Pall Mall", "Mycroft Holmes")
    assert ex.source == "now" and ex.steps[0].step == "prior" and len(ex.steps) == 1 + len(store.load(db).comparisons)
    assert ex.cannot_link and ex.cannot_link.startswith("types differ")


def test_a_decision_changes_the_next_model(db, tmp_path):
    ingest.ingest(db, "jsonl", story(tmp_path))
    cfg = ResolveConfig()
    first = store.train(db, cfg)
    assert first.pinned and first.labels == 0
    decide(db, "reject", "Sherlock", "Mycroft Holmes", reason="two brothers")
    decide(db, "accept", "John Watson", "Watson")
    labels = db.run("MATCH (l:PairLabel) RETURN l.label AS label, l.levels_json AS levels ORDER BY label")
    assert [r["label"] for r in labels] == [False, True] and all(json.loads(r["levels"]) for r in labels)
    second = store.train(db, cfg)
    assert second.labels == 2 and second.id != first.id

    def m_of(info, name):
        return [lv.m for c in info.comparisons if c.name == name for lv in c.levels]

    assert any(abs(a - b) > 1e-6 for a, b in zip(m_of(first, "name"), m_of(second, "name")))


def test_a_model_used_again_gets_the_run_s_link_and_thresholds_and_an_unknown_one_is_kept_whole(db, tmp_path):
    """store() of a model the database keeps, not trained by the run, links the run (USED) and sets its
    thresholds without sending the model again; a model under an id the database lacks is kept whole."""
    ingest.ingest(db, "jsonl", story(tmp_path))
    first = resolve(db)
    model = store.load(db, first.model_id)
    kept = db.run("MATCH (x:MatchModel {id: $id}) RETURN x.model_json AS j", id=model.id)[0]["j"]
    store.store(db, model, first.run_id, trained=False, pinned=False, thresholds=(0.9, 0.4), quality=(0.8, 0.7))
    row = db.run("MATCH (r:ResolutionRun {id: $run})-[:USED]->(x:MatchModel) RETURN x.id AS id, x.model_json AS j, "
                 "x.auto_threshold AS auto, x.review_threshold AS review, x.expected_recall AS recall",
                 run=first.run_id)
    assert row == [{"id": model.id, "j": kept, "auto": 0.9, "review": 0.4, "recall": 0.7}]
    model.id = "model-elsewhere"  # made by another database: unknown here
    assert store.store(db, model, None, trained=False, pinned=True) == "model-elsewhere"
    assert store.load(db, "model-elsewhere").comparisons == model.comparisons


def test_model_commands_show_export_import(db, neo4j_env, tmp_path):
    ingest.ingest(db, "jsonl", story(tmp_path))
    resolve(db)
    run = CliRunner()
    shown = json.loads(run.invoke(main, ["model", "show", "--json"], catch_exceptions=False).output)
    assert shown["comparisons"][0]["name"] == "name" and not shown["pinned"]
    assert "weight" in run.invoke(main, ["model", "show"], catch_exceptions=False).output
    path = tmp_path / "model.json"
    assert run.invoke(main, ["model", "export", "-o", str(path)], catch_exceptions=False).exit_code == 0
    imported = json.loads(run.invoke(main, ["model", "import", str(path), "--json"], catch_exceptions=False).output)
    again = json.loads(run.invoke(main, ["model", "show", imported["id"], "--json"], catch_exceptions=False).output)
    assert again["pinned"] and again["comparisons"] == shown["comparisons"]
    MatchModel.from_json(path.read_text())
    bad = tmp_path / "bad.json"
    bad.write_text('{"comparisons": [], "prior": 2}')
    out = run.invoke(main, ["model", "import", str(bad)])
    assert out.exit_code == 1 and "not a kgres match model" in out.stderr
    assert run.invoke(main, ["model", "show", "model-nope"]).exit_code == 1


def test_cli_model_train_reports_each_stage(db, neo4j_env, tmp_path):
    ingest.ingest(db, "jsonl", story(tmp_path))
    out = CliRunner().invoke(main, ["model", "train", "--json"], catch_exceptions=False)
    assert out.exit_code == 0, out.output
    info = json.loads(out.stdout)
    lines = out.stderr.splitlines()
    assert [line.split("  ")[0] for line in lines] == ["normalize", "embed", "block", "train"], lines
    entities = db.run("MATCH (e:Entity) RETURN count(e) AS n")[0]["n"]
    assert re.fullmatch(rf"embed  {entities} entities in .*", lines[1]), lines
    assert re.fullmatch(rf"block  {entities} entity reads in .*", lines[2]), lines
    assert re.fullmatch(rf"train  {info['pairs']:,} pairs in \d+\.\d s \([\d,]+ pairs/s\)", lines[3]), lines


def test_a_value_only_a_record_and_its_duplicate_share_is_neither_rare_nor_common():
    """Term frequencies leave each carrier out of its own count: where every repeated title is a
    record and its duplicate, agreeing on one weighs what the level says (the sum of squared shares
    weighed it at -0.5 bit), a name three hundred entities carry weighs less, a unique one more."""
    from collections import Counter

    from kgres.resolve.score import training
    from kgres.resolve.score.model import ComparisonWeights

    titles = Counter({f"title {i}": 2 for i in range(300)} | {f"lone {i}": 1 for i in range(1400)})
    baseline, total = training.tf_baseline(titles), sum(titles.values())
    comp = ComparisonWeights(name="name", kind="name", levels=["same_key"], m=[0.9], u=[0.1], u_random=[0.1],
                             tf={v: n / total for v, n in titles.items()}, tf_levels=[0], tf_baseline=baseline,
                             tf_total=total)
    assert comp.tf_factor("title 7") == pytest.approx(0.0)
    assert comp.tf_factor("lone 3") == pytest.approx(1.0)  # seen once: half as likely to recur as a pair's
    assert comp.tf_factor("never seen") == pytest.approx(1.0)

    names = titles | {"john": 300}
    baseline, total = training.tf_baseline(names), sum(names.values())
    comp.tf, comp.tf_baseline, comp.tf_total = {v: n / total for v, n in names.items()}, baseline, total
    assert comp.tf_factor("john") < 0 < comp.tf_factor("title 7")


def test_evidence_is_encoded_as_json_dumps_would_encode_it():
    comps = comparisons([("dob", "date"), ("city", "text")])
    rng = np.random.default_rng(7)
    encode = EvidenceJson(comps)
    for _ in range(400):  # level vectors repeat, with and without the parts each pair may lack
        levels = np.array([rng.choice([NULL, *range(len(c.levels))]) for c in comps], dtype=np.int8)
        weights = np.round(rng.normal(0, 4, len(comps)), int(rng.integers(1, 6)))
        ego, nbr = (None if rng.random() < 0.3 else (float, np.float64)[int(rng.integers(2))](rng.uniform(-1, 1))
                    for _ in range(2))  # numpy floats too: their repr names their type
        link = None if rng.random() < 0.8 else "different given names"
        capped = None if rng.random() < 0.8 else "weak name"
        with_weights = weights if rng.random() < 0.9 else None
        assert encode(levels, link, ego, nbr, capped, with_weights) == json.dumps(
            evidence(comps, levels, link, ego, nbr, capped, with_weights), sort_keys=True)
