"""The kgres.* plugin, used from Python through Cypher (Java unit tests live in procedures/)."""

from __future__ import annotations

import numpy as np
import pytest

from kgres.db.vectors import unpacked
from kgres.errors import DatabaseError


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
    assert names == ["kgres.text.normName", "kgres.text.tokenSetSimilarity", "kgres.vector.pack", "kgres.version"]


def test_packed_vectors_read_back_as_the_stored_values(db):
    """kgres.vector.pack + kgres.db.vectors.unpacked give exactly what the driver gives as a list: a
    float32 vector property (as embed stores it) and a float64 one (a list of floats Cypher sets)."""
    text, context = [0.1, -0.25, 1 / 3, 7e-9], [0.1, -0.25, 1 / 3, 7e-9]
    db.run("CREATE (e:Entity {id: 'v1'}) WITH e CALL db.create.setNodeVectorProperty(e, 'embedding', $t) "
           "SET e.context_embedding = $c", t=text, c=context)
    row = db.run("MATCH (e:Entity {id: 'v1'}) RETURN e.embedding AS t, e.context_embedding AS c, "
                 "kgres.vector.pack(e.embedding) AS pt, kgres.vector.pack(e.context_embedding) AS pc, "
                 "kgres.vector.pack(e.missing) AS none")[0]
    assert isinstance(row["pt"], bytes) and row["none"] is None
    assert unpacked(row["pt"]).tolist() == row["t"] != text  # float32 stored, widened exactly
    assert unpacked(row["pc"]).tolist() == row["c"] == context
    assert unpacked(row["pt"], np.float32).dtype == np.float32 and unpacked(None) is None


def test_a_kgres_function_the_server_lacks_names_the_stale_plugin(session_db):
    """A server running an older kgres jar (a function or procedure this kgres calls is unknown) gets
    a message saying to rebuild and restart, not only Neo4j's syntax error; other unknown names do not."""
    with pytest.raises(DatabaseError, match=r"(?s)kgres\.vector\.later.*kgres plugin is older than this kgres"):
        session_db.read("q", _text="RETURN kgres.vector.later([1.0]) AS v")
    with pytest.raises(DatabaseError, match=r"kgres plugin is older"):
        session_db.read("q", _text="CALL kgres.retrieve.later()")
    with pytest.raises(DatabaseError) as e:
        session_db.read("q", _text="RETURN apoc.nope(1) AS v")
    assert "kgres plugin" not in str(e.value)
