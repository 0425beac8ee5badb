"""Splink 4 (DuckDB) on the tabular development sets, the unsupervised way its own demos set it up.

Used by ``bench/quality.py --splink``; needs the ``bench`` extra (``pip install -e '.[bench]'``:
Splink 4.0 with duckdb 1.4, sqlglot 29 and pandas 2.3, the versions it runs with here).

Splink reads the original CSV columns (given name and surname apart, every attribute typed), which is
what a Splink user would give it. The settings follow Splink's demos for these datasets (FEBRL3, also
used for FEBRL4's two files as one table, and the fake_1000 tutorial): name, date-of-birth,
identifier and exact-with-term-frequency comparisons,
the prior from deterministic rules, u from random pairs, m by EM on two blocking rules. Pairs are
predicted above probability 0.2 and clustered at 0.95 (the clustering threshold of Splink's 50k
example); the threshold is written on the row.
"""

from __future__ import annotations

import logging
import time

from bench.datasets import DATA, Dataset

THRESHOLD = 0.95


def run(d: Dataset) -> tuple[dict[str, str], float] | None:
    """Predicted clusters {record id: cluster} and seconds, or None for a set Splink is not set up for."""
    setup = {"febrl3": _febrl3, "febrl4": _febrl4, "fake1000": _fake1000}.get(d.name)
    if setup is None:
        return None
    import pandas as pd
    import splink.comparison_library as cl
    from splink import DuckDBAPI, Linker, SettingsCreator, block_on

    logging.getLogger("splink").setLevel(logging.WARNING)
    df, uid, blocking, comparisons, deterministic, recall, em_rules = setup(pd, cl, block_on)
    t0 = time.perf_counter()
    settings = SettingsCreator(unique_id_column_name=uid, link_type="dedupe_only",
                               blocking_rules_to_generate_predictions=blocking, comparisons=comparisons)
    linker = Linker(df, settings, db_api=DuckDBAPI())
    linker.training.estimate_probability_two_random_records_match(deterministic, recall=recall)
    linker.training.estimate_u_using_random_sampling(max_pairs=1e6, seed=2)
    for rule in em_rules:
        linker.training.estimate_parameters_using_expectation_maximisation(rule)
    pairs = linker.inference.predict(threshold_match_probability=0.2)
    clusters = linker.clustering.cluster_pairwise_predictions_at_threshold(
        pairs, threshold_match_probability=THRESHOLD).as_pandas_dataframe()
    secs = time.perf_counter() - t0
    return {str(k): str(c) for k, c in zip(clusters[uid], clusters["cluster_id"])}, secs


def _febrl3(pd, cl, block_on, files=("dataset3.csv",)):
    df = pd.concat([pd.read_csv(DATA / "febrl" / f, dtype=str, skipinitialspace=True) for f in files])
    df.columns = [c.strip() for c in df.columns]
    df = df.apply(lambda col: col.str.strip())
    blocking = [block_on(c) for c in ("soc_sec_id", "given_name", "surname", "date_of_birth", "postcode")]
    comparisons = [
        cl.NameComparison("given_name"), cl.NameComparison("surname"),
        cl.DateOfBirthComparison("date_of_birth", input_is_string=True, datetime_format="%Y%m%d"),
        cl.DamerauLevenshteinAtThresholds("soc_sec_id", [2]),
        cl.ExactMatch("street_number").configure(term_frequency_adjustments=True),
        cl.ExactMatch("postcode").configure(term_frequency_adjustments=True)]
    deterministic = [block_on("soc_sec_id"), block_on("given_name", "surname", "date_of_birth"),
                     "l.given_name = r.surname and l.surname = r.given_name and l.date_of_birth = r.date_of_birth"]
    return df, "rec_id", blocking, comparisons, deterministic, 0.9, [block_on("date_of_birth"), block_on("postcode")]


def _febrl4(pd, cl, block_on):
    return _febrl3(pd, cl, block_on, ("dataset4a.csv", "dataset4b.csv"))  # one table, deduplicated as febrl3


def _fake1000(pd, cl, block_on):
    df = pd.read_csv(DATA / "splink-fake-1000" / "fake_1000.csv", dtype=str)
    df = df.drop(columns=["cluster"])
    blocking = [block_on("first_name", "city"), block_on("surname"), block_on("dob"), block_on("email")]
    comparisons = [
        cl.NameComparison("first_name"), cl.NameComparison("surname"),
        cl.DateOfBirthComparison("dob", input_is_string=True),
        cl.ExactMatch("city").configure(term_frequency_adjustments=True),
        cl.EmailComparison("email")]
    deterministic = [block_on("first_name", "surname", "dob"), block_on("email")]
    return df, "unique_id", blocking, comparisons, deterministic, 0.7, [block_on("first_name", "surname"),
                                                                        block_on("dob")]
