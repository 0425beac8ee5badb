"""compare is pure: known answers for the name rules and for short forms several entities could carry."""

from __future__ import annotations

from kgres.resolve.ambiguity import Ambiguity
from kgres.resolve.normalize import name_keys
from kgres.resolve.score import Side, compare, same_name_tokens


def side(name: str, type_: str = "PERSON", neighbours: tuple[str, ...] = ()) -> Side:
    k = name_keys(name, type_)
    return Side(id=name, core=k.core, tokens=k.tokens, acronym=k.acronym, numbers=k.numbers, type=k.norm_type,
                gender=k.gender, neighbours=frozenset(neighbours))


def table(*names: tuple[str, int], type_: str = "PERSON") -> Ambiguity:
    """A holder table as resolve_ambiguity_holders would return it for these (name, mentions)."""
    rows = []
    for name, mentions in names:
        k = name_keys(name, type_)
        rows.append({"type": k.norm_type, "core": k.core, "tokens": list(k.tokens), "acronym": k.acronym,
                     "mentions": mentions})
    return Ambiguity(rows, same_name_tokens)


BERNERS = table(("Alan Berners", 3), ("José Berners", 3), ("Jose Berners", 1))


def test_a_surname_two_people_share_decides_nothing_on_its_own():
    p = compare(side("Berners"), side("Alan Berners"), ambiguity=BERNERS)
    assert (p.band, p.known, p.signals["ambiguous_name"]) == ("review", False, 2)
    assert compare(side("Berners"), side("Alan Berners")).band == "auto"      # without the graph's table
    same = compare(side("Dr. Berners"), side("Berners"), ambiguity=BERNERS)   # two bare mentions: maybe two people
    assert (same.band, same.known) == ("review", False)


def test_shared_neighbours_place_an_ambiguous_surname():
    p = compare(side("Berners", neighbours=("lab",)), side("Alan Berners", neighbours=("lab",)), ambiguity=BERNERS)
    assert p.band == "auto" and p.known and "ambiguous_name" not in p.signals


def test_spelling_variants_of_one_name_are_one_holder():
    shannon = table(("Ada Shannon", 5), ("Ada Shnnon", 1))
    assert compare(side("Shannon"), side("Ada Shannon"), ambiguity=shannon).band == "auto"
    assert same_name_tokens(("josé", "berners"), ("jose", "berners"))


def test_a_name_and_its_nickname_are_one_holder_and_two_given_names_are_two():
    """"Bob Cratchit" is "Robert Cratchit" written with his nickname: "Cratchit" has one holder there;
    beside "Martha Cratchit" it has two."""
    bob = table(("Robert Cratchit", 3), ("Bob Cratchit", 2))
    assert compare(side("Cratchit"), side("Robert Cratchit"), ambiguity=bob).band == "auto"
    assert same_name_tokens(("bob", "cratchit"), ("robert", "cratchit"))
    assert not same_name_tokens(("bill", "cratchit"), ("robert", "cratchit"))  # linked by genealogy only
    assert not same_name_tokens(("bob", "cratchit"), ("robert", "smith"))
    family = table(("Robert Cratchit", 3), ("Martha Cratchit", 2))
    assert compare(side("Cratchit"), side("Robert Cratchit"), ambiguity=family).band == "review"


def test_a_dominant_holder_takes_the_surname_and_no_other():
    holmes = table(("Sherlock Holmes", 5), ("Mycroft Holmes", 1))
    assert compare(side("Holmes"), side("Sherlock Holmes"), ambiguity=holmes).band == "auto"
    bare = compare(side("Holmes"), side("Mr. Holmes"), ambiguity=holmes)     # each bare one placed on its own
    assert (bare.band, bare.known) == ("review", False)
    mycroft = compare(side("Holmes"), side("Mycroft Holmes"), ambiguity=holmes)
    assert (mycroft.band, mycroft.known) == ("review", False)
    even = table(("Sherlock Holmes", 2), ("Mycroft Holmes", 2))
    assert compare(side("Holmes"), side("Sherlock Holmes"), ambiguity=even).band == "review"


def test_two_short_forms_of_one_surname_are_no_dominant_holder_of_it():
    """"D. Jones" and "Dr. Jones" both stand for "jones"; where no holder dominates, neither side is
    the dominant one (a missing holder once equalled a missing dominant group: 4.9 bits towards a
    chain "Dr. Jones" -> "D. Jones" -> "Donald Jones" that one run over the same graph never made)."""
    jones = table(("Donald Jones", 2), ("Lynn Jones", 2))
    d, dr = side("D. Jones"), side("Dr. Jones")
    v = jones.short_form(d.core, d.tokens, dr.core, dr.tokens, "PERSON", "person_subset")
    assert v.holders == 2 and not v.dominant_side
    holmes = table(("Sherlock Holmes", 5), ("Mycroft Holmes", 1))
    h, sh, my = side("Holmes"), side("Sherlock Holmes"), side("Mycroft Holmes")
    assert holmes.short_form(h.core, h.tokens, sh.core, sh.tokens, "PERSON", "person_subset").dominant_side
    assert not holmes.short_form(h.core, h.tokens, my.core, my.tokens, "PERSON", "person_subset").dominant_side


def test_initials_and_acronyms_that_fit_two_holders():
    assert name_keys("A. Berners", "PERSON").tokens == ("a", "berners")    # an initial, not the article "a"
    two_a = table(("Alan Berners", 2), ("Ada Berners", 2))
    assert compare(side("A. Berners"), side("Alan Berners"), ambiguity=two_a).band == "review"
    one_a = table(("Alan Berners", 2), ("José Berners", 2))
    assert compare(side("A. Berners"), side("Alan Berners"), ambiguity=one_a).band == "auto"
    orgs = table(("Advanced United Robotic", 4), ("Applied United Robotic", 4), type_="ORGANIZATION")
    aur = compare(side("AUR", "ORGANIZATION"), side("Advanced United Robotics", "ORGANIZATION"), ambiguity=orgs)
    assert (aur.band, aur.signals["name_rule"]) == ("review", "acronym")
    assert compare(side("AUR", "ORGANIZATION"), side("Advanced United Robotics", "ORGANIZATION")).band == "auto"


def test_cannot_link_reasons_stay_whatever_the_table_says():
    p = compare(side("Alan Berners"), side("José Berners"), ambiguity=BERNERS)
    assert p.cannot_link and p.cannot_link.startswith("different given names")
    assert compare(side("Mr. Berners"), side("Mrs. Berners"), ambiguity=BERNERS).cannot_link


def test_identifiers_join_what_names_cannot_and_split_what_names_join():
    from dataclasses import replace

    from kgres.resolve.score import identifiers_of
    from kgres.resolve.score.identifiers import attributes_of

    raw = ['{"orcid": "0000-0001", "born": "1854"}', '{"URL": "https://www.acme.com/"}', "not json"]
    # a URL or an email identifies, but people and firms have several: compared, never a cannot-link
    assert identifiers_of(raw) == {("orcid", "0000-0001")}
    assert attributes_of(raw) == (("born", "1854"), ("orcid", "0000-0001"), ("url", "https://www.acme.com/"))
    one, two = frozenset({("orcid", "0000-0001")}), frozenset({("orcid", "0000-0002")})
    same_name = compare(replace(side("John Smith"), identifiers=one), replace(side("John Smith"), identifiers=two))
    assert same_name.band == "reject" and same_name.cannot_link == "identifiers differ: orcid 0000-0001 vs 0000-0002"
    wd = frozenset({("wikidata", "q37156")})
    alias = compare(replace(side("Big Blue", "ORGANIZATION"), identifiers=wd),
                    replace(side("IBM", "ORGANIZATION"), identifiers=wd))
    assert alias.band == "auto" and alias.signals["shared_identifier"] == "wikidata=q37156"


def test_a_misspelling_keeps_its_first_letter_and_an_acronym_is_written_as_one():
    assert compare(side("Sherlok Holmes"), side("Sherlock Holmes")).band == "auto"
    assert compare(side("Ødegaard", "ORGANIZATION"), side("Odegaard", "ORGANIZATION")).band == "auto"
    assert compare(side("a winner", "CONCEPT"), side("dinner", "CONCEPT")).signals["name_rule"] == "fuzzy_words_differ"
    assert compare(side("LLMs", "CONCEPT"), side("Large Language Models", "CONCEPT")).band == "auto"
    assert compare(side("cf", "CONCEPT"), side("a comfort food", "CONCEPT")).band != "auto"
