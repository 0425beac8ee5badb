"""The kgres.* plugin, used from Python through Cypher (Java unit tests live in procedures/)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("name,key", [
    ("Mr. Sherlock  HOLMES", "mr sherlock holmes"),
    ("O\u2019Brien's", "obriens"),
    ("iPhone 7", "iphone 7"),
    ("Baker-Street", "baker street"),
    ("\uff33\uff28\uff25\uff32\uff2c\uff2f\uff23\uff2b", "sherlock"),  # full-width letters, NFKC
])
def test_norm_name(session_db, name, key):
    assert session_db.run("RETURN kgres.text.normName($n) AS k", n=name)[0]["k"] == key


def test_token_set_similarity(session_db):
    r = session_db.run("RETURN kgres.text.tokenSetSimilarity('Holmes, Sherlock', 'Sherlock Holmes') AS same, "
                       "kgres.text.tokenSetSimilarity('iPhone 7', 'iPhone 8') AS digits, "
                       "kgres.text.tokenSetSimilarity(null, 'x') AS none")[0]
    assert r == {"same": 1.0, "digits": pytest.approx(1 / 3), "none": None}


def test_plugin_functions_are_listed(session_db):
    names = [r["name"] for r in session_db.run("SHOW FUNCTIONS YIELD name WHERE name STARTS WITH 'kgres.' "
                                                "RETURN name ORDER BY name")]
    assert names == ["kgres.text.normName", "kgres.text.tokenSetSimilarity", "kgres.version"]
