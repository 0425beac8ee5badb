"""How two entities compare: evidence, a match probability, a band, and the reasons some pairs may never merge.

- :mod:`~kgres.resolve.score.sides`: what comparing needs to know about one entity (:class:`Side`);
- :mod:`~kgres.resolve.score.names`: how two names compare (the name rules);
- :mod:`~kgres.resolve.score.constraints`: cannot-links, named, that no evidence overrides;
- :mod:`~kgres.resolve.score.identifiers`: attributes and identifiers in mentions' ``attributes``;
- :mod:`~kgres.resolve.score.rules`: :func:`compare`, the rule scorer (``--strategy rules``);
- :mod:`~kgres.resolve.score.stage`: the ``score`` stage over a run's candidate pairs.
"""

from kgres.resolve.score.constraints import SYNONYM_PREDICATES
from kgres.resolve.score.identifiers import IDENTIFIER_KEYS, identifier_conflict, identifiers_of
from kgres.resolve.score.names import same_name_tokens
from kgres.resolve.score.rules import Band, PairScore, ScoreConfig, compare
from kgres.resolve.score.sides import Semantic, Side
from kgres.resolve.score.stage import ScoreStats, load_ambiguity, score

__all__ = ["IDENTIFIER_KEYS", "SYNONYM_PREDICATES", "Band", "PairScore", "ScoreConfig", "ScoreStats", "Semantic",
           "Side", "compare", "identifier_conflict", "identifiers_of", "load_ambiguity", "same_name_tokens", "score"]
