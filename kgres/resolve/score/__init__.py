"""How two entities compare: signals, a score, a band, and the reasons some pairs may never merge.

- :mod:`~kgres.resolve.score.rules`: :func:`compare`, the rule scorer (pure);
- :mod:`~kgres.resolve.score.identifiers`: identifiers in mentions' attributes;
- :mod:`~kgres.resolve.score.stage`: the ``score`` stage over a run's candidate pairs.
"""

from kgres.resolve.score.identifiers import IDENTIFIER_KEYS, identifier_conflict, identifiers_of
from kgres.resolve.score.rules import (SYNONYM_PREDICATES, Band, PairScore, ScoreConfig, Semantic, Side, compare,
                                       same_name_tokens)
from kgres.resolve.score.stage import ScoreStats, load_ambiguity, score

__all__ = ["IDENTIFIER_KEYS", "SYNONYM_PREDICATES", "Band", "PairScore", "ScoreConfig", "ScoreStats", "Semantic",
           "Side", "compare", "identifier_conflict", "identifiers_of", "load_ambiguity", "same_name_tokens", "score"]
