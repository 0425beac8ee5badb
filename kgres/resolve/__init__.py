"""Entity resolution, stage by stage (each a module, a Cypher prefix ``resolve_<stage>_*`` and a test):

``normalize`` → ``collapse`` → ``embed`` → ``block`` → ``score`` → ``cluster`` → ``merge``, run in
passes by :mod:`~kgres.resolve.pipeline` as recorded ``ResolutionRun``s. :mod:`~kgres.resolve.pairs`
loads what comparing two entities needs; :mod:`~kgres.resolve.ambiguity` knows which short names
several entities could carry; :mod:`~kgres.resolve.baselines` reproduces the systems kgres is
measured against.
"""

from kgres.resolve.pipeline import (MODES, STRATEGIES, ResolveConfig, ResolveMode, ResolveStats, ResolveStrategy,
                                    preload, resolve)

__all__ = ["MODES", "STRATEGIES", "ResolveConfig", "ResolveMode", "ResolveStats", "ResolveStrategy", "preload", "resolve"]
