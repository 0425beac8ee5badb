"""How good is a resolution, and does it help retrieval?

- :mod:`~kgres.evaluate.gold` / :mod:`~kgres.evaluate.clusters`: scores against gold clusters or pairs;
- :mod:`~kgres.evaluate.sweep`: the precision/recall curve of a run's stored pairs;
- :mod:`~kgres.evaluate.paths`: question chains before and after resolution;
- :mod:`~kgres.evaluate.answers`: LLM answers from both layers, compared;
- :mod:`~kgres.evaluate.metrics`: pairwise, B-cubed and CESI scores (pure);
- :mod:`~kgres.evaluate.synth`: a generated noisy graph with its gold.
"""
